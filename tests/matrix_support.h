#pragma once
// Matrices for tests of the engine's layers: seeded random values in a range, and comparisons.
#include <QtTest>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>

#include "core/rng.h"
#include "core/tensor.h"

inline skynnet::Matrix randomMatrix(skynnet::Index rows, skynnet::Index cols, std::uint64_t seed, float lo = -1,
                                    float hi = 1) {
    skynnet::Rng rng(seed);
    skynnet::Matrix m(rows, cols);
    for (skynnet::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(lo, hi);
    return m;
}

// Entry by entry within `tolerance`, with the first difference in the message (QtTest's macros:
// call it from a test function, or a void helper of one).
// An r x c matrix of `values` in row-major order (the worked examples' numbers as written).
inline skynnet::Matrix rows(skynnet::Index r, skynnet::Index c, std::initializer_list<double> values) {
    skynnet::Matrix m(r, c);
    skynnet::Index i = 0;
    for (double v : values) m.data()[i++] = skynnet::Scalar(v);
    return m;
}

inline void expectNear(const skynnet::Matrix& actual, const skynnet::Matrix& expected, double tolerance = 1e-5) {
    QCOMPARE(actual.rows(), expected.rows());
    QCOMPARE(actual.cols(), expected.cols());
    for (skynnet::Index i = 0; i < actual.size(); ++i)
        QVERIFY2(std::abs(double(actual.data()[i]) - double(expected.data()[i])) <= tolerance,
                 ("entry " + std::to_string(i) + ": " + std::to_string(actual.data()[i]) + ", expected " +
                  std::to_string(expected.data()[i]))
                     .c_str());
}

// The same shape and the same bits: results that must not depend on threads or slicing.
inline bool sameBits(const skynnet::Matrix& a, const skynnet::Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(skynnet::Scalar)) == 0;
}
