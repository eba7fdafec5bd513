#pragma once
#include "layers/layer.h"

namespace skynnet {

// The mean of each channel: (C, H, W) -> (C, 1, 1).
class GlobalAvgPool final : public Layer {
public:
    std::string kind() const override { return "gap"; }
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    std::int64_t flopsPerSample() const override { return input_.size(); }
    std::int64_t bufferBytes() const override { return matrixBytes(y_) + matrixBytes(gradInput_); }
    std::unique_ptr<Layer> clone() const override { return std::make_unique<GlobalAvgPool>(*this); }

private:
    Matrix y_, gradInput_;
};

}  // namespace skynnet
