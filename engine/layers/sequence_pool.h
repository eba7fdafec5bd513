#pragma once
// Sequence pooling: a sequence of (steps, features) to one flat vector of its features.
//   Mean: the mean over the steps whose step mask (Layer::setStepMask) is 1, every step without
//         a mask; a sample whose steps are all padding gives zeros (and passes no gradient back).
//   Last: the last step, mask or not (texts are pre-padded, so it is a real token).
//   Cls:  the first step, mask or not (a patch embedding's class token sits there).
#include "layers/layer.h"
#include "layers/sequence_pool_mode.h"

namespace skynnet {

class SequencePool final : public Layer {
public:
    explicit SequencePool(SequencePoolMode mode) : mode_(mode) {}

    std::string kind() const override { return "seqpool"; }
    SequencePoolMode mode() const { return mode_; }
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    // One add per input value for the mean (a multiply-add, counted as two FLOPs), none for a step.
    std::int64_t flopsPerSample() const override { return mode_ == SequencePoolMode::Mean ? 2 * input_.size() : 0; }
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<SequencePool>(*this); }

private:
    SequencePoolMode mode_;
    Index steps_ = 0, features_ = 0;
    Matrix weights_;  // (batch, steps): each step's weight in the last forward's mean
    Matrix y_, gradInput_;
};

}  // namespace skynnet
