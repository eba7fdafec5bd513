#include "export/cpp_transformer_layers.h"

#include <algorithm>

#include "core/error.h"
#include "export/cpp_literals.h"
#include "layers/encoder_block.h"
#include "layers/layer_norm.h"

namespace skynnet {

const char* const cppTransformerRuntime =
    R"(
// ---- Transformer layers (PyTorch's conventions). Tokens are a sequence: h steps of w features.

// An image (c, h, w) cut into p x p patches, taken row-major (patch row, then column); a patch's
// c p p values in (channel, dy, dx) order, as Conv2d(c, dim, kernel p, stride p) reads them:
//   token of a patch = patch W + b + positions[token]      W [c p p][dim], positions [tokens][dim]
//   token 0 with a class token = classToken + positions[0] (no b)
constexpr Layer patchLayer(int c, int h, int w, int patch, int dim, const float* weights, const float* bias,
                           const float* positions, const float* classToken) {
    Layer l = shapedLayer(Kind::Patch, c, h, w, 1, (h / patch) * (w / patch) + (classToken ? 1 : 0), dim);
    l.kernelH = patch, l.kernelW = patch, l.stride = patch;
    l.weights = weights, l.bias = bias, l.positions = positions, l.classToken = classToken;
    return l;
}

inline void patchEmbedding(const Layer& l, const float* x, float* y) {
    const int p = l.kernelH, dim = l.outW, columns = l.w / p, first = l.classToken ? 1 : 0;
    if (l.classToken)
        for (int d = 0; d < dim; ++d) y[d] = l.classToken[d] + l.positions[d];
    for (int py = 0; py < l.h / p; ++py)
        for (int px = 0; px < columns; ++px) {
            const int token = first + py * columns + px;
            float* o = y + token * dim;
            for (int d = 0; d < dim; ++d) o[d] = 0.0f;
            const float* w = l.weights;
            for (int c = 0; c < l.c; ++c)
                for (int dy = 0; dy < p; ++dy)
                    for (int dx = 0; dx < p; ++dx, w += dim) {
                        const float v = x[(c * l.h + py * p + dy) * l.w + px * p + dx];
                        for (int d = 0; d < dim; ++d) o[d] += v * w[d];
                    }
            const float* position = l.positions + token * dim;
            for (int d = 0; d < dim; ++d) o[d] = (o[d] + l.bias[d]) + position[d];
        }
}

// LayerNorm: each of `rows` rows of `features` values by its own mean and biased variance (two
// passes), then gamma * xhat + beta per feature. A row is a token (l.sequence) or the whole sample.
constexpr Layer layerNormLayer(int c, int h, int w, const float* gamma, const float* beta, float epsilon) {
    Layer l = shapedLayer(Kind::LayerNorm, c, h, w, c, h, w);
    l.norm = Norm{gamma, beta, epsilon};
    return l;
}

inline void normalize(const Norm& n, const float* x, float* y, int rows, int features) {
    for (int r = 0; r < rows; ++r, x += features, y += features) {
        float sum = 0.0f, squares = 0.0f;
        for (int j = 0; j < features; ++j) sum += x[j];
        const float mean = sum / static_cast<float>(features);
        for (int j = 0; j < features; ++j) squares += (x[j] - mean) * (x[j] - mean);
        const float inv = 1.0f / std::sqrt(squares / static_cast<float>(features) + n.epsilon);
        for (int j = 0; j < features; ++j) y[j] = n.gamma[j] * ((x[j] - mean) * inv) + n.beta[j];
    }
}

// Multi-head self-attention of t tokens of d features, into out (t x d), without the residual:
//   [Q | K | V] = x W_in + b_in (W_in [d][3d]); head k reads columns [k dh, (k+1) dh), dh = d / heads;
//   A = softmax(Q_k K_k^T / sqrt(dh)) over the keys (causal: only keys j <= query i);
//   out = [A_0 V_0 | ... ] W_out + b_out (W_out [d][d]).
// With a step mask (1 real, 0 padding), a padding key gets no weight, unless the query sees no real
// key at all (a text of padding alone; when causal, a query before the first real step): then the
// query keeps every key it sees.
// work: Q|K|V (t * 3d), the heads' context (t * d) and one query's scores (t).
inline void selfAttention(const Attention& a, const float* x, int t, int d, float* out, float* work,
                          const float* mask) {
    float* qkv = work;
    float* context = qkv + t * 3 * d;
    float* scores = context + t * d;
    for (int i = 0; i < t; ++i) affine(x + i * d, d, a.in, a.inBias, 3 * d, qkv + i * 3 * d);
    int firstReal = 0;
    while (mask && firstReal < t && mask[firstReal] == 0.0f) ++firstReal;
    const int dh = d / a.heads;
    const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
    for (int k = 0; k < a.heads; ++k)
        for (int i = 0; i < t; ++i) {
            const int seen = a.causal ? i + 1 : t;
            const bool keyMask = mask && firstReal < seen;
            const float* q = qkv + i * 3 * d + k * dh;
            float top = 0.0f, sum = 0.0f;
            bool first = true;
            for (int j = 0; j < seen; ++j) {
                if (keyMask && mask[j] == 0.0f) continue;
                const float* key = qkv + j * 3 * d + d + k * dh;
                float s = 0.0f;
                for (int e = 0; e < dh; ++e) s += q[e] * key[e];
                scores[j] = s * scale;
                top = first ? scores[j] : std::max(top, scores[j]);
                first = false;
            }
            for (int j = 0; j < seen; ++j) {
                if (keyMask && mask[j] == 0.0f) scores[j] = 0.0f;
                else sum += (scores[j] = std::exp(scores[j] - top));
            }
            float* c = context + i * d + k * dh;
            for (int e = 0; e < dh; ++e) c[e] = 0.0f;
            for (int j = 0; j < seen; ++j) {
                if (keyMask && mask[j] == 0.0f) continue;
                const float weight = scores[j] / sum;
                const float* value = qkv + j * 3 * d + 2 * d + k * dh;
                for (int e = 0; e < dh; ++e) c[e] += weight * value[e];
            }
        }
    for (int i = 0; i < t; ++i) affine(context + i * d, d, a.out, a.outBias, d, out + i * d);
}

// attention:HEADS[:causal]: x + selfAttention(x).
constexpr Layer attentionLayer(int steps, int features, Attention a) {
    Layer l = shapedLayer(Kind::Attention, 1, steps, features, 1, steps, features);
    l.sequence = true, l.attention = a;
    return l;
}

// A pre-norm encoder block (nn.TransformerEncoderLayer, norm_first, GELU):
//   x1 = x + selfAttention(LN1(x));  y = x1 + GELU(LN2(x1) W1 + b1) W2 + b2
// W1 [d][mlp] and b1 in weights and bias, W2 [mlp][d] and b2 in weights2 and bias2.
// work: LN's output (t * d), one token's MLP (mlp), then selfAttention's or one token's d. `mask`
// (or nullptr) is the step mask, for selfAttention.
constexpr Layer encoderLayer(int steps, int features, int mlp, Norm norm1, Attention a, Norm norm2, const float* w1,
                             const float* b1, const float* w2, const float* b2) {
    Layer l = shapedLayer(Kind::Encoder, 1, steps, features, 1, steps, features);
    l.sequence = true, l.norm = norm1, l.attention = a, l.norm2 = norm2, l.mlp = mlp;
    l.weights = w1, l.bias = b1, l.weights2 = w2, l.bias2 = b2;
    return l;
}

inline void encoderBlock(const Layer& l, const float* x, float* y, float* work, const float* mask) {
    const int t = l.h, d = l.w;
    float* normed = work;
    float* hidden = normed + t * d;
    float* rest = hidden + l.mlp;
    normalize(l.norm, x, normed, t, d);
    selfAttention(l.attention, normed, t, d, y, rest, mask);
    for (int i = 0; i < t * d; ++i) y[i] += x[i];
    normalize(l.norm2, y, normed, t, d);
    for (int i = 0; i < t; ++i) {
        affine(normed + i * d, d, l.weights, l.bias, l.mlp, hidden);
        activate(Act::Gelu, hidden, l.mlp);
        affine(hidden, l.mlp, l.weights2, l.bias2, d, rest);
        for (int j = 0; j < d; ++j) y[i * d + j] += rest[j];
    }
}

)";

namespace {

// "Attention{heads, causal, W_in, b_in, W_out, b_out}", the arrays written on the way.
std::string attentionParts(int heads, bool causal, int features, const CppWeightArray& array) {
    const std::size_t d = std::size_t(features);
    const std::string win = array("Win", d * 3 * d), bin = array("Bin", 3 * d);
    const std::string wout = array("Wout", d * d), bout = array("Bout", d);
    return "Attention{" + std::to_string(heads) + ", " + (causal ? "true" : "false") + ", " + win + ", " + bin + ", " +
           wout + ", " + bout + "}";
}

std::string normParts(const std::string& name, std::size_t features, float epsilon, const CppWeightArray& array) {
    const std::string gamma = array(name + "Gamma", features), beta = array(name + "Beta", features);
    return "Norm{" + gamma + ", " + beta + ", " + cppFloatLiteral(epsilon) + "}";
}

std::string patchEntry(const PatchSpec& p, Shape in, const CppWeightArray& array) {
    const Shape out = figures(p, in).output;  // (tokens, dim): the class token counted
    const std::size_t dim = std::size_t(p.dim);
    const std::string W = array("W", std::size_t(in.channels) * std::size_t(p.patch) * std::size_t(p.patch) * dim);
    const std::string B = array("B", dim), positions = array("Positions", std::size_t(out.height) * dim);
    const std::string cls = p.classToken ? array("ClassToken", dim) : "nullptr";
    return "patchLayer(" + std::to_string(in.channels) + ", " + std::to_string(in.height) + ", " +
           std::to_string(in.width) + ", " + std::to_string(p.patch) + ", " + std::to_string(p.dim) + ", " + W + ", " +
           B + ", " + positions + ", " + cls + ")";
}

std::string encoderEntry(const EncoderSpec& e, Shape in, const CppWeightArray& array) {
    const EncoderBlock block(e.heads, e.mlp, 0.0f);  // its LayerNorms' epsilon
    const std::size_t d = std::size_t(in.width), mlp = std::size_t(e.mlp);
    const std::string norm1 = normParts("Ln1", d, block.norm1().epsilon(), array);
    const std::string attention = attentionParts(e.heads, false, in.width, array);
    const std::string norm2 = normParts("Ln2", d, block.norm2().epsilon(), array);
    const std::string w1 = array("W1", d * mlp), b1 = array("B1", mlp), w2 = array("W2", mlp * d), b2 = array("B2", d);
    return "encoderLayer(" + std::to_string(in.height) + ", " + std::to_string(in.width) + ", " +
           std::to_string(e.mlp) + ",\n        " + norm1 + ",\n        " + attention + ",\n        " + norm2 +
           ",\n        " + w1 + ", " + b1 + ", " + w2 + ", " + b2 + ")";
}

}  // namespace

std::string cppTransformerLayerEntry(const LayerSpec& layer, Shape input, const CppWeightArray& array) {
    if (const auto* p = std::get_if<PatchSpec>(&layer)) return patchEntry(*p, input, array);
    if (std::holds_alternative<LayerNormSpec>(layer)) {
        // A token's features, or the whole sample; the gamma and beta of one row.
        const std::size_t features = std::size_t(input.sequence ? input.width : input.size());
        const std::string gamma = array("Gamma", features), beta = array("Beta", features);
        return "layerNormLayer(" + std::to_string(input.channels) + ", " + std::to_string(input.height) + ", " +
               std::to_string(input.width) + ", " + gamma + ", " + beta + ", " +
               cppFloatLiteral(LayerNorm().epsilon()) + ")";
    }
    if (const auto* a = std::get_if<AttentionSpec>(&layer))
        return "attentionLayer(" + std::to_string(input.height) + ", " + std::to_string(input.width) + ", " +
               attentionParts(a->heads, a->causal, input.width, array) + ")";
    if (const auto* e = std::get_if<EncoderSpec>(&layer)) return encoderEntry(*e, input, array);
    throw Error("not a transformer layer: " + description(layer));
}

std::int64_t cppTransformerWorkFloats(const LayerSpec& layer, Shape input) {
    const std::int64_t t = input.height, d = input.width;
    const std::int64_t attention = t * 3 * d + t * d + t;  // Q|K|V, the context, one query's scores
    if (std::holds_alternative<AttentionSpec>(layer)) return attention;
    if (const auto* e = std::get_if<EncoderSpec>(&layer)) return t * d + e->mlp + std::max(attention, d);
    return 0;
}

}  // namespace skynnet
