#pragma once
// 2-D convolution over (C, H, W) samples stored as rows, by im2col and one matrix product per
// pass: every output position's receptive field becomes a column of `columns_` (one row per
// kernel tap, one column per sample and position), so the forward pass is W x columns, already in
// the output's filter-major order, and the backward passes are two more products and a scatter
// back (col2im). Patches as columns rather than rows: im2col copies runs of input rows, no
// element-wise transpose is left, and the products are 2-3x faster for conv1's 9-tap patches
// (skynnet-gemm-bench prints both layouts' figures).
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

private:
    Index positions() const { return Index(output_.height) * output_.width; }
    Index patchSize() const { return weights_.cols(); }
    // x (N, C*H*W) -> columns_ (C*kH*kW, N * positions), zeros where the window hangs over the padding.
    void im2col(const Matrix& x);
    // gradColumns_ -> gradInput_, adding up the entries of overlapping windows.
    void col2im(Index rows);

    ConvOptions options_;
    Init init_;
    int padTop_ = 0, padLeft_ = 0;
    Matrix weights_, bias_, gradWeights_, gradBias_;
    Matrix columns_;      // (C*kH*kW, N * P)
    Matrix byFilter_;     // (F, N * P): the product's output, then the output gradient in that order
    Matrix gradColumns_;  // (C*kH*kW, N * P)
    Matrix y_, gradInput_;
    bool rectified_ = false;
};

}  // namespace skynnet
