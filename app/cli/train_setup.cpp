#include "train_setup.h"

#include <cstdio>

#include "core/error.h"
#include "losses/task_losses.h"

namespace skynnet::cli {

PreparedData prepareData(const TrainOptions& o, DataUse use, const std::function<void(const PreparedData&)>& split) {
    PreparationSettings settings;
    settings.validationFraction = o.validationFraction;
    settings.testFraction = o.testFraction;
    settings.separateTestFile = o.testData.has_value();
    settings.seed = o.config.seed;
    const DataKind kind = dataKind(o.data.path);
    settings.scaling =
        o.scaling.value_or(kind == DataKind::Idx || kind == DataKind::ImageFolder ? Scaling::PixelRange : Scaling::Standardize);
    // The whole set is freed (end of the statement) before the test file is read.
    PreparedData p = splitAndFit(loadTrainingData(o.data), settings);
    // Not progress: --quiet keeps them. The training data's skipped images are among them.
    if (use != DataUse::Submodels)
        for (const std::string& w : p.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    if (use == DataUse::Planning) return p;
    if (split) split(p);
    if (o.testData && use != DataUse::Submodels) {
        p.test = loadLike(*o.testData, p.schema, true);
        if (const std::string w = p.test.skippedFilesWarning(); !w.empty()) std::fprintf(stderr, "warning: %s\n", w.c_str());
    }
    applyPreprocessing(p, nullptr);
    return p;
}

NetworkSpec buildNetworkSpec(const TrainOptions& o, const PreparedData& data) {
    NetworkSpec spec;
    // Images keep their (channels, height, width) layout; one-hot columns make the input flat.
    spec.input = networkInputShape(data);
    spec.layers = o.layers;
    spec.setOutputFor(data.task(), data.train.outputCount());
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
