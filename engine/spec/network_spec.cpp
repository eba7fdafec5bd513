#include "spec/network_spec.h"

#include <cctype>
#include <sstream>

#include "core/error.h"
#include "spec/transformer_layer_text.h"

namespace skynnet {

void NetworkSpec::setOutputFor(Task task, int outputCount) {
    outputs = outputCount;
    switch (task) {
    case Task::Classification: outputActivation = Activation::Softmax; break;
    case Task::Binary: outputActivation = Activation::Sigmoid; break;
    case Task::Regression: outputActivation = Activation::None; break;
    case Task::Reconstruction:
        // Linear or sigmoid, as set for the loss (losses/task_losses.h's outputActivationFor), so
        // that a split's submodels keep their original's; another task's softmax becomes a sigmoid.
        if (outputActivation != Activation::None) outputActivation = Activation::Sigmoid;
        break;
    }
}

void NetworkSpec::bindVocabulary(int size) {
    for (LayerSpec& l : layers)
        if (auto* e = std::get_if<EmbeddingSpec>(&l)) e->vocabulary = size;
}

std::string NetworkSpec::widthsSummary() const {
    std::string s = std::to_string(input.size());
    // Convolutions by their filters ("c32"); layers without a width of their own are left out.
    const auto none = [](const auto&) {};
    for (const auto& l : layers)
        visitLayer(
            l, [&](const DenseSpec& d) { s += "-" + std::to_string(d.units); },
            [&](const ConvSpec& c) { s += "-c" + std::to_string(c.filters); }, [&](const DropoutSpec& d) { none(d); },
            [&](const FlattenSpec& f) { none(f); }, [&](const MaxPoolSpec& p) { none(p); },
            [&](const AvgPoolSpec& p) { none(p); }, [&](const GlobalAvgPoolSpec& g) { none(g); },
            [&](const BatchNormSpec& b) { none(b); }, [&](const ActivationSpec& a) { none(a); },
            [&](const EmbeddingSpec& e) { s += "-e" + std::to_string(e.dim); },
            [&](const GruSpec& g) { s += "-g" + std::to_string(g.units); },
            [&](const LstmSpec& l) { s += "-l" + std::to_string(l.units); }, [&](const SeqPoolSpec& p) { none(p); },
            [&](const PatchSpec& p) { s += "-p" + std::to_string(p.dim); },
            [&](const EncoderSpec& e) { s += "-t" + std::to_string(e.mlp); }, [&](const LayerNormSpec& n) { none(n); },
            [&](const AttentionSpec& a) { none(a); });
    return s + "-" + std::to_string(outputs);
}

namespace {

std::vector<std::string> splitOn(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::string item;
    std::istringstream in(s);
    while (std::getline(in, item, sep)) parts.push_back(item);
    return parts;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

int wholeNumber(const std::string& text, const char* what) {
    std::size_t used = 0;
    const int n = std::stoi(text, &used);
    if (used != text.size() || n < 1) throw Error(std::string(what) + " must be a positive whole number");
    return n;
}

// "sS" as a stride, or 0 when the item is something else.
int strideOf(const std::string& item) {
    return item.size() > 1 && item[0] == 's' && std::isdigit((unsigned char)item[1])
               ? wholeNumber(item.substr(1), "the stride")
               : 0;
}

// "K" or "KHxKW".
void parseKernel(const std::string& text, int& h, int& w) {
    const auto x = text.find('x');
    if (x == std::string::npos) {
        h = w = wholeNumber(text, "the kernel size");
        return;
    }
    h = wholeNumber(text.substr(0, x), "the kernel height");
    w = wholeNumber(text.substr(x + 1), "the kernel width");
}

void parseConv(ConvSpec& c, const std::vector<std::string>& f) {
    const char* usage = "expected conv:FILTERS:KxK[:sS][:same|valid][:nobias][:ACTIVATION]";
    if (f.size() < 3 || f.size() > 7) throw Error(usage);
    c = ConvSpec{};
    c.filters = wholeNumber(f[1], "the filter count");
    parseKernel(f[2], c.kernelH, c.kernelW);
    // The optional items come in a fixed order: stride, padding, bias, activation.
    std::size_t at = 3;
    if (at < f.size() && strideOf(f[at]) > 0) c.stride = strideOf(f[at++]);
    if (at < f.size() && (f[at] == "same" || f[at] == "valid")) c.padding = parsePadding(f[at++]);
    if (at < f.size() && f[at] == "nobias") c.bias = (++at, false);
    if (at < f.size()) c.activation = parseActivation(f[at++]);
    if (at != f.size()) throw Error(usage);
}

template <class Pool>
void parsePool(Pool& p, const std::vector<std::string>& f) {
    const std::string usage = std::string("expected ") + Pool::kind + ":SIZE[:sS]";
    if (f.size() < 2 || f.size() > 3) throw Error(usage);
    p.size = wholeNumber(f[1], "the window size");
    p.stride = 0;
    if (f.size() == 3 && (p.stride = strideOf(f[2])) == 0) throw Error(usage);
}

void noArguments(const std::vector<std::string>& f, const char* kind) {
    if (f.size() != 1) throw Error(std::string(kind) + " takes no arguments");
}

// gru:UNITS[:sequences] and lstm:UNITS[:sequences].
template <class Recurrent>
void parseRecurrent(Recurrent& r, const std::vector<std::string>& f) {
    const std::string usage = std::string("expected ") + Recurrent::kind + ":UNITS[:sequences]";
    if (f.size() < 2 || f.size() > 3 || (f.size() == 3 && f[2] != "sequences")) throw Error(usage);
    r = Recurrent{};
    r.units = wholeNumber(f[1], "units");
    r.sequences = f.size() == 3;
}

template <class Recurrent>
std::string formatRecurrent(const Recurrent& r) {
    return std::string(Recurrent::kind) + ":" + std::to_string(r.units) + (r.sequences ? ":sequences" : "");
}

// The arguments after "KIND:" of one layer of parseLayers(), into the layer of that kind.
void parseArguments(LayerSpec& layer, const std::vector<std::string>& f) {
    visitLayer(
        layer,
        [&](DenseSpec& d) {
            if (f.size() < 2 || f.size() > 3) throw Error("expected dense:UNITS[:ACTIVATION]");
            std::size_t used = 0;
            d.units = std::stoi(f[1], &used);
            if (used != f[1].size() || d.units < 1) throw Error("units must be a positive whole number");
            d.activation = f.size() == 3 ? parseActivation(f[2]) : Activation::ReLU;
            d.scalable = true;
        },
        [&](DropoutSpec& d) {
            if (f.size() != 2) throw Error("expected dropout:RATE");
            std::size_t used = 0;
            d.rate = std::stof(f[1], &used);
            if (used != f[1].size() || !(d.rate >= 0.0f && d.rate < 1.0f)) throw Error("rate must be in [0, 1)");
        },
        [&](FlattenSpec&) { noArguments(f, FlattenSpec::kind); }, [&](ConvSpec& c) { parseConv(c, f); },
        [&](MaxPoolSpec& p) { parsePool(p, f); }, [&](AvgPoolSpec& p) { parsePool(p, f); },
        [&](GlobalAvgPoolSpec&) { noArguments(f, GlobalAvgPoolSpec::kind); },
        [&](BatchNormSpec&) { noArguments(f, BatchNormSpec::kind); },
        [&](ActivationSpec& a) {
            if (f.size() != 2) throw Error("expected activation:ACTIVATION");
            a.activation = parseActivation(f[1]);
        },
        [&](EmbeddingSpec& e) {
            if (f.size() != 2) throw Error("expected embedding:DIM");
            e = EmbeddingSpec{};
            e.dim = wholeNumber(f[1], "the dimension");
        },
        [&](GruSpec& g) { parseRecurrent(g, f); }, [&](LstmSpec& l) { parseRecurrent(l, f); },
        [&](SeqPoolSpec& p) {
            if (f.size() != 2) throw Error("expected seqpool:mean, seqpool:last or seqpool:cls");
            p.mode = parseSequencePoolMode(f[1]);
        },
        [&](PatchSpec& p) { parseArguments(p, f); }, [&](EncoderSpec& e) { parseArguments(e, f); },
        [&](AttentionSpec& a) { parseArguments(a, f); }, [&](LayerNormSpec& n) { parseArguments(n, f); });
}

template <class Pool>
std::string formatPool(const Pool& p) {
    return std::string(Pool::kind) + ":" + std::to_string(p.size) +
           (p.stride > 0 ? ":s" + std::to_string(p.stride) : "");
}

}  // namespace

std::vector<LayerSpec> parseLayers(const std::string& text) {
    std::vector<LayerSpec> layers;
    const auto items = splitOn(text, ',');
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string where = "layer " + std::to_string(i + 1) + " ('" + trim(items[i]) + "')";
        auto f = splitOn(trim(items[i]), ':');
        for (auto& s : f) s = trim(s);
        if (f.empty() || f[0].empty()) throw Error(where + ": empty layer description");
        try {
            LayerSpec l = layerOfKind(f[0]);
            parseArguments(l, f);
            layers.push_back(l);
        } catch (const Error& e) {
            throw Error(where + ": " + e.what());
        } catch (const std::exception&) {
            throw Error(where + ": not a number");
        }
    }
    if (layers.empty()) throw Error("no layers given");
    return layers;
}

std::string formatLayers(const std::vector<LayerSpec>& layers) {
    std::string s;
    for (const auto& l : layers) {
        if (!s.empty()) s += ",";
        visitLayer(
            l,
            [&](const DenseSpec& d) { s += "dense:" + std::to_string(d.units) + ":" + activationName(d.activation); },
            [&](const DropoutSpec& d) {
                std::ostringstream r;
                r << d.rate;
                s += "dropout:" + r.str();
            },
            [&](const FlattenSpec&) { s += FlattenSpec::kind; },
            [&](const ConvSpec& c) {
                s += std::string(ConvSpec::kind) + ":" + std::to_string(c.filters) + ":" + std::to_string(c.kernelH) +
                     "x" + std::to_string(c.kernelW) + (c.stride != 1 ? ":s" + std::to_string(c.stride) : "") +
                     (c.padding == Padding::Same ? ":same" : "") + (c.bias ? "" : ":nobias") + ":" +
                     activationName(c.activation);
            },
            [&](const MaxPoolSpec& p) { s += formatPool(p); }, [&](const AvgPoolSpec& p) { s += formatPool(p); },
            [&](const GlobalAvgPoolSpec&) { s += GlobalAvgPoolSpec::kind; },
            [&](const BatchNormSpec&) { s += BatchNormSpec::kind; },
            [&](const ActivationSpec& a) {
                s += std::string(ActivationSpec::kind) + ":" + activationName(a.activation);
            },
            [&](const EmbeddingSpec& e) { s += std::string(EmbeddingSpec::kind) + ":" + std::to_string(e.dim); },
            [&](const GruSpec& g) { s += formatRecurrent(g); }, [&](const LstmSpec& l) { s += formatRecurrent(l); },
            [&](const SeqPoolSpec& p) { s += std::string(SeqPoolSpec::kind) + ":" + sequencePoolModeName(p.mode); },
            [&](const PatchSpec& p) { s += formatArguments(p); },
            [&](const EncoderSpec& e) { s += formatArguments(e); },
            [&](const AttentionSpec& a) { s += formatArguments(a); },
            [&](const LayerNormSpec& n) { s += formatArguments(n); });
    }
    return s;
}

std::vector<LayerFigures> describe(const NetworkSpec& spec) {
    std::vector<LayerFigures> out;
    Shape shape = spec.input;
    for (std::size_t i = 0; i < spec.layers.size(); ++i) {
        try {
            out.push_back(figures(spec.layers[i], shape));
        } catch (const Error& e) {
            throw Error("layer " + std::to_string(i + 1) + ": " + e.what());
        }
        shape = out.back().output;
    }
    const DenseSpec output = spec.outputLayer();
    out.push_back(figures(output, shape));
    out.back().description = "output " + std::to_string(output.units) + " " + activationName(output.activation);
    return out;
}

std::int64_t paramCount(const NetworkSpec& spec) {
    std::int64_t n = 0;
    for (const auto& f : describe(spec)) n += f.params;
    return n;
}

std::int64_t paramCountUpTo(const NetworkSpec& spec, std::int64_t limit) {
    std::int64_t total = 0;
    for (const auto& f : describe(spec)) {
        if (f.params > limit - total) return limit + 1;
        total += f.params;
    }
    return total;
}

std::int64_t flopsPerSample(const NetworkSpec& spec) {
    std::int64_t n = 0;
    for (const auto& f : describe(spec)) n += f.flopsPerSample;
    return n;
}

std::int64_t trainingMemoryBytes(const NetworkSpec& spec, int batchSize, int slotsPerParam) {
    const auto figures = describe(spec);
    std::int64_t values = 0;
    for (const auto& f : figures) {
        values += f.params * (2 + slotsPerParam);  // weights, gradients, optimiser slots
        values += f.state;
        values += std::int64_t(batchSize) * f.bufferValuesPerSample + f.bufferValuesFixed;
    }
    values += std::int64_t(batchSize) * spec.input.size();  // the gathered input batch
    return values * std::int64_t(sizeof(float));
}

}  // namespace skynnet
