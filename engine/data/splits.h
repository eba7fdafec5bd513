#pragma once
// Seeded train / validation / test splits of a dataset, as row indices (use Dataset::subset).
#include <cstdint>
#include <vector>

#include "data/dataset.h"

namespace skynnet {

struct SplitIndices {
    std::vector<int> train, validation, test;  // disjoint, together every row once, each shuffled
};

// Classification and binary: stratified, each class is split in proportion (every class within
// one sample of its exact share, totals as close as possible to the fractions) and a class with
// at least one sample keeps one in train. Regression: a seeded shuffle cut into three parts.
// Fractions must be in [0, 1) with validation + test < 1; throws Error otherwise.
SplitIndices splitIndices(const Dataset& data, double validationFraction, double testFraction, std::uint64_t seed);

}  // namespace skynnet
