#pragma once
#include "layers/layer.h"

namespace skynnet {

// Inverted dropout: in training, each unit is kept with probability 1 - rate and scaled by
// 1/(1 - rate); at inference it is the identity. A row's mask is drawn from a stream seeded by the
// layer's seed (fixed at build time), the step and the row's index in the step's batch: the same
// sample at the same step gets the same mask whichever replica or thread computes it. Each
// training forward moves on to the next step unless setBatchOrigin() says where it is.
class Dropout final : public Layer {
public:
    explicit Dropout(float rate);

    std::string kind() const override { return "dropout"; }
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    void setBatchOrigin(std::uint64_t step, Index firstRow) override {
        step_ = step;
        firstRow_ = firstRow;
    }
    std::int64_t bufferBytes() const override { return matrixBytes(y_) + matrixBytes(mask_) + matrixBytes(gradInput_); }
    std::unique_ptr<Layer> clone() const override { return std::make_unique<Dropout>(*this); }
    float rate() const { return rate_; }
    // Keeps the current mask across training forwards of the same shape (gradient checks).
    void freezeMask(bool frozen) { frozen_ = frozen; }

private:
    float rate_;
    std::uint64_t seed_ = 1;
    std::uint64_t step_ = 0;
    Index firstRow_ = 0;
    bool lastTraining_ = false;
    bool frozen_ = false;
    Matrix y_, mask_, gradInput_;
};

}  // namespace skynnet
