#pragma once
// The single-network model file, built on the container of io/container.h.
#include <string>
#include <vector>

#include "data/model_schema.h"
#include "data/preprocessing_json.h"
#include "io/json.h"
#include "spec/spec_json.h"

namespace skynnet {

// One trained network with everything needed to predict from raw features. Stored as header
// {"kind":"single","task",...,"network",...,"weightsBlock":0,...} plus one float block, so that a
// combined model can later hold several networks (kind "combined") in the same container.
struct SavedModel {
    // Task, names and target column (written as "task", "classNames", "targetNames",
    // "featureNames" and extra's "target_column"); its categoricals are preprocessing.oneHot.
    ModelSchema schema;
    NetworkSpec spec;
    std::vector<float> weights;  // Network::flatWeights(), weightCount(spec) values
    Preprocessing preprocessing;
    Json extra;  // free-form (settings, metrics); null when absent
};

// Both check the weight count against the spec and the names against the outputs (empty name
// lists are allowed) and throw Error naming the path.
void saveModel(const std::string& path, const SavedModel& model);
SavedModel loadModel(const std::string& path);

}  // namespace skynnet
