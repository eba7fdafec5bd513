#pragma once
// FLOPs of one sample's training step as the engine computes it, for the benches' GFLOP/s.
#include "model/network.h"

namespace skynnet::bench {

// The forward pass, then each layer's backward at twice its forward (weight and input gradients),
// but the first layer's input gradient, which is never computed (its weight gradient, half its
// backward, is).
inline double trainingFlopsPerSample(const Network& net) {
    double flops = 0;
    for (std::size_t i = 0; i < net.layers().size(); ++i) {
        const double f = double(net.layers()[i]->flopsPerSample());
        flops += i == 0 ? 2 * f : 3 * f;
    }
    return flops;
}

}  // namespace skynnet::bench
