#pragma once
// The Skynnet split on the command line, shared by `plan` and `train --submodels`: the number of
// submodels N, the strategy and its knobs (method.md §1-§5), parsed into the engine's SplitOptions.
#include <optional>
#include <vector>

#include "cli_args.h"
#include "split/split_plan.h"
#include "train/train_types.h"

namespace skynnet::cli {

// --submodels, --strategy, --scale-epochs, --shard-factor, --combine, --other-share,
// --binary-combine, --no-shuffle-shards, --regression-fallback, --reference.
const std::vector<OptionSpec>& splitOptionSpecs();

// Empty without --submodels (any other split option is then a UsageError naming it). The seed,
// batch size, epochs and the optimiser's state slots (for the memory estimate) come from config.
std::optional<SplitOptions> parseSplitOptions(const Args& args, const TrainConfig& config);

// Before planning: a knob the planner itself would refuse for the strategy the task resolves to
// (--other-share with another strategy) is a UsageError naming it. Returns the options to plan
// with: the default "other" share dropped where the strategy has no use for it.
SplitOptions fitSplitOptions(const Args& args, const SplitOptions& options, Task task);

// A strategy knob the plan does not use is a UsageError naming it ("--binary-combine: only applies
// to the binary-shards strategy, this plan uses class-groups"): known only once the data's task
// has resolved the strategy.
void checkSplitOptionsUsed(const Args& args, const SplitOptions& options, const SplitPlan& plan);

}  // namespace skynnet::cli
