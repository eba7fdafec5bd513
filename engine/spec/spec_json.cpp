#include "spec/spec_json.h"

#include <climits>

#include "core/error.h"
#include "io/json_fields.h"

namespace skynnet {

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
    j["type"] = kindName(layer);
    // Files have always carried "scalable" on every layer, last; only a dense layer's can be true.
    bool scalable = false;
    visitLayer(
        layer,
        [&](const DenseSpec& d) {
            j["units"] = d.units;
            j["activation"] = activationName(d.activation);
            scalable = d.scalable;
        },
        [&](const DropoutSpec& d) { j["rate"] = d.rate; }, [](const FlattenSpec&) {});
    j["scalable"] = scalable;
    return j;
}

LayerSpec layerSpecFromJson(const JsonField& j) {
    LayerSpec l = parseNamed(j.at("type"), layerOfKind);
    visitLayer(
        l,
        [&](DenseSpec& d) {
            d.units = positiveInt(j.at("units"));
            if (const auto a = j.find("activation")) d.activation = parseNamed(*a, parseActivation);
            d.scalable = j.value("scalable", true);
        },
        [&](DropoutSpec& d) {
            const JsonField& rate = j.at("rate");
            d.rate = float(rate.asDouble());
            if (!(d.rate >= 0.0f && d.rate < 1.0f)) rate.fail("must be at least 0 and below 1");
        },
        // A "scalable" on another kind, which older designers could write, means nothing: the
        // planner only ever shrank dense widths.
        [](FlattenSpec&) {});
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
