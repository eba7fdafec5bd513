#pragma once
// A project's data prepared as the desktop app prepares it (the shared rule of data/partition.h):
// rows split with the project's seed and fractions (no test rows cut when there is
// a test file), preprocessing fitted on the training rows only, and the network refitted to it.
#include "project/project_file.h"
#include "train_setup.h"

namespace skynnet::cli {

// Throws Error naming the data file when it cannot be read.
PreparedData prepareProjectData(const ProjectDataSource& source);
// The project's network with its input and output fitted to the data, as the app does.
NetworkSpec projectNetwork(const NetworkSpec& network, const PreparedData& data);
// The project's split options with epochs, batch size and optimiser slots from its config.
SplitOptions projectSplitOptions(const SplitOptions& split, const TrainConfig& config);

}  // namespace skynnet::cli
