#pragma once
// The rules that combine class-group submodels (method.md §2 and §6): from each submodel's softmax
// output, one row of probabilities over the C classes per sample.
//   product   the reference's rule, normalised: per class, the sum of the log-probabilities of the
//             submodels that vote on it, then a softmax over the classes;
//   sum       per class, the mean probability over the submodels that vote on it (Kittler et al.
//             1998), each row then rescaled to sum to 1;
//   coupling  the generalised Bradley-Terry estimate (Wu, Lin & Weng 2004; Huang, Weng & Lin 2006):
//             the p minimising sum_s sum_{i in I_s} (p_i - r_si sum_{j in I_s} p_j)^2 with sum p = 1,
//             where r_s is submodel s's softmax over its own classes I_s. The minimum is the
//             solution of a (C+1)x(C+1) linear system (the quadratic form and the constraint's
//             multiplier); components below 0, which only inconsistent votes give, are cut to 0 and
//             the row rescaled.
// A submodel votes on the classes it owns. With an "other" output (the last column of every
// submodel: the rows of the classes it does not own), it also votes on the others, its "other"
// probability spread evenly over them, so that it stops voting against classes it never saw.
// Coupling reads only the submodels' own classes (their softmax renormalised without "other").
//   stacked   a multinomial logistic regression over the submodels' log-probabilities, fitted on the
//             validation rows (stacked_rule.h): it needs its weights, which the rule carries
//             (CombinationRule::stacked), so combineClassProbabilities refuses it.
#include <string>
#include <vector>

#include "core/tensor.h"

namespace skynnet {

enum class ClassCombine { Product, Coupling, Sum, Stacked };

// "product", "coupling", "sum", "stacked".
std::string classCombineName(ClassCombine c);
// The inverse of classCombineName; throws Error naming the value and listing the accepted ones.
ClassCombine parseClassCombine(const std::string& name);

// What the exports (ONNX, C++) add to coupling's Q on its diagonal: Q + eps I is positive definite,
// so an export solves it without pivoting (ONNX) or never meets a zero pivot (C++), and where the
// KKT system is singular (a class nobody owns, owners that share no class) the answer tends to the
// minimum-norm one the engine's rank-revealing solve gives. Q's entries are sums of products of
// probabilities, of order 1 (its trace is at least 1 unless it is 0), so eps moves the answer by
// about eps / (Q's second-smallest eigenvalue): at most 1e-8 in trials on class-group layouts.
inline constexpr double kCouplingRidge = 1e-10;

// subProbs[s] is submodel s's softmax, one column per class of classes[s] (ascending global class
// indices) and, with otherOutput, one more last column. The shapes are checked by the caller
// (combination.cpp). Throws Error for the stacked rule (its weights are not arguments here).
Matrix combineClassProbabilities(const std::vector<Matrix>& subProbs, const std::vector<std::vector<int>>& classes,
                                 int classCount, bool otherOutput, ClassCombine how);

}  // namespace skynnet
