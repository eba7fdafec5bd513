#include "data/preprocessing_json.h"

#include <cmath>

#include "core/error.h"
#include "io/json_fields.h"

namespace skynnet {
namespace {

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

RowVector floatsFromJson(const JsonField& j) {
    const auto& items = j.asArray();
    RowVector v(Index(items.size()));
    for (std::size_t i = 0; i < items.size(); ++i) {
        const float f = float(items[i].asDouble());
        if (!std::isfinite(f)) items[i].fail("must be a finite number within float range");
        v[Index(i)] = f;
    }
    return v;
}

int columnFromJson(const JsonField& j, int rawColumns) {
    const int c = nonNegativeInt(j);
    if (c >= rawColumns) j.fail("must be a column index below rawColumns (" + std::to_string(rawColumns) + ")");
    return c;
}

}  // namespace

Json toJson(const Dataset::Categorical& categorical) {
    return Json::object({{"column", categorical.column}, {"categories", categorical.categories}});
}

Dataset::Categorical categoricalFromJson(const JsonField& j) {
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

Preprocessing preprocessingFromJson(const JsonField& j) {
    Preprocessing p;
    p.scaling = parseNamed(j.at("scaling"), parseScaling);
    p.rawColumns = nonNegativeInt(j.at("rawColumns"));
    for (const JsonField& item : j.at("oneHot").asArray()) {
        p.oneHot.push_back(categoricalFromJson(item));
        columnFromJson(item.at("column"), p.rawColumns);
    }
    for (const JsonField& c : j.at("numericColumns").asArray())
        p.numericColumns.push_back(columnFromJson(c, p.rawColumns));
    const auto perColumn = [&](const char* key) {
        const JsonField& values = j.at(key);
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

}  // namespace skynnet
