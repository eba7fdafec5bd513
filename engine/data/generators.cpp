#include "data/generators.h"

#include <cmath>
#include <numbers>
#include <string>

#include "core/error.h"
#include "core/rng.h"

namespace skynnet {
namespace {

void require(bool ok, const std::string& generator, const std::string& what) {
    if (!ok) throw Error(generator + ": " + what);
}

}  // namespace

Dataset makeSpirals(int classes, int samplesPerClass, float noise, std::uint64_t seed) {
    require(classes >= 2, "spirals", "classes must be at least 2, got " + std::to_string(classes));
    require(samplesPerClass >= 1, "spirals",
            "samples per class must be at least 1, got " + std::to_string(samplesPerClass));
    require(noise >= 0, "spirals", "noise must not be negative");
    constexpr double turns = 1.5;
    Rng rng(seed);
    Dataset d;
    d.source = "spirals(classes=" + std::to_string(classes) + ", seed=" + std::to_string(seed) + ")";
    d.task = Task::Classification;
    d.sampleShape = Shape::flat(2);
    d.featureNames = {"x", "y"};
    for (int k = 0; k < classes; ++k)
        d.classNames.push_back(k < 26 ? "spiral " + std::string(1, char('A' + k)) : "spiral " + std::to_string(k + 1));
    d.features.resize(Index(classes) * samplesPerClass, 2);
    for (int k = 0; k < classes; ++k)
        for (int i = 0; i < samplesPerClass; ++i) {
            // Radius grows with the angle; starting a little off the centre keeps the arms apart.
            const double t = 0.05 + 0.95 * (i + 0.5) / samplesPerClass;
            const double angle = 2 * std::numbers::pi * (turns * t + double(k) / classes);
            const Index row = Index(k) * samplesPerClass + i;
            d.features(row, 0) = Scalar(t * std::cos(angle)) + rng.normal(0, noise);
            d.features(row, 1) = Scalar(t * std::sin(angle)) + rng.normal(0, noise);
            d.labels.push_back(k);
        }
    return d;
}

Dataset makeTwoSpirals(int samplesPerClass, float noise, std::uint64_t seed) {
    return makeSpirals(2, samplesPerClass, noise, seed);
}

Dataset makeSineRegression(int samples, int outputs, float noise, std::uint64_t seed) {
    require(samples >= 1, "sine regression", "samples must be at least 1, got " + std::to_string(samples));
    require(outputs >= 1, "sine regression", "outputs must be at least 1, got " + std::to_string(outputs));
    require(noise >= 0, "sine regression", "noise must not be negative");
    constexpr int inputs = 4;
    const float pi = std::numbers::pi_v<float>;
    // Mixture weights, frequencies and phases depend on the output only, never on the seed.
    Matrix weight(outputs, inputs), frequency(outputs, inputs), phase(outputs, inputs);
    for (int j = 0; j < outputs; ++j) {
        Rng shape(0x51E5ull + std::uint64_t(j));
        for (int i = 0; i < inputs; ++i) {
            weight(j, i) = shape.uniform(-1.f, 1.f);
            frequency(j, i) = shape.uniform(0.5f, 2.f);
            phase(j, i) = shape.uniform(0.f, 2 * pi);
        }
        weight.row(j) /= weight.row(j).cwiseAbs().sum();  // keeps the clean output within [-1, 1]
    }

    Rng rng(seed);
    Dataset d;
    d.source = "sine regression(outputs=" + std::to_string(outputs) + ", seed=" + std::to_string(seed) + ")";
    d.task = Task::Regression;
    d.sampleShape = Shape::flat(inputs);
    for (int i = 0; i < inputs; ++i) d.featureNames.push_back("x" + std::to_string(i + 1));
    for (int j = 0; j < outputs; ++j) d.targetNames.push_back("y" + std::to_string(j + 1));
    d.features.resize(samples, inputs);
    d.targets.resize(samples, outputs);
    for (int s = 0; s < samples; ++s) {
        for (int i = 0; i < inputs; ++i) d.features(s, i) = rng.uniform(-pi, pi);
        for (int j = 0; j < outputs; ++j) {
            float y = 0;
            for (int i = 0; i < inputs; ++i)
                y += weight(j, i) * std::sin(frequency(j, i) * d.features(s, i) + phase(j, i));
            d.targets(s, j) = y + rng.normal(0, noise);
        }
    }
    return d;
}

Dataset makeBlobs(int classes, int samplesPerClass, int features, float spread, std::uint64_t seed) {
    require(classes >= 2, "blobs", "classes must be at least 2, got " + std::to_string(classes));
    require(samplesPerClass >= 1, "blobs",
            "samples per class must be at least 1, got " + std::to_string(samplesPerClass));
    require(features >= 1, "blobs", "features must be at least 1, got " + std::to_string(features));
    require(spread >= 0, "blobs", "spread must not be negative");
    Rng root(seed);
    Rng centres = root.split(1), points = root.split(2);
    Matrix centre(classes, features);
    for (Index i = 0; i < centre.size(); ++i) centre.data()[i] = centres.uniform(-4.f, 4.f);

    Dataset d;
    d.source = "blobs(classes=" + std::to_string(classes) + ", seed=" + std::to_string(seed) + ")";
    d.task = Task::Classification;
    d.sampleShape = Shape::flat(features);
    for (int i = 0; i < features; ++i) d.featureNames.push_back("x" + std::to_string(i + 1));
    for (int k = 0; k < classes; ++k) d.classNames.push_back("blob " + std::to_string(k + 1));
    d.features.resize(Index(classes) * samplesPerClass, features);
    for (int k = 0; k < classes; ++k)
        for (int s = 0; s < samplesPerClass; ++s) {
            const Index row = Index(k) * samplesPerClass + s;
            for (int i = 0; i < features; ++i) d.features(row, i) = centre(k, i) + points.normal(0, spread);
            d.labels.push_back(k);
        }
    return d;
}

}  // namespace skynnet
