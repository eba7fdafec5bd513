#include "io/json_fields.h"
#include "io/spec_json.h"

#include <climits>
#include <cmath>
#include <span>

#include "core/error.h"
#include "io/model_file.h"

namespace skynnet {
namespace {

// Widths far beyond any real network; the bound keeps parameter counts of a hostile file from
// overflowing 64 bits.
constexpr std::int64_t maxUnits = std::int64_t(1) << 24;

bool isWhole(const Json& j) {
    if (j.isInteger()) return true;
    if (!j.isNumber()) return false;
    const double d = j.asDouble();
    return std::isfinite(d) && d == std::trunc(d);
}

int intAtLeast(const Json& j, std::int64_t min, std::int64_t max, const char* expected) {
    if (!isWhole(j) || j.asDouble() < double(min)) j.fail(std::string("must be ") + expected);
    if (j.asDouble() > double(max)) j.fail("must be at most " + std::to_string(max));
    return int(j.asInt64());
}

int positiveInt(const Json& j, std::int64_t max = maxUnits) { return intAtLeast(j, 1, max, "a positive integer"); }
int nonNegativeInt(const Json& j, std::int64_t max = INT_MAX) {
    return intAtLeast(j, 0, max, "a non-negative integer");
}

LayerType parseLayerType(const std::string& name) {
    if (name == "dense") return LayerType::Dense;
    if (name == "dropout") return LayerType::Dropout;
    if (name == "flatten") return LayerType::Flatten;
    throw Error("unknown layer type '" + name + "' (expected dense, dropout or flatten)");
}

Json toJson(const RowVector& values, const char* name) {
    Json a = Json::array();
    for (Index i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i]))
            throw Error(std::string("preprocessing.") + name + "[" + std::to_string(i) +
                        "] is not a finite number, so it cannot be saved");
        a.push_back(double(values[i]));  // float -> double -> shortest text reads back identical
    }
    return a;
}

RowVector floatsFromJson(const Json& j) {
    const auto& items = j.asArray();
    RowVector v(Index(items.size()));
    for (std::size_t i = 0; i < items.size(); ++i) {
        const float f = float(items[i].asDouble());
        if (!std::isfinite(f)) items[i].fail("must be a finite number within float range");
        v[Index(i)] = f;
    }
    return v;
}

int columnFromJson(const Json& j, int rawColumns) {
    const int c = nonNegativeInt(j);
    if (c >= rawColumns) j.fail("must be a column index below rawColumns (" + std::to_string(rawColumns) + ")");
    return c;
}

// Throws Error("<context>: <problem>") when the parts of a model disagree.
void checkConsistent(const SavedModel& m, const std::string& context) {
    const std::int64_t held = std::int64_t(m.weights.size());
    const std::int64_t needed = paramCountUpTo(m.spec, INT64_MAX / 2);
    if (needed != held)
        throw Error(context + ": the network has " + std::to_string(needed) + " parameters but " +
                    std::to_string(held) + " weights are stored");
    const auto names = [&](const std::vector<std::string>& list, std::size_t expected, const char* what) {
        if (!list.empty() && list.size() != expected)
            throw Error(context + ": " + std::to_string(list.size()) + " " + what + " for a " + taskName(m.task) +
                        " network with " + std::to_string(m.spec.outputs) + " outputs");
    };
    switch (m.task) {
    case Task::Classification: names(m.classNames, std::size_t(m.spec.outputs), "class names"); break;
    case Task::Binary:
        if (m.spec.outputs != 1) throw Error(context + ": a binary network must have 1 output");
        names(m.classNames, 2, "class names");
        break;
    case Task::Regression: names(m.targetNames, std::size_t(m.spec.outputs), "target names"); break;
    }
}

}  // namespace

Json toJson(const Shape& shape) {
    return Json::object({{"channels", shape.channels}, {"height", shape.height}, {"width", shape.width}});
}

Shape shapeFromJson(const Json& j) {
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

LayerSpec layerSpecFromJson(const Json& j) {
    LayerSpec l;
    l.type = parseNamed(j.at("type"), parseLayerType);
    switch (l.type) {
    case LayerType::Dense:
        l.units = positiveInt(j.at("units"));
        if (const Json* a = j.find("activation")) l.activation = parseNamed(*a, parseActivation);
        break;
    case LayerType::Dropout: {
        const Json& rate = j.at("rate");
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

NetworkSpec networkSpecFromJson(const Json& j) {
    NetworkSpec spec;
    spec.input = shapeFromJson(j.at("input"));
    for (const Json& l : j.at("layers").asArray()) spec.layers.push_back(layerSpecFromJson(l));
    spec.outputs = positiveInt(j.at("outputs"));
    spec.outputActivation = parseNamed(j.at("outputActivation"), parseActivation);
    return spec;
}

Json toJson(const Dataset::Categorical& categorical) {
    return Json::object({{"column", categorical.column}, {"categories", categorical.categories}});
}

Dataset::Categorical categoricalFromJson(const Json& j) {
    Dataset::Categorical c;
    c.column = nonNegativeInt(j.at("column"));
    c.categories = j.at("categories").get<std::vector<std::string>>();
    return c;
}

Json toJson(const Preprocessing& p) {
    Json oneHot = Json::array();
    for (const auto& c : p.oneHot) oneHot.push_back(toJson(c));
    return Json::object({{"scaling", scalingName(p.scaling)},
                         {"rawColumns", p.rawColumns},
                         {"oneHot", std::move(oneHot)},
                         {"numericColumns", p.numericColumns},
                         {"offset", toJson(p.offset, "offset")},
                         {"scale", toJson(p.scale, "scale")}});
}

Preprocessing preprocessingFromJson(const Json& j) {
    Preprocessing p;
    p.scaling = parseNamed(j.at("scaling"), parseScaling);
    p.rawColumns = nonNegativeInt(j.at("rawColumns"));
    for (const Json& item : j.at("oneHot").asArray()) {
        p.oneHot.push_back(categoricalFromJson(item));
        columnFromJson(item.at("column"), p.rawColumns);
    }
    for (const Json& c : j.at("numericColumns").asArray()) p.numericColumns.push_back(columnFromJson(c, p.rawColumns));
    const auto perColumn = [&](const char* key) {
        const Json& values = j.at(key);
        RowVector v = floatsFromJson(values);
        if (std::size_t(v.size()) != p.numericColumns.size())
            values.fail("has " + std::to_string(v.size()) + " values for " + std::to_string(p.numericColumns.size()) +
                        " numeric columns");
        return v;
    };
    p.offset = perColumn("offset");
    p.scale = perColumn("scale");
    return p;
}

void saveModel(const std::string& path, const SavedModel& m) {
    checkConsistent(m, "cannot save " + path);
    Json h = Json::object({{"kind", "single"},
                           {"task", taskName(m.task)},
                           {"network", toJson(m.spec)},
                           {"weightsBlock", 0},
                           {"preprocessing", toJson(m.preprocessing)},
                           {"classNames", m.classNames},
                           {"targetNames", m.targetNames},
                           {"featureNames", m.featureNames}});
    if (!m.extra.isNull()) h["extra"] = m.extra;
    saveModelFile(path, h, {std::span<const float>(m.weights)});
}

SavedModel loadModel(const std::string& path) {
    ModelFileContents file = loadModelFile(path);
    const Json& h = file.header;
    (void)h.asObject();  // throws "<path>: the top-level value must be an object, not ..."
    const std::string& kind = h.at("kind").asString();
    if (kind != "single")
        throw Error(path + " holds a model of kind '" + kind + "', which this build cannot load as a single network");
    SavedModel m;
    m.task = parseNamed(h.at("task"), parseTask);
    m.spec = networkSpecFromJson(h.at("network"));
    const Json& block = h.at("weightsBlock");
    if (file.blocks.empty() || !isWhole(block) || block.asDouble() < 0 || block.asDouble() >= double(file.blocks.size()))
        block.fail("must be the index of one of the file's " + std::to_string(file.blocks.size()) + " data blocks");
    m.weights = std::move(file.blocks[std::size_t(block.asInt64())]);
    m.preprocessing = preprocessingFromJson(h.at("preprocessing"));
    m.classNames = h.value("classNames", std::vector<std::string>{});
    m.targetNames = h.value("targetNames", std::vector<std::string>{});
    m.featureNames = h.value("featureNames", std::vector<std::string>{});
    m.extra = h.value("extra", Json());
    checkConsistent(m, path);
    return m;
}

}  // namespace skynnet
