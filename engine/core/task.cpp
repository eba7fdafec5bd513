#include "core/task.h"

#include "core/error.h"

namespace skynnet {

std::string taskName(Task t) {
    switch (t) {
    case Task::Classification: return "classification";
    case Task::Binary: return "binary";
    case Task::Regression: return "regression";
    case Task::Reconstruction: return "reconstruction";
    }
    return "classification";
}

Task parseTask(const std::string& name) {
    if (name == "classification" || name == "multiclass") return Task::Classification;
    if (name == "binary") return Task::Binary;
    if (name == "regression") return Task::Regression;
    if (name == "reconstruction") return Task::Reconstruction;
    throw Error("unknown task '" + name + "' (expected classification, binary, regression or reconstruction)");
}

bool predictsValues(Task t) { return t == Task::Regression || t == Task::Reconstruction; }

}  // namespace skynnet
