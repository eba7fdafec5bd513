#pragma once
// Where submodels train. A WorkerBackend distributes the S independent trainings of a plan over
// workers: threads in this process now (ThreadBackend), processes on other machines later (MPI)
// behind the same interface. Strategies live in the plan, never in a backend, and a backend only
// needs trainSubmodel(), which any worker (thread or process) runs for one submodel index.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/cancel.h"
#include "model/network.h"
#include "split/split_plan.h"
#include "train/row_view.h"
#include "train/train_types.h"
#include "train/trainer_state.h"

namespace skynnet {

struct Dataset;

// Where a submodel trains: the MPI rank (0 for the thread backend) and host name, and the kernel
// threads it starts with (a scheduler may hand it more cores later; results do not change).
struct WorkerPlace {
    int rank = 0;
    std::string host;
    int kernelThreads = 1;
};
// This machine's host name ("localhost" if it has none), as MPI ranks report theirs.
std::string localHostName();

// Progress of every submodel, tagged with its 0-based index. CALLED FROM WORKER THREADS, several at
// once: handlers must be thread-safe and quick (copy the value and hand it on, as the UI adapter
// does with queued signals). Every handler has returned before WorkerBackend::train() returns.
struct SubmodelEvents {
    std::function<void(int, const EpochStats&)> onEpoch;
    std::function<void(int, const BatchProgress&)> onBatch;
    std::function<void(int, const ResourceSample&)> onResources;  // at least every resourceReportSeconds
    std::function<void(int, const WorkerPlace&)> onSubmodelStarted;
    // Exactly once per submodel, also for one that never started because the run was cancelled.
    std::function<void(int, const TrainResult&)> onSubmodelFinished;
    // Not an event: asked before each batch for the kernel threads the submodel may use next
    // (TrainCallbacks::kernelThreads); the thread backend hands freed cores on this way.
    std::function<int(int)> kernelThreads;
};

struct SubmodelOutcome {
    Network network;  // trained (or as far as it got; freshly initialised if it never started)
    TrainResult result;
};

// What a checkpoint holds of one submodel: a finished training, or one stopped at an epoch end.
struct SubmodelResume {
    bool finished = false;
    std::vector<Scalar> weights;  // Network::flatWeights(): as finished, or after state.epochsDone epochs
    TrainResult result;           // finished: its result
    TrainerState state;           // not finished: where its training continues
};

// Checkpoints of a run (engine/project/checkpoint_store.h implements them; the split layer only
// calls them). CALLED FROM WORKER THREADS, for different indices at once: thread-safe per index.
// Any of them may be empty. A handler's exception fails that submodel with its message.
struct CheckpointHooks {
    // Before a submodel trains: its finished outcome or epoch state, nullopt to start afresh.
    std::function<std::optional<SubmodelResume>(int index)> load;
    // At each epoch end after which the submodel trains on (TrainCallbacks::onCheckpoint).
    std::function<void(int index, const Network&, const TrainerState&)> saveEpoch;
    // Once a submodel has completed or stopped early (not when cancelled or failed).
    std::function<void(int index, const SubmodelOutcome&)> saveFinished;
    // Where a worker process (an MPI rank, perhaps on another machine) keeps its submodels' epoch
    // states for this run: the folder as rank 0 names it and the run's key as JSON text, opaque
    // here. Empty: the hooks are this process's only.
    std::string folder, runKey;
};

class WorkerBackend {
public:
    virtual ~WorkerBackend() = default;
    virtual std::string name() const = 0;
    // How many submodels train at once for a plan of `submodels`.
    virtual int workers(int submodels) const = 0;
    // Trains every submodel of the plan on its part of `train` (validation, if given, restricted to
    // each submodel's own sub-problem) and returns one outcome per submodel in plan order, only after
    // every worker has stopped. A cancelled token makes every worker stop at its next batch boundary.
    // checkpoint: finished submodels are loaded instead of trained, stopped ones continue from their
    // last epoch end, and progress is saved through it (see CheckpointHooks).
    virtual std::vector<SubmodelOutcome> train(const SplitPlan& plan, const Dataset& train, const Dataset* validation,
                                               const TrainConfig& config, const SubmodelEvents& events,
                                               const CancelToken* cancel,
                                               const CheckpointHooks* checkpoint = nullptr) = 0;
};

// The data a submodel trains on: the training and validation sets (labels, targets, names) and
// their feature matrices, which need not be the sets' own: the MPI ranks of one host read one copy
// in memory they share (distributed/host_rows.h), the sets keeping no features of their own.
// Everything is borrowed. ownFeatures() views the sets' own matrices.
struct SubmodelData {
    const Dataset* train = nullptr;
    MatrixView trainFeatures;
    const Dataset* validation = nullptr;  // none when null
    MatrixView validationFeatures;

    static SubmodelData ownFeatures(const Dataset& train, const Dataset* validation);
};

// One submodel's whole training on the calling thread: its sub-problem (its rows read in place from
// `train` and `validation`, its own targets), Network(spec, seed), a
// Trainer for the plan's effective epochs with a shuffle seed derived from config.seed and the
// index, callbacks forwarded with the index. Never throws: a failure (a thrown Error, a diverged
// loss) comes back as status Failed with the error naming the submodel.
// place: reported to onSubmodelStarted (rank 0 on this host when not given).
// checkpoint: a finished submodel it loads is returned as it was saved; a stopped one continues
// bit for bit where it stopped. Either way the events are those of a whole training: started, the
// saved epochs replayed through onEpoch (no batches), then the epochs trained now, then finished.
SubmodelOutcome trainSubmodel(const SplitPlan& plan, int index, const Dataset& train, const Dataset* validation,
                              const TrainConfig& config, const SubmodelEvents& events, const CancelToken* cancel,
                              const WorkerPlace* place = nullptr, const CheckpointHooks* checkpoint = nullptr);
// The same, the rows read from wherever `data` says they are.
SubmodelOutcome trainSubmodel(const SplitPlan& plan, int index, const SubmodelData& data, const TrainConfig& config,
                              const SubmodelEvents& events, const CancelToken* cancel,
                              const WorkerPlace* place = nullptr, const CheckpointHooks* checkpoint = nullptr);
// The outcome of a submodel skipped because the run was cancelled (or another one failed) first.
SubmodelOutcome skippedSubmodel(const SplitPlan& plan, int index, const SubmodelEvents& events);

}  // namespace skynnet
