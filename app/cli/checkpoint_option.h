#pragma once
// `train --checkpoint DIR` and `--resume`: which folder a run checkpoints into, and opening it for
// a new run or for continuing the one it holds.
#include <optional>
#include <string>

#include "project/checkpoint_store.h"
#include "train_options.h"

namespace skynnet::cli {

// A new run: refuses (Error) a folder that holds an earlier run, which only --resume continues.
// resume: continues the folder's run and says how far it got on stderr (unless quiet).
// Empty without a checkpoint folder (folder "").
std::optional<CheckpointStore> openCheckpoints(const std::string& folder, bool resume, bool quiet,
                                               const SplitPlan& plan, const TrainConfig& config, const Dataset& train,
                                               const Dataset* validation);
inline std::optional<CheckpointStore> openCheckpoints(const TrainOptions& o, const SplitPlan& plan,
                                                      const TrainConfig& config, const Dataset& train,
                                                      const Dataset* validation) {
    return openCheckpoints(o.checkpointDir, o.resume, o.quiet, plan, config, train, validation);
}

// The store's hooks, plus the test seam SKYNNET_TEST_KILL_AFTER_CHECKPOINT=E: the process kills
// itself (SIGKILL, as a crash would) once it has saved a checkpoint after epoch E.
CheckpointHooks checkpointHooks(const CheckpointStore& store);

}  // namespace skynnet::cli
