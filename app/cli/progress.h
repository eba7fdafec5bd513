#pragma once
// Training progress on stderr: one line per epoch (loss, metric, validation, seconds, speed)
// and, on a terminal only, a batch counter rewritten in place.
#include <string>

#include "core/task.h"
#include "split/worker_pool.h"
#include "train/train_types.h"

namespace skynnet::cli {

// Callbacks that print progress; with quiet they print nothing. `prefix` starts every line
// ("baseline: "), so that several trainings in one run can be told apart.
TrainCallbacks progressCallbacks(Task task, int epochs, bool quiet, const std::string& prefix = "");

// The same per-epoch lines for the submodels of a split, prefixed "submodel I/S: ", plus a line
// when each starts and finishes. Submodels train at once on worker threads: lines are written
// whole under a lock, and there is no in-place batch counter (several would overwrite each other).
SubmodelEvents submodelProgress(const SplitPlan& plan, bool quiet);

}  // namespace skynnet::cli
