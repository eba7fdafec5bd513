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
        if (l.type == LayerType::Dense) s += "-" + std::to_string(l.units);
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

}  // namespace

std::vector<LayerSpec> parseLayers(const std::string& text) {
    std::vector<LayerSpec> layers;
    const auto items = splitOn(text, ',');
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string where = "layer " + std::to_string(i + 1) + " ('" + trim(items[i]) + "')";
        auto f = splitOn(trim(items[i]), ':');
        for (auto& s : f) s = trim(s);
        if (f.empty() || f[0].empty()) throw Error(where + ": empty layer description");
        LayerSpec l;
        try {
            if (f[0] == "dense") {
                if (f.size() < 2 || f.size() > 3) throw Error("expected dense:UNITS[:ACTIVATION]");
                std::size_t used = 0;
                l.units = std::stoi(f[1], &used);
                if (used != f[1].size() || l.units < 1) throw Error("units must be a positive whole number");
                l.activation = f.size() == 3 ? parseActivation(f[2]) : Activation::ReLU;
            } else if (f[0] == "dropout") {
                if (f.size() != 2) throw Error("expected dropout:RATE");
                l.type = LayerType::Dropout;
                std::size_t used = 0;
                l.rate = std::stof(f[1], &used);
                if (used != f[1].size() || !(l.rate >= 0.0f && l.rate < 1.0f)) throw Error("rate must be in [0, 1)");
                l.scalable = false;
            } else if (f[0] == "flatten") {
                if (f.size() != 1) throw Error("flatten takes no arguments");
                l.type = LayerType::Flatten;
                l.scalable = false;
            } else {
                throw Error("unknown layer type '" + f[0] + "' (expected dense, dropout or flatten)");
            }
        } catch (const Error& e) {
            throw Error(where + ": " + e.what());
        } catch (const std::exception&) {
            throw Error(where + ": not a number");
        }
        layers.push_back(l);
    }
    if (layers.empty()) throw Error("no layers given");
    return layers;
}

std::string formatLayers(const std::vector<LayerSpec>& layers) {
    std::string s;
    for (const auto& l : layers) {
        if (!s.empty()) s += ",";
        switch (l.type) {
        case LayerType::Dense: s += "dense:" + std::to_string(l.units) + ":" + activationName(l.activation); break;
        case LayerType::Dropout: {
            std::ostringstream r;
            r << l.rate;
            s += "dropout:" + r.str();
            break;
        }
        case LayerType::Flatten: s += "flatten"; break;
        }
    }
    return s;
}

std::vector<LayerFigures> describe(const NetworkSpec& spec) {
    std::vector<LayerFigures> out;
    Index width = spec.input.size();
    Shape shape = spec.input;
    auto dense = [&](int units, Activation a, const std::string& prefix) {
        LayerFigures f;
        f.description = prefix + " " + std::to_string(units) + " " + activationName(a);
        f.params = std::int64_t(width) * units + units;
        f.flopsPerSample = 2 * std::int64_t(width) * units;
        shape = Shape::flat(units);
        width = units;
        f.output = shape;
        out.push_back(f);
    };
    for (const auto& l : spec.layers) {
        switch (l.type) {
        case LayerType::Dense: dense(l.units, l.activation, "dense"); break;
        case LayerType::Dropout: {
            std::ostringstream r;
            r << "dropout " << l.rate;
            out.push_back({r.str(), shape, 0, 0});
            break;
        }
        case LayerType::Flatten:
            shape = Shape::flat(int(width));
            out.push_back({"flatten", shape, 0, 0});
            break;
        }
    }
    dense(spec.outputs, spec.outputActivation, "output");
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
        // output buffer and input-gradient buffer per layer, plus the activation's own two
        values += 4 * std::int64_t(batchSize) * f.output.size();
    }
    values += std::int64_t(batchSize) * spec.input.size();  // the gathered input batch
    return values * std::int64_t(sizeof(float));
}

}  // namespace skynnet
