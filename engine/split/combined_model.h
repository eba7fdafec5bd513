#pragma once
// The trained submodels plus their combination rule: one model that answers in the original task's
// format (C class probabilities, one sigmoid column, or m regression columns).
#include <string>
#include <vector>

#include "losses/loss.h"
#include "model/network.h"
#include "split/combination.h"

namespace skynnet {

struct Dataset;

struct SubmodelEvaluation {
    int index = 0;
    long samples = 0;  // rows of its own sub-problem (every row with "other": sub_problem.h's ownRows)
    double loss = 0, metric = 0;
};

struct CombinedEvaluation {
    double loss = 0, metric = 0;          // combined, on the whole dataset
    std::string metricName;               // "accuracy" or "r2"
    Matrix output;                        // combined outputs, one row per sample
    std::vector<Matrix> submodelOutputs;  // each submodel's own outputs, so another rule can combine them
    // Class groups: the headline metric under every rule (class_group_rules.h), from the same outputs;
    // the stacked rule's only when the model has its weights.
    std::vector<std::pair<ClassCombine, double>> metricByRule;
    bool cancelled = false;  // the token stopped it: nothing else is set
    // Each submodel on its own sub-problem: its classes' samples with remapped labels, its columns,
    // or (shards) the full dataset.
    std::vector<SubmodelEvaluation> submodels;
};

// The loss a task is trained with unless the user chose another.
LossKind defaultLoss(Task task);

class CombinedModel {
public:
    CombinedModel() = default;
    // loss: what evaluate() reports (the training loss of the submodels).
    CombinedModel(CombinationRule rule, std::vector<Network> submodels, LossKind loss);

    const CombinationRule& rule() const { return rule_; }
    // Class groups: combine the same trained submodels by another rule (class_group_rules.h).
    void setClassCombine(ClassCombine how) { rule_.classCombine = how; }
    // Class groups: the stacked rule's weights (fitted on the validation rows: run/runner.cpp).
    void setStackedWeights(std::optional<StackedWeights> w) { rule_.stacked = std::move(w); }
    LossKind loss() const { return loss_; }
    int submodelCount() const { return int(submodels_.size()); }
    Network& submodel(int i) { return submodels_[std::size_t(i)]; }
    const std::vector<Network>& submodels() const { return submodels_; }
    std::int64_t paramCount() const;

    // Every submodel's own outputs for all rows of x (empty ones once the token is cancelled).
    std::vector<Matrix> submodelOutputs(const Matrix& x, const CancelToken* cancel = nullptr);
    Matrix predict(const Matrix& x);
    // Throws Error if the dataset's task or output count differs from the model's. A cancelled
    // token (checked between chunks of rows) returns early with `cancelled` set.
    CombinedEvaluation evaluate(const Dataset& data, const CancelToken* cancel = nullptr);

private:
    CombinationRule rule_;
    std::vector<Network> submodels_;
    LossKind loss_ = LossKind::SoftmaxCrossEntropy;
};

}  // namespace skynnet
