#pragma once
// Synthetic datasets for demos, tests and benchmarks. The same arguments and seed always give the
// same data (all randomness comes from Rng); invalid sizes throw Error naming the argument.
#include <cstdint>

#include "data/dataset.h"

namespace skynnet {

// k interleaved spirals in the plane (features x, y within about [-1, 1]), 1.5 turns each;
// noise is the standard deviation of Gaussian jitter in those units. Classification, classes
// "spiral A", "spiral B", ...; samples are grouped by class.
Dataset makeSpirals(int classes, int samplesPerClass, float noise, std::uint64_t seed);
// The classic two-spirals problem: makeSpirals(2, ...).
Dataset makeTwoSpirals(int samplesPerClass, float noise, std::uint64_t seed);

// Regression: 4 inputs uniform in [-pi, pi]; output j is a fixed mixture of sines of the inputs
// (the same functions for every seed, so seeds only change which points are drawn), within
// [-1, 1] before adding Gaussian noise of standard deviation `noise`.
Dataset makeSineRegression(int samples, int outputs, float noise, std::uint64_t seed);

// Multiclass: Gaussian blobs of standard deviation `spread` around seeded centres in
// [-4, 4]^features. Classes "blob 1", "blob 2", ...; samples grouped by class.
Dataset makeBlobs(int classes, int samplesPerClass, int features, float spread, std::uint64_t seed);

}  // namespace skynnet
