#include "model_input.h"

namespace skynnet::cli {

LoadedModel loadTrainedModel(const std::string& path) {
    LoadedModel m;
    m.path = path;
    m.saved = loadAnyModel(path);
    m.model = buildCombinedModel(m.saved);
    return m;
}

Matrix modelOutputs(LoadedModel& model, const Dataset& data) {
    return predictRaw(model.model, model.saved, data.features);
}

Matrix modelTargets(const LoadedModel& model, const Dataset& data) {
    if (data.task != Task::Reconstruction || !model.saved.preprocessing.fitted()) return data.targetMatrix();
    return model.saved.preprocessing.apply(data.features);
}

std::string modelDescription(const LoadedModel& model) {
    const SavedCombinedModel& m = model.saved;
    if (!model.combined()) return "a single network " + m.specs.front().widthsSummary();
    std::string widths;
    for (const NetworkSpec& s : m.specs) widths += (widths.empty() ? "" : ", ") + s.widthsSummary();
    return std::to_string(m.submodelCount()) + " submodel" + (m.submodelCount() == 1 ? "" : "s") + " (" +
           strategyName(m.rule.strategy) + ") of " + widths +
           (m.rule.strategy == Strategy::ClassGroups ? ", combined by " + classRuleDescription(m.rule) : "");
}

}  // namespace skynnet::cli
