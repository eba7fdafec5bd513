#pragma once
// The single-network model file, built on the container of io/container.h.
#include <string>
#include <vector>

#include "core/task.h"
#include "data/data_source.h"
#include "data/preprocessing_json.h"
#include "io/json.h"
#include "spec/spec_json.h"

namespace skynnet {

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

// The layout data must have to be fed to the model (its extra "target_column" names the
// classification target).
DataLayout layoutOf(const SavedModel& model);

}  // namespace skynnet
