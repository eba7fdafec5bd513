#pragma once
// The combination rule of an exported C++ header (cpp_export.h): the body lines of predict() that
// make out[kOutputs] from the submodels' outputs s1, s2..., as CombinedModel combines them.
#include <ostream>

#include "split/combined_model_file.h"

namespace skynnet {

// Throws Error for an unresolved (auto) strategy.
void writeCppCombination(std::ostream& out, const SavedCombinedModel& model);

}  // namespace skynnet
