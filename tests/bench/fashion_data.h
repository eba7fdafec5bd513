#pragma once
// The training set the split benches run on: the first `samples` rows of Fashion-MNIST scaled to
// [0, 1], or random data of the same shape when Debian's package is not installed.
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "core/rng.h"
#include "data/idx_loader.h"
#include "data/preprocessing.h"

namespace skynnet::bench {

inline const char* kFashionTrain = "/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz";

inline bool fashionInstalled() { return std::filesystem::exists(kFashionTrain); }

inline Dataset fashionOrRandom(int samples) {
    Dataset d;
    if (fashionInstalled()) {
        d = loadIdx(kFashionTrain);
        if (samples < long(d.size())) {
            std::vector<int> first(static_cast<std::size_t>(samples));
            std::iota(first.begin(), first.end(), 0);
            d = d.subset(first);
        }
        Preprocessing prep;
        prep.scaling = Scaling::MinMax;
        prep.fit(d);
        d.features = prep.apply(d.features);
        return d;
    }
    Rng rng(7);
    d.source = "random";
    d.task = Task::Classification;
    d.sampleShape = Shape{1, 28, 28};
    for (int c = 0; c < 10; ++c) d.classNames.push_back(std::to_string(c));
    d.features.resize(samples, 784);
    for (Index i = 0; i < d.features.size(); ++i) d.features.data()[i] = rng.uniform(0.0f, 1.0f);
    for (int i = 0; i < samples; ++i) d.labels.push_back(int(rng.below(10)));
    return d;
}

}  // namespace skynnet::bench
