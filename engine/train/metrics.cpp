#include "train/metrics.h"

#include <string>

#include "core/error.h"

namespace skynnet {

std::vector<int> predictedClasses(const Matrix& output) {
    std::vector<int> out(std::size_t(output.rows()));
    for (Index r = 0; r < output.rows(); ++r) {
        if (output.cols() == 1) {
            out[std::size_t(r)] = output(r, 0) >= Scalar(0.5) ? 1 : 0;
        } else {
            Index best = 0;
            output.row(r).maxCoeff(&best);
            out[std::size_t(r)] = int(best);
        }
    }
    return out;
}

std::vector<int> trueClasses(const Matrix& target) { return predictedClasses(target); }

ClassificationMetrics classificationMetrics(const std::vector<int>& truth, const std::vector<int>& predicted,
                                            int classCount) {
    if (truth.size() != predicted.size())
        throw Error("classification metrics: " + std::to_string(truth.size()) + " true classes for " +
                    std::to_string(predicted.size()) + " predictions");
    // A single output column reads as a sigmoid (class 0 or 1): with one declared class that gives
    // class 1, which once wrote past the confusion matrix. Refuse instead of indexing.
    for (std::size_t i = 0; i < truth.size(); ++i)
        if (truth[i] < 0 || truth[i] >= classCount || predicted[i] < 0 || predicted[i] >= classCount)
            throw Error("classification metrics: sample " + std::to_string(i + 1) + " has class " +
                        std::to_string(truth[i]) + ", predicted " + std::to_string(predicted[i]) + ", outside the " +
                        std::to_string(classCount) + " classes");
    ClassificationMetrics m;
    m.confusion.assign(std::size_t(classCount), std::vector<long>(std::size_t(classCount), 0));
    long correct = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) {
        ++m.confusion[std::size_t(truth[i])][std::size_t(predicted[i])];
        correct += truth[i] == predicted[i];
    }
    m.accuracy = truth.empty() ? 0.0 : double(correct) / double(truth.size());
    m.precision.assign(std::size_t(classCount), 0.0);
    m.recall.assign(std::size_t(classCount), 0.0);
    for (int c = 0; c < classCount; ++c) {
        long predictedC = 0, actualC = 0;
        for (int k = 0; k < classCount; ++k) {
            predictedC += m.confusion[std::size_t(k)][std::size_t(c)];
            actualC += m.confusion[std::size_t(c)][std::size_t(k)];
        }
        const double hit = double(m.confusion[std::size_t(c)][std::size_t(c)]);
        if (predictedC > 0) m.precision[std::size_t(c)] = hit / double(predictedC);
        if (actualC > 0) m.recall[std::size_t(c)] = hit / double(actualC);
    }
    return m;
}

RegressionMetrics regressionMetrics(const Matrix& output, const Matrix& target) {
    RegressionMetrics m;
    if (output.size() == 0) return m;
    const Eigen::ArrayXXd diff = (output - target).cast<double>().array();
    m.mse = diff.square().mean();
    m.mae = diff.abs().mean();
    // R² averaged over output columns (as scikit-learn's uniform_average).
    const Eigen::MatrixXd t = target.cast<double>();
    double r2 = 0;
    for (Index c = 0; c < t.cols(); ++c) {
        const double mean = t.col(c).mean();
        const double total = (t.col(c).array() - mean).square().sum();
        const double residual = diff.col(c).square().sum();
        r2 += total > 0 ? 1.0 - residual / total : (residual == 0 ? 1.0 : 0.0);
    }
    m.r2 = r2 / double(t.cols());
    return m;
}

RegressionMetrics reconstructionMetrics(const Matrix& output, const Matrix& target) {
    RegressionMetrics m = regressionMetrics(output, target);
    if (output.size() == 0) return m;
    // Pooled: 1 - (residual sum of squares) / (sum of squares about each column's mean), over
    // every column together, so that a constant input (an image's blank corner) is no failure.
    const Eigen::MatrixXd t = target.cast<double>();
    const double residual = (output - target).cast<double>().array().square().sum();
    const double total = (t.rowwise() - t.colwise().mean()).array().square().sum();
    m.r2 = total > 0 ? 1.0 - residual / total : (residual == 0 ? 1.0 : 0.0);
    return m;
}

RegressionMetrics valueMetrics(Task task, const Matrix& output, const Matrix& target) {
    return task == Task::Reconstruction ? reconstructionMetrics(output, target) : regressionMetrics(output, target);
}

double headlineMetric(Task task, const Matrix& output, const Matrix& target) {
    if (predictsValues(task)) return valueMetrics(task, output, target).r2;
    const auto truth = trueClasses(target);
    const auto predicted = predictedClasses(output);
    long correct = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) correct += truth[i] == predicted[i];
    return truth.empty() ? 0.0 : double(correct) / double(truth.size());
}

std::string headlineMetricName(Task task) { return predictsValues(task) ? "r2" : "accuracy"; }

}  // namespace skynnet
