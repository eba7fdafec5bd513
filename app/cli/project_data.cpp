#include "project_data.h"

#include "optim/optimizer.h"

namespace skynnet::cli {
namespace {

// The project file's own field names, so a message points into the file.
DataRequestNames projectFields(const std::string& part) {
    return {"project data " + part, "project data " + part + "Labels", "project data targetColumn"};
}

}  // namespace

PreparedData prepareProjectData(const ProjectDataSource& s) {
    // prepareData() splits with config.seed: here the project's data seed, as in the app.
    TrainOptions o;
    o.data = s.trainRequest(projectFields("train"));
    if (!s.test.path.empty()) o.testData = s.testRequest(projectFields("test"));
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
