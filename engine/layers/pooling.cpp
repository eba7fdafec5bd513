#include "layers/pooling.h"

#include <algorithm>

#include "core/error.h"

namespace skynnet {

Pool2D::Pool2D(int size, int stride) : size_(size), stride_(stride == 0 ? size : stride) {
    if (size < 1 || stride < 0) throw Error("pooling needs a size of at least 1 and a stride of at least 1");
}

void Pool2D::build(Shape input, Rng&) {
    if (size_ > input.height || size_ > input.width)
        throw Error(kind() + ": window " + std::to_string(size_) + "x" + std::to_string(size_) + " is larger than its " +
                    std::to_string(input.height) + "x" + std::to_string(input.width) + " input");
    input_ = input;
    output_ = Shape{input.channels, (input.height - size_) / stride_ + 1, (input.width - size_) / stride_ + 1};
}

namespace {

// The 2x2 window of stride 2, nearly every CNN's pooling, without the general loop's bookkeeping:
// the general one cost a tenth of a training step of the CNN. Same order of comparison,
// so the same maximum (the first of equal values) as the general loop.
void maxPool2x2(const Scalar* __restrict sample, Shape in, Shape out, Scalar* __restrict y,
                std::int32_t* __restrict arg) {
    const int H = in.height, W = in.width, OH = out.height, OW = out.width;
    for (int c = 0; c < in.channels; ++c)
        for (int oh = 0; oh < OH; ++oh) {
            const int top = (c * H + 2 * oh) * W;
            const Scalar* r0 = sample + top;
            const Scalar* r1 = r0 + W;
            for (int ow = 0; ow < OW; ++ow) {
                const int j = 2 * ow;
                Scalar best = r0[j];
                int at = top + j;
                if (r0[j + 1] > best) best = r0[j + 1], at = top + j + 1;
                if (r1[j] > best) best = r1[j], at = top + W + j;
                if (r1[j + 1] > best) best = r1[j + 1], at = top + W + j + 1;
                *y++ = best;
                *arg++ = at;
            }
        }
}

// Its backward pass: each pair of input rows is zeroed just before its windows' maxima are written
// into it, while it is in L1, rather than the whole gradient zeroed first and scattered into after.
void maxPool2x2Backward(const Scalar* __restrict g, const std::int32_t* __restrict arg, Shape in, Shape out,
                        Scalar* __restrict gin) {
    const int H = in.height, W = in.width, OH = out.height, OW = out.width;
    for (int c = 0; c < in.channels; ++c) {
        Scalar* plane = gin + c * H * W;
        for (int oh = 0; oh < OH; ++oh) {
            std::fill(plane + 2 * oh * W, plane + (2 * oh + 2) * W, Scalar(0));
            // Windows side by side: no two share a maximum.
            for (int ow = 0; ow < OW; ++ow) gin[*arg++] = *g++;
        }
        std::fill(plane + 2 * OH * W, plane + H * W, Scalar(0));  // an odd last row no window covers
    }
}

}  // namespace

const Matrix& MaxPool2D::forward(const Matrix& x, bool) {
    const int W = input_.width;
    y_.resize(x.rows(), output_.size());
    argmax_.resize(std::size_t(x.rows() * output_.size()));
    std::int32_t* arg = argmax_.data();
    if (size_ == 2 && stride_ == 2) {
        for (Index n = 0; n < x.rows(); ++n)
            maxPool2x2(x.row(n).data(), input_, output_, y_.row(n).data(), arg + n * output_.size());
        return y_;
    }
    for (Index n = 0; n < x.rows(); ++n) {
        const Scalar* sample = x.row(n).data();
        Scalar* out = y_.row(n).data();
        forEachWindow([&](int first) {
            int best = first;
            for (int i = 0; i < size_; ++i)
                for (int j = 0; j < size_; ++j) {
                    const int at = first + i * W + j;
                    if (sample[at] > sample[best]) best = at;
                }
            *out++ = sample[best];
            *arg++ = best;
        });
    }
    return y_;
}

const Matrix* MaxPool2D::backward(const Matrix& gradOut, bool needInputGrad) {
    if (!needInputGrad) return nullptr;
    const std::int32_t* arg = argmax_.data();
    if (size_ == 2 && stride_ == 2) {
        gradInput_.resize(gradOut.rows(), input_.size());
        for (Index n = 0; n < gradOut.rows(); ++n)
            maxPool2x2Backward(gradOut.row(n).data(), arg + n * output_.size(), input_, output_,
                               gradInput_.row(n).data());
        return &gradInput_;
    }
    gradInput_.setZero(gradOut.rows(), input_.size());
    for (Index n = 0; n < gradOut.rows(); ++n) {
        const Scalar* g = gradOut.row(n).data();
        Scalar* gin = gradInput_.row(n).data();
        // Overlapping windows (stride < size) may share a maximum: their gradients add up.
        for (Index k = 0; k < gradOut.cols(); ++k) gin[*arg++] += g[k];
    }
    return &gradInput_;
}

std::int64_t MaxPool2D::bufferBytes() const {
    return Pool2D::bufferBytes() + std::int64_t(argmax_.size() * sizeof(std::int32_t));
}

const Matrix& AvgPool2D::forward(const Matrix& x, bool) {
    const int W = input_.width;
    const Scalar scale = Scalar(1) / Scalar(size_ * size_);
    y_.resize(x.rows(), output_.size());
    for (Index n = 0; n < x.rows(); ++n) {
        const Scalar* sample = x.row(n).data();
        Scalar* out = y_.row(n).data();
        forEachWindow([&](int first) {
            Scalar sum = 0;
            for (int i = 0; i < size_; ++i)
                for (int j = 0; j < size_; ++j) sum += sample[first + i * W + j];
            *out++ = sum * scale;
        });
    }
    return y_;
}

const Matrix* AvgPool2D::backward(const Matrix& gradOut, bool needInputGrad) {
    if (!needInputGrad) return nullptr;
    const int W = input_.width;
    const Scalar scale = Scalar(1) / Scalar(size_ * size_);
    gradInput_.setZero(gradOut.rows(), input_.size());
    for (Index n = 0; n < gradOut.rows(); ++n) {
        const Scalar* g = gradOut.row(n).data();
        Scalar* gin = gradInput_.row(n).data();
        forEachWindow([&](int first) {
            const Scalar share = *g++ * scale;
            for (int i = 0; i < size_; ++i)
                for (int j = 0; j < size_; ++j) gin[first + i * W + j] += share;
        });
    }
    return &gradInput_;
}

}  // namespace skynnet
