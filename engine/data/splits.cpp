#include "data/splits.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/error.h"
#include "core/rng.h"

namespace skynnet {
namespace {

// Splits `total` = round(sum of shares) into per-group integer counts, each the floor or the
// ceiling of its exact share (largest remainders first, ties to the lower group index).
std::vector<int> apportion(const std::vector<int>& sizes, double fraction) {
    const std::size_t k = sizes.size();
    std::vector<int> counts(k);
    std::vector<double> remainder(k);
    double exactTotal = 0;
    int assigned = 0;
    for (std::size_t i = 0; i < k; ++i) {
        const double share = sizes[i] * fraction;
        counts[i] = int(std::floor(share));
        remainder[i] = share - counts[i];
        exactTotal += share;
        assigned += counts[i];
    }
    std::vector<std::size_t> order(k);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
    int extra = int(std::lround(exactTotal)) - assigned;
    for (std::size_t i = 0; i < k && extra > 0; ++i)
        if (remainder[order[i]] > 0) ++counts[order[i]], --extra;
    return counts;
}

void requireValidFractions(double validationFraction, double testFraction) {
    if (!(validationFraction >= 0 && validationFraction < 1 && testFraction >= 0 && testFraction < 1 &&
          validationFraction + testFraction < 1))
        throw Error("split fractions must be in [0, 1) and sum below 1: validation " +
                    std::to_string(validationFraction) + ", test " + std::to_string(testFraction));
}

}  // namespace

std::vector<PartSizes> partSizes(const std::vector<int>& groupSizes, double validationFraction, double testFraction) {
    requireValidFractions(validationFraction, testFraction);
    const std::vector<int> testCounts = apportion(groupSizes, testFraction);
    const std::vector<int> validationCounts = apportion(groupSizes, validationFraction);
    std::vector<PartSizes> parts(groupSizes.size());
    for (std::size_t g = 0; g < groupSizes.size(); ++g) {
        const int size = groupSizes[g];
        int nt = testCounts[g], nv = validationCounts[g];
        // Keep at least one training sample per class: validation gives way first.
        while (size > 0 && nt + nv >= size) (nv > 0 ? nv : nt)--;
        parts[g] = {size - nt - nv, nv, nt};
    }
    return parts;
}

SplitIndices splitIndices(const Dataset& data, double validationFraction, double testFraction, std::uint64_t seed) {
    requireValidFractions(validationFraction, testFraction);  // before anything is read
    Rng rng(seed);
    const int n = int(data.size());

    // Groups of rows split alike: one per class, or all rows for regression.
    std::vector<std::vector<int>> groups;
    if (predictsValues(data.task)) {
        groups.emplace_back(std::size_t(n));
        std::iota(groups[0].begin(), groups[0].end(), 0);
    } else {
        if (Index(data.labels.size()) != data.size())
            throw Error(data.source + ": " + std::to_string(data.labels.size()) + " labels for " + std::to_string(n) +
                        " samples");
        groups.resize(std::size_t(std::max(data.classCount(), 1)));
        for (int r = 0; r < n; ++r) {
            const int label = data.labels[std::size_t(r)];
            if (label < 0 || label >= int(groups.size()))
                throw Error(data.source + ": sample " + std::to_string(r + 1) + " has label " + std::to_string(label) +
                            " outside the declared classes");
            groups[std::size_t(label)].push_back(r);
        }
    }
    std::vector<int> sizes;
    for (const auto& g : groups) sizes.push_back(int(g.size()));
    const std::vector<PartSizes> parts = partSizes(sizes, validationFraction, testFraction);

    SplitIndices s;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        std::vector<int>& rows = groups[g];
        const std::vector<int> order = rng.permutation(int(rows.size()));
        const int nt = parts[g].test, nv = parts[g].validation;
        for (int i = 0; i < sizes[g]; ++i) {
            const int row = rows[std::size_t(order[std::size_t(i)])];
            (i < nt ? s.test : i < nt + nv ? s.validation : s.train).push_back(row);
        }
    }
    // Shuffle each part so that no consumer sees the rows grouped by class.
    for (std::vector<int>* part : {&s.train, &s.validation, &s.test}) {
        const std::vector<int> order = rng.permutation(int(part->size()));
        std::vector<int> shuffled(part->size());
        for (std::size_t i = 0; i < part->size(); ++i) shuffled[i] = (*part)[std::size_t(order[i])];
        *part = std::move(shuffled);
    }
    return s;
}

}  // namespace skynnet
