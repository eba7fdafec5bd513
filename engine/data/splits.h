#pragma once
// Seeded train / validation / test splits of a dataset, as row indices (use Dataset::subset).
#include <cstdint>
#include <vector>

#include "data/dataset.h"

namespace skynnet {

struct SplitIndices {
    std::vector<int> train, validation, test;  // disjoint, together every row once, each shuffled
};

// Rows of each part, per group of rows split alike (one group per class; all rows for regression).
struct PartSizes {
    int train = 0, validation = 0, test = 0;
};
// What splitIndices gives each group, without drawing: every count depends on the group sizes and
// fractions only, never on the seed. Throws Error for fractions splitIndices refuses.
std::vector<PartSizes> partSizes(const std::vector<int>& groupSizes, double validationFraction, double testFraction);

// Classification and binary: stratified, each class is split in proportion (every class within
// one sample of its exact share, totals as close as possible to the fractions) and a class with
// at least one sample keeps one in train. Regression: a seeded shuffle cut into three parts.
// Fractions must be in [0, 1) with validation + test < 1; throws Error otherwise.
SplitIndices splitIndices(const Dataset& data, double validationFraction, double testFraction, std::uint64_t seed);

}  // namespace skynnet
