#include "train_setup.h"

#include <cstdio>

#include "core/error.h"
#include "data/partition.h"

namespace skynnet::cli {
namespace {

LossKind naturalLoss(Task task) {
    switch (task) {
    case Task::Classification: return LossKind::SoftmaxCrossEntropy;
    case Task::Binary: return LossKind::BinaryCrossEntropy;
    case Task::Regression: return LossKind::MeanSquaredError;
    }
    return LossKind::MeanSquaredError;
}

// The raw features are dropped once transformed: for image sets they are hundreds of megabytes
// that nothing reads again (counts come from the transformed matrices).
void preprocess(const Preprocessing& p, Dataset& d, Matrix& x, Matrix& y) {
    if (d.size() > 0) {  // an empty split leaves x and y empty
        x = p.apply(d.features);
        y = d.targetMatrix();
    }
    d.features.resize(0, d.features.cols());
}

}  // namespace

PreparedData prepareData(const TrainOptions& o, DataUse use) {
    PreparedData p;
    const Scaling scaling =
        o.scaling.value_or(dataKind(o.data.path) == DataKind::Idx ? Scaling::MinMax : Scaling::Standardize);
    {  // scoped so the whole set is freed before the test file is read
        const Dataset all = loadTrainingData(o.data);
        DataPartition part = partitionData(all, o.validationFraction, o.testFraction, o.testData.has_value(),
                                           o.config.seed, scaling);
        p.layout = layoutOf(all, o.data.target);
        p.train = std::move(part.train);
        p.validation = std::move(part.validation);
        p.test = std::move(part.test);
        p.preprocessing = std::move(part.preprocessing);
        // Not progress: --quiet keeps them.
        for (const std::string& w : part.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    }
    const bool training = use == DataUse::Training;
    if (o.testData && training) p.test = loadLike(*o.testData, p.layout, true);
    if (!training) return p;
    preprocess(p.preprocessing, p.train, p.xTrain, p.yTrain);
    preprocess(p.preprocessing, p.validation, p.xValidation, p.yValidation);
    preprocess(p.preprocessing, p.test, p.xTest, p.yTest);
    return p;
}

Dataset networkDataset(const Dataset& part, Matrix x) {
    Dataset d;
    d.source = part.source;
    d.task = part.task;
    d.classNames = part.classNames;
    d.labels = part.labels;
    d.targets = part.targets;
    d.targetNames = part.targetNames;
    // The network's columns: one-hot encoding may have changed their number, and their names.
    d.sampleShape = part.sampleShape.size() == x.cols() ? part.sampleShape : Shape::flat(int(x.cols()));
    d.features = std::move(x);
    return d;
}

NetworkSpec buildNetworkSpec(const TrainOptions& o, const PreparedData& data) {
    NetworkSpec spec;
    // Images keep their (channels, height, width) layout; one-hot columns make the input flat.
    const int columns = data.preprocessing.outputColumns();
    spec.input = Index(columns) == data.train.sampleShape.size() && data.preprocessing.oneHot.empty()
                     ? data.train.sampleShape
                     : Shape::flat(columns);
    spec.layers = o.layers;
    spec.setOutputFor(data.task(), data.train.outputCount());
    return spec;
}

TrainConfig buildTrainConfig(const TrainOptions& o, Task task) {
    TrainConfig c = o.config;
    c.loss = o.loss.value_or(naturalLoss(task));
    const bool regression = task == Task::Regression;
    if ((c.loss == LossKind::SoftmaxCrossEntropy && task != Task::Classification) ||
        (c.loss == LossKind::BinaryCrossEntropy && task != Task::Binary))
        Args::fail("--loss", lossName(c.loss) + " does not fit the " + taskName(task) + " task" +
                                 (regression ? " (use mse or mae)" : ""));
    return c;
}

SavedModel buildSavedModel(const PreparedData& data, const Network& network, Json extra) {
    SavedModel m;
    m.task = data.task();
    m.spec = network.spec();
    m.weights = network.flatWeights();
    m.preprocessing = data.preprocessing;
    m.classNames = data.layout.classNames;
    m.targetNames = data.layout.targetNames;
    m.featureNames = data.layout.featureNames;
    m.extra = std::move(extra);
    return m;
}

}  // namespace skynnet::cli
