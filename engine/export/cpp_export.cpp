#include "export/cpp_export.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/error.h"
#include "io/atomic_file.h"
#include "layers/activation.h"

namespace skynnet {
namespace {

[[noreturn]] void cannotWrite(const LayerSpec& l) {
    throw Error("C++ export: " + description(l) + ": this exporter cannot write " + kindName(l) + " layers yet");
}

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
                        std::all_of(part.begin(), part.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
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
        if (!std::isfinite(data[i])) throw Error(what + " holds a value that is not finite (" + std::to_string(data[i]) + ")");
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
    }
    return "Act::Linear";
}

std::vector<std::string> outputNames(const SavedCombinedModel& m) {
    switch (m.task()) {
    case Task::Regression:
        if (!m.schema.targetNames.empty()) return m.schema.targetNames;
        break;
    case Task::Classification:
        if (!m.schema.classNames.empty()) return m.schema.classNames;
        break;
    case Task::Binary: return {"probability of " + (m.schema.classNames.size() == 2 ? m.schema.classNames[1] : "class 2")};
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

// The fixed helpers: the same text for every model.
constexpr const char* helpers = R"(enum class Act { Linear, Relu, LeakyRelu, Sigmoid, Tanh, Softmax };

// One dense layer: y = act(x W + b), W row-major [inputs][units].
struct Dense {
    int inputs, units;
    Act activation;
    const float* weights;
    const float* bias;
};

inline void dense(const Dense& d, const float* x, float* y) {
    for (int j = 0; j < d.units; ++j) y[j] = 0.0f;
    for (int i = 0; i < d.inputs; ++i) {
        const float xi = x[i];
        const float* w = d.weights + static_cast<std::size_t>(i) * static_cast<std::size_t>(d.units);
        for (int j = 0; j < d.units; ++j) y[j] += xi * w[j];
    }
    for (int j = 0; j < d.units; ++j) y[j] += d.bias[j];
    switch (d.activation) {
    case Act::Linear: break;
    case Act::Relu:
        for (int j = 0; j < d.units; ++j) y[j] = std::max(y[j], 0.0f);
        break;
    case Act::LeakyRelu:
        for (int j = 0; j < d.units; ++j) y[j] = y[j] > 0.0f ? y[j] : y[j] * kLeakySlope;
        break;
    case Act::Sigmoid:
        for (int j = 0; j < d.units; ++j) y[j] = 1.0f / (1.0f + std::exp(-y[j]));
        break;
    case Act::Tanh:
        for (int j = 0; j < d.units; ++j) y[j] = std::tanh(y[j]);
        break;
    case Act::Softmax: {
        float top = y[0], sum = 0.0f;
        for (int j = 1; j < d.units; ++j) top = std::max(top, y[j]);
        for (int j = 0; j < d.units; ++j) sum += (y[j] = std::exp(y[j] - top));
        for (int j = 0; j < d.units; ++j) y[j] /= sum;
        break;
    }
    }
}

// A submodel's layers in order from x into out, through the scratch buffers a and b.
inline void network(const Dense* layers, int count, const float* x, float* out, float* a, float* b) {
    const float* in = x;
    for (int l = 0; l < count; ++l) {
        float* y = l + 1 == count ? out : (l % 2 == 0 ? a : b);
        dense(layers[l], in, y);
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
    if (n > 0) out << "    for (int j = 0; j < " << n << "; ++j) x[j] = (raw[kNumericColumns[j]] - kOffset[j]) * kScale[j];\n";
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

// Every submodel's arrays and layer table; returns the widest layer (the scratch buffers' size).
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
        int inputs = int(spec.input.size()), layer = 0;
        const auto dense = [&](int units, Activation a, bool isOutput) {
            const std::string name = sub + "Dense" + std::to_string(++layer);
            const std::size_t count = std::size_t(inputs) * std::size_t(units);
            const std::string what = "submodel " + std::to_string(i + 1) + " layer " + std::to_string(layer);
            out << "// layer " << layer << (isOutput ? " (output)" : "") << ": dense " << inputs << " -> " << units
                << ", " << activationName(a) << "\n";
            writeFloats(out, name + "W", w.data() + at, count, what + " weights");
            writeFloats(out, name + "B", w.data() + at + count, std::size_t(units), what + " bias");
            at += count + std::size_t(units);
            table.push_back("{" + std::to_string(inputs) + ", " + std::to_string(units) + ", " + activationEnum(a) + ", " +
                            name + "W, " + name + "B}");
            inputs = units;
            widest = std::max(widest, units);
        };
        for (const LayerSpec& l : spec.layers)
            visitLayer(
                l, [&](const DenseSpec& d) { dense(d.units, d.activation, false); },
                // The identity at inference.
                [](const DropoutSpec&) {},
                // Only renames a shape that is already flat: samples are flat rows throughout.
                [](const FlattenSpec&) {},
                // A kind this exporter cannot write is an error, never dropped.
                [&](const ConvSpec&) { cannotWrite(l); }, [&](const MaxPoolSpec&) { cannotWrite(l); },
                [&](const AvgPoolSpec&) { cannotWrite(l); }, [&](const GlobalAvgPoolSpec&) { cannotWrite(l); },
                [&](const BatchNormSpec&) { cannotWrite(l); }, [&](const ActivationSpec&) { cannotWrite(l); });
        dense(spec.outputs, spec.outputActivation, true);
        out << "inline constexpr Dense " << sub << "[" << table.size() << "] = {\n    " << joined(table, ",\n    ")
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
                out << "    if (std::fabs(2.0f * " << s(i) << "[0] - 1.0f) > std::fabs(2.0f * best[0] - 1.0f)) best = " << s(i)
                    << ";\n";
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
    out << "// Generated by Skynnet: a " << taskName(m.task()) << " model of " << m.specs.size() << " submodel(s) combined by "
        << strategyName(m.rule.strategy) << ". Self-contained C++17, standard library only.\n"
        << "// Input: " << m.rawColumns() << " raw feature columns"
        << (rawNames.empty() ? std::string() : " (" + commentText(joined(rawNames)) + ")")
        << (m.preprocessing.oneHot.empty() ? "" : "; categorical columns hold category codes 0..k-1") << ".\n"
        << "// Output: " << m.rule.outputs << " value(s): " << commentText(joined(outNames)) << ".\n"
        << "// Use: float out[" << o.namespaceName << "::kOutputs]; " << o.namespaceName << "::predict(rawRow, out);\n"
        << "#pragma once\n#include <algorithm>\n#include <cmath>\n#include <cstddef>\n\n"
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
        << "inline void predict(const float* rawFeatures, float* out) {\n"
        << "    float x[detail::kInputColumns], a[detail::kMaxWidth], b[detail::kMaxWidth];\n"
        << "    detail::preprocess(rawFeatures, x);\n";
    for (std::size_t i = 0; i < m.specs.size(); ++i) {
        const std::string n = std::to_string(i + 1);
        out << "    float s" << n << "[" << m.specs[i].outputs << "];  // submodel " << n << "\n"
            << "    detail::network(detail::kSub" << n << ", " << "static_cast<int>(sizeof detail::kSub" << n
            << " / sizeof(detail::Dense)), x, s" << n << ", a, b);\n";
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
