#pragma once
// The hand-over point between the training threads and the GUI thread: engine callbacks (called
// from worker threads, several at once) copy their values in under a mutex and return at once;
// the GUI thread takes everything collected so far, at its own pace. No Qt signals cross threads
// here, so however fast the engine reports, the GUI sees one batch per flush.
#include <QStringList>
#include <mutex>
#include <optional>
#include <vector>

#include "split/worker_pool.h"
#include "train/train_types.h"

namespace skynnet::ui {

// What arrived for one model (a submodel, or the baseline) since the last take().
struct ModelUpdate {
    std::vector<EpochStats> epochs;
    std::vector<ResourceSample> resources;
    std::optional<BatchProgress> lastBatch;
    std::optional<TrainStatus> finished;
    std::optional<WorkerPlace> place;  // where it started training

    bool empty() const { return epochs.empty() && resources.empty() && !lastBatch && !finished && !place; }
};

struct CollectedEvents {
    std::vector<ModelUpdate> submodels;  // one per submodel, in plan order
    ModelUpdate baseline;
    QStringList log;
};

class RunEventBuffer {
public:
    explicit RunEventBuffer(int submodels);

    // Handlers for ParallelTrainer::train and trainBaseline; they reference this buffer, which
    // must outlive the training call.
    SubmodelEvents submodelEvents();
    TrainCallbacks baselineCallbacks();
    void log(const QString& line);
    void baselineFinished(TrainStatus status);

    // Everything collected since the previous call, leaving the buffer empty.
    CollectedEvents take();

private:
    std::mutex mutex_;
    CollectedEvents pending_;
    int submodels_;
};

}  // namespace skynnet::ui
