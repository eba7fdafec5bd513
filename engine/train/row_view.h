#pragma once
// Rows of a matrix picked by index, without a copy: the submodels of a split read their rows of
// the one prepared dataset they share. Without a row list it is every row, in order. The matrix
// and the list are borrowed: both must outlive the view.
#include <cstdint>
#include <vector>

#include "core/tensor.h"

namespace skynnet {

// A row-major matrix of Scalars that someone else keeps: a Matrix, or memory that no Matrix owns
// (the prepared rows that the MPI ranks of one host share, distributed/host_rows.h).
struct MatrixView {
    const Scalar* data = nullptr;
    Index rows = 0, cols = 0;

    MatrixView() = default;
    MatrixView(const Scalar* values, Index rowCount, Index colCount) : data(values), rows(rowCount), cols(colCount) {}
    explicit MatrixView(const Matrix& m) : data(m.data()), rows(m.rows()), cols(m.cols()) {}

    Eigen::Map<const RowVector> row(Index i) const { return Eigen::Map<const RowVector>(data + i * cols, cols); }
};

struct RowView {
    MatrixView matrix;
    const std::vector<int>* rows = nullptr;  // indices into matrix; nullptr: all of its rows
    const Matrix* whole = nullptr;           // the Matrix behind `matrix`, when there is one

    RowView() = default;
    // m may be null: an empty view.
    explicit RowView(const Matrix* m, const std::vector<int>* rowList = nullptr)
        : matrix(m ? MatrixView(*m) : MatrixView()), rows(rowList), whole(m) {}
    explicit RowView(MatrixView m, const std::vector<int>* rowList = nullptr) : matrix(m), rows(rowList) {}

    Index size() const { return rows ? Index(rows->size()) : matrix.rows; }
    Index cols() const { return matrix.cols; }
    // The matrix row behind the view's row i.
    Index row(Index i) const { return rows ? Index((*rows)[std::size_t(i)]) : i; }
    // What a copy of these rows would take: what a training on a machine of its own holds.
    std::int64_t bytes() const { return std::int64_t(size()) * std::int64_t(cols()) * std::int64_t(sizeof(Scalar)); }
};

}  // namespace skynnet
