#pragma once
// The initial weights of the layers that have a weight tensor (dense, conv).
#include "core/rng.h"
#include "core/tensor.h"

namespace skynnet {

enum class Init { He, Glorot };

// He: N(0, 2/fan_in) for ReLU families; Glorot: U(+-sqrt(6/(fan_in+fan_out))) for the rest. Draws
// every entry of `weights` in storage order.
void drawWeights(Matrix& weights, Init init, Index fanIn, Index fanOut, Rng& rng);

}  // namespace skynnet
