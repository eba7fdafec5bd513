#pragma once
// What data must look like to train or feed a model: the task, the raw feature columns (their
// names, which hold category codes, the layout of one row) and the outputs (class names or target
// columns). Datasets carry one, and so do model files, project runs and the split planner's view
// of the data, so the names a model was trained with travel with it unchanged.
#include <optional>
#include <string>
#include <vector>

#include "core/task.h"
#include "core/tensor.h"
#include "data/text_vocabulary.h"

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
    // Text data (issue 26): each row is a text, encoded by `vocabulary` (and its maxLength L) into
    // sampleShape Shape::steps(L, 1) of token ids. Absent: not text data. A raw training set holds
    // an unfitted one (no tokens, maxLength 0) until preparation fits it on the training rows.
    std::optional<TextVocabulary> vocabulary;
    std::string textColumn;  // text from a CSV: the column holding it; empty for a folder of .txt files

    bool isText() const { return vocabulary.has_value(); }

    int classCount() const { return int(classNames.size()); }
    bool operator==(const ModelSchema&) const = default;
};

}  // namespace skynnet
