#include "model/saved_model.h"

#include <span>

#include "core/error.h"
#include "data/model_schema_json.h"
#include "io/container.h"
#include "io/json_fields.h"
#include "model/network.h"

namespace skynnet {
namespace {

// Throws Error("<context>: <problem>") when the parts of a model disagree.
void checkConsistent(const SavedModel& m, const std::string& context) {
    const std::int64_t held = std::int64_t(m.weights.size());
    // Parameters and state (BatchNorm's running values); a file written before state existed has
    // none, and its count is its parameter count as it always was.
    const std::int64_t needed = weightCountUpTo(m.spec, INT64_MAX / 2);
    if (needed != held)
        throw Error(context + ": the network has " + weightCountText(m.spec) + " but " + std::to_string(held) +
                    " weights are stored");
    const auto names = [&](const std::vector<std::string>& list, std::size_t expected, const char* what) {
        if (!list.empty() && list.size() != expected)
            throw Error(context + ": " + std::to_string(list.size()) + " " + what + " for a " +
                        taskName(m.schema.task) + " network with " + std::to_string(m.spec.outputs) + " outputs");
    };
    switch (m.schema.task) {
    case Task::Classification: names(m.schema.classNames, std::size_t(m.spec.outputs), "class names"); break;
    case Task::Binary:
        if (m.spec.outputs != 1) throw Error(context + ": a binary network must have 1 output");
        names(m.schema.classNames, 2, "class names");
        break;
    case Task::Regression:
    case Task::Reconstruction: names(m.schema.targetNames, std::size_t(m.spec.outputs), "target names"); break;
    }
}

}  // namespace

void saveModel(const std::string& path, const SavedModel& m) {
    checkConsistent(m, "cannot save " + path);
    Json h = Json::object({{"kind", "single"},
                           {"task", taskName(m.schema.task)},
                           {"network", toJson(m.spec)},
                           {"weightsBlock", 0},
                           {"preprocessing", toJson(m.preprocessing)}});
    writeSchemaFields(h, m.schema, m.extra);
    saveModelFile(path, h, {std::span<const float>(m.weights)});
}

SavedModel loadModel(const std::string& path) {
    ModelFileContents file = loadModelFile(path);
    const JsonField h = file.headerField();
    (void)h.asObject();  // throws "<path>: the top-level value must be an object, not ..."
    const std::string& kind = h.at("kind").asString();
    if (kind != "single")
        throw Error(path + " holds a model of kind '" + kind + "', which this build cannot load as a single network");
    SavedModel m;
    m.spec = networkSpecFromJson(h.at("network"));
    const JsonField& block = h.at("weightsBlock");
    if (file.blocks.empty() || !isWhole(block) || block.asDouble() < 0 ||
        block.asDouble() >= double(file.blocks.size()))
        block.fail("must be the index of one of the file's " + std::to_string(file.blocks.size()) + " data blocks");
    m.weights = std::move(file.blocks[std::size_t(block.asInt64())]);
    m.preprocessing = preprocessingFromJson(h.at("preprocessing"));
    m.schema = readSchemaFields(h, m.preprocessing, m.spec.input);
    m.extra = h.value("extra", Json());
    checkConsistent(m, path);
    return m;
}

}  // namespace skynnet
