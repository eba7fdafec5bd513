#include "layers/dense.h"

#include "core/gemm.h"

namespace skynnet {

std::int64_t matrixBytes(const Matrix& m) { return std::int64_t(m.size()) * std::int64_t(sizeof(Scalar)); }

void Dense::build(Shape input, Rng& rng) {
    input_ = input;
    output_ = Shape::flat(units_);
    const Index fanIn = input.size();
    weights_.resize(fanIn, units_);
    drawWeights(weights_, init_, fanIn, units_, rng);
    bias_ = Matrix::Zero(1, units_);
    gradWeights_ = Matrix::Zero(fanIn, units_);
    gradBias_ = Matrix::Zero(1, units_);
}

const Matrix& Dense::forward(const Matrix& x, bool) {
    x_ = &x;
    gemm(x, Op::None, weights_, Op::None, y_);
    y_.rowwise() += bias_.row(0);
    return y_;
}

const Matrix* Dense::backward(const Matrix& gradOut, bool needInputGrad) {
    gemm(*x_, Op::Transpose, gradOut, Op::None, gradWeights_);
    gradBias_ = gradOut.colwise().sum();
    if (!needInputGrad) return nullptr;
    gemm(gradOut, Op::None, weights_, Op::Transpose, gradInput_);
    return &gradInput_;
}

std::vector<Param> Dense::params() { return {{&weights_, &gradWeights_, true}, {&bias_, &gradBias_, false}}; }

std::int64_t Dense::bufferBytes() const {
    return matrixBytes(y_) + matrixBytes(gradInput_) + matrixBytes(gradWeights_) + matrixBytes(gradBias_);
}

}  // namespace skynnet
