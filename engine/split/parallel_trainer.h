#pragma once
// Trains a split plan's submodels in parallel and assembles the combined model; and trains the
// unsplit original the same way, as the baseline every run is compared with (method.md §6).
#include <memory>
#include <string>
#include <vector>

#include "split/combined_model.h"
#include "split/worker_pool.h"

namespace skynnet {

struct ParallelResult {
    // Cancelled if the token was cancelled; Failed if any submodel failed (error names it);
    // Completed otherwise (a submodel that stopped early still counts as done).
    TrainStatus status = TrainStatus::Completed;
    std::string error;
    CombinedModel model;                 // complete only when status is Completed
    std::vector<TrainResult> submodels;  // in plan order
    // Each submodel's whole training, earlier sessions included when the run was resumed.
    std::vector<double> submodelWallSeconds, submodelCpuSeconds;
    double wallSeconds = 0;  // the whole call (this session), data preparation included, pauses not
    double cpuSeconds = 0;   // all submodels together, their whole trainings (earlier sessions too)
    // A resumed run: of cpuSeconds, what the sessions before this call spent, and how many
    // submodels had a checkpoint to continue from. The earlier sessions' wall time is not known
    // (they ran in parallel, and a killed session says nothing), so the CPU that covers the same
    // work as wallSeconds is sessionCpuSeconds().
    double earlierCpuSeconds = 0;
    int resumedSubmodels = 0;
    bool resumed() const { return resumedSubmodels > 0; }
    double sessionCpuSeconds() const { return cpuSeconds - earlierCpuSeconds; }
    int workers = 0;
    // Peaks are TrainResult::peakBytes(): a submodel's model, buffers and rows, what it needs on
    // a machine of its own.
    std::int64_t peakSubmodelBytes = 0;  // the largest single submodel's peak
    // An upper bound of what the workers held at once: the `workers` largest peaks added up.
    std::int64_t peakConcurrentBytes = 0;
};

class ParallelTrainer {
public:
    // config: optimiser, batch size, loss, shuffle seed, early stopping and report intervals of
    // every submodel. Its epochs are NOT used: submodels train plan.effectiveEpochs.
    // backend: nullptr means threads on every hardware thread.
    ParallelTrainer(SplitPlan plan, TrainConfig config, std::shared_ptr<WorkerBackend> backend = nullptr);

    const SplitPlan& plan() const { return plan_; }
    WorkerBackend& backend() { return *backend_; }

    // Blocks until every submodel has finished or stopped; no worker and no callback outlives the
    // call. `train` must be the dataset the plan was made from (same rows); throws Error otherwise,
    // before any thread starts. Events are called from worker threads (see SubmodelEvents).
    // checkpoint: resume and save the submodels' progress (WorkerBackend::train).
    ParallelResult train(const Dataset& train, const Dataset* validation = nullptr, const SubmodelEvents& events = {},
                         const CancelToken* cancel = nullptr, const CheckpointHooks* checkpoint = nullptr);

private:
    SplitPlan plan_;
    TrainConfig config_;
    std::shared_ptr<WorkerBackend> backend_;
};

struct BaselineResult {
    Network network;
    TrainResult result;
};

// The original model (plan.original) unsplit: the plan's epochs before any scaling, the same
// config, initial weights from submodelSeed(plan.seed, 0) and the shuffle seed a first submodel
// would get, all of threadBudget (0: every hardware thread) for its kernels. Runs on the calling
// thread (callbacks too) and restores that thread's kernel setting afterwards.
BaselineResult trainBaseline(const SplitPlan& plan, const Dataset& train, const Dataset* validation,
                             const TrainConfig& config, int threadBudget = 0, const TrainCallbacks& callbacks = {},
                             const CancelToken* cancel = nullptr);

}  // namespace skynnet
