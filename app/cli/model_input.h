#pragma once
// A saved model put back to work: the network rebuilt from the file, and raw data turned into
// its outputs through the model's own preprocessing. Shared by `evaluate` and `predict`.
#include <string>

#include "data/dataset.h"
#include "io/spec_json.h"
#include "model/network.h"

namespace skynnet::cli {

struct LoadedModel {
    std::string path;
    SavedModel saved;
    Network network;
};

// Throws Error naming the path ("model.skynnet is not a Skynnet model file", ...).
LoadedModel loadTrainedModel(const std::string& path);
// The network's outputs for every row of `data` (raw features, laid out like the model's).
Matrix modelOutputs(LoadedModel& model, const Dataset& data);

}  // namespace skynnet::cli
