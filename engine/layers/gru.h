#pragma once
// A GRU over a sequence (layout, parameters and output: layers/recurrent.h), with PyTorch's gate
// convention: gate blocks (r, z, n) in that order, and the reset gate applied after the recurrent
// product (ONNX linear_before_reset = 1, Keras reset_after = True):
//   r = sigmoid(x W_ir + b_ir + h W_hr + b_hr)
//   z = sigmoid(x W_iz + b_iz + h W_hz + b_hz)
//   n = tanh(x W_in + b_in + r * (h W_hn + b_hn))
//   h' = (1 - z) * n + z * h,        h before the first step = 0.
// Backpropagation through time over the whole sequence.
#include "layers/recurrent.h"

namespace skynnet {

class Gru final : public RecurrentLayer {
public:
    Gru(int units, int steps, bool returnSequences, Init init = Init::Glorot)
        : RecurrentLayer(units, steps, returnSequences, 3, init) {}

    std::string kind() const override { return "gru"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<Gru>(*this); }

private:
    Matrix gates_;  // (batch * steps, 4 * units): r, z, n and h W_hn + b_hn of every step
    Matrix gh_, dgh_, dh_, dhPrev_;
};

}  // namespace skynnet
