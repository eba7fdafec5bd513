#pragma once
// The ONNX graph of the transformer layer kinds (issue 27), for onnx_export.cpp's submodel loop.
// Compiled only with the ONNX library (SKYNNET_HAVE_ONNX). Each function reads the layer's weights
// in Network::flatWeights() order (the layers' params(), stored as x W), appends its nodes under
// `name` and moves the cursor on:
//   patch      Conv (kernel = stride = patch) with W (C p p, dim) as [dim, C, p, p], then Reshape
//              and Transpose to [N, patches, dim], the class token (Expand-ed over N) Concat-ed in
//              front, plus the positions.
//   layernorm  over each step's features (a sequence) or the whole sample (rows), epsilon 1e-5:
//              LayerNormalization from opset 17, before it ReduceMean, Sub, Mul, Sqrt, Div.
//   attention  x + MHA(x), MHA written with MatMul, Softmax, Transpose and Reshape; Q, K and V
//              each from its block of Win's columns; the causal mask a constant added before the
//              Softmax, and after a text embedding the key padding mask, -1e9 on the scores of the
//              keys whose id is 0, made from the ids (the cursor's maskIds). Dropout is the
//              identity at inference.
//   encoder    x1 = x + MHA(LN1(x)); y = x1 + gelu(LN2(x1) W1 + b1) W2 + b2.
#include <functional>
#include <string>

#include "export/onnx_graph_builder.h"
#include "spec/transformer_layer_spec.h"

namespace skynnet::onnx_graph {

// Appends an activation on `x` under `name` and returns its output (onnx_export.cpp's activate()).
using ActivationWriter = std::function<std::string(const std::string& x, const std::string& name)>;

void addPatchEmbedding(GraphBuilder& b, Cursor& c, WeightReader& w, const PatchSpec& layer, const std::string& name);
void addLayerNorm(GraphBuilder& b, Cursor& c, WeightReader& w, int opset, const std::string& name);
void addSelfAttention(GraphBuilder& b, Cursor& c, WeightReader& w, const AttentionSpec& layer, const std::string& name);
// `gelu` writes the MLP's activation (the block's is GELU).
void addEncoder(GraphBuilder& b, Cursor& c, WeightReader& w, const EncoderSpec& layer, int opset,
                const ActivationWriter& gelu, const std::string& name);

}  // namespace skynnet::onnx_graph
