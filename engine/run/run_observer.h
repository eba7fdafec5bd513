#pragma once
// What a run tells its front end while it works. The runner calls these in the order runner.h
// gives; the submodels' events come from worker threads (SubmodelEvents' rules), everything else
// from the thread that called performRun. Every method has a default that does nothing, so a front
// end overrides what it shows: the CLI's text printer, the CLI's --progress json writer and the
// app's event buffer are the three observers.
#include <string>

#include "split/split_plan.h"
#include "split/worker_pool.h"
#include "train/train_types.h"

namespace skynnet {

struct PreparedData;
struct RunRequest;

// A model the run trains besides the submodels: the original as a baseline, or the network of a
// run without a split.
enum class RunModel { Baseline, Network };
// "baseline" or "network", as the progress events name them.
const char* runModelName(RunModel model);

class RunObserver {
public:
    virtual ~RunObserver() = default;

    // The data is ready, prepared by the run or by the front end (its warnings: data.warnings).
    virtual void dataReady(const PreparedData& /*data*/) {}
    // A split run's plan, before anything trains.
    virtual void planned(const SplitPlan& /*plan*/, const RunRequest& /*request*/) {}
    // A run without a split: the network, before it trains.
    virtual void networkPlanned(const NetworkSpec& /*spec*/, const PreparedData& /*data*/,
                                const RunRequest& /*request*/) {}
    // The run continues from checkpoints: "2 of 3 submodels finished, ...".
    virtual void resuming(const std::string& /*folder*/, const std::string& /*progress*/) {}
    // The submodels' progress handlers. Called once, before they train.
    virtual SubmodelEvents submodelEvents() { return {}; }

    // The baseline or the single network.
    virtual void modelStarted(RunModel /*model*/, const WorkerPlace& /*place*/) {}
    virtual TrainCallbacks modelCallbacks(RunModel /*model*/) { return {}; }
    virtual void modelFinished(RunModel /*model*/, const TrainResult& /*result*/) {}

    // A line of the run's record (also collected in RunOutcome::log, which projects keep).
    virtual void log(const std::string& /*line*/) {}
};

}  // namespace skynnet
