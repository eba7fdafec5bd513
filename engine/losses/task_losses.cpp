#include "losses/task_losses.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"

namespace skynnet {
namespace {

bool allInUnitRange(const Matrix& x) { return x.size() > 0 && x.minCoeff() >= Scalar(0) && x.maxCoeff() <= Scalar(1); }

std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

}  // namespace

std::vector<LossKind> lossesForTask(Task task) {
    switch (task) {
    case Task::Classification: return {LossKind::SoftmaxCrossEntropy};
    case Task::Binary: return {LossKind::BinaryCrossEntropy};
    case Task::Regression: return {LossKind::MeanSquaredError, LossKind::MeanAbsoluteError};
    case Task::Reconstruction: return {LossKind::BinaryCrossEntropy, LossKind::MeanSquaredError};
    }
    return {};
}

bool lossFitsTask(LossKind loss, Task task) {
    const std::vector<LossKind> fitting = lossesForTask(task);
    return std::find(fitting.begin(), fitting.end(), loss) != fitting.end();
}

void checkLossFitsTask(LossKind loss, Task task) {
    if (lossFitsTask(loss, task)) return;
    std::string allowed;
    for (LossKind k : lossesForTask(task)) allowed += (allowed.empty() ? "" : " or ") + lossName(k);
    throw Error("the loss " + lossName(loss) + " does not fit the " + taskName(task) + " task (use " + allowed + ")");
}

LossKind defaultLossFor(Task task, const Matrix& scaledTrainingInputs) {
    if (task == Task::Reconstruction)
        return allInUnitRange(scaledTrainingInputs) ? LossKind::BinaryCrossEntropy : LossKind::MeanSquaredError;
    return lossesForTask(task).front();
}

void checkLossFitsData(LossKind loss, Task task, const Matrix& scaledTrainingInputs) {
    checkLossFitsTask(loss, task);
    if (task != Task::Reconstruction || loss != LossKind::BinaryCrossEntropy || allInUnitRange(scaledTrainingInputs))
        return;
    const std::string range = scaledTrainingInputs.size() == 0
                                  ? std::string("no values")
                                  : "values from " + number(scaledTrainingInputs.minCoeff()) + " to " +
                                        number(scaledTrainingInputs.maxCoeff());
    throw Error("the loss binary_cross_entropy reconstructs targets in [0, 1], but the scaled training inputs hold " +
                range + " (scale them to [0, 1] with minmax or pixel-range scaling, or use the mse loss)");
}

Activation outputActivationFor(Task task, LossKind loss) {
    switch (task) {
    case Task::Classification: return Activation::Softmax;
    case Task::Binary: return Activation::Sigmoid;
    case Task::Regression: return Activation::None;
    case Task::Reconstruction: return loss == LossKind::BinaryCrossEntropy ? Activation::Sigmoid : Activation::None;
    }
    return Activation::None;
}

}  // namespace skynnet
