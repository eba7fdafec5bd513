#pragma once
// Data for reconstruction (autoencoders, core/task.h): the features alone, which are the targets.
// data_source.h's loaders call these for `--task reconstruction`.
#include <string>

#include "data/dataset.h"

namespace skynnet {

// Makes `d` reconstruction data: its labels, classes and target columns dropped, its target names
// the feature names (output j reconstructs feature j). Text (categorical) columns are refused with
// an Error naming the column: their one-hot codes are no values to reconstruct, and the outputs must
// line up with the raw columns one for one.
void keepFeaturesOnly(Dataset& d);

// A CSV whose every column is an input, except `target` when named (a label, left out). Throws
// Error naming a text column (the last one included) and how to leave it out. The result still has
// to go through keepFeaturesOnly.
Dataset loadCsvForReconstruction(const std::string& path, const std::string& target);

}  // namespace skynnet
