#pragma once
// A dataset in memory: a feature matrix (one sample per row) and its targets, either class indices
// over a *declared* class list or one or more regression columns.
#include <string>
#include <vector>

#include "core/task.h"
#include "core/tensor.h"

namespace skynnet {

struct Dataset {
    std::string source;                    // file path or generator name, for messages
    Task task = Task::Classification;
    Matrix features;                       // rows = samples
    Shape sampleShape;                     // layout of one row, e.g. (1, 28, 28)
    std::vector<std::string> featureNames; // one per column of features
    // Feature columns holding category codes 0..k-1 (from text columns), with their names.
    struct Categorical {
        int column = 0;
        std::vector<std::string> categories;
    };
    std::vector<Categorical> categoricals;

    std::vector<std::string> classNames;   // declared classes (classification and binary)
    std::vector<int> labels;               // class index per sample
    std::string labelColumn;               // the CSV column the labels come from, for messages ("" otherwise)
    Matrix targets;                        // regression values, rows = samples
    std::vector<std::string> targetNames;  // regression columns

    Index size() const { return features.rows(); }
    int classCount() const { return int(classNames.size()); }
    int outputCount() const;  // classes, 1 for binary, or the number of target columns
    // Targets as a network is trained on them: one-hot rows, a 0/1 column, or the values.
    Matrix targetMatrix() const;
    // The rows listed, in that order, with everything else (names, declared classes) kept.
    Dataset subset(const std::vector<int>& rows) const;
    // Throws Error if the parts disagree in size or a label is outside the declared classes.
    void validate() const;
};

}  // namespace skynnet
