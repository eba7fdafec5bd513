#include "layers/conv2d.h"

#include <algorithm>

#include "core/error.h"
#include "core/gemm.h"

namespace skynnet {
namespace {

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
    const Index P = positions(), N = x.rows();
    columns_.resize(patchSize(), N * P);
    // Row (c, i, j) of the columns holds, for every sample and output position, the input value
    // under the kernel's tap (i, j) of channel c: with stride 1 a run of OW consecutive inputs.
    for (int c = 0; c < C; ++c)
        for (int i = 0; i < kH; ++i)
            for (int j = 0; j < kW; ++j) {
                Scalar* row = columns_.row((Index(c) * kH + i) * kW + j).data();
                // Output columns whose tap falls inside the input width: [owBegin, owEnd).
                const int left = j - padLeft_;
                const int owBegin = std::clamp((-left + s - 1) / s, 0, OW);
                const int owEnd = std::clamp(left >= W ? 0 : (W - 1 - left) / s + 1, owBegin, OW);
                for (Index n = 0; n < N; ++n) {
                    const Scalar* plane = x.row(n).data() + Index(c) * H * W;
                    for (int oh = 0; oh < OH; ++oh) {
                        Scalar* dst = row + n * P + Index(oh) * OW;
                        const int h = oh * s + i - padTop_;
                        if (h < 0 || h >= H) {
                            std::fill(dst, dst + OW, Scalar(0));
                            continue;
                        }
                        const Scalar* line = plane + Index(h) * W;
                        std::fill(dst, dst + owBegin, Scalar(0));
                        // A plain loop: runs of 11-26 values cost memmove more in calls than in copying.
                        if (s == 1)
                            for (int ow = owBegin; ow < owEnd; ++ow) dst[ow] = line[ow + left];
                        else
                            for (int ow = owBegin; ow < owEnd; ++ow) dst[ow] = line[ow * s + left];
                        std::fill(dst + owEnd, dst + OW, Scalar(0));
                    }
                }
            }
}

void Conv2D::col2im(Index rows) {
    const int C = input_.channels, H = input_.height, W = input_.width;
    const int kH = options_.kernelH, kW = options_.kernelW, s = options_.stride;
    const int OH = output_.height, OW = output_.width;
    const Index P = positions();
    gradInput_.setZero(rows, input_.size());
    // The transpose of im2col: every tap's column entries add back onto the inputs they copied.
    for (int c = 0; c < C; ++c)
        for (int i = 0; i < kH; ++i)
            for (int j = 0; j < kW; ++j) {
                const Scalar* row = gradColumns_.row((Index(c) * kH + i) * kW + j).data();
                const int left = j - padLeft_;
                const int owBegin = std::clamp((-left + s - 1) / s, 0, OW);
                const int owEnd = std::clamp(left >= W ? 0 : (W - 1 - left) / s + 1, owBegin, OW);
                for (Index n = 0; n < rows; ++n) {
                    Scalar* plane = gradInput_.row(n).data() + Index(c) * H * W;
                    for (int oh = 0; oh < OH; ++oh) {
                        const int h = oh * s + i - padTop_;
                        if (h < 0 || h >= H) continue;
                        const Scalar* src = row + n * P + Index(oh) * OW;
                        Scalar* line = plane + Index(h) * W;
                        for (int ow = owBegin; ow < owEnd; ++ow) line[ow * s + left] += src[ow];
                    }
                }
            }
}

const Matrix& Conv2D::forward(const Matrix& x, bool) {
    const Index P = positions(), F = options_.filters, N = x.rows();
    im2col(x);
    // (F, N * P) = W (F, K) x columns (K, N * P): filter-major already, so each sample's output
    // plane of a filter is one contiguous run, copied out with its bias.
    gemm(weights_, Op::None, columns_, Op::None, byFilter_);
    y_.resize(N, F * P);
    for (Index n = 0; n < N; ++n)
        for (Index f = 0; f < F; ++f) {
            const Scalar b = options_.bias ? bias_(0, f) : Scalar(0);
            const Scalar* src = byFilter_.row(f).data() + n * P;
            Scalar* dst = y_.row(n).data() + f * P;
            if (rectified_)
                for (Index p = 0; p < P; ++p) dst[p] = std::max(src[p] + b, Scalar(0));
            else
                for (Index p = 0; p < P; ++p) dst[p] = src[p] + b;
        }
    return y_;
}

const Matrix* Conv2D::backward(const Matrix& gradOut, bool needInputGrad) {
    const Index P = positions(), F = options_.filters, N = gradOut.rows();
    // The output gradient in the products' (F, N * P) order, reusing the forward buffer.
    byFilter_.resize(F, N * P);
    for (Index n = 0; n < N; ++n)
        for (Index f = 0; f < F; ++f) {
            const Scalar* src = gradOut.row(n).data() + f * P;
            Scalar* dst = byFilter_.row(f).data() + n * P;
            if (rectified_) {
                // The ReLU's gradient: where it let the value through (ReLU::inputGradient's mask).
                const Scalar* out = y_.row(n).data() + f * P;
                for (Index p = 0; p < P; ++p) dst[p] = out[p] > Scalar(0) ? src[p] : Scalar(0);
            } else {
                for (Index p = 0; p < P; ++p) dst[p] = src[p];
            }
        }
    gemm(byFilter_, Op::None, columns_, Op::Transpose, gradWeights_);
    if (options_.bias) gradBias_ = byFilter_.rowwise().sum().transpose();
    if (!needInputGrad) return nullptr;
    gemm(weights_, Op::Transpose, byFilter_, Op::None, gradColumns_);
    col2im(N);
    return &gradInput_;
}

std::vector<Param> Conv2D::params() {
    std::vector<Param> p{{&weights_, &gradWeights_, true}};
    if (options_.bias) p.push_back({&bias_, &gradBias_, false});
    return p;
}

std::int64_t Conv2D::flopsPerSample() const { return 2 * std::int64_t(weights_.size()) * positions(); }

std::int64_t Conv2D::bufferBytes() const {
    return matrixBytes(columns_) + matrixBytes(byFilter_) + matrixBytes(gradColumns_) + matrixBytes(y_) +
           matrixBytes(gradInput_) + matrixBytes(gradWeights_) + matrixBytes(gradBias_);
}

}  // namespace skynnet
