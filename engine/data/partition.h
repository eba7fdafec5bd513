#pragma once
// The one rule every front end (the app, skynnet-cli, a project trained from the command line)
// uses to cut a dataset into what it trains, validates and tests on, so a project trains on the
// same rows wherever it is opened.
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/preprocessing.h"
#include "data/splits.h"
#include "data/training_checks.h"

namespace skynnet {

// The seeded split of a training file; with a separate test file no test rows are cut from it.
SplitIndices splitForTraining(const Dataset& data, double validationFraction, double testFraction,
                              bool separateTestFile, std::uint64_t seed);

// The raw rows of each part, and the preprocessing fitted on the training rows only (not yet
// applied). `test` is empty when the test set is a separate file: the caller supplies it.
struct DataPartition {
    Dataset train, validation, test;
    Preprocessing preprocessing;
    std::vector<std::string> warnings;  // checkTrainable's: for the front end to show, not errors
};
// Refuses data that cannot support training with these fractions (checkTrainable: one class, too
// few rows for a requested part) with an Error naming the file and the column or row counts.
// Text data (raw texts, no columns yet) leaves the preprocessing unfitted.
DataPartition partitionData(const Dataset& data, double validationFraction, double testFraction, bool separateTestFile,
                            std::uint64_t seed, Scaling scaling);

}  // namespace skynnet
