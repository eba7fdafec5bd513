#ifdef SKYNNET_HAVE_ONNX
#include "export/onnx_transformer_layers.h"

#include <cmath>
#include <vector>

namespace skynnet::onnx_graph {

namespace {

constexpr float kLayerNormEpsilon = 1e-5f;  // layers/layer_norm.h's, and both of an encoder block's

std::string transpose(GraphBuilder& b, const std::string& x, const Dims& perm, const std::string& output) {
    GraphBuilder::setInts(b.node("Transpose", {x}, output), "perm", perm);
    return output;
}

// x W + b for x of any rank, W (in, out) and b (1, out) taken from the reader.
std::string linear(GraphBuilder& b, WeightReader& w, const std::string& x, std::int64_t in, std::int64_t out,
                   const std::string& name) {
    const std::string W = b.floats(name + "/W", {in, out}, w.take(name + "/W", in * out), std::size_t(in * out));
    const std::string B = b.floats(name + "/b", {out}, w.take(name + "/b", out), std::size_t(out));
    return b.op("Add", {b.op("MatMul", {x, W}, name + "/product"), B}, name);
}

// LayerNorm over the last axis of `x` (`features` wide); gamma and beta taken from the reader.
std::string layerNorm(GraphBuilder& b, WeightReader& w, const std::string& x, std::int64_t features, int opset,
                      const std::string& name) {
    const std::string gamma = b.floats(name + "/gamma", {features}, w.take(name + "/gamma", features),
                                       std::size_t(features));
    const std::string beta = b.floats(name + "/beta", {features}, w.take(name + "/beta", features),
                                      std::size_t(features));
    if (opset >= 17) {
        auto& n = b.node("LayerNormalization", {x, gamma, beta}, name);
        GraphBuilder::setInt(n, "axis", -1);
        GraphBuilder::setFloat(n, "epsilon", kLayerNormEpsilon);
        return name;
    }
    // Before opset 17: (x - mean) / sqrt(biased variance + epsilon) * gamma + beta.
    const auto mean = [&](const std::string& v, const std::string& output) {
        auto& n = b.node("ReduceMean", {v}, output);
        GraphBuilder::setInts(n, "axes", {-1});
        GraphBuilder::setInt(n, "keepdims", 1);
        return output;
    };
    const std::string centred = b.op("Sub", {x, mean(x, name + "/mean")}, name + "/centred");
    const std::string variance = mean(b.op("Mul", {centred, centred}, name + "/squares"), name + "/variance");
    const std::string deviation =
        b.op("Sqrt", {b.op("Add", {variance, b.scalar(name + "/epsilon", kLayerNormEpsilon)}, name + "/variance_eps")},
             name + "/deviation");
    const std::string normalised = b.op("Div", {centred, deviation}, name + "/normalised");
    return b.op("Add", {b.op("Mul", {normalised, gamma}, name + "/scaled"), beta}, name);
}

// The key padding mask of layers/attention.h as a term added to the scores [N, heads, T, T]:
// -1e9 (a zero weight after the Softmax, with or without the causal -1e9) where the key's id is 0
// and the query sees a real key (any in the row; when causal, one at or before the query), else 0.
// Returns [N, 1, T, T] when causal, [N, 1, 1, T] when not; `ids` are the int64 ids [N, T].
std::string keyPaddingTerm(GraphBuilder& b, const std::string& ids, bool causal, const std::string& name) {
    const std::string padding = b.op("Equal", {ids, b.int64s(name + "/padding_id", {}, {0})}, name + "/padding");
    const std::string real = name + "/real";
    GraphBuilder::setInt(b.node("Cast", {b.op("Not", {padding}, name + "/real_steps")}, real), "to",
                         onnx::TensorProto::FLOAT);
    // Real keys a query sees: [N, T] (the running count up to each query) or [N, 1] (the row's).
    std::string seen;
    if (causal) {
        seen = b.op("CumSum", {real, b.int64s(name + "/step_axis", {}, {1})}, name + "/seen");
    } else {
        seen = name + "/seen";
        GraphBuilder::setInt(b.node("ReduceSum", {real, b.int64s(name + "/step_axes", {1}, {1})}, seen), "keepdims", 1);
    }
    const std::string sees = b.op("Greater", {seen, b.scalar(name + "/zero", 0.0f)}, name + "/sees_real");
    const std::string masked =
        b.op("And",
             {b.op("Unsqueeze", {sees, b.int64s(name + "/key_axis", {1}, {2})}, name + "/sees_real_per_query"),
              b.op("Unsqueeze", {padding, b.int64s(name + "/query_axis", {1}, {1})}, name + "/padding_per_key")},
             name + "/masked");  // [N, T or 1, T]
    const std::string term =
        b.op("Where", {masked, b.scalar(name + "/minus_big", -1e9f), b.scalar(name + "/none", 0.0f)}, name + "/term");
    return b.op("Unsqueeze", {term, b.int64s(name + "/head_axis", {1}, {1})}, name + "/per_head");
}

// layers/attention.h's MultiHeadAttention on x [N, T, D]: Win (D, 3D), bin, Wout (D, D), bout.
// `maskIds`: the int64 ids the step mask comes from (padding keys masked), or empty (none).
std::string multiHeadAttention(GraphBuilder& b, WeightReader& w, const std::string& x, std::int64_t steps,
                               std::int64_t dim, int heads, bool causal, const std::string& maskIds,
                               const std::string& name) {
    const std::int64_t width = 3 * dim, dh = dim / heads;
    const float* wIn = w.take(name + "/in_W", dim * width);
    const float* bIn = w.take(name + "/in_b", width);
    // Q, K and V [N, heads, T, dh] from their blocks of columns of Win and bin.
    const auto project = [&](int block, const std::string& part) {
        std::vector<float> W(std::size_t(dim * dim)), B(static_cast<std::size_t>(dim));
        for (std::int64_t i = 0; i < dim; ++i)
            for (std::int64_t j = 0; j < dim; ++j) W[std::size_t(i * dim + j)] = wIn[i * width + block * dim + j];
        for (std::int64_t j = 0; j < dim; ++j) B[std::size_t(j)] = bIn[block * dim + j];
        const std::string tag = name + "/" + part;
        const std::string projected = b.op("Add",
                                           {b.op("MatMul", {x, b.floats(tag + "/W", {dim, dim}, W)}, tag + "/product"),
                                            b.floats(tag + "/b", {dim}, B)},
                                           tag + "/projected");
        return b.op("Reshape", {projected, b.int64s(tag + "/heads_shape", {4}, {0, steps, heads, dh})},
                    tag + "/heads");  // [N, T, heads, dh]
    };
    const std::string q = transpose(b, project(0, "q"), {0, 2, 1, 3}, name + "/q/per_head");
    const std::string kT = transpose(b, project(1, "k"), {0, 2, 3, 1}, name + "/k/per_head_t");  // [N, h, dh, T]
    const std::string v = transpose(b, project(2, "v"), {0, 2, 1, 3}, name + "/v/per_head");
    std::string scores = b.op("Mul",
                              {b.op("MatMul", {q, kT}, name + "/qk"),
                               b.scalar(name + "/scale", float(1.0 / std::sqrt(double(dh))))},
                              name + "/scores");  // [N, heads, T, T]
    if (causal) {
        // Keys after the query get a large negative score: a zero weight after the Softmax.
        std::vector<float> mask(std::size_t(steps * steps), 0.0f);
        for (std::int64_t i = 0; i < steps; ++i)
            for (std::int64_t j = i + 1; j < steps; ++j) mask[std::size_t(i * steps + j)] = -1e9f;
        scores = b.op("Add", {scores, b.floats(name + "/causal_mask", {steps, steps}, mask)}, name + "/masked_scores");
    }
    if (!maskIds.empty())
        scores = b.op("Add", {scores, keyPaddingTerm(b, maskIds, causal, name + "/key_mask")},
                      name + "/unpadded_scores");
    const std::string weights = b.opAxis("Softmax", {scores}, name + "/weights", -1);
    const std::string context = transpose(b, b.op("MatMul", {weights, v}, name + "/context_per_head"), {0, 2, 1, 3},
                                          name + "/context_steps");  // [N, T, heads, dh]
    const std::string joined = b.op("Reshape", {context, b.int64s(name + "/context_shape", {3}, {0, steps, dim})},
                                    name + "/context");
    return linear(b, w, joined, dim, dim, name + "/out");
}

}  // namespace

void addPatchEmbedding(GraphBuilder& b, Cursor& c, WeightReader& w, const PatchSpec& layer, const std::string& name) {
    if (c.shape.sequence) throw Error("ONNX export: " + name + " needs an image, got " + c.shape.toString());
    toImage(b, c, name);
    const std::int64_t channels = c.shape.channels, p = layer.patch, dim = layer.dim;
    const std::int64_t patches = (c.shape.height / p) * (c.shape.width / p), kernel = channels * p * p;
    const float* stored = w.take(name + "/W", kernel * dim);
    // Row (c, dy, dx) of the stored W is Conv's W[o][c][dy][dx] for every output o.
    std::vector<float> W(std::size_t(dim * kernel));
    for (std::int64_t o = 0; o < dim; ++o)
        for (std::int64_t k = 0; k < kernel; ++k) W[std::size_t(o * kernel + k)] = stored[k * dim + o];
    const std::string B = b.floats(name + "/b", {dim}, w.take(name + "/b", dim), std::size_t(dim));
    const std::int64_t tokens = patches + (layer.classToken ? 1 : 0);
    const std::string positions = b.floats(name + "/positions", {tokens, dim},
                                           w.take(name + "/positions", tokens * dim), std::size_t(tokens * dim));
    auto& conv = b.node("Conv", {c.tensor, b.floats(name + "/conv_W", {dim, channels, p, p}, W), B}, name + "/conv");
    GraphBuilder::setInts(conv, "kernel_shape", {p, p});
    GraphBuilder::setInts(conv, "strides", {p, p});
    const std::string flat = b.op("Reshape", {name + "/conv", b.int64s(name + "/grid_shape", {3}, {0, dim, patches})},
                                  name + "/grid");
    std::string x = transpose(b, flat, {0, 2, 1}, name + "/patches");  // [N, patches, dim], row-major patches
    if (layer.classToken) {
        const std::string cls = b.floats(name + "/class_token", {1, 1, dim}, w.take(name + "/class_token", dim),
                                         std::size_t(dim));
        // [N, 1, dim]: the batch size from the patches' shape.
        const std::string batch = name + "/batch";
        b.node("Slice",
               {b.op("Shape", {x}, name + "/patches_shape"), b.int64s(name + "/batch_start", {1}, {0}),
                b.int64s(name + "/batch_end", {1}, {1})},
               batch);
        const std::string target = b.opAxis("Concat", {batch, b.int64s(name + "/token_shape", {2}, {1, dim})},
                                            name + "/cls_shape", 0);
        const std::string clsRows = b.op("Expand", {cls, target}, name + "/cls_rows");
        x = b.opAxis("Concat", {clsRows, x}, name + "/tokens", 1);
    }
    c.tensor = b.op("Add", {x, positions}, name);
    c.layout = Layout::Sequence;
    c.shape = Shape::steps(int(tokens), layer.dim);
}

void addLayerNorm(GraphBuilder& b, Cursor& c, WeightReader& w, int opset, const std::string& name) {
    // A step's features for a sequence, else the whole sample: layers/layer_norm.h's rows.
    c.shape.sequence ? toSequence(b, c, name) : toRows(b, c, name);
    const std::int64_t features = c.shape.sequence ? c.shape.width : c.shape.size();
    c.tensor = layerNorm(b, w, c.tensor, features, opset, name);
}

void addSelfAttention(GraphBuilder& b, Cursor& c, WeightReader& w, const AttentionSpec& layer,
                      const std::string& name) {
    toSequence(b, c, name);
    const std::string attended = multiHeadAttention(b, w, c.tensor, c.shape.height, c.shape.width, layer.heads,
                                                    layer.causal, c.maskIds, name + "/mha");
    c.tensor = b.op("Add", {c.tensor, attended}, name);
}

void addEncoder(GraphBuilder& b, Cursor& c, WeightReader& w, const EncoderSpec& layer, int opset,
                const ActivationWriter& gelu, const std::string& name) {
    toSequence(b, c, name);
    const std::int64_t steps = c.shape.height, dim = c.shape.width;
    const std::string normed1 = layerNorm(b, w, c.tensor, dim, opset, name + "/ln1");
    const std::string attended = multiHeadAttention(b, w, normed1, steps, dim, layer.heads, false, c.maskIds,
                                                    name + "/mha");
    const std::string x1 = b.op("Add", {c.tensor, attended}, name + "/residual1");
    const std::string normed2 = layerNorm(b, w, x1, dim, opset, name + "/ln2");
    const std::string hidden = gelu(linear(b, w, normed2, dim, layer.mlp, name + "/linear1"), name + "/linear1");
    const std::string mlp = linear(b, w, hidden, layer.mlp, dim, name + "/linear2");
    c.tensor = b.op("Add", {x1, mlp}, name);
}

}  // namespace skynnet::onnx_graph

#endif
