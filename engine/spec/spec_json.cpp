#include "spec/spec_json.h"

#include <climits>

#include "core/error.h"
#include "io/json_fields.h"

namespace skynnet {
namespace {

template <class Pool>
void writePool(Json& j, const Pool& p) {
    j["size"] = p.size;
    j["stride"] = p.stride;
}

template <class Pool>
void readPool(const JsonField& j, Pool& p) {
    p.size = positiveInt(j.at("size"));
    p.stride = nonNegativeInt(j.at("stride"));
}

template <class Recurrent>
bool writeRecurrent(Json& j, const Recurrent& r) {
    j["units"] = r.units;
    j["sequences"] = r.sequences;
    return r.scalable;
}

template <class Recurrent>
void readRecurrent(const JsonField& j, Recurrent& r) {
    r.units = positiveInt(j.at("units"));
    r.sequences = j.at("sequences").asBool();
    r.scalable = j.value("scalable", true);
}

// A dropout rate: at least 0 and below 1.
float dropoutRate(const JsonField& rate) {
    const float r = float(rate.asDouble());
    if (!(r >= 0.0f && r < 1.0f)) rate.fail("must be at least 0 and below 1");
    return r;
}

}  // namespace

Json toJson(const Shape& shape) {
    Json j = Json::object({{"channels", shape.channels}, {"height", shape.height}, {"width", shape.width}});
    if (shape.sequence) j["sequence"] = true;  // absent in files older than sequences
    return j;
}

Shape shapeFromJson(const JsonField& j) {
    Shape s{positiveInt(j.at("channels")), positiveInt(j.at("height")), positiveInt(j.at("width")),
            j.value("sequence", false)};
    if (s.sequence && s.channels != 1) j.at("channels").fail("must be 1 for a sequence");
    if (s.size() > INT_MAX) j.fail("has more than " + std::to_string(INT_MAX) + " values per sample");
    return s;
}

Json toJson(const LayerSpec& layer) {
    Json j;
    j["type"] = kindName(layer);
    // Files have always carried "scalable" on every layer, last; only the kinds with a width
    // (dense, conv, embedding, gru, lstm) can say true.
    bool scalable = false;
    visitLayer(
        layer,
        [&](const DenseSpec& d) {
            j["units"] = d.units;
            j["activation"] = activationName(d.activation);
            scalable = d.scalable;
        },
        [&](const DropoutSpec& d) { j["rate"] = d.rate; }, [](const FlattenSpec&) {},
        [&](const ConvSpec& c) {
            j["filters"] = c.filters;
            j["kernel"] = Json::array({c.kernelH, c.kernelW});
            j["stride"] = c.stride;
            j["padding"] = paddingName(c.padding);
            j["bias"] = c.bias;
            j["activation"] = activationName(c.activation);
            scalable = c.scalable;
        },
        [&](const MaxPoolSpec& p) { writePool(j, p); }, [&](const AvgPoolSpec& p) { writePool(j, p); },
        [](const GlobalAvgPoolSpec&) {},
        [&](const BatchNormSpec& b) {
            j["momentum"] = b.momentum;
            j["epsilon"] = b.epsilon;
        },
        [&](const ActivationSpec& a) { j["activation"] = activationName(a.activation); },
        [&](const EmbeddingSpec& e) {
            j["dim"] = e.dim;
            j["vocabulary"] = e.vocabulary;
            scalable = e.scalable;
        },
        [&](const GruSpec& g) { scalable = writeRecurrent(j, g); },
        [&](const LstmSpec& l) { scalable = writeRecurrent(j, l); },
        [&](const SeqPoolSpec& p) { j["mode"] = sequencePoolModeName(p.mode); },
        [&](const PatchSpec& p) {
            j["patch"] = p.patch;
            j["dim"] = p.dim;
            j["classToken"] = p.classToken;
            scalable = p.scalable;
        },
        [](const LayerNormSpec&) {},
        [&](const AttentionSpec& a) {
            j["heads"] = a.heads;
            j["causal"] = a.causal;
            j["dropout"] = a.dropout;
        },
        [&](const EncoderSpec& e) {
            j["heads"] = e.heads;
            j["mlp"] = e.mlp;
            j["dropout"] = e.dropout;
            scalable = e.scalable;
        });
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
        [&](DropoutSpec& d) { d.rate = dropoutRate(j.at("rate")); },
        // A "scalable" on another kind, which older designers could write, means nothing: the
        // planner only ever shrank dense widths.
        [](FlattenSpec&) {},
        [&](ConvSpec& c) {
            c.filters = positiveInt(j.at("filters"));
            const JsonField& kernel = j.at("kernel");
            const auto hw = kernel.asArray();
            if (hw.size() != 2) kernel.fail("must be [height, width]");
            c.kernelH = positiveInt(hw[0]);
            c.kernelW = positiveInt(hw[1]);
            c.stride = positiveInt(j.at("stride"));
            c.padding = parseNamed(j.at("padding"), parsePadding);
            c.bias = j.at("bias").asBool();
            c.activation = parseNamed(j.at("activation"), parseActivation);
            c.scalable = j.value("scalable", true);
        },
        [&](MaxPoolSpec& p) { readPool(j, p); }, [&](AvgPoolSpec& p) { readPool(j, p); }, [](GlobalAvgPoolSpec&) {},
        [&](BatchNormSpec& b) {
            const JsonField& momentum = j.at("momentum");
            b.momentum = float(momentum.asDouble());
            if (!(b.momentum > 0.0f && b.momentum <= 1.0f)) momentum.fail("must be above 0 and at most 1");
            const JsonField& epsilon = j.at("epsilon");
            b.epsilon = float(epsilon.asDouble());
            if (!(b.epsilon > 0.0f)) epsilon.fail("must be above 0");
        },
        [&](ActivationSpec& a) { a.activation = parseNamed(j.at("activation"), parseActivation); },
        [&](EmbeddingSpec& e) {
            e.dim = positiveInt(j.at("dim"));
            e.vocabulary = nonNegativeInt(j.at("vocabulary"));
            e.scalable = j.value("scalable", true);
        },
        [&](GruSpec& g) { readRecurrent(j, g); }, [&](LstmSpec& r) { readRecurrent(j, r); },
        [&](SeqPoolSpec& p) { p.mode = parseNamed(j.at("mode"), parseSequencePoolMode); },
        [&](PatchSpec& p) {
            p.patch = positiveInt(j.at("patch"));
            p.dim = positiveInt(j.at("dim"));
            p.classToken = j.at("classToken").asBool();
            p.scalable = j.value("scalable", true);
        },
        [](LayerNormSpec&) {},
        [&](AttentionSpec& a) {
            a.heads = positiveInt(j.at("heads"));
            a.causal = j.at("causal").asBool();
            a.dropout = dropoutRate(j.at("dropout"));
        },
        [&](EncoderSpec& e) {
            e.heads = positiveInt(j.at("heads"));
            e.mlp = positiveInt(j.at("mlp"));
            e.dropout = dropoutRate(j.at("dropout"));
            e.scalable = j.value("scalable", true);
        });
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
