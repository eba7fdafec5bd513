#include "split/combined_model.h"

#include "core/error.h"
#include "data/dataset.h"
#include "split/sub_problem.h"
#include "train/metrics.h"

namespace skynnet {

LossKind defaultLoss(Task task) {
    switch (task) {
    case Task::Classification: return LossKind::SoftmaxCrossEntropy;
    case Task::Binary: return LossKind::BinaryCrossEntropy;
    case Task::Regression: return LossKind::MeanSquaredError;
    case Task::Reconstruction: return LossKind::BinaryCrossEntropy;  // the [0, 1] inputs' (defaultLossFor)
    }
    return LossKind::SoftmaxCrossEntropy;
}

CombinedModel::CombinedModel(CombinationRule rule, std::vector<Network> submodels, LossKind loss)
    : rule_(std::move(rule)), submodels_(std::move(submodels)), loss_(loss) {
    if (submodels_.empty()) throw Error("a combined model needs at least one submodel");
    std::size_t expected = submodels_.size();  // shards: any number
    switch (rule_.strategy) {
    case Strategy::ClassGroups: expected = rule_.classes.size(); break;
    case Strategy::OutputSplit: expected = rule_.columns.size(); break;
    case Strategy::BinaryShards:
    case Strategy::DataShards:
    case Strategy::Auto: break;
    }
    if (expected != submodels_.size())
        throw Error(std::to_string(submodels_.size()) + " submodels for a " + strategyName(rule_.strategy) +
                    " rule of " + std::to_string(expected));
}

std::int64_t CombinedModel::paramCount() const {
    std::int64_t n = 0;
    for (const auto& s : submodels_) n += s.paramCount();
    return n;
}

std::vector<Matrix> CombinedModel::submodelOutputs(const Matrix& x, const CancelToken* cancel) {
    std::vector<Matrix> outs;
    outs.reserve(submodels_.size());
    for (auto& s : submodels_) outs.push_back(s.predict(x, cancel));
    return outs;
}

Matrix CombinedModel::predict(const Matrix& x) { return combine(submodelOutputs(x), rule_); }

CombinedEvaluation CombinedModel::evaluate(const Dataset& data, const CancelToken* cancel) {
    if (data.task != rule_.task || data.outputCount() != rule_.outputs)
        throw Error("the dataset is " + taskName(data.task) + " with " + std::to_string(data.outputCount()) +
                    " outputs, the model " + taskName(rule_.task) + " with " + std::to_string(rule_.outputs));
    CombinedEvaluation e;
    const auto lossFn = makeLoss(loss_);
    std::vector<Matrix> outs = submodelOutputs(data.features, cancel);
    if (cancel && cancel->cancelled()) {
        e.cancelled = true;
        return e;
    }
    const Matrix y = data.targetMatrix();
    e.output = combine(outs, rule_);
    e.loss = lossFn->value(e.output, y);
    e.metric = headlineMetric(rule_.task, e.output, y);
    e.metricName = headlineMetricName(rule_.task);
    // Each submodel has already seen every row: judge it on its own rows from those outputs.
    for (int i = 0; i < submodelCount(); ++i) {
        SubmodelEvaluation s;
        s.index = i;
        const std::vector<int> rows = ownRows(rule_, i, data);
        s.samples = long(rows.size());
        if (!rows.empty()) {
            const Matrix own = gatherRows(outs[std::size_t(i)], rows);
            const Matrix target = submodelTargets(rule_, i, data, rows);
            s.loss = lossFn->value(own, target);
            s.metric = headlineMetric(rule_.task, own, target);
        }
        e.submodels.push_back(s);
    }
    if (rule_.strategy == Strategy::ClassGroups)
        for (ClassCombine how :
             {ClassCombine::Product, ClassCombine::Coupling, ClassCombine::Sum, ClassCombine::Stacked}) {
            if (how == ClassCombine::Stacked && !rule_.stacked) continue;
            CombinationRule other = rule_;
            other.classCombine = how;
            e.metricByRule.emplace_back(how, how == rule_.classCombine
                                                 ? e.metric
                                                 : headlineMetric(rule_.task, combine(outs, other), y));
        }
    e.submodelOutputs = std::move(outs);
    return e;
}

}  // namespace skynnet
