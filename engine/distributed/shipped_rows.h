#pragma once
// --ship-data: rank 0 sends a worker the rows of the submodel it assigns (training rows and the
// validation rows that submodel answers for), for machines without the data files. The worker
// trains on them with the plan's row list replaced by 0..n-1, which is the same sub-problem row
// for row, so the result does not change. The bytes travel as they are: MPI does not encrypt.
#include <optional>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "split/split_plan.h"

namespace skynnet {

struct EncodedRows {
    std::string json;           // shapes, labels, names
    std::vector<float> floats;  // features, then targets, of the training rows, then of validation
};
EncodedRows encodeShippedRows(const SplitPlan& plan, int index, const Dataset& train, const Dataset* validation);

struct ShippedRows {
    Dataset train;
    std::optional<Dataset> validation;
};
// Throws Error naming the field when the parts disagree.
ShippedRows decodeShippedRows(const std::string& json, const std::vector<float>& floats);

}  // namespace skynnet
