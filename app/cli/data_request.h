#pragma once
// Data options on the command line: the engine's DataRequest built from --data and its companion
// options, with the request's own mistakes (an unknown builtin, --labels for a CSV) turned into
// usage errors before anything is loaded.
#include <string>

#include "cli_args.h"
#include "data/data_source.h"
#include "data/text_data.h"

namespace skynnet::cli {

struct DataOptionNames {
    std::string path = "--data", labels = "--labels", target = "--target";
};

// Path (required), labels and target from the options named, and the image options (--image-size,
// --channels, --strict-images), --sample-shape, --text-column and --as-sequence where the command
// has them; the task is left to the caller.
DataRequest dataRequest(const Args& args, const DataOptionNames& names = {});
// The option specs of the image options, for a command's table: all four for train and plan,
// --strict-images alone where the model decides size and channels (evaluate, predict).
const std::vector<OptionSpec>& imageOptionSpecs();
OptionSpec strictImagesSpec();
// Text and sequence data options of train and plan: --text-column, --vocab, --max-length and
// --as-sequence (issue 26). --text-column alone where the model decides the rest (evaluate, predict).
const std::vector<OptionSpec>& textOptionSpecs();
OptionSpec textColumnSpec();
// --vocab and --max-length (defaults TextSettings's); usage errors when given for data that is
// not text (no --text-column, not a folder of .txt files).
TextSettings textSettings(const Args& args, const DataRequest& data);
// checkDataRequest() as a UsageError: its messages already name the option at fault.
void checkRequestUsage(const DataRequest& request);

}  // namespace skynnet::cli
