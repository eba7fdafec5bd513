#pragma once
// `train --submodels N`: the Skynnet split. The network is split by the plan, the submodels train
// in parallel (ParallelTrainer on --threads cores), optionally the original model too (--baseline),
// everything is tested on the same test part, and the report and combined model are written only
// after all of it succeeded.
#include <chrono>
#include <functional>
#include <memory>

#include "cli_args.h"
#include "data/prepared_data.h"
#include "io/json.h"
#include "split/worker_pool.h"
#include "train_options.h"

namespace skynnet::cli {

// Where the submodels train. Empty: threads of this process on --threads cores.
struct SplitBackend {
    std::shared_ptr<WorkerBackend> backend;
    // Called once the submodels have trained: the backend's own figures, written into the report
    // as "backend" (e.g. the bytes each MPI rank sent).
    std::function<Json()> report;
};

// options.split must be set; start is when the command started (for the whole run's wall time).
// prepared: the data, when the caller started preparing it already (prepareData(options, Training)
// otherwise).
int runSplitTraining(const Args& args, const TrainOptions& options, std::chrono::steady_clock::time_point start,
                     const SplitBackend& backend = {}, const std::function<PreparedData()>& prepared = {});

}  // namespace skynnet::cli
