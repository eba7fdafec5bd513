#pragma once
// Training progress on stderr: one line per epoch (loss, metric, validation, seconds, speed)
// and, on a terminal only, a batch counter rewritten in place.
#include "core/task.h"
#include "train/train_types.h"

namespace skynnet::cli {

// Callbacks that print progress; with quiet they print nothing.
TrainCallbacks progressCallbacks(Task task, int epochs, bool quiet);

}  // namespace skynnet::cli
