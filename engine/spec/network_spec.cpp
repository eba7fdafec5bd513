#include "spec/network_spec.h"

#include <sstream>

#include "core/error.h"

namespace skynnet {

void NetworkSpec::setOutputFor(Task task, int outputCount) {
    outputs = outputCount;
    switch (task) {
    case Task::Classification: outputActivation = Activation::Softmax; break;
    case Task::Binary: outputActivation = Activation::Sigmoid; break;
    case Task::Regression: outputActivation = Activation::None; break;
    }
}

std::string NetworkSpec::widthsSummary() const {
    std::string s = std::to_string(input.size());
    for (const auto& l : layers)
        visitLayer(
            l, [&](const DenseSpec& d) { s += "-" + std::to_string(d.units); }, [](const DropoutSpec&) {},
            [](const FlattenSpec&) {});
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
        [&](FlattenSpec&) {
            if (f.size() != 1) throw Error("flatten takes no arguments");
        });
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
            l, [&](const DenseSpec& d) { s += "dense:" + std::to_string(d.units) + ":" + activationName(d.activation); },
            [&](const DropoutSpec& d) {
                std::ostringstream r;
                r << d.rate;
                s += "dropout:" + r.str();
            },
            [&](const FlattenSpec&) { s += "flatten"; });
    }
    return s;
}

std::vector<LayerFigures> describe(const NetworkSpec& spec) {
    std::vector<LayerFigures> out;
    Shape shape = spec.input;
    for (const auto& l : spec.layers) {
        out.push_back(figures(l, shape));
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
        values += std::int64_t(batchSize) * f.bufferValuesPerSample;
    }
    values += std::int64_t(batchSize) * spec.input.size();  // the gathered input batch
    return values * std::int64_t(sizeof(float));
}

}  // namespace skynnet
