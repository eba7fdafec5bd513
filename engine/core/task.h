#pragma once
#include <string>

namespace skynnet {

// Reconstruction (autoencoders): the target of every sample is its own (scaled) input, so the
// data needs no labels or target columns and the network outputs as many values as it takes.
enum class Task { Classification, Binary, Regression, Reconstruction };

std::string taskName(Task t);
// "classification", "binary", "regression", "reconstruction"; throws Error naming the value otherwise.
Task parseTask(const std::string& name);

// Whether the network's outputs are values (regression, reconstruction: no labels, no classes,
// measured by MSE and R²) rather than class probabilities (classification, binary).
bool predictsValues(Task t);

}  // namespace skynnet
