#include "spec/spec_json.h"

#include <climits>

#include "core/error.h"
#include "io/json_fields.h"

namespace skynnet {
namespace {

LayerType parseLayerType(const std::string& name) {
    if (name == "dense") return LayerType::Dense;
    if (name == "dropout") return LayerType::Dropout;
    if (name == "flatten") return LayerType::Flatten;
    throw Error("unknown layer type '" + name + "' (expected dense, dropout or flatten)");
}

}  // namespace

Json toJson(const Shape& shape) {
    return Json::object({{"channels", shape.channels}, {"height", shape.height}, {"width", shape.width}});
}

Shape shapeFromJson(const JsonField& j) {
    Shape s{positiveInt(j.at("channels")), positiveInt(j.at("height")), positiveInt(j.at("width"))};
    if (s.size() > INT_MAX) j.fail("has more than " + std::to_string(INT_MAX) + " values per sample");
    return s;
}

Json toJson(const LayerSpec& layer) {
    Json j;
    switch (layer.type) {
    case LayerType::Dense:
        j["type"] = "dense";
        j["units"] = layer.units;
        j["activation"] = activationName(layer.activation);
        break;
    case LayerType::Dropout:
        j["type"] = "dropout";
        j["rate"] = layer.rate;
        break;
    case LayerType::Flatten: j["type"] = "flatten"; break;
    }
    j["scalable"] = layer.scalable;
    return j;
}

LayerSpec layerSpecFromJson(const JsonField& j) {
    LayerSpec l;
    l.type = parseNamed(j.at("type"), parseLayerType);
    switch (l.type) {
    case LayerType::Dense:
        l.units = positiveInt(j.at("units"));
        if (const auto a = j.find("activation")) l.activation = parseNamed(*a, parseActivation);
        break;
    case LayerType::Dropout: {
        const JsonField& rate = j.at("rate");
        l.rate = float(rate.asDouble());
        if (!(l.rate >= 0.0f && l.rate < 1.0f)) rate.fail("must be at least 0 and below 1");
        break;
    }
    case LayerType::Flatten: break;
    }
    // Only dense widths can be shrunk by the split planner, as parseLayers() decides too.
    l.scalable = j.value("scalable", l.type == LayerType::Dense);
    return l;
}

Json toJson(const NetworkSpec& spec) {
    Json layers = Json::array();
    for (const auto& l : spec.layers) layers.push_back(toJson(l));
    return Json::object({{"input", toJson(spec.input)},
                         {"layers", std::move(layers)},
                         {"outputs", spec.outputs},
                         {"outputActivation", activationName(spec.outputActivation)}});
}

NetworkSpec networkSpecFromJson(const JsonField& j) {
    NetworkSpec spec;
    spec.input = shapeFromJson(j.at("input"));
    for (const JsonField& l : j.at("layers").asArray()) spec.layers.push_back(layerSpecFromJson(l));
    spec.outputs = positiveInt(j.at("outputs"));
    spec.outputActivation = parseNamed(j.at("outputActivation"), parseActivation);
    return spec;
}

}  // namespace skynnet
