#pragma once
// Data options on the command line: the engine's DataRequest built from --data and its companion
// options, with the request's own mistakes (an unknown builtin, --labels for a CSV) turned into
// usage errors before anything is loaded.
#include <string>

#include "cli_args.h"
#include "data/data_source.h"

namespace skynnet::cli {

struct DataOptionNames {
    std::string path = "--data", labels = "--labels", target = "--target";
};

// Path (required), labels and target from the options named; the task is left to the caller.
DataRequest dataRequest(const Args& args, const DataOptionNames& names = {});
// checkDataRequest() as a UsageError: its messages already name the option at fault.
void checkRequestUsage(const DataRequest& request);

}  // namespace skynnet::cli
