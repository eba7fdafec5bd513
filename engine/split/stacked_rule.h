#pragma once
// The "stacked" class-group rule (issue 28): a multinomial logistic regression over the submodels'
// concatenated log-probabilities, fitted on the validation rows only (never test or training rows).
//   features  x = [log max(p_1, 1e-7), ..., log max(p_S, 1e-7)]: each submodel's softmax columns as
//             they come (its own classes, then "other" when the rule has it); D columns in all;
//   model     p(class) = softmax(W x + b), W is C x D, b has C entries.
// The fit starts from the product rule's equivalent (W picks, for each class, the log-probabilities
// of the submodels that vote on it: their own column for it and, with "other", the "other" column of
// those that do not own it, whose even spread over their non-owned classes goes into b), so the
// product is the point every fit is measured against: a fit whose validation cross-entropy ends
// above the start's is dropped for the start.
// Everything is computed in double, in a fixed order (rows in fixed chunks summed in chunk order),
// so the same inputs give the same bits within one build, whatever the thread count.
#include <vector>

#include "core/tensor.h"

namespace skynnet {

struct StackedWeights {
    int classes = 0;              // C
    int features = 0;             // D: the submodels' output columns together
    std::vector<double> weights;  // C x D, row-major: weights[c * D + d]
    std::vector<double> bias;     // C
    bool operator==(const StackedWeights&) const = default;
};

// Below this a probability is treated as this before its log: a float softmax can round a far-off
// class to exactly 0, and a feature of -inf would make the rule's answer NaN.
inline constexpr double kStackedMinProbability = 1e-7;

struct StackedFitOptions {
    // A prior pulling the weights toward the product rule's equivalent (the start): the penalty
    // (priorRows / 2) * |theta - start|^2 on the SUMMED cross-entropy, i.e. priorRows / rows on the
    // mean one. It keeps the optimum finite and unique when the validation rows are separable or
    // miss a class, and because its weight is fixed against the rows' total, a small validation set
    // (wine's 18 rows) stays near the product, which it cannot beat reliably, while thousands of
    // rows (Fashion-MNIST's 6,000) move freely. With a penalty toward 0 instead, the fit on 18 rows
    // lost 2 points on wine's test rows against the product (mean of 5 seeds).
    double priorRows = 10;
    int maxIterations = 500;          // L-BFGS iterations
    double gradientTolerance = 1e-6;  // stop when every gradient entry is below this (the loss is a mean)
};

struct StackedFit {
    StackedWeights weights;
    int iterations = 0;
    double startLoss = 0;    // the product start's validation cross-entropy (mean, no penalty)
    double loss = 0;         // the kept weights' (never above startLoss)
    bool keptStart = false;  // the fit ended above the start, so the start was kept
};

// D for a class-group layout: the sum over submodels of their own classes, plus one each with "other".
int stackedFeatureCount(const std::vector<std::vector<int>>& classes, bool otherOutput);
// The features of every row (n x D, row-major, double). Throws Error if the row counts differ.
Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>
stackedFeatures(const std::vector<Matrix>& subProbs);
// The product rule's equivalent (see the header comment).
StackedWeights productStart(const std::vector<std::vector<int>>& classes, int classCount, bool otherOutput);

// The fitted objective at w: mean cross-entropy over the rows plus (penalty / 2) |w - anchor|^2
// (anchor 0 when null); its gradient (same layout as w) in *gradient when given. Exposed for the
// gradient check.
double stackedObjective(const StackedWeights& w,
                        const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>& x,
                        const std::vector<int>& labels, double penalty, StackedWeights* gradient = nullptr,
                        const StackedWeights* anchor = nullptr);

// Fits the rule on validation rows: subProbs[s] is submodel s's softmax on them (shapes as
// combination.h checks them), labels their classes. Throws Error saying what is wrong when there are
// no rows, a label is outside the classes, or the shapes disagree.
StackedFit fitStackedRule(const std::vector<Matrix>& subProbs, const std::vector<int>& labels,
                          const std::vector<std::vector<int>>& classes, int classCount, bool otherOutput,
                          const StackedFitOptions& options = {});

// The rule's class probabilities, one row per sample. Throws Error if the columns are not w's D.
Matrix applyStackedRule(const std::vector<Matrix>& subProbs, const StackedWeights& w);

}  // namespace skynnet
