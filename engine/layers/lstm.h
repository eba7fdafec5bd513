#pragma once
// An LSTM over a sequence (layout, parameters and output: layers/recurrent.h), with PyTorch's gate
// convention: gate blocks (i, f, g, o) in that order, no peepholes:
//   i = sigmoid(x W_ii + b_ii + h W_hi + b_hi)     f = sigmoid(x W_if + b_if + h W_hf + b_hf)
//   g = tanh(x W_ig + b_ig + h W_hg + b_hg)        o = sigmoid(x W_io + b_io + h W_ho + b_ho)
//   c' = f * c + i * g,   h' = o * tanh(c'),     h and c before the first step = 0.
// Built with the input bias of the forget gate at 1 (Keras's unit_forget_bias, Jozefowicz et al.
// 2015), so that a fresh layer keeps its cell state rather than forgetting it; other biases 0.
// Backpropagation through time over the whole sequence.
#include "layers/recurrent.h"

namespace skynnet {

class Lstm final : public RecurrentLayer {
public:
    Lstm(int units, int steps, bool returnSequences, Init init = Init::Glorot)
        : RecurrentLayer(units, steps, returnSequences, 4, init) {}

    std::string kind() const override { return "lstm"; }
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<Lstm>(*this); }

private:
    Matrix gates_;  // (batch * steps, 4 * units): i, f, g, o of every step
    Matrix cs_;     // (batch, steps * units): c of every step
    Matrix gh_, dh_, dhPrev_, dc_;
};

}  // namespace skynnet
