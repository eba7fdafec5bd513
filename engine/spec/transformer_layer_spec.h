#pragma once
// The layer kinds of transformers (issue 27): the Vision Transformer's patch embedding, layer
// normalisation, self-attention alone and the pre-norm encoder block. Tokens are sequences
// (Shape::steps(tokens, dim)); layer_spec.h lists the kinds in LayerSpec and gives their figures.
// Conventions are PyTorch's (layers/attention.h, layers/encoder_block.h).
#include <string>

namespace skynnet {

// Square patches of an image (C, H, W), each projected to `dim` values, plus learned positions;
// with classToken, a learned class token first. H and W must be multiples of the patch size.
struct PatchSpec {
    static constexpr const char* kind = "patch";
    int patch = 7;
    int dim = 64;
    bool classToken = false;
    bool scalable = true;  // the split shrinks dim like units (the reference shrinks the projection)

    bool operator==(const PatchSpec&) const = default;
};

// Normalises each token's features (a flat input: all its values), then scales and shifts them.
struct LayerNormSpec {
    static constexpr const char* kind = "layernorm";

    bool operator==(const LayerNormSpec&) const = default;
};

// Multi-head self-attention with its residual: x + attention(x). Each head reads width / heads
// features; causal lets a token see only itself and the tokens before it.
struct AttentionSpec {
    static constexpr const char* kind = "attention";
    int heads = 4;
    bool causal = false;
    float dropout = 0.0f;  // on the attention weights, while training

    bool operator==(const AttentionSpec&) const = default;
};

// One pre-norm transformer encoder block, as wide as its input: LayerNorm, self-attention,
// residual add, LayerNorm, an MLP of `mlp` units with GELU and dropout, residual add.
struct EncoderSpec {
    static constexpr const char* kind = "encoder";
    int heads = 4;
    int mlp = 128;
    float dropout = 0.0f;
    bool scalable = true;  // the split shrinks the MLP width like units

    bool operator==(const EncoderSpec&) const = default;
};

// "patch 7x7 64 cls", "layernorm", "attention 4 heads causal", "encoder 4 heads mlp 128 dropout
// 0.1": their description().
std::string describe(const PatchSpec& layer);
std::string describe(const LayerNormSpec& layer);
std::string describe(const AttentionSpec& layer);
std::string describe(const EncoderSpec& layer);

}  // namespace skynnet
