#include "split/combination.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"

namespace skynnet {
namespace {

void requireSameRows(const std::vector<Matrix>& parts) {
    if (parts.empty()) throw Error("no submodel outputs to combine");
    for (std::size_t i = 1; i < parts.size(); ++i)
        if (parts[i].rows() != parts[0].rows())
            throw Error("submodel " + std::to_string(i + 1) + " gave " + std::to_string(parts[i].rows()) +
                        " rows, submodel 1 gave " + std::to_string(parts[0].rows()));
}

void requireClassShapes(const std::vector<Matrix>& subProbs, const CombinationRule& rule) {
    requireSameRows(subProbs);
    if (subProbs.size() != rule.classes.size())
        throw Error(std::to_string(subProbs.size()) + " submodel outputs for " + std::to_string(rule.classes.size()) +
                    " class-group submodels");
    for (std::size_t i = 0; i < subProbs.size(); ++i) {
        const Index expected = Index(rule.classes[i].size()) + (rule.otherOutput ? 1 : 0);
        if (subProbs[i].cols() != expected)
            throw Error("submodel " + std::to_string(i + 1) + " gave " + std::to_string(subProbs[i].cols()) +
                        " columns for its " + std::to_string(rule.classes[i].size()) + " classes" +
                        (rule.otherOutput ? " and 'other'" : ""));
        for (int c : rule.classes[i])
            if (c < 0 || c >= rule.outputs)
                throw Error("submodel " + std::to_string(i + 1) + " owns class " + std::to_string(c) + " outside the " +
                            std::to_string(rule.outputs) + " classes");
    }
}

}  // namespace

Matrix rawProductScores(const std::vector<Matrix>& subProbs, const CombinationRule& rule) {
    requireClassShapes(subProbs, rule);
    Matrix scores = Matrix::Ones(subProbs[0].rows(), rule.outputs);
    for (std::size_t i = 0; i < subProbs.size(); ++i)
        for (std::size_t k = 0; k < rule.classes[i].size(); ++k)
            scores.col(rule.classes[i][k]).array() *= subProbs[i].col(Index(k)).array();
    return scores;
}

Matrix combineClassGroups(const std::vector<Matrix>& subProbs, const CombinationRule& rule) {
    requireClassShapes(subProbs, rule);
    if (rule.classCombine == ClassCombine::Stacked) {
        if (!rule.stacked) throw Error("the model has no stacked weights: " + stackedMissingReason());
        return applyStackedRule(subProbs, *rule.stacked);
    }
    return combineClassProbabilities(subProbs, rule.classes, rule.outputs, rule.otherOutput, rule.classCombine);
}

Matrix combineBinary(const std::vector<Matrix>& subProbs, BinaryCombine how) {
    requireSameRows(subProbs);
    for (std::size_t i = 0; i < subProbs.size(); ++i)
        if (subProbs[i].cols() != 1)
            throw Error("binary submodel " + std::to_string(i + 1) + " gave " + std::to_string(subProbs[i].cols()) +
                        " columns, expected one probability");
    if (how == BinaryCombine::Average) return averageOutputs(subProbs);
    Matrix out(subProbs[0].rows(), 1);
    for (Index r = 0; r < out.rows(); ++r) {
        std::size_t best = 0;
        for (std::size_t i = 1; i < subProbs.size(); ++i)
            if (std::abs(2 * subProbs[i](r, 0) - 1) > std::abs(2 * subProbs[best](r, 0) - 1)) best = i;
        out(r, 0) = subProbs[best](r, 0);
    }
    return out;
}

Matrix concatenateColumns(const std::vector<Matrix>& parts) {
    requireSameRows(parts);
    Index cols = 0;
    for (const auto& p : parts) cols += p.cols();
    Matrix out(parts[0].rows(), cols);
    Index at = 0;
    for (const auto& p : parts) {
        out.middleCols(at, p.cols()) = p;
        at += p.cols();
    }
    return out;
}

Matrix averageOutputs(const std::vector<Matrix>& outputs) {
    requireSameRows(outputs);
    Matrix sum = outputs[0];
    for (std::size_t i = 1; i < outputs.size(); ++i) {
        if (outputs[i].cols() != sum.cols())
            throw Error("submodel " + std::to_string(i + 1) + " gave " + std::to_string(outputs[i].cols()) +
                        " columns, submodel 1 gave " + std::to_string(sum.cols()));
        sum += outputs[i];
    }
    return sum / Scalar(outputs.size());
}

std::string stackedMissingReason() {
    return "the stacked rule is fitted on the validation rows when the submodels have trained, and this model was "
           "trained without any (validation fraction 0) or by an older version";
}

std::string classRuleDescription(const CombinationRule& rule) {
    return classCombineName(rule.classCombine) + (rule.otherOutput ? " with an 'other' output" : "");
}

Matrix combine(const std::vector<Matrix>& subOutputs, const CombinationRule& rule) {
    switch (rule.strategy) {
    case Strategy::ClassGroups: return combineClassGroups(subOutputs, rule);
    case Strategy::BinaryShards: return combineBinary(subOutputs, rule.binaryCombine);
    case Strategy::OutputSplit: {
        if (subOutputs.size() != rule.columns.size())
            throw Error(std::to_string(subOutputs.size()) + " submodel outputs for " +
                        std::to_string(rule.columns.size()) + " output chunks");
        for (std::size_t i = 0; i < subOutputs.size(); ++i)
            if (subOutputs[i].cols() != rule.columns[i].second - rule.columns[i].first)
                throw Error("submodel " + std::to_string(i + 1) + " gave " + std::to_string(subOutputs[i].cols()) +
                            " columns for its chunk of " +
                            std::to_string(rule.columns[i].second - rule.columns[i].first));
        return concatenateColumns(subOutputs);
    }
    case Strategy::DataShards: return averageOutputs(subOutputs);
    case Strategy::Auto: break;
    }
    throw Error("a combination rule needs a resolved strategy, not auto");
}

}  // namespace skynnet
