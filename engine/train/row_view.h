#pragma once
// Rows of a matrix picked by index, without a copy: the submodels of a split read their rows of
// the one prepared dataset they share. Without a row list it is every row, in order. The matrix
// and the list are borrowed: both must outlive the view.
#include <cstdint>
#include <vector>

#include "core/tensor.h"

namespace skynnet {

struct RowView {
    const Matrix* matrix = nullptr;
    const std::vector<int>* rows = nullptr;  // indices into matrix; nullptr: all of its rows

    Index size() const { return rows ? Index(rows->size()) : matrix->rows(); }
    Index cols() const { return matrix->cols(); }
    // The matrix row behind the view's row i.
    Index row(Index i) const { return rows ? Index((*rows)[std::size_t(i)]) : i; }
    // What a copy of these rows would take: what a training on a machine of its own holds.
    std::int64_t bytes() const { return std::int64_t(size()) * std::int64_t(cols()) * std::int64_t(sizeof(Scalar)); }
};

}  // namespace skynnet
