#pragma once
// Rows of a dataset as MPI carries them: the names, sample shape, sizes and labels as JSON, and the
// numbers (features, then targets, each row-major) as floats beside it: in a message of their own
// (--ship-data) or in the memory the ranks of one host share (host_rows.h).
#include <cstddef>
#include <span>

#include "data/dataset.h"
#include "io/json.h"

namespace skynnet {

Json describeRows(const Dataset& d);
// How many floats the rows take beside their description, and those floats written to `to`.
std::size_t rowFloatCount(const Dataset& d);
void copyRowFloats(const Dataset& d, float* to);

// A description read back: the dataset without its features and targets, and their sizes.
struct DescribedRows {
    Dataset data;  // names, shape and labels only
    Index rows = 0, columns = 0, targetColumns = 0;

    std::size_t featureFloats() const { return std::size_t(rows) * std::size_t(columns); }
    std::size_t targetFloats() const { return std::size_t(rows) * std::size_t(targetColumns); }
    // The targets from their floats (an empty matrix where there are none, as a dataset has).
    Matrix targets(std::span<const float> floats) const;
};
// Throws Error naming the field at fault (sizes that disagree with the labels, too).
DescribedRows readRowDescription(const JsonField& j);

// The part of `floats` (taken off its front) that the next `n` floats are; Error naming `where`
// when fewer are left.
std::span<const float> takeFloats(std::span<const float>& floats, std::size_t n, const JsonField& where);

}  // namespace skynnet
