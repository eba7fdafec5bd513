#pragma once
// A project's data prepared as the desktop app prepares it (the shared rule of data/partition.h):
// rows split with the project's seed and fractions (no test rows cut when there is
// a test file), preprocessing fitted on the training rows only. The engine's run fits the network
// to it (run/run_request.h: networkFor).
#include "project/project_file.h"
#include "train_setup.h"

namespace skynnet::cli {

// Throws Error naming the data file when it cannot be read.
PreparedData prepareProjectData(const ProjectDataSource& source);

}  // namespace skynnet::cli
