#pragma once
// JSON forms of the fitted preprocessing, for model and project files. Readers throw Error naming
// the file and the field at fault.
#include "data/dataset.h"
#include "data/preprocessing.h"
#include "io/json.h"

namespace skynnet {

Json toJson(const Dataset::Categorical& categorical);  // {"column","categories"}
Dataset::Categorical categoricalFromJson(const JsonField& j);

// Offsets and scales are written as numbers that read back to the identical floats. Throws Error
// if one is not finite, since JSON cannot hold it and the model would not load again.
Json toJson(const Preprocessing& p);
Preprocessing preprocessingFromJson(const JsonField& j);

}  // namespace skynnet
