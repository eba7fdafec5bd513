#include "losses/task_losses.h"

#include <algorithm>

#include "core/error.h"

namespace skynnet {

std::vector<LossKind> lossesForTask(Task task) {
    switch (task) {
    case Task::Classification: return {LossKind::SoftmaxCrossEntropy};
    case Task::Binary: return {LossKind::BinaryCrossEntropy};
    case Task::Regression: return {LossKind::MeanSquaredError, LossKind::MeanAbsoluteError};
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

}  // namespace skynnet
