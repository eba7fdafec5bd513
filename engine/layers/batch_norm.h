#pragma once
#include <vector>

#include "layers/layer.h"

namespace skynnet {

// Batch normalisation per channel of (C, H, W) samples (statistics over the batch and the
// positions), or per feature of flat samples (channels 1, height 1) and of sequences (statistics
// over the batch and the steps). Training normalises with the
// batch's mean and biased variance and moves the running values towards the batch's (the variance
// unbiased, as PyTorch keeps it); inference uses the running values. gamma and beta are trained,
// the running mean and variance are state: saved with the weights, never seen by an optimiser.
class BatchNorm final : public Layer {
public:
    BatchNorm(float momentum, float epsilon);

    std::string kind() const override { return "bn"; }
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    std::vector<Param> params() override;
    std::vector<Matrix*> state() override { return {&runningMean_, &runningVar_}; }
    void setBatchOrigin(std::uint64_t step, Index firstRow) override {
        (void)step;
        firstRow_ = firstRow;
    }
    void deferStateUpdates(bool defer) override { defer_ = defer; }
    void foldDeferredState(const std::vector<Layer*>& replicas) override;
    std::int64_t paramCount() const override { return gamma_.size() + beta_.size(); }
    // One multiply-add per value at inference.
    std::int64_t flopsPerSample() const override { return 2 * input_.size(); }
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<BatchNorm>(*this); }

    float momentum() const { return momentum_; }
    float epsilon() const { return epsilon_; }
    // (1, channels) each.
    Matrix& gamma() { return gamma_; }
    Matrix& beta() { return beta_; }
    Matrix& runningMean() { return runningMean_; }
    Matrix& runningVar() { return runningVar_; }

private:
    using Sums = Eigen::Matrix<double, Eigen::Dynamic, 1>;
    // One training forward's statistics per channel: its values' count, mean and sum of squared
    // deviations (which merge exactly across slices).
    struct BatchFigures {
        Index firstRow = 0;
        double count = 0;
        Sums mean, squares;
    };
    void fold(const BatchFigures& batch);

    float momentum_, epsilon_;
    bool defer_ = false;
    Index firstRow_ = 0;
    std::vector<BatchFigures> deferred_;  // reused from step to step; the first deferredUsed_ count
    std::size_t deferredUsed_ = 0;
    BatchFigures current_;  // the batch being folded in
    // A sample is unitsPerSample_ units (a sequence's steps, else 1) of (channels_, positions_)
    // row-major each; statistics run over every unit of the batch.
    Index channels_ = 0, positions_ = 0, unitsPerSample_ = 1;
    bool lastTraining_ = false;
    Matrix gamma_, beta_, gradGamma_, gradBeta_, runningMean_, runningVar_;
    RowVector mean_, invStd_;  // the last forward's mean and 1 / sqrt(var + eps)
    Matrix xhat_, y_, gradInput_;
};

}  // namespace skynnet
