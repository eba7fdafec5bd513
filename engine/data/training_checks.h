#pragma once
// What a dataset must hold before it is split and trained on. Checked where every front end
// prepares its data (partitionData, and the app as soon as a file is opened), so skynnet-cli and
// the app refuse the same input with the same one-line message.
#include <string>
#include <vector>

#include "data/dataset.h"

namespace skynnet {

// Throws Error naming the file and the target column, or the row counts, when the data cannot
// support training with these split fractions (the test fraction is unused with a separate test
// file):
// - fewer rows than the requested parts need: training, and validation and test when their
//   fraction is above 0, each get at least one row (the message says how many rows are needed);
// - classification or binary data whose rows hold fewer than 2 classes (a network would learn
//   one constant answer, with a loss of 0).
// Returns warnings, each naming the file and column, for data that trains but cannot teach much:
// a regression target column that holds one value in every row.
std::vector<std::string> checkTrainable(const Dataset& data, double validationFraction, double testFraction,
                                        bool separateTestFile);

}  // namespace skynnet
