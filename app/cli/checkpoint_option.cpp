#include "checkpoint_option.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"

namespace skynnet::cli {

std::optional<CheckpointStore> openCheckpoints(const TrainOptions& o, const SplitPlan& plan, const TrainConfig& config,
                                               const Dataset& train, const Dataset* validation) {
    if (o.checkpointDir.empty()) return std::nullopt;
    const CheckpointRunKey key = checkpointRunKey(plan, config, train, validation);
    if (!o.resume) {
        if (CheckpointStore::holdsRun(o.checkpointDir))
            throw Error("the checkpoint folder " + o.checkpointDir +
                        " holds the checkpoints of an earlier run: add --resume to continue from them, or remove the "
                        "folder to start afresh");
        return CheckpointStore::start(o.checkpointDir, plan, key);
    }
    CheckpointStore store = CheckpointStore::resume(o.checkpointDir, plan, key);
    if (!o.quiet) std::fprintf(stderr, "resuming from %s: %s\n", o.checkpointDir.c_str(), store.progressText().c_str());
    return store;
}

CheckpointHooks checkpointHooks(const CheckpointStore& store) {
    CheckpointHooks hooks = store.hooks();
    const char* killAfter = std::getenv("SKYNNET_TEST_KILL_AFTER_CHECKPOINT");
    if (!killAfter || !*killAfter) return hooks;
    const int epoch = std::atoi(killAfter);
    hooks.saveEpoch = [&store, epoch](int i, const Network& n, const TrainerState& s) {
        store.saveEpoch(i, n, s);
        if (s.epochsDone >= epoch) std::raise(SIGKILL);
    };
    return hooks;
}

}  // namespace skynnet::cli
