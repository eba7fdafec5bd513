#include "layers/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/gemm.h"
#include "layers/head_products.h"
#include "layers/init.h"

namespace skynnet {
namespace {

using RowsView = Eigen::Map<Matrix>;
using ConstRowsView = Eigen::Map<const Matrix>;

// softmax of scale * s over s[0, seen) in place (Eigen's vectorised exp); s[seen, T) are the
// masked keys: weight 0.
void softmaxPrefix(Scalar* s, Index seen, Index T, Scalar scale) {
    Eigen::Map<Eigen::Array<Scalar, Eigen::Dynamic, 1>> row(s, seen);
    row *= scale;
    row = (row - row.maxCoeff()).exp();
    row *= Scalar(1) / row.sum();
    std::fill(s + seen, s + T, Scalar(0));
}

// The same over the keys j < seen whose step is real (real[j] != 0, at least one of them): the
// padding keys' scores count as -inf, so their weights are exactly 0.
void maskedSoftmaxPrefix(Scalar* s, const Scalar* real, Index seen, Index T, Scalar scale) {
    Eigen::Map<Eigen::Array<Scalar, Eigen::Dynamic, 1>> row(s, seen);
    const Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>> steps(real, seen);
    const auto keep = steps != Scalar(0);
    row *= scale;
    const Scalar top = keep.select(row, -std::numeric_limits<Scalar>::infinity()).maxCoeff();
    row = keep.select((row - top).exp(), Scalar(0));
    row *= Scalar(1) / row.sum();
    std::fill(s + seen, s + T, Scalar(0));
}

// t (dh, T) = the transpose of a head's block: T rows of dh values, row stride ld.
void transposeHead(const Scalar* block, Index ld, Index T, Index dh, Scalar* t) {
    for (Index j = 0; j < T; ++j)
        for (Index d = 0; d < dh; ++d) t[d * T + j] = block[j * ld + d];
}

}  // namespace

MultiHeadAttention::MultiHeadAttention(int heads, bool causal, float dropout)
    : heads_(heads), causal_(causal), dropout_(dropout) {
    if (heads < 1) throw Error("attention needs at least 1 head, got " + std::to_string(heads));
    if (!(dropout >= 0.0f && dropout < 1.0f))
        throw Error("attention dropout must be in [0, 1), got " + std::to_string(dropout));
}

void MultiHeadAttention::build(Shape input, Rng& rng) {
    if (!input.sequence) throw Error("attention needs a sequence input (steps x features), got " + input.toString());
    if (input.width % heads_ != 0)
        throw Error("attention: " + std::to_string(heads_) + " heads do not divide the " + std::to_string(input.width) +
                    " features of " + input.toString() + " (each head takes features / heads of them)");
    input_ = input;
    output_ = input;
    steps_ = input.height;
    dim_ = input.width;
    const Index D = dim_;
    wIn_.resize(D, 3 * D);
    drawWeights(wIn_, Init::Glorot, D, 3 * D, rng);
    wOut_.resize(D, D);
    drawWeights(wOut_, Init::Glorot, D, D, rng);
    bIn_ = Matrix::Zero(1, 3 * D);
    bOut_ = Matrix::Zero(1, D);
    gradWIn_ = Matrix::Zero(D, 3 * D);
    gradBIn_ = Matrix::Zero(1, 3 * D);
    gradWOut_ = Matrix::Zero(D, D);
    gradBOut_ = Matrix::Zero(1, D);
    seed_ = rng.next();
}

std::vector<Param> MultiHeadAttention::params() {
    return {{&wIn_, &gradWIn_, true},
            {&bIn_, &gradBIn_, false},
            {&wOut_, &gradWOut_, true},
            {&bOut_, &gradBOut_, false}};
}

std::int64_t MultiHeadAttention::paramCount() const { return wIn_.size() + bIn_.size() + wOut_.size() + bOut_.size(); }

std::int64_t MultiHeadAttention::flopsPerSample() const {
    const std::int64_t T = steps_, D = dim_;
    return 2 * T * D * 3 * D + 2 * T * D * D + 2 * 2 * std::int64_t(pairsPerHead()) * D;
}

void MultiHeadAttention::drawMask(Index batch) {
    const Index per = probs_.cols();
    mask_.resize(batch, per);
    const Scalar keep = Scalar(1) / (Scalar(1) - dropout_);
    const Rng stepStream = Rng(seed_).split(step_);
    for (Index n = 0; n < batch; ++n) {
        Rng row = stepStream.split(std::uint64_t(firstRow_ + n));
        Scalar* m = mask_.data() + n * per;
        for (Index i = 0; i < per; ++i) m[i] = row.uniform() < dropout_ ? Scalar(0) : keep;
    }
    ++step_;
    firstRow_ = 0;
}

const Matrix& MultiHeadAttention::forward(const Matrix& x, bool training) {
    const Index T = steps_, D = dim_, N = x.rows(), rows = N * T;
    if (x.cols() != T * D)
        throw Error("attention expects rows of " + std::to_string(T * D) + " values, got " + std::to_string(x.cols()));
    const Matrix* mask = stepMask_;
    if (mask && (mask->rows() != N || mask->cols() != T))
        throw Error("attention: a step mask of " + std::to_string(mask->rows()) + " x " + std::to_string(mask->cols()) +
                    " for a batch of " + std::to_string(N) + " sequences of " + std::to_string(T) + " steps");
    x_ = &x;
    qkv_.resize(rows, 3 * D);
    gemm(Op::None, Op::None, rows, 3 * D, D, 1, x.data(), D, wIn_.data(), 3 * D, 0, qkv_.data(), 3 * D);
    qkv_.rowwise() += bIn_.row(0);
    probs_.resize(N, Index(heads_) * T * T);
    dropping_ = training && dropout_ > 0.0f;
    if (dropping_) drawMask(N);
    context_.resize(rows, D);
    scratch_.resize(std::size_t(D / heads_ * T + 3 * T * T));
    for (Index n = 0; n < N; ++n) attendForward(n);
    y_.resize(N, T * D);
    gemm(Op::None, Op::None, rows, D, D, 1, context_.data(), D, wOut_.data(), D, 0, y_.data(), D);
    RowsView(y_.data(), rows, D).rowwise() += bOut_.row(0);
    return y_;
}

void MultiHeadAttention::attendForward(Index n) {
    const Index T = steps_, D = dim_, dh = D / heads_, ld = 3 * D;
    const Scalar scale = Scalar(1) / std::sqrt(Scalar(dh));
    const Scalar* rowsOf = qkv_.data() + n * T * ld;
    Scalar* kt = scratch_.data();
    Scalar* dropped = kt + dh * T;
    // The sample's key mask: none without padding, nor when every step is padding (no key at all).
    const Scalar* real = stepMask_ ? stepMask_->data() + n * T : nullptr;
    Index firstReal = 0, realSteps = T;
    if (real) {
        realSteps = Index(std::count_if(real, real + T, [](Scalar m) { return m != Scalar(0); }));
        firstReal = Index(std::find_if(real, real + T, [](Scalar m) { return m != Scalar(0); }) - real);
        if (realSteps == T || realSteps == 0) real = nullptr;
    }
    for (Index h = 0; h < heads_; ++h) {
        const Scalar* q = rowsOf + h * dh;
        const Scalar* v = rowsOf + 2 * D + h * dh;
        transposeHead(rowsOf + D + h * dh, ld, T, dh, kt);
        Scalar* p = probs_.data() + (n * heads_ + h) * T * T;
        // Scores Q K^T (a causal mask computes the hidden ones too, then gives them weight 0; so
        // does the key mask to the padding keys). A query that sees no real key (before the first
        // real step, when causal) keeps every key it sees.
        headProduct(false, T, T, dh, q, ld, kt, T, p, T);
        for (Index i = 0; i < T; ++i) {
            Scalar* s = p + i * T;
            const Index seen = causal_ ? i + 1 : T;
            if (real && firstReal < seen) maskedSoftmaxPrefix(s, real, seen, T, scale);
            else softmaxPrefix(s, seen, T, scale);
        }
        const Scalar* w = p;
        if (dropping_) {
            const Scalar* m = mask_.data() + (n * heads_ + h) * T * T;
            for (Index i = 0; i < T * T; ++i) dropped[i] = p[i] * m[i];
            w = dropped;
        }
        headProduct(false, T, dh, T, w, T, v, ld, context_.data() + n * T * D + h * dh, D);
    }
}

const Matrix* MultiHeadAttention::backward(const Matrix& gradOut, bool needInputGrad) {
    const Index T = steps_, D = dim_, N = probs_.rows(), rows = N * T;
    if (gradOut.rows() != N || gradOut.cols() != T * D)
        throw Error("attention's output gradient does not match its last forward");
    // Out projection: dWout = C^T dY, dbout = column sums, dC = dY Wout^T.
    gemm(Op::Transpose, Op::None, D, D, rows, 1, context_.data(), D, gradOut.data(), D, 0, gradWOut_.data(), D);
    gradBOut_ = ConstRowsView(gradOut.data(), rows, D).colwise().sum();
    dContext_.resize(rows, D);
    gemm(Op::None, Op::Transpose, rows, D, D, 1, gradOut.data(), D, wOut_.data(), D, 0, dContext_.data(), D);
    dQkv_.resize(rows, 3 * D);  // every head writes its blocks whole
    scratch_.resize(std::size_t(D / heads_ * T + 3 * T * T));
    for (Index n = 0; n < N; ++n) attendBackward(n);
    // In projection: dWin = x^T dQKV, dbin = column sums, dx = dQKV Win^T.
    gemm(Op::Transpose, Op::None, D, 3 * D, rows, 1, x_->data(), D, dQkv_.data(), 3 * D, 0, gradWIn_.data(), 3 * D);
    gradBIn_ = dQkv_.colwise().sum();
    if (!needInputGrad) return nullptr;
    gradInput_.resize(N, T * D);
    gemm(Op::None, Op::Transpose, rows, D, 3 * D, 1, dQkv_.data(), 3 * D, wIn_.data(), 3 * D, 0, gradInput_.data(), D);
    return &gradInput_;
}

void MultiHeadAttention::attendBackward(Index n) {
    const Index T = steps_, D = dim_, dh = D / heads_, ld = 3 * D;
    const Scalar scale = Scalar(1) / std::sqrt(Scalar(dh));
    const Scalar* rowsOf = qkv_.data() + n * T * ld;
    Scalar* dRowsOf = dQkv_.data() + n * T * ld;
    Scalar* vt = scratch_.data();
    Scalar* dropped = vt + dh * T;
    Scalar* dp = dropped + T * T;
    Scalar* ds = dp + T * T;
    for (Index h = 0; h < heads_; ++h) {
        const Scalar* q = rowsOf + h * dh;
        const Scalar* k = rowsOf + D + h * dh;
        const Scalar* dc = dContext_.data() + n * T * D + h * dh;
        transposeHead(rowsOf + 2 * D + h * dh, ld, T, dh, vt);
        const Scalar* p = probs_.data() + (n * heads_ + h) * T * T;
        const Scalar* m = dropping_ ? mask_.data() + (n * heads_ + h) * T * T : nullptr;
        const Scalar* w = p;
        if (m) {
            for (Index i = 0; i < T * T; ++i) dropped[i] = p[i] * m[i];
            w = dropped;
        }
        // C = W V with W the dropped weights: dW = dC V^T, dV = W^T dC.
        headProduct(false, T, T, dh, dc, D, vt, T, dp, T);
        headProduct(true, T, dh, T, w, T, dc, D, dRowsOf + 2 * D + h * dh, ld);
        // Through the dropout and the softmax: dS_ij = P_ij (dP_ij - sum_k P_ik dP_ik), then the scale.
        // A masked key (causal or padding) has P_ij = 0 exactly, hence dS_ij = 0: no gradient
        // reaches its score, as through PyTorch's -inf.
        for (Index i = 0; i < T; ++i) {
            const Index seen = causal_ ? i + 1 : T;
            const Scalar* pi = p + i * T;
            Scalar* gi = dp + i * T;
            Scalar* dsi = ds + i * T;
            if (m)
                for (Index j = 0; j < seen; ++j) gi[j] *= m[i * T + j];
            Scalar dot = 0;
            for (Index j = 0; j < seen; ++j) dot += pi[j] * gi[j];
            for (Index j = 0; j < seen; ++j) dsi[j] = pi[j] * (gi[j] - dot) * scale;
            std::fill(dsi + seen, dsi + T, Scalar(0));
        }
        // S = scale Q K^T: dQ = dS K, dK = dS^T Q (each block written whole).
        headProduct(false, T, dh, T, ds, T, k, ld, dRowsOf + h * dh, ld);
        headProduct(true, T, dh, T, ds, T, q, ld, dRowsOf + D + h * dh, ld);
    }
}

std::int64_t MultiHeadAttention::bufferBytes() const {
    return matrixBytes(qkv_) + matrixBytes(probs_) + matrixBytes(mask_) + matrixBytes(context_) + matrixBytes(y_) +
           matrixBytes(dContext_) + matrixBytes(dQkv_) + matrixBytes(gradInput_) + matrixBytes(gradWIn_) +
           matrixBytes(gradBIn_) + matrixBytes(gradWOut_) + matrixBytes(gradBOut_) +
           std::int64_t(scratch_.capacity() * sizeof(Scalar));
}

void SelfAttention::build(Shape input, Rng& rng) {
    core_.build(input, rng);
    input_ = input;
    output_ = input;
}

const Matrix& SelfAttention::forward(const Matrix& x, bool training) {
    const Matrix& a = core_.forward(x, training);
    y_.resize(x.rows(), x.cols());
    y_ = x + a;
    return y_;
}

const Matrix* SelfAttention::backward(const Matrix& gradOut, bool needInputGrad) {
    // The residual passes the gradient straight through; the core adds its own.
    const Matrix* core = core_.backward(gradOut, needInputGrad);
    if (!needInputGrad) return nullptr;
    gradInput_.resize(gradOut.rows(), gradOut.cols());
    gradInput_ = gradOut + *core;
    return &gradInput_;
}

std::int64_t SelfAttention::bufferBytes() const {
    return core_.bufferBytes() + matrixBytes(y_) + matrixBytes(gradInput_);
}

}  // namespace skynnet
