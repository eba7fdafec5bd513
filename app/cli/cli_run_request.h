#pragma once
// The run request (engine/run/run_request.h) that `train`'s options make, for data prepared
// already (the CLI prepares first, so that an option that does not fit the data, such as
// --augment or --loss, is a usage error naming it before anything trains).
#include <memory>

#include "run/run_request.h"
#include "train_options.h"

namespace skynnet::cli {

RunRequest runRequestOf(const TrainOptions& options, std::shared_ptr<const PreparedData> data);

}  // namespace skynnet::cli
