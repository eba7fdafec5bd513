#pragma once
// A saved model put back to work, whichever kind the file holds (one network, or the submodels of
// a Skynnet split and their combination rule): the networks rebuilt from the file, and raw data
// turned into the model's answer through its own preprocessing. Shared by evaluate, predict and
// export.
#include <string>

#include "data/dataset.h"
#include "split/combined_model.h"
#include "split/combined_model_file.h"

namespace skynnet::cli {

struct LoadedModel {
    std::string path;
    SavedCombinedModel saved;  // a single-network file reads as one submodel under the identity rule
    CombinedModel model;

    bool combined() const { return !saved.fromSingleFile; }
};

// Throws Error naming the path ("model.skym is not a Skynnet model file", ...).
LoadedModel loadTrainedModel(const std::string& path);
// The model's outputs for every row of `data` (raw features, laid out like the model's): class
// probabilities, a binary model's one sigmoid column, or regression values.
Matrix modelOutputs(LoadedModel& model, const Dataset& data);
// What those outputs are measured against: the data's targets, or for reconstruction its inputs as
// the model takes them (scaled by its preprocessing).
Matrix modelTargets(const LoadedModel& model, const Dataset& data);
// "a single network 4-16-3" or "3 submodels (class-groups) of 4-11-3 ..." for messages.
std::string modelDescription(const LoadedModel& model);

}  // namespace skynnet::cli
