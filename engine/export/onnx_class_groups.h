#pragma once
// The ONNX graph of the class-group combination rules (split/class_group_rules.h), for
// onnx_export.cpp's combine(). Compiled only with the ONNX library (SKYNNET_HAVE_ONNX).
//   product   per class the sum of the clamped log-votes, then a softmax (float, as the engine
//             ranks; its double sums differ by float rounding only);
//   sum       per class the mean vote over its voters (placement MatMuls, a constant per class),
//             each row divided by its sum;
//   coupling  in double: Q = sum_s A_s^T A_s per row ([N, C, C], batched MatMuls), then
//             x = (Q + eps I)^-1 1 by Gauss-Jordan elimination unrolled over the C columns (no
//             pivoting, no control flow: Q + eps I is symmetric positive definite), the negatives
//             cut to 0 and the row rescaled. The KKT system's p is x / sum(x) when eps = 0 (from
//             Q p + mu 1 = 0); eps = kCouplingRidge (class_group_rules.h) says by how much the
//             answer may differ from the engine's, and why it matches where the system is singular.
//   stacked   each submodel's log max(p, 1e-7), Concat, MatMul by W^T, Add b, Softmax (float; the
//             engine's double differs by float rounding only).
// A vote is a submodel's probability of a class it owns; with an "other" output (each submodel's
// last column) also other / (classes it does not own) for the others. Coupling drops "other" and
// renormalises the own part, as the engine does.
#include <string>
#include <vector>

#include "export/onnx_graph_builder.h"
#include "split/combination.h"

namespace skynnet::onnx_graph {

// The combined [N, C] probabilities from the submodels' softmax outputs `subs`; returns the name
// of the tensor, "combined".
std::string addClassGroupCombination(GraphBuilder& b, const CombinationRule& rule,
                                     const std::vector<std::string>& subs);

}  // namespace skynnet::onnx_graph
