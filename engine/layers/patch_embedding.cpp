#include "layers/patch_embedding.h"

#include <algorithm>

#include "core/error.h"
#include "core/gemm.h"
#include "layers/init.h"

namespace skynnet {

PatchEmbedding::PatchEmbedding(int patch, int dim, bool classToken)
    : patch_(patch), dim_(dim), classToken_(classToken) {
    if (patch < 1) throw Error("a patch embedding needs a patch of at least 1 pixel, got " + std::to_string(patch));
    if (dim < 1) throw Error("a patch embedding needs a dimension of at least 1, got " + std::to_string(dim));
}

void PatchEmbedding::build(Shape input, Rng& rng) {
    if (input.sequence)
        throw Error("a patch embedding reads an image (channels, height, width), got " + input.toString());
    if (input.height % patch_ != 0 || input.width % patch_ != 0)
        throw Error("a patch of " + std::to_string(patch_) + " x " + std::to_string(patch_) +
                    " pixels does not divide the image of " + std::to_string(input.height) + " x " +
                    std::to_string(input.width) + " pixels " + input.toString() +
                    ": its height and width must be multiples of the patch size");
    input_ = input;
    patchRows_ = input.height / patch_;
    patchCols_ = input.width / patch_;
    output_ = Shape::steps(tokens(), dim_);
    const Index K = Index(input.channels) * patch_ * patch_;
    weights_.resize(K, dim_);
    drawWeights(weights_, Init::Glorot, K, dim_, rng);
    bias_ = Matrix::Zero(1, dim_);
    positions_.resize(tokens(), dim_);
    for (Index i = 0; i < positions_.size(); ++i) positions_.data()[i] = rng.normal(0.0f, 0.02f);
    cls_ = classToken_ ? Matrix::Zero(1, dim_) : Matrix();
    gradWeights_ = Matrix::Zero(K, dim_);
    gradBias_ = Matrix::Zero(1, dim_);
    gradPositions_ = Matrix::Zero(tokens(), dim_);
    gradCls_ = classToken_ ? Matrix::Zero(1, dim_) : Matrix();
}

std::vector<Param> PatchEmbedding::params() {
    std::vector<Param> all{{&weights_, &gradWeights_, true},
                           {&bias_, &gradBias_, false},
                           {&positions_, &gradPositions_, false}};
    if (classToken_) all.push_back({&cls_, &gradCls_, false});
    return all;
}

std::int64_t PatchEmbedding::paramCount() const {
    return weights_.size() + bias_.size() + positions_.size() + cls_.size();
}

const Matrix& PatchEmbedding::forward(const Matrix& x, bool) {
    const Index N = x.rows(), P = patchCount(), p = patch_, C = input_.channels, H = input_.height, W = input_.width,
                K = C * p * p, D = dim_, first = classToken_ ? 1 : 0;
    if (x.cols() != input_.size())
        throw Error("a patch embedding expects rows of " + std::to_string(input_.size()) + " values, got " +
                    std::to_string(x.cols()));
    // Gather: patch (py, px) of sample n is row n P + py (W/p) + px, its values (c, dy, dx).
    patches_.resize(N * P, K);
    for (Index n = 0; n < N; ++n)
        for (Index py = 0; py < patchRows_; ++py)
            for (Index px = 0; px < patchCols_; ++px) {
                Scalar* to = patches_.data() + (n * P + py * patchCols_ + px) * K;
                for (Index c = 0; c < C; ++c)
                    for (Index dy = 0; dy < p; ++dy, to += p)
                        std::copy_n(x.data() + n * x.cols() + (c * H + py * p + dy) * W + px * p, p, to);
            }
    projected_.resize(N * P, D);
    gemm(Op::None, Op::None, N * P, D, K, 1, patches_.data(), K, weights_.data(), D, 0, projected_.data(), D);
    // (patch W + b) + position, token by token; the class token (cls + position 0) in front.
    y_.resize(N, tokens() * D);
    for (Index n = 0; n < N; ++n) {
        Scalar* out = y_.data() + n * y_.cols();
        if (classToken_)
            for (Index d = 0; d < D; ++d) out[d] = cls_.data()[d] + positions_.data()[d];
        for (Index t = 0; t < P; ++t) {
            const Scalar* proj = projected_.data() + (n * P + t) * D;
            const Scalar* pos = positions_.data() + (first + t) * D;
            Scalar* o = out + (first + t) * D;
            for (Index d = 0; d < D; ++d) o[d] = (proj[d] + bias_.data()[d]) + pos[d];
        }
    }
    return y_;
}

const Matrix* PatchEmbedding::backward(const Matrix& gradOut, bool needInputGrad) {
    const Index N = y_.rows(), P = patchCount(), p = patch_, C = input_.channels, H = input_.height, W = input_.width,
                K = C * p * p, D = dim_, first = classToken_ ? 1 : 0;
    if (gradOut.rows() != N || gradOut.cols() != y_.cols())
        throw Error("a patch embedding's output gradient does not match its last forward");
    // Each token's position gets the sum of that token's gradients over the batch, in row order.
    gradPositions_.setZero();
    Scalar* gp = gradPositions_.data();
    for (Index n = 0; n < N; ++n) {
        const Scalar* g = gradOut.data() + n * gradOut.cols();
        for (Index i = 0; i < gradPositions_.size(); ++i) gp[i] += g[i];
    }
    if (classToken_) gradCls_ = gradPositions_.row(0);
    dProjected_.resize(N * P, D);
    for (Index n = 0; n < N; ++n)
        std::copy_n(gradOut.data() + n * gradOut.cols() + first * D, P * D, dProjected_.data() + n * P * D);
    gradBias_ = dProjected_.colwise().sum();
    gemm(Op::Transpose, Op::None, K, D, N * P, 1, patches_.data(), K, dProjected_.data(), D, 0, gradWeights_.data(), D);
    if (!needInputGrad) return nullptr;
    dPatches_.resize(N * P, K);
    gemm(Op::None, Op::Transpose, N * P, K, D, 1, dProjected_.data(), D, weights_.data(), D, 0, dPatches_.data(), K);
    // Scatter back: the patches tile the image, so every pixel gets exactly one value.
    gradInput_.resize(N, input_.size());
    for (Index n = 0; n < N; ++n)
        for (Index py = 0; py < patchRows_; ++py)
            for (Index px = 0; px < patchCols_; ++px) {
                const Scalar* from = dPatches_.data() + (n * P + py * patchCols_ + px) * K;
                for (Index c = 0; c < C; ++c)
                    for (Index dy = 0; dy < p; ++dy, from += p)
                        std::copy_n(from, p,
                                    gradInput_.data() + n * gradInput_.cols() + (c * H + py * p + dy) * W + px * p);
            }
    return &gradInput_;
}

std::int64_t PatchEmbedding::bufferBytes() const {
    return matrixBytes(patches_) + matrixBytes(projected_) + matrixBytes(y_) + matrixBytes(dProjected_) +
           matrixBytes(dPatches_) + matrixBytes(gradInput_) + matrixBytes(gradWeights_) + matrixBytes(gradBias_) +
           matrixBytes(gradPositions_) + matrixBytes(gradCls_);
}

}  // namespace skynnet
