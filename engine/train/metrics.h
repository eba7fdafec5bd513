#pragma once
// Evaluation metrics from network outputs and targets (the same target matrices the loss sees).
#include <string>
#include <vector>

#include "core/task.h"
#include "core/tensor.h"

namespace skynnet {

struct ClassificationMetrics {
    double accuracy = 0;
    std::vector<std::vector<long>> confusion;  // [true][predicted]
    std::vector<double> precision, recall;     // per class; 0 where undefined
};

struct RegressionMetrics {
    double mse = 0, mae = 0, r2 = 0;
};

// Predicted class per row: argmax, or p >= 0.5 for a single sigmoid column.
std::vector<int> predictedClasses(const Matrix& output);
// True class per row from one-hot rows or a 0/1 column.
std::vector<int> trueClasses(const Matrix& target);

// Throws Error when a true or predicted class is outside [0, classCount).
ClassificationMetrics classificationMetrics(const std::vector<int>& truth, const std::vector<int>& predicted,
                                            int classCount);
RegressionMetrics regressionMetrics(const Matrix& output, const Matrix& target);

// The headline metric of a task: accuracy for classes, R² for regression (higher is better for both).
double headlineMetric(Task task, const Matrix& output, const Matrix& target);
std::string headlineMetricName(Task task);

}  // namespace skynnet
