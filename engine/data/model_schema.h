#pragma once
// What data must look like to train or feed a model: the task, the raw feature columns (their
// names, which hold category codes, the layout of one row) and the outputs (class names or target
// columns). Datasets carry one, and so do model files, project runs and the split planner's view
// of the data, so the names a model was trained with travel with it unchanged.
#include <string>
#include <vector>

#include "core/task.h"
#include "core/tensor.h"

namespace skynnet {

struct ModelSchema {
    Task task = Task::Classification;
    std::vector<std::string> featureNames;  // one per raw feature column
    // Feature columns holding category codes 0..k-1 (from text columns), with their names.
    struct Categorical {
        int column = 0;
        std::vector<std::string> categories;
        bool operator==(const Categorical&) const = default;
    };
    std::vector<Categorical> categoricals;
    std::vector<std::string> classNames;   // declared classes (classification and binary)
    std::vector<std::string> targetNames;  // regression columns
    std::string targetColumn;              // the CSV target asked for (name or index); empty: the last column
    Shape sampleShape;                     // layout of one raw row, e.g. (1, 28, 28)

    int classCount() const { return int(classNames.size()); }
    bool operator==(const ModelSchema&) const = default;
};

}  // namespace skynnet
