#include "project_data.h"

#include "optim/optimizer.h"

namespace skynnet::cli {

PreparedData prepareProjectData(const ProjectDataSource& s) {
    // The project's data seed and fractions, its messages naming the project file's fields.
    return prepareData(skynnet::runDataOf(s));
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
