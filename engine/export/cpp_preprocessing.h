#pragma once
// The preprocessing of an exported C++ header (cpp_export.h): detail::kInputColumns and
// detail::preprocess(raw, x), the model's scaling of the numeric columns and one-hot of the
// categorical ones, so that the header takes raw feature columns as the model file does.
#include <ostream>
#include <string>
#include <vector>

#include "split/combined_model_file.h"

namespace skynnet {

// `rawNames` name the raw columns in comments (empty: "column N").
void writeCppPreprocessing(std::ostream& out, const SavedCombinedModel& model,
                           const std::vector<std::string>& rawNames);

}  // namespace skynnet
