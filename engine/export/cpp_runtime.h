#pragma once
// The fixed code of every exported C++ header (cpp_export.h), the same text for every model:
// written in order cppLayerRuntime, cppSequenceRuntime (cpp_sequence_layers.h),
// cppTransformerRuntime (cpp_transformer_layers.h), cppNetworkRuntime, inside the header's
// namespace detail, after its constant kLeakySlope.

namespace skynnet {

// The layer table's types (Act, Kind, Norm, Attention, Layer and its constexpr builders), the
// activations and the dense, conv and pooling functions.
extern const char* const cppLayerRuntime;
// The layer dispatch, the network loop over a submodel's table (with the step mask an embedding
// makes) and the one-hot of a category code; it calls the sequence and transformer kinds' functions.
extern const char* const cppNetworkRuntime;

}  // namespace skynnet
