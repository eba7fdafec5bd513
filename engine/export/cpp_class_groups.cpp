#include "export/cpp_class_groups.h"

#include <charconv>
#include <string>

#include "core/error.h"

namespace skynnet {
namespace {

// The shortest text that reads back as the identical double ("1e-10").
std::string doubleLiteral(double v) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    return std::string(text, end);
}

// "sum rule with an 'other' output", for the comments.
std::string ruleName(const CombinationRule& r) {
    return classCombineName(r.classCombine) + " rule" + (r.otherOutput ? " with an 'other' output" : "");
}

// One call per submodel: f(s1, detail::kSub1Classes, owned classes).
void writeCalls(std::ostream& out, const SavedCombinedModel& m, const std::string& f) {
    for (std::size_t i = 0; i < m.specs.size(); ++i)
        out << "    " << f << "(s" << i + 1 << ", detail::kSub" << i + 1 << "Classes, " << m.rule.classes[i].size()
            << ");\n";
}

// The reference's product without "other": only owners vote, log 1 = 0 for the rest.
void writeOwnersProduct(std::ostream& out, const SavedCombinedModel& m) {
    out << "    // Class groups: per class, the sum of the owners' log-probabilities (clamped at 1e-30; 0 = log 1\n"
        << "    // where a submodel has no say), then a softmax; in double, as the engine does.\n"
        << "    double logs[kOutputs] = {};\n";
    for (std::size_t i = 0; i < m.specs.size(); ++i)
        out << "    for (int k = 0; k < " << m.rule.classes[i].size() << "; ++k) logs[detail::kSub" << i + 1
            << "Classes[k]] += std::log(std::max(static_cast<double>(s" << i + 1 << "[k]), 1e-30));\n";
    out << "    double top = logs[0], sum = 0.0;\n"
        << "    for (int c = 1; c < kOutputs; ++c) top = std::max(top, logs[c]);\n"
        << "    for (int c = 0; c < kOutputs; ++c) sum += (logs[c] = std::exp(logs[c] - top));\n"
        << "    for (int c = 0; c < kOutputs; ++c) out[c] = static_cast<float>(logs[c] / sum);\n";
}

// Product with "other", and sum: every submodel's votes, as class_group_rules.cpp's votes().
void writeVotes(std::ostream& out, const SavedCombinedModel& m) {
    const bool sum = m.rule.classCombine == ClassCombine::Sum, other = m.rule.otherOutput;
    out << "    // Class groups, the " << ruleName(m.rule) << ": a submodel votes on a class it owns\n"
        << "    // with its probability"
        << (other ? ", on the others with its 'other' probability over the classes it does not own" : "") << ";\n"
        << (sum ? "    // per class the mean vote over its voters, the row rescaled to sum to 1.\n"
                : "    // per class the sum of the clamped log-votes, then a softmax.\n")
        << "    // In double, as the engine does.\n"
        << "    double score[kOutputs] = {};\n"
        << (sum ? "    int voters[kOutputs] = {};\n" : "")
        << "    const auto vote = [&](const float* probs, const int* classes, int owned) {\n"
        << "        double votes[kOutputs];\n"
        << "        for (int c = 0; c < kOutputs; ++c) votes[c] = -1.0;  // no vote\n";
    if (other)
        out << "        if (owned < kOutputs)\n"
            << "            for (int c = 0; c < kOutputs; ++c) votes[c] = static_cast<double>(probs[owned]) / "
               "(kOutputs - "
               "owned);\n";
    out << "        for (int k = 0; k < owned; ++k) votes[classes[k]] = static_cast<double>(probs[k]);\n"
        << "        for (int c = 0; c < kOutputs; ++c)\n"
        << "            if (votes[c] >= 0.0) {\n"
        << (sum ? "                score[c] += votes[c];\n                ++voters[c];\n"
                : "                score[c] += std::log(std::max(votes[c], 1e-30));\n")
        << "            }\n"
        << "    };\n";
    writeCalls(out, m, "vote");
    if (sum) {
        out << "    double total = 0.0;\n"
            << "    for (int c = 0; c < kOutputs; ++c) total += (score[c] = voters[c] > 0 ? score[c] / voters[c] : "
               "0.0);\n"
            << "    for (int c = 0; c < kOutputs; ++c)\n"
            << "        out[c] = static_cast<float>(total > 0.0 ? score[c] / total : 1.0 / kOutputs);\n";
        return;
    }
    out << "    double top = score[0], sum = 0.0;\n"
        << "    for (int c = 1; c < kOutputs; ++c) top = std::max(top, score[c]);\n"
        << "    for (int c = 0; c < kOutputs; ++c) sum += (score[c] = std::exp(score[c] - top));\n"
        << "    for (int c = 0; c < kOutputs; ++c) out[c] = static_cast<float>(score[c] / sum);\n";
}

void writeCoupling(std::ostream& out, const SavedCombinedModel& m) {
    out << "    // Class groups, the " << ruleName(m.rule) << ": the p minimising sum_s sum_{i in I_s}\n"
        << "    // (p_i - r_si sum_{j in I_s} p_j)^2 with sum p = 1, r_s submodel s's softmax over its own classes"
        << (m.rule.otherOutput ? "\n    // (without 'other', renormalised)" : "") << ", from the KKT system\n"
        << "    // [Q + eps I, 1; 1^T, 0] [p; mu] = [0; 1], Q = sum_s A_s^T A_s, (A_s^T A_s)_ij = [i = j] - r_i - r_j "
           "+ "
           "|r|^2\n"
        << "    // on I_s; Gaussian elimination with partial pivoting, in double; negatives cut to 0, the row\n"
        << "    // rescaled. eps keeps the system regular where the engine's is singular (its minimum-norm answer).\n"
        << "    constexpr int kSize = kOutputs + 1;\n"
        << "    std::vector<double> kkt(static_cast<std::size_t>(kSize * (kSize + 1)), 0.0);  // the right-hand side "
           "last\n"
        << "    const auto at = [&kkt](int row, int column) -> double& {\n"
        << "        return kkt[static_cast<std::size_t>(row * (kSize + 1) + column)];\n"
        << "    };\n"
        << "    const auto addTerm = [&at](const float* probs, const int* classes, int owned) {\n"
        << "        double r[kOutputs], total = 0.0, squares = 0.0;\n"
        << "        for (int k = 0; k < owned; ++k) total += (r[k] = std::max(static_cast<double>(probs[k]), 0.0));\n"
        << "        for (int k = 0; k < owned; ++k) {\n"
        << "            r[k] /= std::max(total, 1e-30);\n"
        << "            squares += r[k] * r[k];\n"
        << "        }\n"
        << "        for (int k = 0; k < owned; ++k)\n"
        << "            for (int l = 0; l < owned; ++l)\n"
        << "                at(classes[k], classes[l]) += (k == l ? 1.0 : 0.0) - r[k] - r[l] + squares;\n"
        << "    };\n";
    writeCalls(out, m, "addTerm");
    out << "    for (int c = 0; c < kOutputs; ++c) {\n"
        << "        at(c, c) += " << doubleLiteral(kCouplingRidge) << ";\n"
        << "        at(c, kOutputs) = at(kOutputs, c) = 1.0;\n"
        << "    }\n"
        << "    at(kOutputs, kSize) = 1.0;\n"
        << "    for (int k = 0; k < kSize; ++k) {\n"
        << "        int pivot = k;\n"
        << "        for (int i = k + 1; i < kSize; ++i)\n"
        << "            if (std::fabs(at(i, k)) > std::fabs(at(pivot, k))) pivot = i;\n"
        << "        for (int c = k; c <= kSize; ++c) {\n"
        << "            const double t = at(k, c);\n"
        << "            at(k, c) = at(pivot, c);\n"
        << "            at(pivot, c) = t;\n"
        << "        }\n"
        << "        for (int i = k + 1; i < kSize; ++i) {\n"
        << "            const double f = at(i, k) / at(k, k);\n"
        << "            for (int c = k; c <= kSize; ++c) at(i, c) -= f * at(k, c);\n"
        << "        }\n"
        << "    }\n"
        << "    for (int i = kSize - 1; i >= 0; --i) {  // back substitution, the solution in the last column\n"
        << "        for (int c = i + 1; c < kSize; ++c) at(i, kSize) -= at(i, c) * at(c, kSize);\n"
        << "        at(i, kSize) /= at(i, i);\n"
        << "    }\n"
        << "    double total = 0.0;\n"
        << "    for (int c = 0; c < kOutputs; ++c) total += std::max(at(c, kSize), 0.0);\n"
        << "    for (int c = 0; c < kOutputs; ++c)\n"
        << "        out[c] = static_cast<float>(total > 0.0 ? std::max(at(c, kSize), 0.0) / total : 1.0 / kOutputs);\n";
}

// The stacked rule (split/stacked_rule.h): the submodels' clamped log-probabilities side by side,
// then softmax(W x + b), in double and in the engine's order, with W and b as the model holds them.
void writeStacked(std::ostream& out, const SavedCombinedModel& m) {
    if (!m.rule.stacked) throw Error("C++ export: the model has no stacked weights: " + stackedMissingReason());
    const StackedWeights& w = *m.rule.stacked;
    out << "    // Class groups, the " << ruleName(m.rule) << ": a logistic regression fitted on the validation\n"
        << "    // rows over every submodel's log-probabilities (clamped at 1e-7), in double, as the engine does.\n"
        << "    static constexpr int kFeatures = " << w.features << ";\n"
        << "    static constexpr double kWeights[kOutputs][kFeatures] = {\n";
    for (int c = 0; c < w.classes; ++c) {
        out << "        {";
        for (int d = 0; d < w.features; ++d)
            out << (d ? ", " : "")
                << doubleLiteral(w.weights[std::size_t(c) * std::size_t(w.features) + std::size_t(d)]);
        out << "},\n";
    }
    out << "    };\n    static constexpr double kBias[kOutputs] = {";
    for (int c = 0; c < w.classes; ++c) out << (c ? ", " : "") << doubleLiteral(w.bias[std::size_t(c)]);
    out << "};\n"
        << "    double features[kFeatures];\n"
        << "    int column = 0;\n";
    for (std::size_t i = 0; i < m.specs.size(); ++i)
        out << "    for (int k = 0; k < " << m.rule.classes[i].size() + (m.rule.otherOutput ? 1 : 0)
            << "; ++k) features[column++] = std::log(std::max(static_cast<double>(s" << i + 1 << "[k]), "
            << doubleLiteral(kStackedMinProbability) << "));\n";
    out << "    double logits[kOutputs];\n"
        << "    for (int c = 0; c < kOutputs; ++c) {\n"
        << "        logits[c] = kBias[c];\n"
        << "        for (int d = 0; d < kFeatures; ++d) logits[c] += kWeights[c][d] * features[d];\n"
        << "    }\n"
        << "    double top = logits[0], sum = 0.0;\n"
        << "    for (int c = 1; c < kOutputs; ++c) top = std::max(top, logits[c]);\n"
        << "    for (int c = 0; c < kOutputs; ++c) sum += (logits[c] = std::exp(logits[c] - top));\n"
        << "    for (int c = 0; c < kOutputs; ++c) out[c] = static_cast<float>(logits[c] / sum);\n";
}

}  // namespace

void writeCppClassGroups(std::ostream& out, const SavedCombinedModel& m) {
    switch (m.rule.classCombine) {
    case ClassCombine::Product:
        if (m.rule.otherOutput) writeVotes(out, m);
        else writeOwnersProduct(out, m);
        return;
    case ClassCombine::Sum: writeVotes(out, m); return;
    case ClassCombine::Coupling: writeCoupling(out, m); return;
    case ClassCombine::Stacked: writeStacked(out, m); return;
    }
}

}  // namespace skynnet
