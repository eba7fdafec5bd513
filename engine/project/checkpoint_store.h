#pragma once
// A checkpoint folder: "run.json" naming the run (CheckpointRunKey: hashes of the plan, the
// training settings and the data) and one file per submodel (checkpoint_file.h), each written
// atomically at every epoch end and once more when that submodel has finished. A killed run
// leaves whole files only, so a resumed run loads finished submodels, continues the others from
// their last epoch end, and ends with the same bits as a run never interrupted.
// A single network (no split) is submodel 0 of a one-submodel plan.
#include <memory>
#include <string>

#include "project/checkpoint_file.h"

namespace skynnet {

struct Dataset;
class LatestWriteQueue;

// A single network (no split) as the one submodel of a plan: its checkpoints use the same folder
// and files. seed: the network's initial weights (Network(spec, seed)).
SplitPlan singleNetworkPlan(const NetworkSpec& spec, std::uint64_t seed, int epochs, Task task, long samples);

// Settings that change no result (kernel threads, report intervals) are left out of the key, so a
// run resumed with other --threads continues.
CheckpointRunKey checkpointRunKey(const SplitPlan& plan, const TrainConfig& config, const Dataset& train,
                                  const Dataset* validation);

class CheckpointStore {
public:
    // A new run in `folder` (created with its parents): the files of an earlier run there are
    // removed first. Throws Error naming the folder when it cannot be written.
    static CheckpointStore start(const std::string& folder, const SplitPlan& plan, const CheckpointRunKey& key);
    // The run saved in `folder`. Throws Error when the folder or its run.json is missing or damaged,
    // or the run is another one (naming the file and what differs).
    static CheckpointStore resume(const std::string& folder, const SplitPlan& plan, const CheckpointRunKey& key);
    // The same run's folder for a worker process that trains some of its submodels (an MPI rank,
    // perhaps on a machine without rank 0's files): creates the folder when missing, removes
    // nothing and writes no run.json; the run's files carry its key, so a file of another run is
    // refused by load(). Throws Error naming the folder when it cannot be created.
    static CheckpointStore attach(const std::string& folder, const SplitPlan& plan, const CheckpointRunKey& key);
    // Whether `folder` holds a run.json (a run that can be resumed, or refused).
    static bool holdsRun(const std::string& folder);

    const std::string& folder() const { return folder_; }
    std::string submodelPath(int index) const;
    // Thread-safe for different indices (each has a file of its own). load() of a missing file is
    // nullopt; of a damaged one throws Error naming it.
    std::optional<SubmodelResume> load(int index) const;
    // Queued: the file is written on a thread of the store's own, a newer epoch replacing one not
    // yet written (latest_write_queue.h). A failed write is thrown by the next save of that index.
    void saveEpoch(int index, const Network& network, const TrainerState& state) const;
    // Written before it returns (an epoch still queued for the index is dropped).
    void saveFinished(int index, const SubmodelOutcome& outcome) const;
    // Returns once every queued save is on disk (the last copy of a store waits too, as it goes).
    void waitForSaves() const;
    // Hooks calling the functions above; the store must outlive every use of them.
    CheckpointHooks hooks() const;

    // "2 of 3 submodels finished, submodel 3 after epoch 4 of 10": for the resume message. Reads
    // every file (throws like load()).
    std::string progressText() const;
    // After a successful run: the run's files and then the folder, if nothing else is in it.
    // Best effort: never throws (a model already written must not be reported as a failure).
    void removeFolder() const noexcept {
        waitForSaves();
        removeFolder(folder_);
    }
    static void removeFolder(const std::string& folder) noexcept;

private:
    CheckpointStore(std::string folder, SplitPlan plan, CheckpointRunKey key);
    std::string folder_;
    SplitPlan plan_;
    CheckpointRunKey key_;
    std::shared_ptr<LatestWriteQueue> writes_;  // shared by the store's copies
};

}  // namespace skynnet
