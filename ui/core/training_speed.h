#pragma once
// How fast this machine trains a project's network, measured in a fraction of a second, for the
// Study page's time estimate before a study starts. The unit is the split planner's cost
// (submodelCost of split/schedule.h: forward FLOPs of a sample x rows x epochs), so a plan's cost
// divided by the speed is its training time on one core. No Qt: a worker thread runs it.
#include <optional>

#include "data/dataset.h"
#include "data/prepared_data.h"
#include "spec/network_spec.h"
#include "train/train_types.h"

namespace skynnet::ui {

struct TrainingSpeed {
    double costPerSecond = 0;  // planner cost units trained per second, on one core
    // What each run of a study spends on its data before and beside training (reading, preparing,
    // testing), estimated from the time preparing a part of it took.
    double dataSecondsPerRun = 0;
};

// Prepares up to 2000 rows of `data` spread over all of it, then trains `network` on one core with
// `config`'s batch size and optimiser for about `seconds`. Nullopt when it cannot train there (a
// network that does not fit the data: Start says why).
std::optional<TrainingSpeed> measureTrainingSpeed(const NetworkSpec& network, const Dataset& data,
                                                  PreparationSettings preparation, TrainConfig config,
                                                  double seconds = 0.25);

}  // namespace skynnet::ui
