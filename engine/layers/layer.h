#pragma once
// A layer: forward on a batch (rows = samples), backward from the gradient of its output.
// Layers own their output and input-gradient buffers so a training step allocates nothing once the
// batch size is stable.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/rng.h"
#include "core/tensor.h"

namespace skynnet {

// A trainable tensor and its gradient, as the optimiser sees it. Data parallelism swaps a
// gradient's storage between passes (batch_split.cpp): never keep a pointer to its data.
struct Param {
    Matrix* value;
    Matrix* grad;
    bool decays;  // weight decay applies to weights, never to biases
};

class Layer {
public:
    virtual ~Layer() = default;

    virtual std::string kind() const = 0;
    // Fixes the input shape and allocates parameters (drawn from rng where the layer has any).
    virtual void build(Shape input, Rng& rng) {
        input_ = input;
        output_ = input;
        (void)rng;
    }
    Shape inputShape() const { return input_; }
    Shape outputShape() const { return output_; }

    // The input must stay alive until backward(): layers keep a pointer to it, not a copy.
    virtual const Matrix& forward(const Matrix& x, bool training) = 0;
    // Writes parameter gradients (overwriting, not accumulating) and returns dL/dx, or nullptr
    // when needInputGrad is false (the first layer never needs it: that saves a whole GEMM).
    virtual const Matrix* backward(const Matrix& gradOut, bool needInputGrad) = 0;

    // Where the rows of the next training forward sit in the data: the optimiser step and the
    // first row's index in that step's whole batch. Random layers (dropout) draw from streams tied
    // to these, never to the thread or the replica that runs a slice of the batch, so a batch gives
    // the same masks however it is split over kernel threads.
    virtual void setBatchOrigin(std::uint64_t step, Index firstRow) {
        (void)step;
        (void)firstRow;
    }

    // Padded sequences (issue 26): a step mask is a (batch, steps) matrix of 1 (a real step) and
    // 0 (padding). Network hands each layer its input's mask before each forward (nullptr: every
    // step is real, or the input is not a sequence); the matrix belongs to an earlier layer and
    // stays valid until the next forward. Layers that ignore padding need not look at it.
    virtual void setStepMask(const Matrix* mask) { stepMask_ = mask; }
    // The mask of this layer's output, for the next layer, after forward(). By default the input's
    // mask when the output is a sequence of as many steps as the input (an activation, a batch
    // norm, a recurrent layer returning every step), else nullptr; an embedding makes its own.
    virtual const Matrix* outputStepMask() const {
        const bool sameSteps = input_.sequence && output_.sequence && input_.height == output_.height;
        return sameSteps ? stepMask_ : nullptr;
    }

    virtual std::vector<Param> params() { return {}; }
    virtual std::int64_t paramCount() const { return 0; }
    // Values saved with the weights that no optimiser touches (BatchNorm's running statistics).
    virtual std::vector<Matrix*> state() { return {}; }
    std::int64_t stateCount() const;
    // A layer whose state learns from training batches folds each training forward's batch into
    // it at once. Data parallelism runs the slices of one batch on replicas, in an order that
    // depends on the threads: it defers the folding, and then has the master fold every slice's
    // figures, its own and the same layer's of each replica, ordered by the slices' first rows,
    // as one batch (so the state depends on the batch alone). A layer without state ignores both.
    virtual void deferStateUpdates(bool defer) { (void)defer; }
    virtual void foldDeferredState(const std::vector<Layer*>& replicas) { (void)replicas; }
    // Multiply-adds of one sample's forward pass, times two (a FLOP count as papers give it).
    virtual std::int64_t flopsPerSample() const { return 0; }
    // Bytes of buffers the layer holds for the current batch size.
    virtual std::int64_t bufferBytes() const { return 0; }
    virtual std::unique_ptr<Layer> clone() const = 0;

protected:
    Shape input_;
    Shape output_;
    const Matrix* stepMask_ = nullptr;  // setStepMask()'s, for the current forward
};

std::int64_t matrixBytes(const Matrix& m);

}  // namespace skynnet
