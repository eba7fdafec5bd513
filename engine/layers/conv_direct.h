#pragma once
// Direct convolution kernels of stride 1 on blocks of samples interleaved lane by lane: value
// (c, h, w) of the block's sample s sits at ((c * H + h) * W + w) * convBlockSamples() + s. One
// vector load then holds that value for every sample of the block and one weight multiplies the
// whole vector, so every lane works whatever the image's width (an output row of 11 or 26 values
// fills no vector) and no im2col columns are built, packed by a GEMM library and copied out again.
// Conv2D's im2col path takes the strided convolutions.
#include <vector>

#include "core/tensor.h"

namespace skynnet {

// Samples in a block: the float lanes of the widest vector this build targets (16, 8 or 4).
int convBlockSamples();
// Filters computed together by the kernels: blocks hold their channels rounded up to it.
inline constexpr int kConvFilterBlock = 4;
inline int roundUpToFilterBlock(int n) { return (n + kConvFilterBlock - 1) / kConvFilterBlock * kConvFilterBlock; }

// Where a sample's (C, H, W) values sit in a block of shape `block`: from (top, left) on, the
// rest of the block (padding) zero.
struct BlockPlacement {
    Shape block;
    int top = 0, left = 0;
};

// Zeros the block's padding (the values outside `shape` at `at`) and its channels past shape's.
void zeroBlockPadding(Shape shape, BlockPlacement at, Scalar* block);

// Rows [0, n) of x (row stride `stride`, n <= convBlockSamples()) as a block: every value of
// `shape` placed at `at`, zeros in the padding and in the lanes past n. With `mask`, rows of the
// same layout, a value goes in only where the mask's is above zero (a ReLU's gradient). With
// `channelSums`, each channel's values written are added to it, sample by sample in order.
void rowsToBlock(const Scalar* x, Index stride, Index n, Shape shape, BlockPlacement at, Scalar* block,
                 const Scalar* mask = nullptr, Scalar* channelSums = nullptr);
// The reverse: the values of `shape` at `at` in the block into rows [0, n) of y.
void blockToRows(const Scalar* block, BlockPlacement at, Shape shape, Index n, Scalar* y, Index stride);

// Filters (F, C * kH * kW) as the kernels read them: per group of kConvFilterBlock filters,
// [channel][tap row][tap column][filter in group], zeros for the filters past F. Flipped: the
// filters of the input gradient, C of them over F channels, each the original turned 180 degrees.
struct PackedFilters {
    std::vector<Scalar> values;
    int filters = 0, channels = 0, kernelH = 0, kernelW = 0;  // channels rounded up when flipped
};
void packFilters(const Matrix& weights, int channels, int kernelH, int kernelW, bool flipped, PackedFilters& out);

// out (roundUp(filters), inShape.height - kH + 1, inShape.width - kW + 1) block = bias (may be
// null) + the valid correlation of `in` (inShape, filters.channels channels) with the filters,
// optionally rectified. Rows of `in` before zeroTop and the last zeroBottom are known zero: they
// are skipped. With `only` (rows, columns), just the output values of the first rows and
// columns are written, the rest left as they were (a 2x2 max pool of an odd size reads no more).
struct OutputExtent {
    int rows = 0, columns = 0;
};
void correlateBlock(const Scalar* in, Shape inShape, const PackedFilters& filters, const Scalar* bias, bool rectify,
                    int zeroTop, int zeroBottom, Scalar* out, OutputExtent only = {});

// The input gradient of a valid correlation, without padding the output gradient: out (shape
// `outShape`, roundUp(flipped.filters) channels, the forward's input block) = the sum over the
// output gradient's positions (oh, ow) < (rows, columns) and taps (i, j) of
// g(f, oh, ow) * w(f, c, i, j) at (c, oh + i, ow + j). g's values sit at gAt.top, gAt.left in their
// block; `flipped` are the filters packed for the input gradient (packFilters(..., true, ...)).
// The same values as correlateBlock over g padded by kH - 1 and kW - 1 with the flipped filters,
// summed in another order, and without the padding's zeros: a 13-column output (conv64's, 11
// columns of gradient) took tiles of 4, 4 and 5 columns and a sixth of the work on zeros.
void scatterInputGradientBlock(const Scalar* g, BlockPlacement gAt, int rows, int columns, const PackedFilters& flipped,
                               Shape outShape, Scalar* out);

// grad (filters, C * kH * kW) = (accumulate ? grad : 0) + the sum over the block's samples and the
// output positions (oh, ow) < (outH, outW) of g(f, oh, ow) * in(c, oh + i, ow + j). g's values sit
// at `g.top, g.left` in their block (of roundUp(filters) channels); `in` has inShape.
void weightGradientBlock(const Scalar* g, BlockPlacement gAt, int outH, int outW, const Scalar* in, Shape inShape,
                         int kernelH, int kernelW, int filters, Scalar* grad, bool accumulate);

}  // namespace skynnet
