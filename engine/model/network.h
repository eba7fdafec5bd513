#pragma once
// A built, trainable sequential network made from a NetworkSpec.
#include <memory>
#include <vector>

#include "core/cancel.h"
#include "layers/layer.h"
#include "spec/network_spec.h"

namespace skynnet {

class Network {
public:
    Network() = default;
    // Builds the layers and draws the initial weights from seed (He for ReLU families, else Glorot).
    Network(const NetworkSpec& spec, std::uint64_t seed);
    Network(const Network& other);
    Network& operator=(const Network& other);
    Network(Network&&) noexcept = default;
    Network& operator=(Network&&) noexcept = default;

    const NetworkSpec& spec() const { return spec_; }
    std::vector<std::unique_ptr<Layer>>& layers() { return layers_; }
    const std::vector<std::unique_ptr<Layer>>& layers() const { return layers_; }

    // Forward through every layer, the output activation included.
    const Matrix& forward(const Matrix& x, bool training);
    // Where the next training forward's rows sit in the data (see Layer::setBatchOrigin).
    void setBatchOrigin(std::uint64_t step, Index firstRow);
    // Data parallelism over the slices of one batch (Layer::deferStateUpdates): while deferred,
    // training forwards keep what they would fold into the layers' state; foldDeferredState folds
    // what this network and the replicas that ran the other slices kept, as one batch.
    void deferStateUpdates(bool defer);
    void foldDeferredState(const std::vector<Network*>& replicas);
    // Backward from dL/d(output of layer `from`) down to the first layer; from < layer count lets
    // a fused loss start below the output activation.
    void backward(const Matrix& grad, std::size_t from);
    // The output of the layer just below the output activation (logits), after forward().
    const Matrix& preActivationOutput() const;
    bool endsWith(Activation a) const;

    std::vector<Param> params();
    std::int64_t paramCount() const;
    // Trainable parameters and the layers' state (BatchNorm's running statistics): flatWeights()'s size.
    std::int64_t weightCount() const;
    std::int64_t bufferBytes() const;

    // All weights as one flat vector, in layer order, each layer's params then its state (save,
    // restore-best, compare).
    std::vector<Scalar> flatWeights() const;
    void setFlatWeights(const std::vector<Scalar>& w);

    // Inference over any number of rows, in chunks so memory stays bounded (0: predictChunkRows()).
    // A cancelled token (checked, and its pause honoured, between chunks) makes it return an empty
    // matrix.
    Matrix predict(const Matrix& x, const CancelToken* cancel = nullptr, Index chunk = 0);
    // The rows of predict()'s chunks: up to 1024, fewer for a network whose layers hold large
    // buffers per row (a CNN's patches), so inference needs about as much memory as a training
    // batch rather than gigabytes (the CNN held 2 GB evaluating 1024 rows at a time).
    Index predictChunkRows() const;

private:
    NetworkSpec spec_;
    std::vector<std::unique_ptr<Layer>> layers_;
    std::vector<const Matrix*> outputs_;  // each layer's output after forward()
};

// The values Network::flatWeights() holds for a spec, its parameters and its state, from the
// layers' figures: what a file must store. Stops just above `limit`, so a hostile spec read from a
// file cannot overflow.
std::int64_t weightCountUpTo(const NetworkSpec& spec, std::int64_t limit);
std::int64_t weightCount(const NetworkSpec& spec);
// "3 parameters", or "3 parameters and 4 state values" when the spec has state: for messages.
std::string weightCountText(const NetworkSpec& spec);

}  // namespace skynnet
