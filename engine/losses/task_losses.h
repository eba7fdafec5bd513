#pragma once
// Which losses can train which task, the one rule every front end applies: cross-entropy for
// classification, binary cross-entropy for binary, MSE or MAE for regression. Any other pairing
// would train on targets of the wrong shape (one-hot rows against a single 0/1 column) or fit
// probabilities as if they were values, so it is refused before training, not trained badly.
#include <vector>

#include "core/task.h"
#include "losses/loss.h"

namespace skynnet {

// The losses that fit the task, the first being the task's natural one.
std::vector<LossKind> lossesForTask(Task task);
bool lossFitsTask(LossKind loss, Task task);
// Throws Error("the loss mse does not fit the classification task (use cross_entropy)") when it does not.
void checkLossFitsTask(LossKind loss, Task task);

}  // namespace skynnet
