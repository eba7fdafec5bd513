#include "run/run_data.h"

#include "core/error.h"
#include "core/task.h"
#include "data/idx_loader.h"
#include "data/shape_text.h"
#include "io/json_fields.h"
#include "project/project_json.h"

namespace skynnet {
namespace {

// The project file's own field names, so a message points into the file.
DataRequestNames projectFields(const std::string& part) {
    return {"project data " + part, "project data " + part + "Labels", "project data targetColumn"};
}

Json requestJson(const DataRequest& r) {
    Json j = Json::object({{"option", r.option},
                           {"path", r.path},
                           {"labels", r.labels},
                           {"target", r.target},
                           {"task", r.task ? Json(taskName(*r.task)) : Json()},
                           {"labelsOption", r.labelsOption},
                           {"targetOption", r.targetOption},
                           {"image", Json::object({{"height", r.image.height},
                                                   {"width", r.image.width},
                                                   {"channels", r.image.channels},
                                                   {"strict", r.image.strict},
                                                   {"memoryLimitBytes", unsignedToJson(r.image.memoryLimitBytes)}})},
                           {"sampleShape", r.sampleShape ? Json(sampleShapeText(*r.sampleShape)) : Json()},
                           {"imageOption", r.imageOption},
                           {"sampleShapeOption", r.sampleShapeOption},
                           {"textColumn", r.textColumn},
                           {"textColumnOption", r.textColumnOption},
                           {"sequenceRows", r.sequenceRows},
                           {"sequenceOption", r.sequenceOption}});
    // "1xSxF" is also a sequence's text (Shape::steps(S, F)): the flag says which, only when set.
    if (r.sampleShape && r.sampleShape->sequence) j["sampleShapeSequence"] = true;
    return j;
}

DataRequest requestFromJson(const JsonField& j) {
    DataRequest r;
    r.option = j.at("option").asString();
    r.path = j.at("path").asString();
    r.labels = j.at("labels").asString();
    r.target = j.at("target").asString();
    if (const auto t = j.find("task"); t && !t->isNull()) r.task = parseNamed(*t, parseTask);
    r.labelsOption = j.at("labelsOption").asString();
    r.targetOption = j.at("targetOption").asString();
    const JsonField image = j.at("image");
    r.image.height = nonNegativeInt(image.at("height"), 8192);
    r.image.width = nonNegativeInt(image.at("width"), 8192);
    r.image.channels = nonNegativeInt(image.at("channels"), 3);
    r.image.strict = image.at("strict").asBool();
    r.image.memoryLimitBytes = unsignedFromJson(image.at("memoryLimitBytes"));
    if (const auto s = j.find("sampleShape"); s && !s->isNull()) r.sampleShape = parseNamed(*s, parseSampleShape);
    if (const auto sequence = j.find("sampleShapeSequence"); sequence && sequence->asBool()) {
        if (!r.sampleShape || r.sampleShape->channels != 1)
            sequence->fail("is for a sample shape of 1 x steps x features");
        r.sampleShape = Shape::steps(r.sampleShape->height, r.sampleShape->width);
    }
    r.imageOption = j.at("imageOption").asString();
    r.sampleShapeOption = j.at("sampleShapeOption").asString();
    // Absent from jobs written before text data (issue 26).
    r.textColumn = j.value("textColumn", "");
    r.textColumnOption = j.value("textColumnOption", r.textColumnOption);
    r.sequenceRows = j.value("sequenceRows", false);
    r.sequenceOption = j.value("sequenceOption", r.sequenceOption);
    return r;
}

}  // namespace

RunData runDataOf(const ProjectDataSource& s) {
    RunData d;
    d.train = s.trainRequest(projectFields("train"));
    if (!s.test.path.empty()) d.test = s.testRequest(projectFields("test"));
    d.preparation.validationFraction = s.validationFraction;
    d.preparation.testFraction = s.testFraction;
    d.preparation.separateTestFile = d.test.has_value();
    d.preparation.seed = s.seed;
    d.preparation.scaling = s.scaling;
    d.preparation.text = s.text;
    return d;
}

Scaling defaultScalingFor(const std::string& path) {
    const DataKind kind = dataKind(path);
    if (kind == DataKind::TextFolder) return Scaling::None;  // token ids (preparation keeps them unscaled anyway)
    return kind == DataKind::Idx || kind == DataKind::ImageFolder ? Scaling::PixelRange : Scaling::Standardize;
}

PreparedData prepareRunData(const RunData& data, DataUse use, const PrepareHooks& hooks) {
    PreparationSettings settings = data.preparation;
    settings.separateTestFile = data.test.has_value();
    // The whole set is freed (end of the statement) before the test file is read.
    PreparedData p = splitAndFit(loadTrainingData(data.train), settings);
    // The training data's skipped images are among the warnings.
    if (use != DataUse::Submodels && hooks.warning)
        for (const std::string& w : p.warnings) hooks.warning(w);
    if (use == DataUse::Planning) return p;
    if (hooks.split) hooks.split(p);
    if (data.test && use != DataUse::Submodels) {
        p.test = loadLike(*data.test, p.schema, true);
        if (const std::string w = p.test.skippedFilesWarning(); !w.empty() && hooks.warning) hooks.warning(w);
    }
    applyPreprocessing(p, nullptr);
    return p;
}

std::vector<std::string> filesRead(const RunData& data) {
    std::vector<std::string> files;
    const auto add = [&files](const DataRequest& r) {
        const DataKind kind = dataKind(r.path);
        if (kind == DataKind::Builtin) return;
        files.push_back(r.path);
        if (kind == DataKind::Idx) files.push_back(r.labels.empty() ? idxLabelsPathFor(r.path) : r.labels);
    };
    add(data.train);
    if (data.test) add(*data.test);
    return files;
}

Json toJson(const RunData& d) {
    return Json::object({{"train", requestJson(d.train)},
                         {"test", d.test ? requestJson(*d.test) : Json()},
                         {"validationFraction", d.preparation.validationFraction},
                         {"testFraction", d.preparation.testFraction},
                         {"seed", unsignedToJson(d.preparation.seed)},
                         {"scaling", scalingName(d.preparation.scaling)},
                         {"vocabularySize", d.preparation.text.vocabularySize},
                         {"maxLength", d.preparation.text.maxLength}});
}

RunData runDataFromJson(const JsonField& j) {
    RunData d;
    d.train = requestFromJson(j.at("train"));
    if (const auto t = j.find("test"); t && !t->isNull()) d.test = requestFromJson(*t);
    d.preparation.validationFraction = j.at("validationFraction").asDouble();
    d.preparation.testFraction = j.at("testFraction").asDouble();
    d.preparation.seed = unsignedFromJson(j.at("seed"));
    d.preparation.scaling = parseNamed(j.at("scaling"), parseScaling);
    if (const auto v = j.find("vocabularySize")) d.preparation.text.vocabularySize = positiveInt(*v, maxVocabularySize);
    if (const auto l = j.find("maxLength")) d.preparation.text.maxLength = positiveInt(*l, maxTextLength);
    d.preparation.separateTestFile = d.test.has_value();
    return d;
}

}  // namespace skynnet
