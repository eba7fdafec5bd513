#include "train_setup.h"

#include <cstdio>

#include "core/error.h"
#include "losses/task_losses.h"

namespace skynnet::cli {

RunData runDataOf(const TrainOptions& o) {
    RunData d;
    d.train = o.data;
    d.test = o.testData;
    d.preparation.validationFraction = o.validationFraction;
    d.preparation.testFraction = o.testFraction;
    d.preparation.separateTestFile = o.testData.has_value();
    d.preparation.seed = o.config.seed;
    d.preparation.scaling = o.scaling.value_or(defaultScalingFor(o.data.path));
    d.preparation.text = o.text;
    return d;
}

PreparedData prepareData(const RunData& data, DataUse use, const std::function<void(const PreparedData&)>& split) {
    PrepareHooks hooks;
    // Not progress: --quiet keeps them. The training data's skipped images are among them.
    hooks.warning = [](const std::string& w) { std::fprintf(stderr, "warning: %s\n", w.c_str()); };
    hooks.split = split;
    return prepareRunData(data, use, hooks);
}

PreparedData prepareData(const TrainOptions& o, DataUse use, const std::function<void(const PreparedData&)>& split) {
    return prepareData(runDataOf(o), use, split);
}

NetworkSpec buildNetworkSpec(const TrainOptions& o, const PreparedData& data) {
    NetworkSpec spec;
    // Images keep their (channels, height, width) layout; one-hot columns make the input flat.
    spec.input = networkInputShape(data);
    spec.layers = o.layers;
    spec.setOutputFor(data.task(), data.train.outputCount());
    spec.bindVocabulary(vocabularySize(data));  // embeddings read the text data's token ids
    try {
        checkAugmentable(o.config.augmentation, spec.input);
    } catch (const Error& e) {
        Args::fail("--augment", e.what());
    }
    return spec;
}

TrainConfig buildTrainConfig(const TrainOptions& o, Task task) {
    TrainConfig c = o.config;
    c.loss = o.loss.value_or(lossesForTask(task).front());
    try {
        checkLossFitsTask(c.loss, task);
    } catch (const Error& e) {
        Args::fail("--loss", e.what());
    }
    return c;
}

SavedModel buildSavedModel(const PreparedData& data, const Network& network, Json extra) {
    SavedModel m;
    m.schema = data.schema;
    m.spec = network.spec();
    m.weights = network.flatWeights();
    m.preprocessing = data.preprocessing;
    m.extra = std::move(extra);
    return m;
}

}  // namespace skynnet::cli
