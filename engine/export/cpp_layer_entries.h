#pragma once
// A layer's entry in an exported C++ header's layer table (cpp_export.h): the constexpr call that
// builds its Layer (denseLayer(...), convLayer(...)), its weights written as arrays on the way.
#include <string>

#include "export/cpp_sequence_layers.h"
#include "export/cpp_transformer_layers.h"
#include "layers/activation.h"
#include "spec/layer_spec.h"

namespace skynnet {

// The generated Act value of an activation ("Act::Relu").
const char* cppActivationName(Activation activation);

// The entry of `layer` over `input`, its weights written by `array` in Network::flatWeights() order:
// dense, conv, the pools, batch norm, activation, the sequence kinds (cpp_sequence_layers.h) and
// the transformer kinds (cpp_transformer_layers.h).
// Throws Error for dropout and flatten, which have no entry (the identity and a renaming).
std::string cppLayerEntry(const LayerSpec& layer, Shape input, const CppWeightArray& array);

}  // namespace skynnet
