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
// Reconstruction's: MSE and MAE over every output value, and R² pooled over all of them, 1 - SSres
// / SStot with the total sum of squares about each column's own mean (scikit-learn's
// variance_weighted), so a column that never varies (a blank image corner) does not count as a
// column the model failed to explain.
RegressionMetrics reconstructionMetrics(const Matrix& output, const Matrix& target);
// regressionMetrics or reconstructionMetrics, by task (for the value tasks).
RegressionMetrics valueMetrics(Task task, const Matrix& output, const Matrix& target);

// The headline metric of a task: accuracy for classes, R² for regression and reconstruction
// (valueMetrics'; higher is better for all).
double headlineMetric(Task task, const Matrix& output, const Matrix& target);
std::string headlineMetricName(Task task);

}  // namespace skynnet
