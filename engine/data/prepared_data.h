#pragma once
// What every front end trains on: the data cut by the shared rule of data/partition.h (seeded,
// stratified, no test rows cut when there is a separate test file), the preprocessing fitted on
// the training rows only and applied unchanged to validation and test. One path for the desktop
// app and skynnet-cli, so a project trains on the same rows and inputs wherever it is opened.
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/model_schema.h"
#include "data/preprocessing.h"
#include "data/text_data.h"

namespace skynnet {

struct PreparedData {
    ModelSchema schema;           // the raw training data's: what test, evaluation and prediction data must look like
    Preprocessing preprocessing;  // fitted on `train` only
    // After applyPreprocessing, the parts' features are the network's inputs (scaled, categorical
    // columns one-hot): their featureNames are Preprocessing::outputNames and they have no
    // categoricals. Before, they are the raw rows. Validation or test may be empty.
    Dataset train, validation, test;
    std::vector<std::string> warnings;  // checkTrainable's, for the front end to show

    Task task() const { return schema.task; }
};

struct PreparationSettings {
    double validationFraction = 0.1;  // of all rows; 0: no validation
    double testFraction = 0.2;        // of all rows, only without a separate test file
    bool separateTestFile = false;
    std::uint64_t seed = 1;
    Scaling scaling = Scaling::Standardize;  // text data: none, whatever is asked (token ids are never scaled)
    TextSettings text;                       // text data: the vocabulary cap and the tokens per text
    bool operator==(const PreparationSettings&) const = default;
};

// The split and the preprocessing fitted, the parts still raw (what the split planner needs, and
// the first step of preparing). Throws Error for data that cannot support training (partitionData).
// Text data: the vocabulary is fitted on the training rows only (in file order, so that ties of
// frequency go by first appearance in the file) and every part encoded into token
// ids (the parts' "raw" features, and the schema's vocabulary and Shape::steps(L, 1) layout), with
// the preprocessing an identity (Scaling::None) over the ids.
PreparedData splitAndFit(const Dataset& all, const PreparationSettings& settings);
// The vocabulary splitAndFit fits on raw text data (all.isText()), its maxLength the settings'.
// Throws Error naming --max-length or --vocab when out of bounds.
TextVocabulary fitTextVocabulary(const Dataset& all, const PreparationSettings& settings);
// Raw parts -> network inputs; `test` (loaded like p.schema, e.g. by loadLike; raw texts are encoded
// here) replaces the test part when given. Throws Error when a part's columns do not match the preprocessing.
void applyPreprocessing(PreparedData& p, const Dataset* test);
// Both steps. Pure and thread-safe, so a front end can prepare large data off its GUI thread.
PreparedData prepareData(const Dataset& all, const Dataset* test, PreparationSettings settings);

// The network's input shape for prepared data: the raw sample shape while the preprocessing keeps
// the columns (no one-hot encoding), else flat over its output columns.
Shape networkInputShape(const PreparedData& p);
// The ids text data is encoded with (padding and unknown included; an embedding's input size), 0
// for data that is not text.
int vocabularySize(const PreparedData& p);

}  // namespace skynnet
