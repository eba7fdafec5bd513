#include "export/cpp_export.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <sstream>

#include "core/error.h"
#include "export/cpp_literals.h"
#include "export/cpp_sequence_layers.h"
#include "export/cpp_text_tokenizer.h"
#include "io/atomic_file.h"
#include "layers/activation.h"

namespace skynnet {
namespace {

std::string joined(const std::vector<std::string>& items, const std::string& sep = ", ") {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
    return out;
}

template <typename T>
std::vector<std::string> texts(const std::vector<T>& values) {
    std::vector<std::string> out;
    for (const T& v : values) out.push_back(std::to_string(v));
    return out;
}

const char* activationEnum(Activation a) {
    switch (a) {
    case Activation::None: return "Act::Linear";
    case Activation::ReLU: return "Act::Relu";
    case Activation::LeakyReLU: return "Act::LeakyRelu";
    case Activation::Sigmoid: return "Act::Sigmoid";
    case Activation::Tanh: return "Act::Tanh";
    case Activation::Softmax: return "Act::Softmax";
    case Activation::GELU: return "Act::Gelu";
    case Activation::ReLU6: return "Act::Relu6";
    case Activation::Softplus: return "Act::Softplus";
    case Activation::ELU: return "Act::Elu";
    }
    return "Act::Linear";
}

std::vector<std::string> outputNames(const SavedCombinedModel& m) {
    switch (m.task()) {
    case Task::Regression:
    case Task::Reconstruction:
        if (!m.schema.targetNames.empty()) return m.schema.targetNames;
        break;
    case Task::Classification:
        if (!m.schema.classNames.empty()) return m.schema.classNames;
        break;
    case Task::Binary:
        return {"probability of " + (m.schema.classNames.size() == 2 ? m.schema.classNames[1] : "class 2")};
    }
    std::vector<std::string> names;
    for (int i = 0; i < m.rule.outputs; ++i) names.push_back("output " + std::to_string(i + 1));
    return names;
}

// How a sequence model reads its raw row, for the header's first lines ("" for other models).
std::string sequenceInput(const SavedCombinedModel& m) {
    const Shape in = m.specs.empty() ? Shape() : m.specs[0].input;
    if (!in.sequence) return "";
    const bool ids = !m.specs[0].layers.empty() && std::holds_alternative<EmbeddingSpec>(m.specs[0].layers[0]);
    const std::string steps = std::to_string(in.height);
    if (ids) return "; " + steps + " token ids as floats, padding (id 0) in front";
    return "; a sequence of " + steps + " steps of " + std::to_string(in.width) + " features, step-major";
}

std::string submodelRole(const SavedCombinedModel& m, std::size_t i) {
    switch (m.rule.strategy) {
    case Strategy::ClassGroups: return "classes " + joined(texts(m.rule.classes[i]));
    case Strategy::OutputSplit:
        return "target columns " + std::to_string(m.rule.columns[i].first) + " to " +
               std::to_string(m.rule.columns[i].second - 1);
    case Strategy::BinaryShards:
    case Strategy::DataShards:
    case Strategy::Auto: break;  // validate() refuses auto before anything is written
    }
    return "shard " + std::to_string(i + 1) + " of " + std::to_string(m.specs.size());
}

// Scratch floats predict() keeps on the stack (64 KB); larger ones go to the heap.
constexpr std::int64_t kStackFloats = 16384;

// The fixed helpers: the same text for every model.
constexpr const char* helpers =
    R"(enum class Act { Linear, Relu, LeakyRelu, Sigmoid, Tanh, Softmax, Gelu, Relu6, Softplus, Elu };
enum class Kind {
    Dense, Conv, MaxPool, AvgPool, GlobalAvgPool, BatchNorm, Activation,
    Embedding, Gru, Lstm, SeqPoolMean, SeqPoolLast  // the sequence kinds
};

// One layer. Samples are rows of (C, H, W) values, index c*H*W + h*W + w; a sequence is (1, steps,
// features), step-major; a dense layer takes all of them. Dense: y = act(x W + b), W row-major
// [inputs][units]. Conv: W [filters][C][kH][kW], bias optional, zero padding padTop/padLeft before
// the input. Pools: window kH x kW, no padding. BatchNorm: y = gamma (x - mean) / sqrt(var +
// epsilon) + beta per channel (per feature when flat, and over every step of a sequence).
// The sequence kinds (embedding, gru, lstm, seqpool) are described with their functions below.
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

// The layer dispatch and the network loop, after the sequence kinds' functions (cppSequenceRuntime).
constexpr const char* dispatch =
    R"(inline void layer(const Layer& l, const float* x, float* y, float* work, const float* mask) {
    const int area = l.h * l.w;
    switch (l.kind) {
    case Kind::Embedding: break;  // network() runs it: it makes the step mask
    case Kind::Gru:
    case Kind::Lstm: recurrent(l, x, y, work); break;
    case Kind::SeqPoolMean:
    case Kind::SeqPoolLast: seqPool(l, x, mask, y); break;
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
// recurrent layer's steps; `mask` the step mask an embedding makes from its ids, which follows the
// layers that keep the steps (without one, every step is real).
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

void writePreprocessing(std::ostream& out, const SavedCombinedModel& m, const std::vector<std::string>& rawNames) {
    const Preprocessing& p = m.preprocessing;
    out << "\n// ---- Preprocessing (" << (p.fitted() ? "scaling " + scalingName(p.scaling) : std::string("none"))
        << "): numeric columns x' = (x - offset) * scale, then categorical columns one-hot.\n";
    out << "inline constexpr int kInputColumns = " << m.inputColumns() << ";\n";
    if (!p.fitted()) {
        out << "inline void preprocess(const float* raw, float* x) {\n"
            << "    for (int j = 0; j < kInputColumns; ++j) x[j] = raw[j];\n}\n";
        return;
    }
    const std::size_t n = p.numericColumns.size();
    if (n > 0) {
        std::vector<std::string> cols;
        for (int c : p.numericColumns) cols.push_back(std::to_string(c));
        out << "inline constexpr int kNumericColumns[" << n << "] = {" << joined(cols) << "};\n";
        writeCppFloats(out, "kOffset", p.offset.data(), n, "preprocessing offset");
        writeCppFloats(out, "kScale", p.scale.data(), n, "preprocessing scale");
    }
    out << "inline void preprocess(const float* raw, float* x) {\n";
    if (n > 0)
        out << "    for (int j = 0; j < " << n << "; ++j) x[j] = (raw[kNumericColumns[j]] - kOffset[j]) * kScale[j];\n";
    std::size_t at = n;
    for (const auto& c : p.oneHot) {
        if (c.categories.empty()) continue;
        const std::string name = std::size_t(c.column) < rawNames.size() ? rawNames[std::size_t(c.column)]
                                                                         : "column " + std::to_string(c.column);
        out << "    oneHot(raw[" << c.column << "], " << c.categories.size() << ", x + " << at << ");  // "
            << cppCommentText(name + ": " + joined(c.categories)) << "\n";
        at += c.categories.size();
    }
    out << "}\n";
}

// The scratch predict() needs, in floats: the largest layer output (buffers a and b), a recurrent
// layer's work and the longest step mask; each at least 1.
struct Scratch {
    std::int64_t widest = 1, work = 1, steps = 1;
};

// Every submodel's arrays and layer table; returns the scratch its layers need.
Scratch writeSubmodels(std::ostream& out, const SavedCombinedModel& m) {
    Scratch scratch;
    for (std::size_t i = 0; i < m.specs.size(); ++i) {
        const NetworkSpec& spec = m.specs[i];
        const std::vector<float>& w = m.weights[i];
        const std::string sub = "kSub" + std::to_string(i + 1);
        out << "\n// ---- Submodel " << i + 1 << " of " << m.specs.size() << ": " << cppCommentText(submodelRole(m, i))
            << " (" << spec.outputs << " outputs)\n";
        std::vector<std::string> table;
        std::size_t at = 0;
        Shape shape = spec.input;
        int layer = 0;
        const auto dims = [](Shape s) {
            return std::to_string(s.channels) + ", " + std::to_string(s.height) + ", " + std::to_string(s.width);
        };
        // Writes the next `count` weights as the array `name`; returns its name.
        const auto array = [&](const std::string& part, std::size_t count) {
            const std::string name = sub + "Layer" + std::to_string(layer) + part;
            if (at + count > w.size())
                throw Error("submodel " + std::to_string(i + 1) + " layer " + std::to_string(layer) +
                            " has too few weights");
            writeCppFloats(out, name, w.data() + at, count,
                           "submodel " + std::to_string(i + 1) + " layer " + std::to_string(layer) + " " + part);
            at += count;
            return name;
        };
        // Comments the next layer, adds its table entry and moves the shape on.
        const auto add = [&](const LayerSpec& l, const std::string& label, const std::function<std::string()>& entry) {
            const Shape output = figures(l, shape).output;
            out << "// layer " << ++layer << ": " << cppCommentText(label) << ", " << shape.toString() << " -> "
                << output.toString() << "\n";
            // Batch norm and activations over a sequence say so; the sequence kinds always do.
            const bool overSteps = shape.sequence && (std::holds_alternative<BatchNormSpec>(l) ||
                                                      std::holds_alternative<ActivationSpec>(l));
            table.push_back(overSteps ? "overSteps(" + entry() + ")" : entry());
            scratch.widest = std::max(scratch.widest, std::int64_t(output.size()));
            scratch.work = std::max(scratch.work, cppSequenceWorkFloats(l, shape));
            if (shape.sequence) scratch.steps = std::max(scratch.steps, std::int64_t(shape.height));
            shape = output;
        };
        const auto dense = [&](const DenseSpec& d, const std::string& label) {
            add(d, label, [&] {
                const std::size_t inputs = std::size_t(shape.size());
                const std::string W = array("W", inputs * std::size_t(d.units));
                const std::string B = array("B", std::size_t(d.units));
                return "denseLayer(" + std::to_string(inputs) + ", " + std::to_string(d.units) + ", " +
                       activationEnum(d.activation) + ", " + W + ", " + B + ")";
            });
        };
        // The sequence kinds' entries: cpp_sequence_layers.cpp.
        const auto sequenceLayer = [&](const LayerSpec& l) {
            add(l, description(l), [&] { return cppSequenceLayerEntry(l, shape, array); });
        };
        for (const LayerSpec& l : spec.layers)
            visitLayer(
                l, [&](const DenseSpec& d) { dense(d, description(l)); },
                // The identity at inference.
                [](const DropoutSpec&) {},
                // Only renames the shape: samples are rows of C*H*W values throughout.
                [&](const FlattenSpec&) { shape = Shape::flat(int(shape.size())); },
                [&](const ConvSpec& c) {
                    add(l, description(l), [&] {
                        const Shape o = figures(l, shape).output;
                        const std::string W = array("W", std::size_t(c.filters) * std::size_t(shape.channels) *
                                                             std::size_t(c.kernelH) * std::size_t(c.kernelW));
                        const std::string B = c.bias ? array("B", std::size_t(c.filters)) : "nullptr";
                        return "convLayer(" + dims(shape) + ", " + std::to_string(c.filters) + ", " +
                               std::to_string(o.height) + ", " + std::to_string(o.width) + ", " +
                               std::to_string(c.kernelH) + ", " + std::to_string(c.kernelW) + ", " +
                               std::to_string(c.stride) + ", " +
                               std::to_string(convPaddingBefore(shape.height, c.kernelH, c.stride, c.padding)) + ", " +
                               std::to_string(convPaddingBefore(shape.width, c.kernelW, c.stride, c.padding)) + ", " +
                               activationEnum(c.activation) + ", " + W + ", " + B + ")";
                    });
                },
                [&](const MaxPoolSpec& p) {
                    add(l, description(l), [&] {
                        const Shape o = figures(l, shape).output;
                        return "poolLayer(Kind::MaxPool, " + dims(shape) + ", " + std::to_string(o.height) + ", " +
                               std::to_string(o.width) + ", " + std::to_string(p.size) + ", " +
                               std::to_string(p.effectiveStride()) + ")";
                    });
                },
                [&](const AvgPoolSpec& p) {
                    add(l, description(l), [&] {
                        const Shape o = figures(l, shape).output;
                        return "poolLayer(Kind::AvgPool, " + dims(shape) + ", " + std::to_string(o.height) + ", " +
                               std::to_string(o.width) + ", " + std::to_string(p.size) + ", " +
                               std::to_string(p.effectiveStride()) + ")";
                    });
                },
                [&](const GlobalAvgPoolSpec&) {
                    add(l, description(l),
                        [&] { return "poolLayer(Kind::GlobalAvgPool, " + dims(shape) + ", 1, 1, 0, 1)"; });
                },
                [&](const BatchNormSpec& n) {
                    add(l, description(l), [&] {
                        const std::size_t channels = std::size_t(batchNormChannels(shape));
                        const std::string gamma = array("Gamma", channels), beta = array("Beta", channels);
                        const std::string mean = array("Mean", channels), variance = array("Variance", channels);
                        return "batchNormLayer(" + dims(shape) + ", " + gamma + ", " + beta + ", " + mean + ", " +
                               variance + ", " + cppFloatLiteral(n.epsilon) + ")";
                    });
                },
                [&](const ActivationSpec& a) {
                    add(l, description(l),
                        [&] { return "activationLayer(" + dims(shape) + ", " + activationEnum(a.activation) + ")"; });
                },
                [&](const EmbeddingSpec&) { sequenceLayer(l); }, [&](const GruSpec&) { sequenceLayer(l); },
                [&](const LstmSpec&) { sequenceLayer(l); }, [&](const SeqPoolSpec&) { sequenceLayer(l); });
        dense(spec.outputLayer(),
              "output dense " + std::to_string(spec.outputs) + " " + activationName(spec.outputActivation));
        if (at != w.size()) throw Error("submodel " + std::to_string(i + 1) + " has weights left over");
        out << "inline constexpr Layer " << sub << "[" << table.size() << "] = {\n    " << joined(table, ",\n    ")
            << "};\n";
        if (m.rule.strategy == Strategy::ClassGroups)
            out << "inline constexpr int " << sub << "Classes[" << m.rule.classes[i].size() << "] = {"
                << joined(texts(m.rule.classes[i])) << "};\n";
    }
    return scratch;
}

void writeCombination(std::ostream& out, const SavedCombinedModel& m) {
    const std::size_t S = m.specs.size();
    const auto s = [](std::size_t i) { return "s" + std::to_string(i + 1); };
    switch (m.rule.strategy) {
    case Strategy::ClassGroups:
        out << "    // Class groups: per class, the sum of the owners' log-probabilities (clamped at 1e-30; 0 = log 1\n"
            << "    // where a submodel has no say), then a softmax; in double, as the engine does.\n"
            << "    double logs[kOutputs] = {};\n";
        for (std::size_t i = 0; i < S; ++i)
            out << "    for (int k = 0; k < " << m.rule.classes[i].size() << "; ++k) logs[detail::kSub" << i + 1
                << "Classes[k]] += std::log(std::max(static_cast<double>(" << s(i) << "[k]), 1e-30));\n";
        out << "    double top = logs[0], sum = 0.0;\n"
            << "    for (int c = 1; c < kOutputs; ++c) top = std::max(top, logs[c]);\n"
            << "    for (int c = 0; c < kOutputs; ++c) sum += (logs[c] = std::exp(logs[c] - top));\n"
            << "    for (int c = 0; c < kOutputs; ++c) out[c] = static_cast<float>(logs[c] / sum);\n";
        return;
    case Strategy::BinaryShards:
        if (m.rule.binaryCombine == BinaryCombine::MostConfident) {
            out << "    // Binary shards: the most confident submodel (larger |2p - 1|, the first on a tie).\n"
                << "    const float* best = s1;\n";
            for (std::size_t i = 1; i < S; ++i)
                out << "    if (std::fabs(2.0f * " << s(i)
                    << "[0] - 1.0f) > std::fabs(2.0f * best[0] - 1.0f)) best = " << s(i) << ";\n";
            out << "    out[0] = best[0];\n";
            return;
        }
        [[fallthrough]];
    case Strategy::DataShards: {
        out << "    // The mean of the submodels' outputs.\n    for (int j = 0; j < kOutputs; ++j) out[j] = (";
        for (std::size_t i = 0; i < S; ++i) out << (i ? " + " : "") << s(i) << "[j]";
        out << ") / " << cppFloatLiteral(float(S)) << ";\n";
        return;
    }
    case Strategy::OutputSplit:
        out << "    // Output split: each submodel's columns side by side.\n";
        for (std::size_t i = 0; i < S; ++i)
            out << "    for (int j = 0; j < " << m.specs[i].outputs << "; ++j) out[" << m.rule.columns[i].first
                << " + j] = " << s(i) << "[j];\n";
        return;
    case Strategy::Auto: break;
    }
    throw Error("a combination rule needs a resolved strategy, not auto");
}

}  // namespace

std::string cppHeaderText(const SavedCombinedModel& m, const CppExportOptions& o) {
    validate(m, "C++ export");
    checkCppNamespace(o.namespaceName);
    std::vector<std::string> rawNames = m.schema.featureNames;
    if (!m.preprocessing.fitted() || int(rawNames.size()) != m.rawColumns()) rawNames.clear();
    const std::vector<std::string> outNames = outputNames(m);
    const TextVocabulary* text = m.schema.vocabulary ? &*m.schema.vocabulary : nullptr;
    if (text && text->maxLength != m.rawColumns())
        throw Error("the vocabulary encodes texts of " + std::to_string(text->maxLength) +
                    " token ids, but the model reads " + std::to_string(m.rawColumns()) + " columns");

    std::ostringstream out;
    out << "// Generated by Skynnet: a " << taskName(m.task()) << " model of " << m.specs.size()
        << " submodel(s) combined by " << strategyName(m.rule.strategy)
        << ". Self-contained C++17, standard library only.\n"
        << "// Input: " << m.rawColumns() << " raw feature columns"
        << (rawNames.empty() ? std::string() : " (" + cppCommentText(joined(rawNames)) + ")")
        << (m.preprocessing.oneHot.empty() ? "" : "; categorical columns hold category codes 0..k-1")
        << sequenceInput(m) << ".\n"
        << "// Output: " << m.rule.outputs << " value(s): " << cppCommentText(joined(outNames)) << ".\n"
        << "// Use: float out[" << o.namespaceName << "::kOutputs]; " << o.namespaceName << "::predict(rawRow, out);\n"
        << (text ? "// A text: bool utf8 = " + o.namespaceName + "::predict(std::string_view(\"a review\"), out);\n"
                 : std::string())
        << "#pragma once\n#include <algorithm>\n#include <cmath>\n#include <cstddef>\n"
        << (text ? "#include <string>\n#include <string_view>\n" : "") << "#include <vector>\n\n"
        << "namespace " << o.namespaceName << " {\n\n"
        << "inline constexpr int kRawColumns = " << m.rawColumns() << ";\n"
        << "inline constexpr int kOutputs = " << m.rule.outputs << ";\n"
        << "inline constexpr const char* kOutputNames[kOutputs] = {";
    for (std::size_t i = 0; i < outNames.size(); ++i) out << (i ? ", " : "") << cppStringLiteral(outNames[i]);
    out << "};\n\nnamespace detail {\n\n"
        << "inline constexpr float kLeakySlope = " << cppFloatLiteral(LeakyReLU().slope()) << ";\n\n"
        << helpers << cppSequenceRuntime << dispatch;
    writePreprocessing(out, m, rawNames);
    const Scratch scratch = writeSubmodels(out, m);
    out << "\ninline constexpr int kMaxWidth = " << scratch.widest << ";\n"
        << "inline constexpr int kWorkWidth = " << scratch.work << ";  // a recurrent layer's steps and gates\n"
        << "inline constexpr int kMaxSteps = " << scratch.steps << ";   // the step mask\n\n}  // namespace detail\n\n"
        << "// One sample: rawFeatures[kRawColumns] -> out[kOutputs].\n"
        << "inline void predict(const float* rawFeatures, float* out) {\n";
    // Small buffers on the stack; an image network's (megabytes for large images) on the heap.
    const std::int64_t floats = std::int64_t(m.inputColumns()) + 2 * scratch.widest + scratch.work + scratch.steps;
    if (floats <= kStackFloats)
        out << "    float x[detail::kInputColumns], a[detail::kMaxWidth], b[detail::kMaxWidth];\n"
            << "    float work[detail::kWorkWidth], mask[detail::kMaxSteps];\n";
    else
        out << "    std::vector<float> buffers(static_cast<std::size_t>(detail::kInputColumns + 2 * "
               "detail::kMaxWidth + detail::kWorkWidth + detail::kMaxSteps));\n"
            << "    float* x = buffers.data();\n"
            << "    float* a = x + detail::kInputColumns;\n"
            << "    float* b = a + detail::kMaxWidth;\n"
            << "    float* work = b + detail::kMaxWidth;\n"
            << "    float* mask = work + detail::kWorkWidth;\n";
    out << "    detail::preprocess(rawFeatures, x);\n";
    for (std::size_t i = 0; i < m.specs.size(); ++i) {
        const std::string n = std::to_string(i + 1);
        out << "    float s" << n << "[" << m.specs[i].outputs << "];  // submodel " << n << "\n"
            << "    detail::network(detail::kSub" << n << ", "
            << "static_cast<int>(sizeof detail::kSub" << n << " / sizeof(detail::Layer)), x, s" << n
            << ", a, b, work, mask);\n";
    }
    writeCombination(out, m);
    out << "}\n\n"
        << "// Many samples, row after row: rawFeatures[samples * kRawColumns] -> out[samples * kOutputs].\n"
        << "inline void predict(const float* rawFeatures, std::size_t samples, float* out) {\n"
        << "    for (std::size_t i = 0; i < samples; ++i)\n"
        << "        predict(rawFeatures + i * kRawColumns, out + i * kOutputs);\n"
        << "}\n";
    if (text) {
        writeCppTokenizer(out, *text);
        out << "\n// A text (UTF-8) -> out[kOutputs]: encodeText, then predict. False (out untouched) if the text is\n"
            << "// not UTF-8.\n"
            << "inline bool predict(std::string_view text, float* out) {\n"
            << "    std::vector<float> ids(static_cast<std::size_t>(kTextLength));\n"
            << "    if (!encodeText(text, ids.data())) return false;\n"
            << "    predict(ids.data(), out);\n"
            << "    return true;\n"
            << "}\n";
    }
    out << "\n}  // namespace " << o.namespaceName << "\n";
    return out.str();
}

void exportCppHeader(const SavedCombinedModel& m, const std::string& path, const CppExportOptions& o) {
    std::string text;
    try {
        text = cppHeaderText(m, o);
    } catch (const Error& e) {
        throw Error("cannot export " + path + ": " + e.what());
    }
    writeFileAtomically(path, text);
}

}  // namespace skynnet
