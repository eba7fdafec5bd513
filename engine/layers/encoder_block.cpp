#include "layers/encoder_block.h"

#include "core/error.h"
#include "core/gemm.h"
#include "layers/init.h"

namespace skynnet {
namespace {

using RowsView = Eigen::Map<Matrix>;
using ConstRowsView = Eigen::Map<const Matrix>;

}  // namespace

EncoderBlock::EncoderBlock(int heads, int mlp, float dropout, Activation activation)
    : mlp_(mlp), dropout_(dropout), activation_(activation), norm1_(1e-5f), norm2_(1e-5f),
      attention_(heads, false, dropout), drop1_(dropout), dropHidden_(dropout), drop2_(dropout),
      act_(makeActivation(activation)) {
    if (mlp < 1) throw Error("an encoder block needs an MLP of at least 1 unit, got " + std::to_string(mlp));
}

void EncoderBlock::build(Shape input, Rng& rng) {
    if (!input.sequence)
        throw Error("an encoder block needs a sequence input (steps x features), got " + input.toString());
    if (input.width % heads() != 0)
        throw Error("encoder: " + std::to_string(heads()) + " heads do not divide the " + std::to_string(input.width) +
                    " features of " + input.toString() + " (each head takes features / heads of them)");
    input_ = input;
    output_ = input;
    const Index D = input.width;
    norm1_.build(input, rng);
    attention_.build(input, rng);
    norm2_.build(input, rng);
    w1_.resize(D, mlp_);
    drawWeights(w1_, Init::Glorot, D, mlp_, rng);
    w2_.resize(mlp_, D);
    drawWeights(w2_, Init::Glorot, mlp_, D, rng);
    b1_ = Matrix::Zero(1, mlp_);
    b2_ = Matrix::Zero(1, D);
    gradW1_ = Matrix::Zero(D, mlp_);
    gradB1_ = Matrix::Zero(1, mlp_);
    gradW2_ = Matrix::Zero(mlp_, D);
    gradB2_ = Matrix::Zero(1, D);
    const Shape hidden = Shape::steps(input.height, mlp_);
    if (act_.layer) act_.layer->build(hidden, rng);
    drop1_.build(input, rng);
    dropHidden_.build(hidden, rng);
    drop2_.build(input, rng);
}

void EncoderBlock::setBatchOrigin(std::uint64_t step, Index firstRow) {
    attention_.setBatchOrigin(step, firstRow);
    drop1_.setBatchOrigin(step, firstRow);
    dropHidden_.setBatchOrigin(step, firstRow);
    drop2_.setBatchOrigin(step, firstRow);
}

std::vector<Param> EncoderBlock::params() {
    std::vector<Param> all = norm1_.params();
    for (const Param& p : attention_.params()) all.push_back(p);
    for (const Param& p : norm2_.params()) all.push_back(p);
    all.push_back({&w1_, &gradW1_, true});
    all.push_back({&b1_, &gradB1_, false});
    all.push_back({&w2_, &gradW2_, true});
    all.push_back({&b2_, &gradB2_, false});
    return all;
}

std::int64_t EncoderBlock::paramCount() const {
    return norm1_.paramCount() + attention_.paramCount() + norm2_.paramCount() + w1_.size() + b1_.size() + w2_.size() +
           b2_.size();
}

std::int64_t EncoderBlock::flopsPerSample() const {
    const std::int64_t T = input_.height, D = input_.width;
    return norm1_.flopsPerSample() + attention_.flopsPerSample() + norm2_.flopsPerSample() + 2 * 2 * T * D * mlp_;
}

const Matrix& EncoderBlock::forward(const Matrix& x, bool training) {
    const Index T = input_.height, D = input_.width, N = x.rows(), rows = N * T;
    if (x.cols() != T * D)
        throw Error("an encoder block expects rows of " + std::to_string(T * D) + " values, got " +
                    std::to_string(x.cols()));
    dropping_ = training && dropout_ > 0.0f;
    // x1 = x + drop1(MHA(LN1(x))).
    const Matrix* attended = &attention_.forward(norm1_.forward(x, training), training);
    if (dropping_) attended = &drop1_.forward(*attended, true);
    x1_ = x + *attended;
    // y = x1 + drop2(drop(act(LN2(x1) W1 + b1)) W2 + b2).
    normed2_ = &norm2_.forward(x1_, training);
    hidden_.resize(N, T * mlp_);
    gemm(Op::None, Op::None, rows, mlp_, D, 1, normed2_->data(), D, w1_.data(), mlp_, 0, hidden_.data(), mlp_);
    RowsView(hidden_.data(), rows, mlp_).rowwise() += b1_.row(0);
    hiddenOut_ = act_.layer ? &act_.layer->forward(hidden_, training) : &hidden_;
    if (dropping_) hiddenOut_ = &dropHidden_.forward(*hiddenOut_, true);
    mlpOut_.resize(N, T * D);
    gemm(Op::None, Op::None, rows, D, mlp_, 1, hiddenOut_->data(), mlp_, w2_.data(), D, 0, mlpOut_.data(), D);
    RowsView(mlpOut_.data(), rows, D).rowwise() += b2_.row(0);
    const Matrix* mlpOut = dropping_ ? &drop2_.forward(mlpOut_, true) : &mlpOut_;
    y_ = x1_ + *mlpOut;
    return y_;
}

const Matrix* EncoderBlock::backward(const Matrix& gradOut, bool needInputGrad) {
    const Index T = input_.height, D = input_.width, N = x1_.rows(), rows = N * T;
    if (gradOut.rows() != N || gradOut.cols() != T * D)
        throw Error("an encoder block's output gradient does not match its last forward");
    // The MLP branch: dy reaches x1 directly and through W2, the activation, W1 and LN2.
    const Matrix* g = dropping_ ? drop2_.backward(gradOut, true) : &gradOut;
    gemm(Op::Transpose, Op::None, mlp_, D, rows, 1, hiddenOut_->data(), mlp_, g->data(), D, 0, gradW2_.data(), D);
    gradB2_ = ConstRowsView(g->data(), rows, D).colwise().sum();
    dHidden_.resize(N, T * mlp_);
    gemm(Op::None, Op::Transpose, rows, mlp_, D, 1, g->data(), D, w2_.data(), D, 0, dHidden_.data(), mlp_);
    const Matrix* h = &dHidden_;
    if (dropping_) h = dropHidden_.backward(*h, true);
    if (act_.layer) h = act_.layer->backward(*h, true);
    gemm(Op::Transpose, Op::None, D, mlp_, rows, 1, normed2_->data(), D, h->data(), mlp_, 0, gradW1_.data(), mlp_);
    gradB1_ = ConstRowsView(h->data(), rows, mlp_).colwise().sum();
    dNormed2_.resize(N, T * D);
    gemm(Op::None, Op::Transpose, rows, D, mlp_, 1, h->data(), mlp_, w1_.data(), mlp_, 0, dNormed2_.data(), D);
    dX1_ = gradOut + *norm2_.backward(dNormed2_, true);
    // The attention branch: dx1 reaches x directly and through drop1, MHA and LN1.
    const Matrix* a = dropping_ ? drop1_.backward(dX1_, true) : &dX1_;
    a = attention_.backward(*a, true);
    const Matrix* throughNorm = norm1_.backward(*a, needInputGrad);
    if (!needInputGrad) return nullptr;
    gradInput_ = dX1_ + *throughNorm;
    return &gradInput_;
}

std::int64_t EncoderBlock::bufferBytes() const {
    std::int64_t bytes = norm1_.bufferBytes() + attention_.bufferBytes() + norm2_.bufferBytes() + drop1_.bufferBytes() +
                         dropHidden_.bufferBytes() + drop2_.bufferBytes();
    if (act_.layer) bytes += act_.layer->bufferBytes();
    for (const Matrix* m : {&gradW1_, &gradB1_, &gradW2_, &gradB2_, &x1_, &hidden_, &mlpOut_, &y_, &dHidden_,
                            &dNormed2_, &dX1_, &gradInput_})
        bytes += matrixBytes(*m);
    return bytes;
}

}  // namespace skynnet
