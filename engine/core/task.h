#pragma once
#include <string>

namespace skynnet {

enum class Task { Classification, Binary, Regression };

std::string taskName(Task t);
// "classification", "binary", "regression"; throws Error naming the value otherwise.
Task parseTask(const std::string& name);

}  // namespace skynnet
