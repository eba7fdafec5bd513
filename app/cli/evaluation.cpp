#include "evaluation.h"

#include <algorithm>

#include "text_format.h"

namespace skynnet::cli {
namespace {

std::string padded(const std::string& s, std::size_t width, bool right = false) {
    if (s.size() >= width) return s;
    const std::string pad(width - s.size(), ' ');
    return right ? pad + s : s + pad;
}

}  // namespace

EvaluationSummary summarize(Task task, const Matrix& output, const Matrix& target,
                            const std::vector<std::string>& classNames) {
    EvaluationSummary s;
    s.task = task;
    s.samples = long(output.rows());
    if (predictsValues(task)) {
        s.regression = valueMetrics(task, output, target);
        return s;
    }
    s.classNames = classNames;
    s.classification = classificationMetrics(trueClasses(target), predictedClasses(output), int(classNames.size()));
    return s;
}

void addMetrics(Json& report, const EvaluationSummary& s, const std::string& prefix) {
    report[prefix + "samples"] = s.samples;
    if (predictsValues(s.task)) {
        report[prefix + "mse"] = s.regression.mse;
        report[prefix + "mae"] = s.regression.mae;
        report[prefix + "r2"] = s.regression.r2;
        return;
    }
    report[prefix + "accuracy"] = s.classification.accuracy;
    report[prefix + "precision"] = s.classification.precision;
    report[prefix + "recall"] = s.classification.recall;
    Json confusion = Json::array();
    for (const auto& row : s.classification.confusion) confusion.push_back(Json(row));
    report[prefix + "confusion_matrix"] = confusion;
}

std::string headline(const EvaluationSummary& s) {
    const std::string count = " (" + std::to_string(s.samples) + " samples)";
    if (predictsValues(s.task))
        return "mse " + fixed(s.regression.mse) + "  mae " + fixed(s.regression.mae) + "  r2 " +
               fixed(s.regression.r2) + count;
    return "accuracy " + fixed(s.classification.accuracy) + count;
}

void printDetails(std::ostream& out, const EvaluationSummary& s) {
    out << headline(s) << "\n";
    if (predictsValues(s.task)) return;
    const auto& m = s.classification;
    std::size_t width = 5;
    for (const auto& n : s.classNames) width = std::max(width, n.size());
    out << "\n" << padded("class", width) << "  precision     recall    support\n";
    for (std::size_t k = 0; k < s.classNames.size(); ++k) {
        long support = 0;
        if (k < m.confusion.size())
            for (long c : m.confusion[k]) support += c;
        out << padded(s.classNames[k], width) << padded(fixed(k < m.precision.size() ? m.precision[k] : 0), 11, true)
            << padded(fixed(k < m.recall.size() ? m.recall[k] : 0), 11, true)
            << padded(std::to_string(support), 11, true) << "\n";
    }
    // Columns are numbered to keep the matrix narrow whatever the class names.
    out << "\nconfusion matrix (rows: true class, columns: predicted class)\n" << padded("", width);
    std::size_t cell = 6;
    for (const auto& row : m.confusion)
        for (long c : row) cell = std::max(cell, std::to_string(c).size() + 2);
    for (std::size_t k = 0; k < s.classNames.size(); ++k) out << padded(std::to_string(k + 1), cell, true);
    out << "\n";
    for (std::size_t k = 0; k < m.confusion.size() && k < s.classNames.size(); ++k) {
        out << padded(std::to_string(k + 1) + " " + s.classNames[k], width + 3);
        for (std::size_t j = 0; j < m.confusion[k].size(); ++j)
            out << padded(std::to_string(m.confusion[k][j]), j == 0 ? cell - 3 : cell, true);
        out << "\n";
    }
}

}  // namespace skynnet::cli
