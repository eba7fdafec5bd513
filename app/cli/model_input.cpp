#include "model_input.h"

namespace skynnet::cli {

LoadedModel loadTrainedModel(const std::string& path) {
    LoadedModel m;
    m.path = path;
    m.saved = loadModel(path);
    // The seed is irrelevant: every weight is overwritten from the file (loadModel checked the count).
    m.network = Network(m.saved.spec, 1);
    m.network.setFlatWeights(m.saved.weights);
    return m;
}

Matrix modelOutputs(LoadedModel& model, const Dataset& data) {
    return model.network.predict(model.saved.preprocessing.apply(data.features));
}

}  // namespace skynnet::cli
