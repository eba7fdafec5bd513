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
// Stride 1 takes the direct kernels of layers/conv_direct.h instead, on blocks of samples.
#include "layers/conv_direct.h"
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
    // Auto: the direct kernels at stride 1, im2col otherwise.
    // Tests force either (Direct needs stride 1).
    enum class Path { Auto, Im2col, Direct } path = Path::Auto;
};

// The output length along one axis, and the padding before it (0 for valid).
int convOutputLength(int in, int kernel, int stride, bool same);
int convPaddingBefore(int in, int kernel, int stride, bool same);
// The samples a convolution takes at a time: its columns (patchSize x positions per sample) and
// product (filters x positions) fit in 512 KB together, at least one sample.
Index convChunkSamples(Index patchSize, Index filters, Index positions);
// Whether a convolution of `input` takes the direct kernels (see ConvOptions::path).
bool convIsDirect(Shape input, const ConvOptions& options);
// The buffer values a convolution holds whatever the batch: the direct path's blocks (input,
// output gradient, output or input gradient) and packed filters, or the im2col path's chunk of
// columns and product.
std::int64_t convFixedBufferValues(Shape input, const ConvOptions& options);

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
    // The network also puts a 2x2 max pool of stride 2 that follows (after the ReLU, if any) into
    // this layer: forward returns the pooled output (pooledShape()), backward takes its gradient,
    // and the full output is never written out (layers/pool_block.h says why). The MaxPool2D layer
    // then passes values through (MaxPool2D::takePooledInput). outputShape() stays the
    // convolution's, which the layer after it is built on. Needs an output of at least 2 x 2.
    void poolOutput();
    bool pooled() const { return pooled_; }
    // The network hands this layer's pooled output to the direct convolution right after it as
    // blocks (conv_direct.h's layout) rather than rows, and the input gradient back the same way:
    // rows [16 b, 16 b + 16) of the output hold block b, the part-full last block stays rows. That
    // saves four transposes of the largest activations between the two (half of all a CNN's).
    // Only the two layers read those rows (the layers between pass them through). False, and
    // nothing changed, where the shapes or paths do not allow it.
    bool handBlocksTo(Conv2D& next);
    bool handsBlocks() const { return blockOutput_; }
    Shape pooledShape() const { return pooledShape_; }
    // Samples per chunk (a block of convBlockSamples() on the direct path): from the layer's shape
    // and the build alone (never the machine or the thread count), so the weight gradient's sum
    // over the chunks always runs in the same order.
    Index chunkSamples() const { return chunk_; }
    bool direct() const { return direct_; }

private:
    Index positions() const { return Index(output_.height) * output_.width; }
    Index patchSize() const { return weights_.cols(); }
    // Samples [first, first + n) of x (N, C*H*W) -> columns_ as (C*kH*kW, n * positions), zeros
    // where the window hangs over the padding.
    void im2col(const Matrix& x, Index first, Index n);
    // columns_ as the gradient of those columns -> rows [first, first + n) of gradInput_, adding up
    // the entries of overlapping windows.
    void col2im(Index first, Index n);
    // The output positions that count: all, or those the fused pool's windows cover.
    OutputExtent pooledExtent() const;
    void forwardDirect(const Matrix& x);
    void backwardDirect(const Matrix& gradOut, bool needInputGrad);

    ConvOptions options_;
    Init init_;
    int padTop_ = 0, padLeft_ = 0;
    Matrix weights_, bias_, gradWeights_, gradBias_;
    Index chunk_ = 1;
    // One chunk of n samples, stored packed (row stride n * P) in buffers sized for a whole chunk.
    Matrix columns_;   // (C*kH*kW, chunk * P): the columns, in backward then their gradient
    Matrix byFilter_;  // (F, chunk * P): the product's output, then the output gradient in that order
    // The direct path: one block of samples at a time. The input block is padded for same
    // padding, the output gradient's is not (the input gradient scatters it); the output block
    // holds the output in forward, the input gradient in backward.
    bool direct_ = false;
    BlockPlacement inAt_, gradAt_;
    Matrix inBlock_, gradBlock_, outBlock_;
    PackedFilters packed_, flipped_;
    const Matrix* x_ = nullptr;  // the input of the last forward pass, for backward's columns
    Matrix y_, gradInput_;
    bool rectified_ = false;
    // The fused max pool: the pooled block (forward's output, backward's incoming gradient), and
    // where each window's maximum was: per block its codes (pool_block.h) on the direct path,
    // per pooled value its index in the sample's filter plane on the im2col path.
    bool pooled_ = false;
    Shape pooledShape_;
    Matrix poolBlock_, poolCodes_;
    std::vector<std::int32_t> poolArgmax_;
    // handBlocksTo: whole blocks out (this layer's output and its gradient) or in (its input and
    // input gradient).
    bool blockOutput_ = false, blockInput_ = false;
};

}  // namespace skynnet
