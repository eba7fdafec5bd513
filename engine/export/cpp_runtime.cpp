#include "export/cpp_runtime.h"

// The generated code's fixed part, as text. It is C++ for the compiler that reads the exported
// header, not for this one: edit it as code, and mind that every model's header holds it.
namespace skynnet {

const char* const cppLayerRuntime =
    R"(enum class Act { Linear, Relu, LeakyRelu, Sigmoid, Tanh, Softmax, Gelu, Relu6, Softplus, Elu };
enum class Kind {
    Dense, Conv, MaxPool, AvgPool, GlobalAvgPool, BatchNorm, Activation,
    Embedding, Gru, Lstm, SeqPoolMean, SeqPoolLast, SeqPoolFirst,  // the sequence kinds
    Patch, LayerNorm, Attention, Encoder                           // the transformer kinds
};

// One layer. Samples are rows of (C, H, W) values, index c*H*W + h*W + w; a sequence is (1, steps,
// features), step-major; a dense layer takes all of them. Dense: y = act(x W + b), W row-major
// [inputs][units]. Conv: W [filters][C][kH][kW], bias optional, zero padding padTop/padLeft before
// the input. Pools: window kH x kW, no padding. BatchNorm: y = gamma (x - mean) / sqrt(var +
// epsilon) + beta per channel (per feature when flat, and over every step of a sequence).
// The sequence kinds (embedding, gru, lstm, seqpool) and the transformer kinds (patch, layernorm,
// attention, encoder) are described with their functions below.

// A LayerNorm's parameters, per feature of a row; multi-head self-attention's: W_in [features][3
// features] (Q|K|V blocks) and b_in, W_out [features][features] and b_out; causal: a query sees
// only itself and the tokens before it.
struct Norm { const float *gamma, *beta; float epsilon; };
struct Attention { int heads; bool causal; const float *in, *inBias, *out, *outBias; };

struct Layer {
    Kind kind;
    int c, h, w;                    // input shape
    int outC, outH, outW;           // output shape
    int kernelH, kernelW, stride, padTop, padLeft;
    Act activation;
    const float* weights;           // dense, conv W; batch norm gamma; embedding table; recurrent W_x
    const float* bias;              // dense, conv b (nullptr: none); batch norm beta; recurrent b_x
    const float* mean;              // batch norm running mean and variance
    const float* variance;
    float epsilon;
    bool sequence;                  // the input is a sequence of h steps of w features
    int vocabulary;                 // embedding: ids 0 to vocabulary - 1
    const float* recurrentWeights;  // recurrent W_h [units][gates * units] and b_h
    const float* recurrentBias;
    Norm norm, norm2;               // layernorm; an encoder block's LN1 and LN2
    Attention attention;            // attention, and an encoder block's
    int mlp;                        // encoder: MLP width; W1, b1 in weights and bias
    const float* weights2;          // encoder: W2 [mlp][features] and b2
    const float* bias2;
    const float* positions;         // patch: learned positions [tokens][dim]
    const float* classToken;        // patch: the class token [dim] (nullptr: none)
};

// A layer of `kind` from (c, h, w) to (outC, outH, outW); the other fields empty.
constexpr Layer shapedLayer(Kind kind, int c, int h, int w, int outC, int outH, int outW) {
    Layer l{};
    l.kind = kind;
    l.c = c, l.h = h, l.w = w;
    l.outC = outC, l.outH = outH, l.outW = outW;
    l.stride = 1;
    return l;
}
constexpr Layer denseLayer(int inputs, int units, Act a, const float* w, const float* b) {
    Layer l = shapedLayer(Kind::Dense, 1, 1, inputs, 1, 1, units);
    l.activation = a, l.weights = w, l.bias = b;
    return l;
}
constexpr Layer convLayer(int c, int h, int w, int filters, int outH, int outW, int kH, int kW, int stride, int padTop,
                          int padLeft, Act a, const float* weights, const float* bias) {
    Layer l = shapedLayer(Kind::Conv, c, h, w, filters, outH, outW);
    l.kernelH = kH, l.kernelW = kW, l.stride = stride, l.padTop = padTop, l.padLeft = padLeft;
    l.activation = a, l.weights = weights, l.bias = bias;
    return l;
}
constexpr Layer poolLayer(Kind kind, int c, int h, int w, int outH, int outW, int size, int stride) {
    Layer l = shapedLayer(kind, c, h, w, c, outH, outW);
    l.kernelH = size, l.kernelW = size, l.stride = stride;
    return l;
}
constexpr Layer batchNormLayer(int c, int h, int w, const float* gamma, const float* beta, const float* mean,
                               const float* variance, float epsilon) {
    Layer l = shapedLayer(Kind::BatchNorm, c, h, w, c, h, w);
    l.weights = gamma, l.bias = beta, l.mean = mean, l.variance = variance, l.epsilon = epsilon;
    return l;
}
constexpr Layer activationLayer(int c, int h, int w, Act a) {
    Layer l = shapedLayer(Kind::Activation, c, h, w, c, h, w);
    l.activation = a;
    return l;
}
// The same layer reading a sequence (its h steps of w features).
constexpr Layer overSteps(Layer l) {
    l.sequence = true;
    return l;
}

inline void activate(Act a, float* y, int n) {
    switch (a) {
    case Act::Linear: break;
    case Act::Relu:
        for (int j = 0; j < n; ++j) y[j] = std::max(y[j], 0.0f);
        break;
    case Act::LeakyRelu:
        for (int j = 0; j < n; ++j) y[j] = y[j] > 0.0f ? y[j] : y[j] * kLeakySlope;
        break;
    case Act::Sigmoid:
        for (int j = 0; j < n; ++j) y[j] = 1.0f / (1.0f + std::exp(-y[j]));
        break;
    case Act::Tanh:
        for (int j = 0; j < n; ++j) y[j] = std::tanh(y[j]);
        break;
    case Act::Softmax: {
        float top = y[0], sum = 0.0f;
        for (int j = 1; j < n; ++j) top = std::max(top, y[j]);
        for (int j = 0; j < n; ++j) sum += (y[j] = std::exp(y[j] - top));
        for (int j = 0; j < n; ++j) y[j] /= sum;
        break;
    }
    case Act::Gelu:  // exact: x * Phi(x)
        for (int j = 0; j < n; ++j) y[j] = y[j] * 0.5f * (1.0f + std::erf(y[j] * 0.707106781f));
        break;
    case Act::Relu6:
        for (int j = 0; j < n; ++j) y[j] = std::min(std::max(y[j], 0.0f), 6.0f);
        break;
    case Act::Softplus:  // log(1 + e^x) without overflow
        for (int j = 0; j < n; ++j) y[j] = std::max(y[j], 0.0f) + std::log1p(std::exp(-std::fabs(y[j])));
        break;
    case Act::Elu:
        for (int j = 0; j < n; ++j) y[j] = y[j] > 0.0f ? y[j] : std::expm1(y[j]);
        break;
    }
}

inline void dense(const Layer& d, const float* x, float* y) {
    const int inputs = d.c * d.h * d.w, units = d.outW;
    for (int j = 0; j < units; ++j) y[j] = 0.0f;
    for (int i = 0; i < inputs; ++i) {
        const float xi = x[i];
        const float* w = d.weights + static_cast<std::size_t>(i) * static_cast<std::size_t>(units);
        for (int j = 0; j < units; ++j) y[j] += xi * w[j];
    }
    for (int j = 0; j < units; ++j) y[j] += d.bias[j];
}

inline void conv(const Layer& l, const float* x, float* y) {
    for (int f = 0; f < l.outC; ++f)
        for (int oh = 0; oh < l.outH; ++oh)
            for (int ow = 0; ow < l.outW; ++ow) {
                float sum = l.bias ? l.bias[f] : 0.0f;
                for (int c = 0; c < l.c; ++c)
                    for (int i = 0; i < l.kernelH; ++i) {
                        const int ih = oh * l.stride - l.padTop + i;
                        if (ih < 0 || ih >= l.h) continue;
                        const float* row = x + (c * l.h + ih) * l.w;
                        const float* w = l.weights + ((f * l.c + c) * l.kernelH + i) * l.kernelW;
                        for (int j = 0; j < l.kernelW; ++j) {
                            const int iw = ow * l.stride - l.padLeft + j;
                            if (iw >= 0 && iw < l.w) sum += row[iw] * w[j];
                        }
                    }
                y[(f * l.outH + oh) * l.outW + ow] = sum;
            }
}

inline void pool(const Layer& l, const float* x, float* y) {
    for (int c = 0; c < l.c; ++c)
        for (int oh = 0; oh < l.outH; ++oh)
            for (int ow = 0; ow < l.outW; ++ow) {
                const float* window = x + (c * l.h + oh * l.stride) * l.w + ow * l.stride;
                float v = l.kind == Kind::MaxPool ? window[0] : 0.0f;
                for (int i = 0; i < l.kernelH; ++i)
                    for (int j = 0; j < l.kernelW; ++j)
                        v = l.kind == Kind::MaxPool ? std::max(v, window[i * l.w + j]) : v + window[i * l.w + j];
                y[(c * l.outH + oh) * l.outW + ow] =
                    l.kind == Kind::MaxPool ? v : v / static_cast<float>(l.kernelH * l.kernelW);
            }
}

)";

const char* const cppNetworkRuntime =
    R"(inline void layer(const Layer& l, const float* x, float* y, float* work, const float* mask) {
    const int area = l.h * l.w;
    switch (l.kind) {
    case Kind::Embedding: break;  // network() runs it: it makes the step mask
    case Kind::Gru:
    case Kind::Lstm: recurrent(l, x, y, work); break;
    case Kind::SeqPoolMean:
    case Kind::SeqPoolLast:
    case Kind::SeqPoolFirst: seqPool(l, x, mask, y); break;
    case Kind::Patch: patchEmbedding(l, x, y); break;
    case Kind::LayerNorm: {
        const int features = l.sequence ? l.w : l.c * area;
        normalize(l.norm, x, y, l.c * area / features, features);
        break;
    }
    case Kind::Attention:
        selfAttention(l.attention, x, l.h, l.w, y, work, mask);
        for (int i = 0; i < area; ++i) y[i] += x[i];
        break;
    case Kind::Encoder: encoderBlock(l, x, y, work, mask); break;
    case Kind::Dense: dense(l, x, y); break;
    case Kind::Conv: conv(l, x, y); break;
    case Kind::MaxPool:
    case Kind::AvgPool: pool(l, x, y); break;
    case Kind::GlobalAvgPool:
        for (int c = 0; c < l.c; ++c) {
            float sum = 0.0f;
            for (int i = 0; i < area; ++i) sum += x[c * area + i];
            y[c] = sum / static_cast<float>(area);
        }
        break;
    case Kind::BatchNorm: {
        // Per channel over its H*W values; per feature for a flat vector and at every step of a sequence.
        const bool perFeature = l.sequence || (l.c == 1 && l.h == 1);
        const int channels = perFeature ? l.w : l.c, size = perFeature ? 1 : area, repeats = perFeature ? l.h : 1;
        for (int r = 0; r < repeats; ++r)
            for (int c = 0; c < channels; ++c) {
                const float scale = l.weights[c] / std::sqrt(l.variance[c] + l.epsilon);
                float* yc = y + (r * channels + c) * size;
                const float* xc = x + (r * channels + c) * size;
                for (int i = 0; i < size; ++i) yc[i] = (xc[i] - l.mean[c]) * scale + l.bias[c];
            }
        break;
    }
    case Kind::Activation:
        for (int i = 0; i < l.c * area; ++i) y[i] = x[i];
        break;
    }
    activate(l.activation, y, l.outC * l.outH * l.outW);
}

// A submodel's layers in order from x into out, through the scratch buffers a and b. `work` holds a
// recurrent layer's steps and a transformer layer's Q|K|V and scores; `mask` the step mask an
// embedding makes from its ids, which follows the layers that keep the steps (without one, every
// step is real).
inline void network(const Layer* layers, int count, const float* x, float* out, float* a, float* b, float* work,
                    float* mask) {
    const float* in = x;
    bool masked = false;
    for (int i = 0; i < count; ++i) {
        const Layer& l = layers[i];
        float* y = i + 1 == count ? out : (i % 2 == 0 ? a : b);
        if (l.kind == Kind::Embedding) embedding(l, in, y, mask);
        else layer(l, in, y, work, masked ? mask : nullptr);
        masked = l.kind == Kind::Embedding || (masked && l.sequence && l.outH == l.h);
        in = y;
    }
}

// A category code: 1 in its slot; a code that is not exactly 0..k-1 (unseen, fractional) gives zeros.
inline void oneHot(float code, int k, float* x) {
    for (int j = 0; j < k; ++j) x[j] = 0.0f;
    if (code >= 0.0f && code < static_cast<float>(k) && code == std::floor(code)) x[static_cast<int>(code)] = 1.0f;
}
)";

}  // namespace skynnet
