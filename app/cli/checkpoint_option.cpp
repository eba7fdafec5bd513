#include "checkpoint_option.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"

namespace skynnet::cli {

std::optional<CheckpointStore> openCheckpoints(const std::string& folder, bool resume, bool quiet,
                                               const SplitPlan& plan, const TrainConfig& config, const Dataset& train,
                                               const Dataset* validation) {
    if (folder.empty()) return std::nullopt;
    const CheckpointRunKey key = checkpointRunKey(plan, config, train, validation);
    if (!resume) {
        if (CheckpointStore::holdsRun(folder))
            throw Error("the checkpoint folder " + folder +
                        " holds the checkpoints of an earlier run: add --resume to continue from them, or remove the "
                        "folder to start afresh");
        return CheckpointStore::start(folder, plan, key);
    }
    CheckpointStore store = CheckpointStore::resume(folder, plan, key);
    if (!quiet) std::fprintf(stderr, "resuming from %s: %s\n", folder.c_str(), store.progressText().c_str());
    return store;
}

CheckpointHooks checkpointHooks(const CheckpointStore& store) {
    CheckpointHooks hooks = store.hooks();
    const char* killAfter = std::getenv("SKYNNET_TEST_KILL_AFTER_CHECKPOINT");
    if (!killAfter || !*killAfter) return hooks;
    const int epoch = std::atoi(killAfter);
    hooks.saveEpoch = [&store, epoch](int i, const Network& n, const TrainerState& s) {
        store.saveEpoch(i, n, s);
        if (s.epochsDone < epoch) return;
        store.waitForSaves();  // killed once the checkpoint is on disk, as the test expects
        std::raise(SIGKILL);
    };
    return hooks;
}

}  // namespace skynnet::cli
