#pragma once
#include "layers/init.h"
#include "layers/layer.h"

namespace skynnet {

// y = x W + b, with W of shape (inputs, units).
class Dense final : public Layer {
public:
    Dense(int units, Init init) : units_(units), init_(init) {}

    std::string kind() const override { return "dense"; }
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    std::vector<Param> params() override;
    std::int64_t paramCount() const override { return weights_.size() + bias_.size(); }
    std::int64_t flopsPerSample() const override { return 2 * weights_.size(); }
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<Dense>(*this); }

    int units() const { return units_; }
    Matrix& weights() { return weights_; }
    Matrix& bias() { return bias_; }
    const Matrix& weights() const { return weights_; }
    const Matrix& bias() const { return bias_; }

private:
    int units_;
    Init init_;
    Matrix weights_, bias_, gradWeights_, gradBias_;
    const Matrix* x_ = nullptr;
    Matrix y_, gradInput_;
};

}  // namespace skynnet
