#include "layers/conv2d.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"
#include "core/gemm.h"
#include "layers/pool_block.h"
#include "layers/pooling.h"

namespace skynnet {

Index convChunkSamples(Index patchSize, Index filters, Index positions) {
    // A chunk's columns and product together: half of a 1 MB L2, all of a 512 KB one, and never a
    // machine's figure (the chunk fixes the order of the weight gradient's sum).
    constexpr Index kChunkValues = Index(1) << 17;
    return std::max<Index>(1, kChunkValues / ((patchSize + filters) * positions));
}

bool convIsDirect(Shape, const ConvOptions& options) {
    // One input channel as well, since the convolution pools its own output (poolOutput): the
    // issue's CNN trained 1.5x faster with conv32 3x3 on 28 x 28 direct than on im2col (1 thread,
    // Zen 5), whose 9-tap products wait for memory. Before the fused pool the direct path took
    // 2.6 ms forward and backward for 64 samples against im2col's 2.4 there (the transposes of the
    // 32 x 26 x 26 output and its gradient dominated); conv64 3x3 on 32 x 13 x 13 took 10.6
    // against 15.5.
    switch (options.path) {
    case ConvOptions::Path::Im2col: return false;
    case ConvOptions::Path::Direct: return true;
    case ConvOptions::Path::Auto: break;
    }
    return options.stride == 1;
}

namespace {

// The direct path's blocks: the input padded to (OH + kH - 1, OW + kW - 1), the output gradient
// (unpadded: the input gradient scatters it), and the larger of the output and the input gradient.
struct DirectBlocks {
    BlockPlacement in, grad;
    Index outValues = 0;  // per sample
};
DirectBlocks directBlocks(Shape input, const ConvOptions& o) {
    const int kH = o.kernelH, kW = o.kernelW;
    const int OH = convOutputLength(input.height, kH, 1, o.samePadding),
              OW = convOutputLength(input.width, kW, 1, o.samePadding);
    DirectBlocks b;
    b.in = {Shape{input.channels, OH + kH - 1, OW + kW - 1}, convPaddingBefore(input.height, kH, 1, o.samePadding),
            convPaddingBefore(input.width, kW, 1, o.samePadding)};
    const int filters = roundUpToFilterBlock(o.filters);
    b.grad = {Shape{filters, OH, OW}};
    b.outValues = std::max(Index(filters) * OH * OW,
                           roundUpToFilterBlock(input.channels) * b.in.block.height * Index(b.in.block.width));
    return b;
}

}  // namespace

std::int64_t convFixedBufferValues(Shape input, const ConvOptions& o) {
    const std::int64_t taps = std::int64_t(o.kernelH) * o.kernelW, patch = input.channels * taps;
    if (convIsDirect(input, o)) {
        const DirectBlocks b = directBlocks(input, o);
        const std::int64_t filters = roundUpToFilterBlock(o.filters);
        return convBlockSamples() * (b.in.block.size() + b.grad.block.size() + b.outValues) + filters * patch +
               roundUpToFilterBlock(input.channels) * filters * taps;
    }
    const std::int64_t positions = std::int64_t(convOutputLength(input.height, o.kernelH, o.stride, o.samePadding)) *
                                   convOutputLength(input.width, o.kernelW, o.stride, o.samePadding);
    return convChunkSamples(patch, o.filters, positions) * (patch + o.filters) * positions;
}

int convOutputLength(int in, int kernel, int stride, bool same) {
    return same ? (in + stride - 1) / stride : (in - kernel) / stride + 1;
}

int convPaddingBefore(int in, int kernel, int stride, bool same) {
    if (!same) return 0;
    const int out = convOutputLength(in, kernel, stride, true);
    return std::max((out - 1) * stride + kernel - in, 0) / 2;
}

Conv2D::Conv2D(ConvOptions options, Init init) : options_(options), init_(init) {
    if (options.filters < 1 || options.kernelH < 1 || options.kernelW < 1 || options.stride < 1)
        throw Error("conv needs at least 1 filter, a kernel of at least 1x1 and a stride of at least 1");
    if (options.path == ConvOptions::Path::Direct && options.stride != 1)
        throw Error("conv: the direct kernels take stride 1 only, not " + std::to_string(options.stride));
}

void Conv2D::build(Shape input, Rng& rng) {
    const ConvOptions& o = options_;
    if (!o.samePadding && (o.kernelH > input.height || o.kernelW > input.width))
        throw Error("conv: kernel " + std::to_string(o.kernelH) + "x" + std::to_string(o.kernelW) +
                    " is larger than its " + std::to_string(input.height) + "x" + std::to_string(input.width) +
                    " input");
    input_ = input;
    output_ = Shape{o.filters, convOutputLength(input.height, o.kernelH, o.stride, o.samePadding),
                    convOutputLength(input.width, o.kernelW, o.stride, o.samePadding)};
    padTop_ = convPaddingBefore(input.height, o.kernelH, o.stride, o.samePadding);
    padLeft_ = convPaddingBefore(input.width, o.kernelW, o.stride, o.samePadding);
    const Index window = Index(o.kernelH) * o.kernelW;
    weights_.resize(o.filters, input.channels * window);
    drawWeights(weights_, init_, input.channels * window, o.filters * window, rng);
    bias_ = o.bias ? Matrix::Zero(1, o.filters) : Matrix(1, 0);
    gradWeights_ = Matrix::Zero(weights_.rows(), weights_.cols());
    gradBias_ = Matrix::Zero(1, bias_.cols());
    direct_ = convIsDirect(input, o);
    chunk_ = direct_ ? convBlockSamples() : convChunkSamples(patchSize(), o.filters, positions());
    if (direct_) {
        const DirectBlocks b = directBlocks(input, o);
        inAt_ = b.in;
        gradAt_ = b.grad;
    }
    if (pooled_) {
        if (output_.height < 2 || output_.width < 2)
            throw Error("conv: the 2x2 max pool after it needs an output of at least 2x2, not " +
                        std::to_string(output_.height) + "x" + std::to_string(output_.width));
        pooledShape_ = Shape{output_.channels, output_.height / 2, output_.width / 2};
    }
}

void Conv2D::poolOutput() { pooled_ = true; }

bool Conv2D::handBlocksTo(Conv2D& next) {
    // Whole blocks of one are whole blocks of the other: the same samples a block, and the pooled
    // block's layout is the next one's input block (no padding, no channels added).
    const int filters = roundUpToFilterBlock(options_.filters);
    const bool fits = direct_ && pooled_ && next.direct_ && chunk_ == next.chunk_ && filters == options_.filters &&
                      next.input_ == pooledShape_ && next.inAt_.block == next.input_ &&
                      roundUpToFilterBlock(next.input_.channels) == next.input_.channels;
    if (fits) blockOutput_ = next.blockInput_ = true;
    return fits;
}

OutputExtent Conv2D::pooledExtent() const {
    if (!pooled_) return {output_.height, output_.width};
    return {2 * pooledShape_.height, 2 * pooledShape_.width};
}

namespace {

// The output positions [begin, end) along one axis whose tap `offset` (tap index minus padding)
// falls inside an input of length `in`.
struct Inside {
    int begin, end;
};
Inside insideRange(int offset, int in, int out, int stride) {
    const int begin = std::clamp((-offset + stride - 1) / stride, 0, out);
    return {begin, std::clamp(offset >= in ? 0 : (in - 1 - offset) / stride + 1, begin, out)};
}

// Runs of 11-26 values: a call to memcpy costs more than such a run, and the compiler turns
// any copy loop into one, so runs of up to 32 are copied as straight-line blocks of 8 (the last
// one overlapping the one before).
constexpr int kBlock = 8;
// 8 floats that may sit anywhere (align 4): one AVX load or store, two SSE ones.
typedef Scalar Block __attribute__((vector_size(kBlock * sizeof(Scalar)), aligned(alignof(Scalar))));

void copyBlock(Scalar* dst, const Scalar* src) {
    *reinterpret_cast<Block*>(dst) = *reinterpret_cast<const Block*>(src);
}

void copyValues(Scalar* __restrict dst, const Scalar* __restrict src, int n) {
    if (n < kBlock) {
        for (int k = 0; k < n; ++k) dst[k] = src[k];
    } else if (n > 4 * kBlock) {
        std::memcpy(dst, src, std::size_t(n) * sizeof(Scalar));
    } else {
        copyBlock(dst, src);
        if (n > 2 * kBlock) copyBlock(dst + kBlock, src + kBlock);
        if (n > 3 * kBlock) copyBlock(dst + 2 * kBlock, src + 2 * kBlock);
        copyBlock(dst + n - kBlock, src + n - kBlock);
    }
}

void zeroValues(Scalar* dst, int n) {
    for (int k = 0; k < n; ++k) dst[k] = 0;
}

// `line` is the input row, `left` the tap's column offset in it.
void copyRun(Scalar* __restrict dst, const Scalar* __restrict line, int left, int stride, Inside ow, int OW) {
    if (ow.begin > 0) zeroValues(dst, ow.begin);
    if (stride == 1) copyValues(dst + ow.begin, line + ow.begin + left, ow.end - ow.begin);
    else
        for (int k = ow.begin; k < ow.end; ++k) dst[k] = line[k * stride + left];
    if (ow.end < OW) zeroValues(dst + ow.end, OW - ow.end);
}

void addRun(Scalar* __restrict line, const Scalar* __restrict src, int left, int stride, Inside ow) {
    if (stride == 1)
        for (int k = ow.begin; k < ow.end; ++k) line[k + left] += src[k];
    else
        for (int k = ow.begin; k < ow.end; ++k) line[k * stride + left] += src[k];
}

}  // namespace

void Conv2D::im2col(const Matrix& x, Index first, Index N) {
    const int C = input_.channels, H = input_.height, W = input_.width;
    const int kH = options_.kernelH, kW = options_.kernelW, s = options_.stride;
    const int OH = output_.height, OW = output_.width;
    const Index P = positions();
    // Row (c, i, j) of the columns holds, for every sample and output position, the input value
    // under the kernel's tap (i, j) of channel c: with stride 1 a run of OW consecutive inputs.
    for (int c = 0; c < C; ++c)
        for (int i = 0; i < kH; ++i) {
            const int top = i - padTop_;
            const Inside oh = insideRange(top, H, OH, s);
            for (int j = 0; j < kW; ++j) {
                Scalar* row = columns_.data() + ((Index(c) * kH + i) * kW + j) * N * P;
                const int left = j - padLeft_;
                const Inside ow = insideRange(left, W, OW, s);
                for (Index n = 0; n < N; ++n) {
                    Scalar* dst = row + n * P;
                    const Scalar* plane = x.row(first + n).data() + Index(c) * H * W;
                    std::fill(dst, dst + Index(oh.begin) * OW, Scalar(0));
                    for (int r = oh.begin; r < oh.end; ++r)
                        copyRun(dst + Index(r) * OW, plane + Index(r * s + top) * W, left, s, ow, OW);
                    std::fill(dst + Index(oh.end) * OW, dst + P, Scalar(0));
                }
            }
        }
}

void Conv2D::col2im(Index first, Index N) {
    const int C = input_.channels, H = input_.height, W = input_.width;
    const int kH = options_.kernelH, kW = options_.kernelW, s = options_.stride;
    const int OH = output_.height, OW = output_.width;
    const Index P = positions();
    // Zeroed chunk by chunk, while the rows are about to be written anyway.
    gradInput_.middleRows(first, N).setZero();
    // The transpose of im2col: every tap's column entries add back onto the inputs they copied.
    for (int c = 0; c < C; ++c)
        for (int i = 0; i < kH; ++i) {
            const int top = i - padTop_;
            const Inside oh = insideRange(top, H, OH, s);
            for (int j = 0; j < kW; ++j) {
                const Scalar* row = columns_.data() + ((Index(c) * kH + i) * kW + j) * N * P;
                const int left = j - padLeft_;
                const Inside ow = insideRange(left, W, OW, s);
                for (Index n = 0; n < N; ++n) {
                    Scalar* plane = gradInput_.row(first + n).data() + Index(c) * H * W;
                    const Scalar* src = row + n * P;
                    for (int r = oh.begin; r < oh.end; ++r)
                        addRun(plane + Index(r * s + top) * W, src + Index(r) * OW, left, s, ow);
                }
            }
        }
}

void Conv2D::forwardDirect(const Matrix& x) {
    const Index N = x.rows();
    const DirectBlocks b = directBlocks(input_, options_);
    inBlock_.resize(1, convBlockSamples() * inAt_.block.size());
    outBlock_.resize(1, convBlockSamples() * b.outValues);
    packFilters(weights_, input_.channels, options_.kernelH, options_.kernelW, false, packed_);
    const int zeroBottom = inAt_.block.height - input_.height - inAt_.top;
    const int filters = roundUpToFilterBlock(options_.filters);
    const BlockPlacement outAt{Shape{filters, output_.height, output_.width}};
    const BlockPlacement poolAt{Shape{filters, pooledShape_.height, pooledShape_.width}};
    const Index codeValues = convBlockSamples() * poolAt.block.size();
    if (pooled_) {
        poolBlock_.resize(1, codeValues);
        poolCodes_.resize(1, codeValues * ((N + chunk_ - 1) / chunk_));
    }
    for (Index first = 0; first < N; first += chunk_) {
        const Index n = std::min(chunk_, N - first);
        const bool inBlocks = blockInput_ && n == chunk_;
        if (!inBlocks) rowsToBlock(x.row(first).data(), x.cols(), n, input_, inAt_, inBlock_.data());
        // Pooled: the last row and column of an odd output are in no window, never computed.
        correlateBlock(inBlocks ? x.row(first).data() : inBlock_.data(), inAt_.block, packed_,
                       options_.bias ? bias_.data() : nullptr, rectified_, inAt_.top, zeroBottom, outBlock_.data(),
                       pooledExtent());
        if (!pooled_) {
            blockToRows(outBlock_.data(), outAt, output_, n, y_.row(first).data(), y_.cols());
            continue;
        }
        const bool outBlocks = blockOutput_ && n == chunk_;
        maxPoolBlock(outBlock_.data(), outAt.block, rectified_, outBlocks ? y_.row(first).data() : poolBlock_.data(),
                     poolCodes_.data() + first / chunk_ * codeValues);
        if (!outBlocks) blockToRows(poolBlock_.data(), poolAt, pooledShape_, n, y_.row(first).data(), y_.cols());
    }
}

void Conv2D::backwardDirect(const Matrix& gradOut, bool needInputGrad) {
    const Index N = gradOut.rows();
    const int kH = options_.kernelH, kW = options_.kernelW;
    gradBlock_.resize(1, convBlockSamples() * gradAt_.block.size());
    packFilters(weights_, input_.channels, kH, kW, true, flipped_);
    const BlockPlacement dxAt{Shape{roundUpToFilterBlock(input_.channels), inAt_.block.height, inAt_.block.width},
                              inAt_.top, inAt_.left};
    const BlockPlacement poolAt{Shape{roundUpToFilterBlock(options_.filters), pooledShape_.height, pooledShape_.width}};
    const Index codeValues = convBlockSamples() * poolAt.block.size();
    for (Index first = 0; first < N; first += chunk_) {
        const Index n = std::min(chunk_, N - first);
        // The output gradient, through the ReLU's mask where this layer applied it. Pooled: each
        // window's gradient to its maximum, when the ReLU let that through.
        const bool full = n == chunk_;
        if (pooled_) {
            const bool outBlocks = blockOutput_ && full;
            if (!outBlocks)
                rowsToBlock(gradOut.row(first).data(), gradOut.cols(), n, pooledShape_, poolAt, poolBlock_.data());
            unpoolBlock(outBlocks ? gradOut.row(first).data() : poolBlock_.data(),
                        poolCodes_.data() + first / chunk_ * codeValues, output_, gradAt_, gradBlock_.data(),
                        options_.bias ? gradBias_.data() : nullptr);
        } else {
            rowsToBlock(gradOut.row(first).data(), gradOut.cols(), n, output_, gradAt_, gradBlock_.data(),
                        rectified_ ? y_.row(first).data() : nullptr, options_.bias ? gradBias_.data() : nullptr);
        }
        const bool inBlocks = blockInput_ && full;
        if (!inBlocks) rowsToBlock(x_->row(first).data(), x_->cols(), n, input_, inAt_, inBlock_.data());
        // Block by block into the weight gradient, always in block order.
        // Pooled, the gradient is zero past the windows: those positions add nothing.
        const OutputExtent g = pooledExtent();
        weightGradientBlock(gradBlock_.data(), gradAt_, g.rows, g.columns,
                            inBlocks ? x_->row(first).data() : inBlock_.data(), inAt_.block, kH, kW, options_.filters,
                            gradWeights_.data(), first > 0);
        if (!needInputGrad) continue;
        // The full correlation of the output gradient with the flipped filters, over the padded
        // input: each gradient value scattered to the inputs its filters read.
        scatterInputGradientBlock(gradBlock_.data(), gradAt_, g.rows, g.columns, flipped_, dxAt.block,
                                  inBlocks ? gradInput_.row(first).data() : outBlock_.data());
        if (inBlocks) continue;
        blockToRows(outBlock_.data(), dxAt, input_, n, gradInput_.row(first).data(), gradInput_.cols());
    }
}

const Matrix& Conv2D::forward(const Matrix& x, bool) {
    const Index P = positions(), F = options_.filters, K = patchSize(), N = x.rows();
    x_ = &x;
    y_.resize(N, pooled_ ? pooledShape_.size() : output_.size());
    if (direct_) {
        forwardDirect(x);
        return y_;
    }
    columns_.resize(K, chunk_ * P);
    byFilter_.resize(F, chunk_ * P);
    const Shape plane{1, output_.height, output_.width}, pooledPlane{1, pooledShape_.height, pooledShape_.width};
    const Index PP = pooledPlane.size();
    if (pooled_) poolArgmax_.resize(std::size_t(N * pooledShape_.size()));
    for (Index first = 0; first < N; first += chunk_) {
        const Index n = std::min(chunk_, N - first), ld = n * P;
        im2col(x, first, n);
        // (F, n * P) = W (F, K) x columns (K, n * P): filter-major already, so each sample's
        // output plane of a filter is one contiguous run, copied out with its bias.
        gemmOnColumns(Op::None, Op::None, F, ld, K, 1, weights_.data(), K, columns_.data(), ld, 0, byFilter_.data(),
                      ld);
        for (Index s = 0; s < n; ++s)
            for (Index f = 0; f < F; ++f) {
                const Scalar b = options_.bias ? bias_(0, f) : Scalar(0);
                Scalar* src = byFilter_.data() + f * ld + s * P;
                if (pooled_) {
                    // The plane with its bias (and ReLU) in place, in L1, then pooled.
                    if (rectified_)
                        for (Index p = 0; p < P; ++p) src[p] = std::max(src[p] + b, Scalar(0));
                    else
                        for (Index p = 0; p < P; ++p) src[p] += b;
                    const Index at = (first + s) * pooledShape_.size() + f * PP;
                    maxPool2x2(src, plane, pooledPlane, y_.data() + at, poolArgmax_.data() + at);
                    continue;
                }
                Scalar* dst = y_.row(first + s).data() + f * P;
                if (rectified_)
                    for (Index p = 0; p < P; ++p) dst[p] = std::max(src[p] + b, Scalar(0));
                else
                    for (Index p = 0; p < P; ++p) dst[p] = src[p] + b;
            }
    }
    return y_;
}

const Matrix* Conv2D::backward(const Matrix& gradOut, bool needInputGrad) {
    const Index P = positions(), F = options_.filters, K = patchSize(), N = gradOut.rows();
    if (!x_ || x_->rows() != N) throw Error("conv backward without its forward pass");
    if (options_.bias) gradBias_.setZero();
    if (N == 0) gradWeights_.setZero();
    if (needInputGrad) gradInput_.resize(N, input_.size());
    if (direct_) {
        backwardDirect(gradOut, needInputGrad);
        return needInputGrad ? &gradInput_ : nullptr;
    }
    for (Index first = 0; first < N; first += chunk_) {
        const Index n = std::min(chunk_, N - first), ld = n * P;
        // The output gradient in the products' (F, n * P) order.
        for (Index s = 0; s < n; ++s)
            for (Index f = 0; f < F; ++f) {
                const Scalar* src = gradOut.row(first + s).data() + f * P;
                Scalar* dst = byFilter_.data() + f * ld + s * P;
                if (pooled_) {
                    // Each window's gradient to its maximum, where the ReLU let that through.
                    const Index at = (first + s) * pooledShape_.size() + f * pooledShape_.height * pooledShape_.width;
                    const Index PP = Index(pooledShape_.height) * pooledShape_.width;
                    const Scalar* g = gradOut.data() + at;
                    const Scalar* pooledY = y_.data() + at;
                    const std::int32_t* arg = poolArgmax_.data() + at;
                    std::fill(dst, dst + P, Scalar(0));
                    for (Index k = 0; k < PP; ++k)
                        dst[arg[k]] = rectified_ && !(pooledY[k] > Scalar(0)) ? Scalar(0) : g[k];
                } else if (rectified_) {
                    // The ReLU's gradient: where it let the value through (ReLU::inputGradient's mask).
                    const Scalar* out = y_.row(first + s).data() + f * P;
                    for (Index p = 0; p < P; ++p) dst[p] = out[p] > Scalar(0) ? src[p] : Scalar(0);
                } else {
                    for (Index p = 0; p < P; ++p) dst[p] = src[p];
                }
            }
        im2col(*x_, first, n);
        // Chunk by chunk into the weight gradient, always in chunk order.
        gemmOnColumns(Op::None, Op::Transpose, F, K, ld, 1, byFilter_.data(), ld, columns_.data(), ld,
                      first == 0 ? 0 : 1, gradWeights_.data(), K);
        if (options_.bias) gradBias_ += Eigen::Map<const Matrix>(byFilter_.data(), F, ld).rowwise().sum().transpose();
        if (!needInputGrad) continue;
        // The columns' gradient over the columns, which the weight gradient no longer needs.
        gemmOnColumns(Op::Transpose, Op::None, K, ld, F, 1, weights_.data(), K, byFilter_.data(), ld, 0,
                      columns_.data(), ld);
        col2im(first, n);
    }
    return needInputGrad ? &gradInput_ : nullptr;
}

std::vector<Param> Conv2D::params() {
    std::vector<Param> p{{&weights_, &gradWeights_, true}};
    if (options_.bias) p.push_back({&bias_, &gradBias_, false});
    return p;
}

std::int64_t Conv2D::flopsPerSample() const { return 2 * std::int64_t(weights_.size()) * positions(); }

std::int64_t Conv2D::bufferBytes() const {
    const auto packed = [](const PackedFilters& p) { return std::int64_t(p.values.size() * sizeof(Scalar)); };
    return matrixBytes(columns_) + matrixBytes(byFilter_) + matrixBytes(inBlock_) + matrixBytes(gradBlock_) +
           matrixBytes(outBlock_) + packed(packed_) + packed(flipped_) + matrixBytes(y_) + matrixBytes(gradInput_) +
           matrixBytes(gradWeights_) + matrixBytes(gradBias_) + matrixBytes(poolBlock_) + matrixBytes(poolCodes_) +
           std::int64_t(poolArgmax_.size() * sizeof(std::int32_t));
}

}  // namespace skynnet
