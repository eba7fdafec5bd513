#pragma once
// The class-group combination rules (split/class_group_rules.h) in an exported C++ header
// (cpp_export.h): the body lines of predict() that make out[kOutputs] from the submodels' softmax
// outputs s1, s2... and their detail::kSub<i>Classes, in double as the engine computes them.
//   product   per class the sum of the clamped log-votes, then a softmax;
//   sum       per class the mean vote over its voters, the row rescaled to sum to 1;
//   coupling  the KKT system [Q + eps I, 1; 1^T, 0] [p; mu] = [0; 1], Q = sum_s A_s^T A_s, by
//             Gaussian elimination with partial pivoting; negatives cut to 0 and the row rescaled.
//             eps = kCouplingRidge, as the ONNX export: where the engine's system is regular it
//             moves p by about 1e-10, and where it is singular (a class nobody owns, owners that
//             share no class; never in a plan's class groups) the answer is the minimum-norm one
//             the engine's rank-revealing solve gives, instead of a zero pivot.
//   stacked   softmax(W x + b), x the submodels' log max(p, 1e-7) side by side, W and b written
//             as the model holds them (split/stacked_rule.h).
// A vote is a submodel's probability of a class it owns; with an "other" output (its last column)
// also other / (classes it does not own) for the others. Coupling drops "other" and renormalises.
#include <ostream>

#include "split/combined_model_file.h"

namespace skynnet {

void writeCppClassGroups(std::ostream& out, const SavedCombinedModel& model);

}  // namespace skynnet
