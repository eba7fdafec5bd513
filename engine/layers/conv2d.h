#pragma once
// 2-D convolution over (C, H, W) samples stored as rows, by im2col and one matrix product per
// pass: every output position's receptive field becomes a row of `patches_`, so the forward pass
// is patches x W^T and the backward passes are two more products and a scatter back (col2im).
// The products sit in three functions of conv2d.cpp, the only place a faster kernel must replace.
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

private:
    Index positions() const { return Index(output_.height) * output_.width; }
    Index patchSize() const { return weights_.cols(); }
    // x (N, C*H*W) -> patches_ (N * positions, C*kH*kW), zeros where the window hangs over the padding.
    void im2col(const Matrix& x);
    // gradPatches_ -> gradInput_, adding up the entries of overlapping windows.
    void col2im(Index rows);

    ConvOptions options_;
    Init init_;
    int padTop_ = 0, padLeft_ = 0;
    Matrix weights_, bias_, gradWeights_, gradBias_;
    Matrix patches_;      // (N * P, C*kH*kW)
    Matrix byPosition_;   // (N * P, F): the product's output, then the output gradient in that order
    Matrix gradPatches_;  // (N * P, C*kH*kW)
    Matrix y_, gradInput_;
};

}  // namespace skynnet
