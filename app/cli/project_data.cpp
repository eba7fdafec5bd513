#include "project_data.h"

#include "optim/optimizer.h"

namespace skynnet::cli {
namespace {

DataRequest requestOf(const ProjectDataFile& file, const ProjectDataFile& labels, const ProjectDataSource& s,
                      const std::string& part) {
    DataRequest r;
    r.option = "project data " + part;
    r.path = file.path;
    r.labels = labels.path;
    r.target = s.targetColumn;
    r.task = s.task;
    r.labelsOption = "project data " + part + "Labels";
    r.targetOption = "project data targetColumn";
    return r;
}

}  // namespace

PreparedData prepareProjectData(const ProjectDataSource& s) {
    // prepareData() splits with config.seed: here the project's data seed, as in the app.
    TrainOptions o;
    o.data = requestOf(s.train, s.trainLabels, s, "train");
    if (!s.test.path.empty()) o.testData = requestOf(s.test, s.testLabels, s, "test");
    o.validationFraction = s.validationFraction;
    o.testFraction = s.testFraction;
    o.scaling = s.scaling;
    o.config.seed = s.seed;
    return prepareData(o);
}

NetworkSpec projectNetwork(const NetworkSpec& network, const PreparedData& data) {
    NetworkSpec spec = network;
    const int columns = data.preprocessing.outputColumns();
    spec.input = Index(columns) == data.train.sampleShape.size() ? data.train.sampleShape : Shape::flat(columns);
    spec.setOutputFor(data.task(), data.train.outputCount());
    return spec;
}

SplitOptions projectSplitOptions(const SplitOptions& split, const TrainConfig& config) {
    SplitOptions o = split;
    o.epochs = config.epochs;
    o.batchSize = config.batchSize;
    o.optimizerSlots = slotsPerParam(config.optimizer.kind, config.optimizer.momentum);
    return o;
}

}  // namespace skynnet::cli
