#pragma once
// `train --submodels N`: the Skynnet split. The network is split by the plan, the submodels train
// in parallel (ParallelTrainer on --threads cores), optionally the original model too (--baseline),
// everything is tested on the same test part, and the report and combined model are written only
// after all of it succeeded.
#include <chrono>

#include "cli_args.h"
#include "train_options.h"

namespace skynnet::cli {

// options.split must be set; start is when the command started (for the whole run's wall time).
int runSplitTraining(const Args& args, const TrainOptions& options, std::chrono::steady_clock::time_point start);

}  // namespace skynnet::cli
