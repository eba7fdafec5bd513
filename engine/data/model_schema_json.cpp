#include "data/model_schema_json.h"

#include "io/json_fields.h"

namespace skynnet {

void writeSchemaFields(Json& header, const ModelSchema& s, const Json& extra) {
    header["classNames"] = s.classNames;
    header["targetNames"] = s.targetNames;
    header["featureNames"] = s.featureNames;
    Json e = extra;
    if (!s.targetColumn.empty()) e["target_column"] = s.targetColumn;
    if (!s.textColumn.empty()) e["text_column"] = s.textColumn;
    if (!e.is_null()) header["extra"] = std::move(e);
    // Only text models have one, so other files stay as they were (toJson refuses an unfitted one).
    if (s.vocabulary) header["vocabulary"] = toJson(*s.vocabulary);
}

ModelSchema readSchemaFields(const JsonField& header, const Preprocessing& preprocessing, const Shape& networkInput,
                             std::optional<Task> task) {
    ModelSchema s;
    s.task = task ? *task : parseNamed(header.at("task"), parseTask);
    s.classNames = header.value("classNames", std::vector<std::string>{});
    s.targetNames = header.value("targetNames", std::vector<std::string>{});
    s.featureNames = header.value("featureNames", std::vector<std::string>{});
    s.categoricals = preprocessing.oneHot;
    if (const auto extra = header.find("extra"); extra && extra->isObject()) {
        s.targetColumn = extra->value("target_column", "");
        s.textColumn = extra->value("text_column", "");
    }
    if (const auto vocabulary = header.find("vocabulary"); vocabulary && !vocabulary->isNull())
        s.vocabulary = vocabularyFromJson(*vocabulary);
    s.sampleShape = rawSampleShape(preprocessing, networkInput);
    return s;
}

Shape rawSampleShape(const Preprocessing& p, const Shape& networkInput) {
    return !p.fitted() || p.oneHot.empty() ? networkInput : Shape::flat(p.rawColumns);
}

}  // namespace skynnet
