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

    // Inference over any number of rows, in chunks so memory stays bounded. A cancelled token
    // (checked, and its pause honoured, between chunks) makes it return an empty matrix.
    Matrix predict(const Matrix& x, const CancelToken* cancel = nullptr, Index chunk = 1024);

private:
    NetworkSpec spec_;
    std::vector<std::unique_ptr<Layer>> layers_;
    std::vector<const Matrix*> outputs_;  // each layer's output after forward()
};

}  // namespace skynnet
