#pragma once
// Matrices for tests of the engine's layers: seeded random values in a range.
#include "core/rng.h"
#include "core/tensor.h"

inline skynnet::Matrix randomMatrix(skynnet::Index rows, skynnet::Index cols, std::uint64_t seed, float lo = -1,
                                    float hi = 1) {
    skynnet::Rng rng(seed);
    skynnet::Matrix m(rows, cols);
    for (skynnet::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(lo, hi);
    return m;
}
