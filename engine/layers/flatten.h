#pragma once
#include "layers/layer.h"

namespace skynnet {

// Samples are already stored as flat rows; Flatten only changes the declared shape, so its
// forward and backward pass the buffers through untouched.
class Flatten final : public Layer {
public:
    std::string kind() const override { return "flatten"; }
    void build(Shape input, Rng&) override {
        input_ = input;
        output_ = Shape::flat(int(input.size()));
    }
    const Matrix& forward(const Matrix& x, bool) override { return x; }
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override {
        return needInputGrad ? &gradOut : nullptr;
    }
    std::unique_ptr<Layer> clone() const override { return std::make_unique<Flatten>(*this); }
};

}  // namespace skynnet
