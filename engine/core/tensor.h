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

// A sample's shape: (channels, height, width) for images and flat vectors, or, with `sequence`
// set, a sequence of `height` steps of `width` features each (channels 1), stored step-major:
// step 0's features first. Token ids read by an embedding are a sequence of 1 feature per step.
struct Shape {
    int channels = 1;
    int height = 1;
    int width = 1;
    bool sequence = false;

    constexpr Index size() const { return Index(channels) * height * width; }
    static constexpr Shape flat(int n) { return Shape{1, 1, n}; }
    static constexpr Shape steps(int count, int features) { return Shape{1, count, features, true}; }
    bool operator==(const Shape&) const = default;
    std::string toString() const;
};

}  // namespace skynnet
