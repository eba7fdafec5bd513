#pragma once
// JSON forms of the engine's value types, and the single-network model file built on the
// container of model_file.h. Every *FromJson validates and throws Error naming the file and the
// field at fault ("model.skynnet: network.layers[2].units must be a positive integer"); unknown
// fields are ignored so newer files with extra information still load.
#include <string>
#include <vector>

#include "core/task.h"
#include "data/dataset.h"
#include "data/preprocessing.h"
#include "io/json.h"
#include "model/network_spec.h"

namespace skynnet {

Json toJson(const Shape& shape);  // {"channels","height","width"}
Shape shapeFromJson(const Json& j);

Json toJson(const LayerSpec& layer);  // {"type":"dense","units":512,"activation":"relu","scalable":true}
LayerSpec layerSpecFromJson(const Json& j);

Json toJson(const NetworkSpec& spec);  // {"input","layers","outputs","outputActivation"}
NetworkSpec networkSpecFromJson(const Json& j);

Json toJson(const Dataset::Categorical& categorical);  // {"column","categories"}
Dataset::Categorical categoricalFromJson(const Json& j);

// Offsets and scales are written as numbers that read back to the identical floats. Throws Error
// if one is not finite, since JSON cannot hold it and the model would not load again.
Json toJson(const Preprocessing& p);
Preprocessing preprocessingFromJson(const Json& j);

// One trained network with everything needed to predict from raw features. Stored as header
// {"kind":"single","task",...,"network",...,"weightsBlock":0,...} plus one float block, so that a
// combined model can later hold several networks (kind "combined") in the same container.
struct SavedModel {
    Task task = Task::Classification;
    NetworkSpec spec;
    std::vector<float> weights;  // Network::flatWeights(), paramCount(spec) values
    Preprocessing preprocessing;
    std::vector<std::string> classNames;    // classification: one per output; binary: two
    std::vector<std::string> targetNames;   // regression: one per output
    std::vector<std::string> featureNames;  // raw feature columns, for reports
    Json extra;                             // free-form (settings, metrics); null when absent
};

// Both check the weight count against the spec and the names against the outputs (empty name
// lists are allowed) and throw Error naming the path.
void saveModel(const std::string& path, const SavedModel& model);
SavedModel loadModel(const std::string& path);

}  // namespace skynnet
