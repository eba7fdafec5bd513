#include "layers/conv2d.h"

#include <algorithm>

#include "core/error.h"

namespace skynnet {
namespace {

// The three products of a convolution; a faster GEMM kernel replaces these and nothing else.
// out (rows, F) = patches (rows, K) x W^T, with W (F, K).
void forwardProduct(const Matrix& patches, const Matrix& weights, Matrix& out) {
    out.noalias() = patches * weights.transpose();
}
// gradW (F, K) = grad^T (F, rows) x patches (rows, K).
void weightGradientProduct(const Matrix& grad, const Matrix& patches, Matrix& gradWeights) {
    gradWeights.noalias() = grad.transpose() * patches;
}
// gradPatches (rows, K) = grad (rows, F) x W (F, K).
void inputGradientProduct(const Matrix& grad, const Matrix& weights, Matrix& gradPatches) {
    gradPatches.noalias() = grad * weights;
}

using SampleMap = Eigen::Map<Matrix>;
using ConstSampleMap = Eigen::Map<const Matrix>;

}  // namespace

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
}

void Conv2D::build(Shape input, Rng& rng) {
    const ConvOptions& o = options_;
    if (!o.samePadding && (o.kernelH > input.height || o.kernelW > input.width))
        throw Error("conv: kernel " + std::to_string(o.kernelH) + "x" + std::to_string(o.kernelW) +
                    " is larger than its " + std::to_string(input.height) + "x" + std::to_string(input.width) + " input");
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
}

void Conv2D::im2col(const Matrix& x) {
    const int C = input_.channels, H = input_.height, W = input_.width;
    const int kH = options_.kernelH, kW = options_.kernelW, s = options_.stride;
    const int OH = output_.height, OW = output_.width;
    patches_.resize(x.rows() * positions(), patchSize());
    for (Index n = 0; n < x.rows(); ++n) {
        const Scalar* sample = x.row(n).data();
        for (int oh = 0; oh < OH; ++oh)
            for (int ow = 0; ow < OW; ++ow) {
                Scalar* dst = patches_.row(n * positions() + oh * OW + ow).data();
                const int top = oh * s - padTop_, left = ow * s - padLeft_;
                for (int c = 0; c < C; ++c) {
                    const Scalar* plane = sample + Index(c) * H * W;
                    for (int i = 0; i < kH; ++i, dst += kW) {
                        const int h = top + i;
                        if (h < 0 || h >= H) {
                            std::fill(dst, dst + kW, Scalar(0));
                            continue;
                        }
                        const Scalar* line = plane + Index(h) * W;
                        for (int j = 0; j < kW; ++j) {
                            const int w = left + j;
                            dst[j] = (w >= 0 && w < W) ? line[w] : Scalar(0);
                        }
                    }
                }
            }
    }
}

void Conv2D::col2im(Index rows) {
    const int C = input_.channels, H = input_.height, W = input_.width;
    const int kH = options_.kernelH, kW = options_.kernelW, s = options_.stride;
    const int OH = output_.height, OW = output_.width;
    gradInput_.setZero(rows, input_.size());
    for (Index n = 0; n < rows; ++n) {
        Scalar* sample = gradInput_.row(n).data();
        for (int oh = 0; oh < OH; ++oh)
            for (int ow = 0; ow < OW; ++ow) {
                const Scalar* src = gradPatches_.row(n * positions() + oh * OW + ow).data();
                const int top = oh * s - padTop_, left = ow * s - padLeft_;
                for (int c = 0; c < C; ++c) {
                    Scalar* plane = sample + Index(c) * H * W;
                    for (int i = 0; i < kH; ++i, src += kW) {
                        const int h = top + i;
                        if (h < 0 || h >= H) continue;
                        Scalar* line = plane + Index(h) * W;
                        for (int j = 0; j < kW; ++j) {
                            const int w = left + j;
                            if (w >= 0 && w < W) line[w] += src[j];
                        }
                    }
                }
            }
    }
}

const Matrix& Conv2D::forward(const Matrix& x, bool) {
    const Index P = positions(), F = options_.filters;
    im2col(x);
    byPosition_.resize(patches_.rows(), F);
    forwardProduct(patches_, weights_, byPosition_);
    if (options_.bias) byPosition_.rowwise() += bias_.row(0);
    // (position, filter) -> the sample's (filter, position) layout, which is (C, H, W) of the output.
    y_.resize(x.rows(), F * P);
    for (Index n = 0; n < x.rows(); ++n) SampleMap(y_.row(n).data(), F, P) = byPosition_.middleRows(n * P, P).transpose();
    return y_;
}

const Matrix* Conv2D::backward(const Matrix& gradOut, bool needInputGrad) {
    const Index P = positions(), F = options_.filters, rows = gradOut.rows();
    // The output gradient in the products' (position, filter) order, reusing the forward buffer.
    byPosition_.resize(rows * P, F);
    for (Index n = 0; n < rows; ++n)
        byPosition_.middleRows(n * P, P) = ConstSampleMap(gradOut.row(n).data(), F, P).transpose();
    weightGradientProduct(byPosition_, patches_, gradWeights_);
    if (options_.bias) gradBias_ = byPosition_.colwise().sum();
    if (!needInputGrad) return nullptr;
    gradPatches_.resize(rows * P, patchSize());
    inputGradientProduct(byPosition_, weights_, gradPatches_);
    col2im(rows);
    return &gradInput_;
}

std::vector<Param> Conv2D::params() {
    std::vector<Param> p{{&weights_, &gradWeights_, true}};
    if (options_.bias) p.push_back({&bias_, &gradBias_, false});
    return p;
}

std::int64_t Conv2D::flopsPerSample() const { return 2 * std::int64_t(weights_.size()) * positions(); }

std::int64_t Conv2D::bufferBytes() const {
    return matrixBytes(patches_) + matrixBytes(byPosition_) + matrixBytes(gradPatches_) + matrixBytes(y_) +
           matrixBytes(gradInput_) + matrixBytes(gradWeights_) + matrixBytes(gradBias_);
}

}  // namespace skynnet
