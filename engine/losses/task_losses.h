#pragma once
// Which losses can train which task, the one rule every front end applies: cross-entropy for
// classification, binary cross-entropy for binary, MSE or MAE for regression, binary
// cross-entropy or MSE for reconstruction. Any other pairing would train on targets of the wrong
// shape (one-hot rows against a single 0/1 column) or fit probabilities as if they were values, so
// it is refused before training, not trained badly.
#include <vector>

#include "core/task.h"
#include "core/tensor.h"
#include "layers/activation.h"
#include "losses/loss.h"

namespace skynnet {

// The losses that fit the task, the first being the task's natural one.
std::vector<LossKind> lossesForTask(Task task);
bool lossFitsTask(LossKind loss, Task task);
// Throws Error("the loss mse does not fit the classification task (use cross_entropy)") when it does not.
void checkLossFitsTask(LossKind loss, Task task);

// The loss a task trains with unless the user chose another, given the scaled training inputs:
// the task's natural one, except reconstruction's, which is binary cross-entropy when every
// scaled training input is in [0, 1] (a sigmoid can reach every target) and MSE otherwise.
LossKind defaultLossFor(Task task, const Matrix& scaledTrainingInputs);
// checkLossFitsTask, and for reconstruction with binary cross-entropy that every scaled training
// input (the targets) is in [0, 1]: Error naming the value found and the remedies otherwise.
void checkLossFitsData(LossKind loss, Task task, const Matrix& scaledTrainingInputs);
// The output activation a task's network ends with when trained with `loss`: softmax over classes,
// one sigmoid for binary, linear for regression; for reconstruction a sigmoid under binary
// cross-entropy and linear under MSE.
Activation outputActivationFor(Task task, LossKind loss);

}  // namespace skynnet
