#pragma once
// Turns parsed train options into what the engine trains on: the data split and preprocessed,
// the NetworkSpec and the TrainConfig. Separate from the command so another front end (the split
// planner's `plan`, or split training) can build the same inputs and train them differently.
#include <functional>

#include "data/data_source.h"
#include "data/prepared_data.h"
#include "model/network.h"
#include "model/saved_model.h"
#include "run/run_data.h"
#include "train_options.h"

namespace skynnet::cli {

// The data the options ask for, as the engine states a run's data (run/run_data.h): --data and
// --test-data with the fractions, --scaling (default: defaultScalingFor(--data)) and the seed.
RunData runDataOf(const TrainOptions& options);
// prepareRunData (DataUse: run/run_data.h) with the warnings printed on stderr (not for
// DataUse::Submodels). Throws Error for data problems, including data that cannot support training
// (partitionData). split, if given, is called with the parts still raw, the preprocessing fitted
// (what their prepared size follows from), before the preprocessing is applied.
PreparedData prepareData(const RunData& data, DataUse use = DataUse::Training,
                         const std::function<void(const PreparedData&)>& split = {});
// The same for runDataOf(options).
PreparedData prepareData(const TrainOptions& options, DataUse use = DataUse::Training,
                         const std::function<void(const PreparedData&)>& split = {});
// The network on this data, its outputs' activation the one `loss` needs (reconstruction: a
// sigmoid for binary cross-entropy, linear for MSE).
NetworkSpec buildNetworkSpec(const TrainOptions& options, const PreparedData& data, LossKind loss);
// The options' config with the loss chosen for the task: --loss, or the task's default for these
// training inputs as the network takes them (reconstruction: binary cross-entropy when every one
// is in [0, 1], else MSE). A loss that does not fit the task or the data (losses/task_losses.h) is
// a UsageError naming --loss. Only reconstruction reads the inputs.
TrainConfig buildTrainConfig(const TrainOptions& options, Task task, const Matrix& scaledTrainingInputs);
// Everything a model file needs to predict from raw features; `extra` goes into the file as is.
SavedModel buildSavedModel(const PreparedData& data, const Network& network, Json extra);

}  // namespace skynnet::cli
