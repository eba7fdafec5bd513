#pragma once
// Metrics of a network's outputs against known targets, as JSON for reports and as text for the
// terminal. Shared by `train` (its test set) and `evaluate`.
#include <ostream>
#include <string>
#include <vector>

#include "core/task.h"
#include "core/tensor.h"
#include "io/json.h"
#include "train/metrics.h"

namespace skynnet::cli {

struct EvaluationSummary {
    Task task = Task::Classification;
    long samples = 0;
    ClassificationMetrics classification;  // classification and binary
    RegressionMetrics regression;          // regression and reconstruction (valueMetrics)
    std::vector<std::string> classNames;
};

EvaluationSummary summarize(Task task, const Matrix& output, const Matrix& target,
                            const std::vector<std::string>& classNames);

// Members named prefix + "accuracy", "precision", "recall", "confusion_matrix" (per class, in
// classNames order) or prefix + "mse", "mae", "r2"; and prefix + "samples".
void addMetrics(Json& report, const EvaluationSummary& s, const std::string& prefix);

// One line: "accuracy 0.9667 (30 samples)" or "mse 0.0123  mae 0.0812  r2 0.9734 (400 samples)".
std::string headline(const EvaluationSummary& s);
// The headline, then for classes a per-class precision/recall table and the confusion matrix.
void printDetails(std::ostream& out, const EvaluationSummary& s);

}  // namespace skynnet::cli
