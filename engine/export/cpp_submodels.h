#pragma once
// The submodels of an exported C++ header (cpp_export.h): for each, its weights as constexpr
// arrays, commented with the layer they belong to, and its table of layers (cpp_layer_entries.h).
#include <cstdint>
#include <ostream>

#include "split/combined_model_file.h"

namespace skynnet {

// The scratch predict() needs, in floats: the largest layer output (buffers a and b), a recurrent
// or transformer layer's work and the longest step mask; each at least 1.
struct CppScratch {
    std::int64_t widest = 1, work = 1, steps = 1;
};

// Writes every submodel's arrays and layer table (detail::kSub1, kSub2...; with class groups also
// kSub1Classes...) and returns the scratch their layers need. Throws Error if a submodel's weights
// do not match its layers.
CppScratch writeCppSubmodels(std::ostream& out, const SavedCombinedModel& model);

}  // namespace skynnet
