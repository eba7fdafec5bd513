#pragma once
// Everything one training run needs, as a value: what it trains on, the network, the split (or
// none), the training settings, whether the original model is trained beside it as a baseline,
// which rows it is measured on, its checkpoints, its thread budget and where the submodels train.
// Every front end (the CLI's train, train --project, rank 0 of an MPI job, each run of a study, the
// desktop app) fills one in and hands it to performRun (runner.h).
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "data/prepared_data.h"
#include "project/checkpoint_store.h"
#include "run/run_data.h"
#include "spec/network_spec.h"
#include "split/split_plan.h"
#include "split/worker_pool.h"
#include "train/train_types.h"

namespace skynnet {

// The rows the finished models are measured on.
enum class EvaluationRows {
    HeldOut,   // the test rows, else the validation rows, else the training rows (the app, projects)
    TestOnly,  // the test rows, or no measurement when there are none (skynnet-cli train --data)
};

enum class CheckpointStart {
    Fresh,    // a folder that holds an earlier run is refused (its checkpoints may be wanted)
    Replace,  // an earlier run in the folder is replaced
    Resume,   // the run in the folder continues
};

struct RunRequest {
    // The data, prepared already (a front end that prepared it to show it, or to check its
    // options against it), or else prepared by the run from `data`.
    std::shared_ptr<const PreparedData> prepared;
    std::optional<RunData> data;

    // The network as designed: its input and output are set from the data (NetworkSpec's
    // setOutputFor, the data's input shape).
    NetworkSpec network;
    // The Skynnet split of the network; none: the network trains alone (no baseline then).
    std::optional<SplitOptions> split;
    // The split's plan when the front end made it already (the app shows it before the run), from
    // this data and these options; else the run makes it.
    std::optional<SplitPlan> plan;
    TrainConfig config;  // its epochs, batch size and optimiser also set the split's (method.md §1)
    bool baseline = false;
    EvaluationRows evaluation = EvaluationRows::HeldOut;

    // Checkpoints at each epoch end (engine/project/checkpoint_store.h); empty: none. The folder is
    // removed once the run has completed, unless keepCheckpoints.
    std::string checkpointFolder;
    CheckpointStart checkpointStart = CheckpointStart::Fresh;
    bool keepCheckpoints = false;
    // A test seam: the hooks the submodels save through (default: the store's own).
    std::function<CheckpointHooks(const CheckpointStore&)> checkpointHooks;

    int threads = 0;                         // the budget every model shares; 0: every hardware thread
    std::shared_ptr<WorkerBackend> backend;  // where the submodels train; null: threads of this process
    // The run's clock: resource samples and pauses count from here. Unset: from the run's start.
    std::optional<std::chrono::steady_clock::time_point> clockOrigin;
};

// The network a request trains on this data: the designed layers with the data's input shape and
// the task's outputs, their activation the one `loss` needs (losses/task_losses.h's
// outputActivationFor: for reconstruction, a sigmoid or linear outputs).
NetworkSpec networkFor(const NetworkSpec& designed, const PreparedData& data, LossKind loss);
// The split options as the run applies them: the training settings' epochs, batch size and
// optimiser state (for the memory estimate) with the user's strategy, N and the rest.
SplitOptions splitOptionsFor(const SplitOptions& split, const TrainConfig& config);

}  // namespace skynnet
