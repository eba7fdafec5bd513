#pragma once
// Tensor aliases and shapes. A batch is a row-major matrix: one sample per row, features of the
// sample laid out as (channels, height, width) so that convolutions fit later without redesign.
#include <Eigen/Core>
#include <cstdint>
#include <string>

namespace skynnet {

using Scalar = float;
using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;
using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
using Index = Eigen::Index;

struct Shape {
    int channels = 1;
    int height = 1;
    int width = 1;

    constexpr Index size() const { return Index(channels) * height * width; }
    static constexpr Shape flat(int n) { return Shape{1, 1, n}; }
    bool operator==(const Shape&) const = default;
    std::string toString() const;
};

}  // namespace skynnet
