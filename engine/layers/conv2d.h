#pragma once
// 2-D convolution over (C, H, W) samples stored as rows, by im2col and matrix products: every
// output position's receptive field becomes a column (one row per kernel tap, one column per
// sample and position), so the forward pass is W x columns, already in the output's filter-major
// order, and the backward passes are two more products and a scatter back (col2im). Patches as
// columns rather than rows: im2col copies runs of input rows, no element-wise transpose is left,
// and the products are 2-3x faster for conv1's 9-tap patches (skynnet-gemm-bench prints both
// layouts' figures). The batch goes through in chunks of a few samples whose columns and products
// stay in the core's L2 cache: the whole batch's columns (9 MB for conv64 3x3 on 64 samples) made
// im2col, col2im and the copies around the products a third of a CNN's training step, spent
// waiting for memory. The backward pass builds each chunk's columns again from the input.
#include "layers/init.h"
#include "layers/layer.h"

namespace skynnet {

struct ConvOptions {
    int filters = 32;
    int kernelH = 3;
    int kernelW = 3;
    int stride = 1;
    // Same: out = ceil(in / stride), zero padding split with the smaller half before (SAME_UPPER);
    // valid: no padding, out = floor((in - kernel) / stride) + 1.
    bool samePadding = false;
    bool bias = true;
};

// The output length along one axis, and the padding before it (0 for valid).
int convOutputLength(int in, int kernel, int stride, bool same);
int convPaddingBefore(int in, int kernel, int stride, bool same);

class Conv2D final : public Layer {
public:
    Conv2D(ConvOptions options, Init init);

    std::string kind() const override { return "conv"; }
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    std::vector<Param> params() override;
    std::int64_t paramCount() const override { return weights_.size() + bias_.size(); }
    std::int64_t flopsPerSample() const override;
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<Conv2D>(*this); }

    const ConvOptions& options() const { return options_; }
    // (filters, C * kH * kW): row f is filter f laid out [C][kH][kW].
    Matrix& weights() { return weights_; }
    const Matrix& weights() const { return weights_; }
    // (1, filters), empty without bias.
    Matrix& bias() { return bias_; }
    const Matrix& bias() const { return bias_; }
    // The network puts the ReLU that follows this layer into its output copy (and the ReLU's
    // gradient mask into its output-gradient copy): two passes over the largest activations of a
    // CNN saved. The ReLU layer then passes values through (ReLU::takeRectifiedInput).
    void rectifyOutput() { rectified_ = true; }
    // Samples per chunk: from the layer's shape alone (never the machine or the thread count), so
    // the weight gradient's sum over the chunks always runs in the same order.
    Index chunkSamples() const { return chunk_; }

private:
    Index positions() const { return Index(output_.height) * output_.width; }
    Index patchSize() const { return weights_.cols(); }
    // Samples [first, first + n) of x (N, C*H*W) -> columns_ as (C*kH*kW, n * positions), zeros
    // where the window hangs over the padding.
    void im2col(const Matrix& x, Index first, Index n);
    // columns_ as the gradient of those columns -> rows [first, first + n) of gradInput_, adding up
    // the entries of overlapping windows.
    void col2im(Index first, Index n);

    ConvOptions options_;
    Init init_;
    int padTop_ = 0, padLeft_ = 0;
    Matrix weights_, bias_, gradWeights_, gradBias_;
    Index chunk_ = 1;
    // One chunk of n samples, stored packed (row stride n * P) in buffers sized for a whole chunk.
    Matrix columns_;   // (C*kH*kW, chunk * P): the columns, in backward then their gradient
    Matrix byFilter_;  // (F, chunk * P): the product's output, then the output gradient in that order
    const Matrix* x_ = nullptr;  // the input of the last forward pass, for backward's columns
    Matrix y_, gradInput_;
    bool rectified_ = false;
};

}  // namespace skynnet
