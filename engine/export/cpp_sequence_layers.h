#pragma once
// The sequence layer kinds of the C++ header export (cpp_export.h): embedding, gru, lstm and
// seqpool. Their runtime functions (the same text for every model) and each layer's table entry;
// batch norm and the activations over a sequence are cpp_layer_entries.cpp's, marked overSteps()
// by cpp_submodels.cpp.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "spec/layer_spec.h"

namespace skynnet {

// The generated functions embedding(), recurrent() and seqPool() and their table helpers; they use
// the header's Layer and Kind, and are written before its layer dispatch.
extern const char* const cppSequenceRuntime;

// Writes the layer's next `count` weights as a constexpr array named for `part`; returns the name.
using CppWeightArray = std::function<std::string(const std::string& part, std::size_t count)>;

// The table entry of `layer` (one of the four sequence kinds) over `input`, its weights written by
// `array` in Network::flatWeights() order. Throws Error for another kind or an unbound vocabulary.
std::string cppSequenceLayerEntry(const LayerSpec& layer, Shape input, const CppWeightArray& array);

// Floats of scratch the layer's runtime needs beyond its output (a recurrent layer's steps, gates
// and cell); 0 for the other kinds.
std::int64_t cppSequenceWorkFloats(const LayerSpec& layer, Shape input);

}  // namespace skynnet
