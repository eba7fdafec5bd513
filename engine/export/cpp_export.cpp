#include "export/cpp_export.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <sstream>

#include "core/error.h"
#include "io/atomic_file.h"
#include "layers/activation.h"

namespace skynnet {
namespace {

// The shortest text that reads back as the identical float, as a float literal ("1.0f", "-2.5e-07f").
std::string floatLiteral(float f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", double(f));
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s + "f";
}

// A C++ string literal: quotes, backslashes and control bytes escaped (octal: a hex escape would
// swallow a following hex digit); UTF-8 bytes pass through.
std::string stringLiteral(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\%03o", unsigned(c));
            out += buf;
        } else {
            out += char(c);
        }
    }
    return out + "\"";
}

// Text safe inside a // comment: no line breaks, and no backslash that could splice the next line.
std::string commentText(const std::string& s) {
    std::string out = s;
    for (char& c : out)
        if ((unsigned char)c < 0x20 || c == '\\') c = c == '\\' ? '/' : ' ';
    return out;
}

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

void checkNamespace(const std::string& ns) {
    std::size_t start = 0;
    while (true) {
        const std::size_t end = ns.find("::", start);
        const std::string part = ns.substr(start, end == std::string::npos ? std::string::npos : end - start);
        const bool ok = !part.empty() && !std::isdigit((unsigned char)part[0]) &&
                        std::all_of(part.begin(), part.end(),
                                    [](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
        if (!ok) throw Error("'" + ns + "' is not a valid C++ namespace name");
        if (end == std::string::npos) break;
        start = end + 2;
    }
}

// A constexpr array definition, eight values to a line.
void writeFloats(std::ostream& out, const std::string& name, const float* data, std::size_t count,
                 const std::string& what) {
    out << "inline constexpr float " << name << "[" << count << "] = {";
    for (std::size_t i = 0; i < count; ++i) {
        if (!std::isfinite(data[i]))
            throw Error(what + " holds a value that is not finite (" + std::to_string(data[i]) + ")");
        out << (i % 8 == 0 ? "\n    " : " ") << floatLiteral(data[i]) << (i + 1 < count ? "," : "");
    }
    out << "};\n";
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
enum class Kind { Dense, Conv, MaxPool, AvgPool, GlobalAvgPool, BatchNorm, Activation };

// One layer. Samples are rows of (C, H, W) values, index c*H*W + h*W + w; a dense layer takes all
// of them. Dense: y = act(x W + b), W row-major [inputs][units]. Conv: W [filters][C][kH][kW],
// bias optional, zero padding padTop/padLeft before the input. Pools: window kH x kW, no padding.
// BatchNorm: y = gamma (x - mean) / sqrt(var + epsilon) + beta per channel (per feature when flat).
struct Layer {
    Kind kind;
    int c, h, w;                 // input shape
    int outC, outH, outW;        // output shape
    int kernelH, kernelW, stride, padTop, padLeft;
    Act activation;
    const float* weights;        // dense, conv W; batch norm gamma
    const float* bias;           // dense, conv b (nullptr: none); batch norm beta
    const float* mean;           // batch norm running mean and variance
    const float* variance;
    float epsilon;
};

constexpr Layer denseLayer(int inputs, int units, Act a, const float* w, const float* b) {
    return {Kind::Dense, 1, 1, inputs, 1, 1, units, 0, 0, 1, 0, 0, a, w, b, nullptr, nullptr, 0.0f};
}
constexpr Layer convLayer(int c, int h, int w, int filters, int outH, int outW, int kH, int kW, int stride, int padTop,
                          int padLeft, Act a, const float* weights, const float* bias) {
    return {Kind::Conv, c, h, w, filters, outH, outW, kH, kW, stride, padTop, padLeft, a, weights, bias, nullptr, nullptr, 0.0f};
}
constexpr Layer poolLayer(Kind kind, int c, int h, int w, int outH, int outW, int size, int stride) {
    return {kind, c, h, w, c, outH, outW, size, size, stride, 0, 0, Act::Linear, nullptr, nullptr, nullptr, nullptr, 0.0f};
}
constexpr Layer batchNormLayer(int c, int h, int w, const float* gamma, const float* beta, const float* mean,
                               const float* variance, float epsilon) {
    return {Kind::BatchNorm, c, h, w, c, h, w, 0, 0, 1, 0, 0, Act::Linear, gamma, beta, mean, variance, epsilon};
}
constexpr Layer activationLayer(int c, int h, int w, Act a) {
    return {Kind::Activation, c, h, w, c, h, w, 0, 0, 1, 0, 0, a, nullptr, nullptr, nullptr, nullptr, 0.0f};
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

inline void layer(const Layer& l, const float* x, float* y) {
    const int area = l.h * l.w;
    switch (l.kind) {
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
        const bool perFeature = l.c == 1 && l.h == 1;
        const int channels = perFeature ? l.w : l.c, size = perFeature ? 1 : area;
        for (int c = 0; c < channels; ++c) {
            const float scale = l.weights[c] / std::sqrt(l.variance[c] + l.epsilon);
            for (int i = 0; i < size; ++i) y[c * size + i] = (x[c * size + i] - l.mean[c]) * scale + l.bias[c];
        }
        break;
    }
    case Kind::Activation:
        for (int i = 0; i < l.c * area; ++i) y[i] = x[i];
        break;
    }
    activate(l.activation, y, l.outC * l.outH * l.outW);
}

// A submodel's layers in order from x into out, through the scratch buffers a and b.
inline void network(const Layer* layers, int count, const float* x, float* out, float* a, float* b) {
    const float* in = x;
    for (int l = 0; l < count; ++l) {
        float* y = l + 1 == count ? out : (l % 2 == 0 ? a : b);
        layer(layers[l], in, y);
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
        writeFloats(out, "kOffset", p.offset.data(), n, "preprocessing offset");
        writeFloats(out, "kScale", p.scale.data(), n, "preprocessing scale");
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
            << commentText(name + ": " + joined(c.categories)) << "\n";
        at += c.categories.size();
    }
    out << "}\n";
}

// Every submodel's arrays and layer table; returns the largest layer output (the scratch buffers' size).
int writeSubmodels(std::ostream& out, const SavedCombinedModel& m) {
    int widest = 1;
    for (std::size_t i = 0; i < m.specs.size(); ++i) {
        const NetworkSpec& spec = m.specs[i];
        const std::vector<float>& w = m.weights[i];
        const std::string sub = "kSub" + std::to_string(i + 1);
        out << "\n// ---- Submodel " << i + 1 << " of " << m.specs.size() << ": " << commentText(submodelRole(m, i))
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
            writeFloats(out, name, w.data() + at, count,
                        "submodel " + std::to_string(i + 1) + " layer " + std::to_string(layer) + " " + part);
            at += count;
            return name;
        };
        // Comments the next layer, adds its table entry and moves the shape on.
        const auto add = [&](const LayerSpec& l, const std::string& label, const std::function<std::string()>& entry) {
            const Shape output = figures(l, shape).output;
            out << "// layer " << ++layer << ": " << commentText(label) << ", " << shape.toString() << " -> "
                << output.toString() << "\n";
            table.push_back(entry());
            shape = output;
            widest = std::max(widest, int(output.size()));
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
        // A kind this exporter cannot write yet is an error, never dropped from the model.
        const auto refuse = [](const LayerSpec& l) {
            throw Error("C++ export cannot write a " + kindName(l) + " layer yet (" + description(l) + ")");
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
                               variance + ", " + floatLiteral(n.epsilon) + ")";
                    });
                },
                [&](const ActivationSpec& a) {
                    add(l, description(l),
                        [&] { return "activationLayer(" + dims(shape) + ", " + activationEnum(a.activation) + ")"; });
                },
                [&](const EmbeddingSpec&) { refuse(l); }, [&](const GruSpec&) { refuse(l); },
                [&](const LstmSpec&) { refuse(l); }, [&](const SeqPoolSpec&) { refuse(l); });
        dense(spec.outputLayer(),
              "output dense " + std::to_string(spec.outputs) + " " + activationName(spec.outputActivation));
        if (at != w.size()) throw Error("submodel " + std::to_string(i + 1) + " has weights left over");
        out << "inline constexpr Layer " << sub << "[" << table.size() << "] = {\n    " << joined(table, ",\n    ")
            << "};\n";
        if (m.rule.strategy == Strategy::ClassGroups)
            out << "inline constexpr int " << sub << "Classes[" << m.rule.classes[i].size() << "] = {"
                << joined(texts(m.rule.classes[i])) << "};\n";
    }
    return widest;
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
        out << ") / " << floatLiteral(float(S)) << ";\n";
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
    checkNamespace(o.namespaceName);
    std::vector<std::string> rawNames = m.schema.featureNames;
    if (!m.preprocessing.fitted() || int(rawNames.size()) != m.rawColumns()) rawNames.clear();
    const std::vector<std::string> outNames = outputNames(m);

    std::ostringstream out;
    out << "// Generated by Skynnet: a " << taskName(m.task()) << " model of " << m.specs.size()
        << " submodel(s) combined by " << strategyName(m.rule.strategy)
        << ". Self-contained C++17, standard library only.\n"
        << "// Input: " << m.rawColumns() << " raw feature columns"
        << (rawNames.empty() ? std::string() : " (" + commentText(joined(rawNames)) + ")")
        << (m.preprocessing.oneHot.empty() ? "" : "; categorical columns hold category codes 0..k-1") << ".\n"
        << "// Output: " << m.rule.outputs << " value(s): " << commentText(joined(outNames)) << ".\n"
        << "// Use: float out[" << o.namespaceName << "::kOutputs]; " << o.namespaceName << "::predict(rawRow, out);\n"
        << "#pragma once\n#include <algorithm>\n#include <cmath>\n#include <cstddef>\n#include <vector>\n\n"
        << "namespace " << o.namespaceName << " {\n\n"
        << "inline constexpr int kRawColumns = " << m.rawColumns() << ";\n"
        << "inline constexpr int kOutputs = " << m.rule.outputs << ";\n"
        << "inline constexpr const char* kOutputNames[kOutputs] = {";
    for (std::size_t i = 0; i < outNames.size(); ++i) out << (i ? ", " : "") << stringLiteral(outNames[i]);
    out << "};\n\nnamespace detail {\n\n"
        << "inline constexpr float kLeakySlope = " << floatLiteral(LeakyReLU().slope()) << ";\n\n"
        << helpers;
    writePreprocessing(out, m, rawNames);
    const int widest = writeSubmodels(out, m);
    out << "\ninline constexpr int kMaxWidth = " << widest << ";\n\n}  // namespace detail\n\n"
        << "// One sample: rawFeatures[kRawColumns] -> out[kOutputs].\n"
        << "inline void predict(const float* rawFeatures, float* out) {\n";
    // Small buffers on the stack; an image network's (megabytes for large images) on the heap.
    if (std::int64_t(m.inputColumns()) + 2 * std::int64_t(widest) <= kStackFloats)
        out << "    float x[detail::kInputColumns], a[detail::kMaxWidth], b[detail::kMaxWidth];\n";
    else
        out << "    std::vector<float> buffers(static_cast<std::size_t>(detail::kInputColumns + 2 * "
               "detail::kMaxWidth));\n"
            << "    float* x = buffers.data();\n"
            << "    float* a = x + detail::kInputColumns;\n"
            << "    float* b = a + detail::kMaxWidth;\n";
    out << "    detail::preprocess(rawFeatures, x);\n";
    for (std::size_t i = 0; i < m.specs.size(); ++i) {
        const std::string n = std::to_string(i + 1);
        out << "    float s" << n << "[" << m.specs[i].outputs << "];  // submodel " << n << "\n"
            << "    detail::network(detail::kSub" << n << ", "
            << "static_cast<int>(sizeof detail::kSub" << n << " / sizeof(detail::Layer)), x, s" << n << ", a, b);\n";
    }
    writeCombination(out, m);
    out << "}\n\n"
        << "// Many samples, row after row: rawFeatures[samples * kRawColumns] -> out[samples * kOutputs].\n"
        << "inline void predict(const float* rawFeatures, std::size_t samples, float* out) {\n"
        << "    for (std::size_t i = 0; i < samples; ++i)\n"
        << "        predict(rawFeatures + i * kRawColumns, out + i * kOutputs);\n"
        << "}\n\n}  // namespace " << o.namespaceName << "\n";
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
