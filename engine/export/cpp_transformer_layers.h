#pragma once
// The transformer layer kinds of the C++ header export (cpp_export.h): patch, layernorm, attention
// and encoder (issue 27). Their runtime functions (the same text for every model) and each layer's
// table entry, as cpp_sequence_layers.h does for the sequence kinds. The conventions are the
// engine's (layers/patch_embedding.h, layer_norm.h, attention.h, encoder_block.h), PyTorch's: a
// token sequence is steps x features, step-major; weights are x W; inference has no dropout.
#include <cstdint>
#include <string>

#include "export/cpp_sequence_layers.h"
#include "spec/layer_spec.h"

namespace skynnet {

// The generated functions patchEmbedding(), normalize(), selfAttention(), encoderBlock() and their
// table builders; they use the header's Layer, Norm and Attention and the sequence runtime's
// affine(), and are written after cppSequenceRuntime, before the layer dispatch.
extern const char* const cppTransformerRuntime;

// The table entry of `layer` (one of the four transformer kinds) over `input`, its weights written
// by `array` in Network::flatWeights() order. Throws Error for another kind.
std::string cppTransformerLayerEntry(const LayerSpec& layer, Shape input, const CppWeightArray& array);

// Floats of scratch the layer's runtime needs beyond its output (attention's Q|K|V, context and
// scores; an encoder block's normalised tokens and MLP row besides); 0 for the other kinds.
std::int64_t cppTransformerWorkFloats(const LayerSpec& layer, Shape input);

}  // namespace skynnet
