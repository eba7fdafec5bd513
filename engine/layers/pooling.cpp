#include "layers/pooling.h"

#include <immintrin.h>

#include <algorithm>

#include "core/error.h"

namespace skynnet {

Pool2D::Pool2D(int size, int stride) : size_(size), stride_(stride == 0 ? size : stride) {
    if (size < 1 || stride < 0) throw Error("pooling needs a size of at least 1 and a stride of at least 1");
}

void Pool2D::build(Shape input, Rng&) {
    if (size_ > input.height || size_ > input.width)
        throw Error(kind() + ": window " + std::to_string(size_) + "x" + std::to_string(size_) +
                    " is larger than its " + std::to_string(input.height) + "x" + std::to_string(input.width) +
                    " input");
    input_ = input;
    output_ = Shape{input.channels, (input.height - size_) / stride_ + 1, (input.width - size_) / stride_ + 1};
}

namespace {

// The 2x2 window of stride 2, nearly every CNN's pooling, without the general loop's bookkeeping:
// the general one cost a tenth of a training step of the CNN. Same order of comparison,
// so the same maximum (the first of equal values) as the general loop. Without branches: which
// value of a window wins is a coin toss, and the mispredicted branches made this loop a sixth of
// the CNN's training step.
void maxPool2x2Row(const Scalar* __restrict r0, int top, int W, int OW, Scalar* __restrict y,
                   std::int32_t* __restrict arg) {
    const Scalar* r1 = r0 + W;
    int ow = 0;
#if defined(__AVX512F__)
    // 16 windows at a time: their 32 values of each row split into left and right columns.
    const __m512i left = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i right = _mm512_add_epi32(left, _mm512_set1_epi32(1));
    for (; ow < OW; ow += 16) {
        const int m = std::min(16, OW - ow), j = 2 * ow;
        const __mmask16 lanes = __mmask16((1u << m) - 1);
        // The values 2 m of each row covers: the first 16 and the rest.
        const __mmask16 low = __mmask16((1u << std::min(16, 2 * m)) - 1);
        const __mmask16 high = __mmask16((1u << std::max(0, 2 * m - 16)) - 1);
        const __m512 a0 = _mm512_maskz_loadu_ps(low, r0 + j), a1 = _mm512_maskz_loadu_ps(high, r0 + j + 16);
        const __m512 b0 = _mm512_maskz_loadu_ps(low, r1 + j), b1 = _mm512_maskz_loadu_ps(high, r1 + j + 16);
        const __m512 v[4] = {_mm512_permutex2var_ps(a0, left, a1), _mm512_permutex2var_ps(a0, right, a1),
                             _mm512_permutex2var_ps(b0, left, b1), _mm512_permutex2var_ps(b0, right, b1)};
        const __m512i first =
            _mm512_add_epi32(_mm512_set1_epi32(top + j),
                             _mm512_slli_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                               1));
        const int offset[4] = {0, 1, W, W + 1};
        __m512 best = v[0];
        __m512i at = first;
        for (int k = 1; k < 4; ++k) {
            const __mmask16 better = _mm512_cmp_ps_mask(v[k], best, _CMP_GT_OQ);
            best = _mm512_mask_mov_ps(best, better, v[k]);
            at = _mm512_mask_mov_epi32(at, better, _mm512_add_epi32(first, _mm512_set1_epi32(offset[k])));
        }
        _mm512_mask_storeu_ps(y + ow, lanes, best);
        _mm512_mask_storeu_epi32(arg + ow, lanes, at);
    }
#endif
    for (; ow < OW; ++ow) {
        const int j = 2 * ow;
        Scalar best = r0[j];
        int at = top + j;
        const Scalar v[3] = {r0[j + 1], r1[j], r1[j + 1]};
        const int where[3] = {top + j + 1, top + W + j, top + W + j + 1};
        for (int k = 0; k < 3; ++k) {
            const bool better = v[k] > best;
            best = better ? v[k] : best;
            at = better ? where[k] : at;
        }
        y[ow] = best;
        arg[ow] = at;
    }
}

}  // namespace

void maxPool2x2(const Scalar* __restrict sample, Shape in, Shape out, Scalar* __restrict y,
                std::int32_t* __restrict arg) {
    const int H = in.height, W = in.width, OH = out.height, OW = out.width;
    for (int c = 0; c < in.channels; ++c)
        for (int oh = 0; oh < OH; ++oh) {
            const int top = (c * H + 2 * oh) * W;
            maxPool2x2Row(sample + top, top, W, OW, y, arg);
            y += OW;
            arg += OW;
        }
}

namespace {

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
    if (pooledInput_) return x;
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
    if (pooledInput_) return &gradOut;
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
