#include "layers/recurrent.h"

#include "core/error.h"
#include "core/gemm.h"

namespace skynnet {

RecurrentLayer::RecurrentLayer(int units, int steps, bool returnSequences, int gates, Init init)
    : units_(units), steps_(steps), gates_(gates), returnSequences_(returnSequences), init_(init) {
    if (units < 1) throw Error("a recurrent layer needs at least 1 unit");
    if (steps < 1) throw Error("a recurrent layer needs at least 1 time step");
}

void RecurrentLayer::build(Shape input, Rng& rng) {
    if (input.size() % steps_ != 0)
        throw Error("a recurrent layer over " + std::to_string(steps_) + " steps cannot split an input of " +
                    std::to_string(input.size()) + " values into equal steps");
    input_ = input;
    features_ = input.size() / steps_;
    output_ = returnSequences_ ? Shape::steps(steps_, units_) : Shape::flat(units_);
    const Index g = gateWidth();
    // Each gate block is a (fan in, units) map of its own: draw with those fans.
    wx_.resize(features_, g);
    drawWeights(wx_, init_, features_, units_, rng);
    wh_.resize(units_, g);
    drawWeights(wh_, init_, units_, units_, rng);
    bx_ = Matrix::Zero(1, g);
    bh_ = Matrix::Zero(1, g);
    gradWx_ = Matrix::Zero(features_, g);
    gradWh_ = Matrix::Zero(units_, g);
    gradBx_ = Matrix::Zero(1, g);
    gradBh_ = Matrix::Zero(1, g);
}

std::vector<Param> RecurrentLayer::params() {
    return {{&wx_, &gradWx_, true}, {&wh_, &gradWh_, true}, {&bx_, &gradBx_, false}, {&bh_, &gradBh_, false}};
}

std::int64_t RecurrentLayer::paramCount() const { return wx_.size() + wh_.size() + bx_.size() + bh_.size(); }

std::int64_t RecurrentLayer::flopsPerSample() const { return 2 * std::int64_t(steps_) * (wx_.size() + wh_.size()); }

void RecurrentLayer::inputProducts(const Matrix& x) {
    if (x.cols() != Index(steps_) * features_)
        throw Error("a recurrent layer expects rows of " + std::to_string(Index(steps_) * features_) + " values, got " +
                    std::to_string(x.cols()));
    x_ = &x;
    const Index rows = x.rows() * steps_, g = gateWidth();
    gx_.resize(rows, g);
    if (rows > 0) gemm(Op::None, Op::None, rows, g, features_, 1, x.data(), features_, wx_.data(), g, 0, gx_.data(), g);
    gx_.rowwise() += bx_.row(0);
    hs_.resize(x.rows(), Index(steps_) * units_);
}

void RecurrentLayer::recurrentProduct(Index t, Matrix& gh) const {
    const Index b = batch(), g = gateWidth(), ldh = hs_.cols();
    gh.resize(b, g);
    gh.rowwise() = bh_.row(0);
    if (t > 0 && b > 0)
        gemm(Op::None, Op::None, b, g, units_, 1, hs_.data() + (t - 1) * units_, ldh, wh_.data(), g, 1, gh.data(), g);
}

void RecurrentLayer::startBackward() {
    gradWh_.setZero();
    gradBh_.setZero();
    dgx_.resize(gx_.rows(), gateWidth());
}

void RecurrentLayer::addOutputGrad(const Matrix& gradOut, Index t, Matrix& dh) const {
    if (returnSequences_) dh += gradOut.middleCols(t * units_, units_);
    else if (t == steps_ - 1) dh += gradOut;
}

void RecurrentLayer::recurrentGradients(Index t, const Scalar* dG, Index ldg, Matrix& dhPrev) {
    const Index b = batch(), g = gateWidth();
    for (Index i = 0; i < b; ++i)
        for (Index j = 0; j < g; ++j) gradBh_(0, j) += dG[i * ldg + j];
    if (t == 0 || b == 0) return;  // h_{-1} is the constant 0: no weight gradient, nothing to pass back
    gemm(Op::Transpose, Op::None, units_, g, b, 1, hs_.data() + (t - 1) * units_, hs_.cols(), dG, ldg, 1,
         gradWh_.data(), g);
    gemm(Op::None, Op::Transpose, b, units_, g, 1, dG, ldg, wh_.data(), g, 1, dhPrev.data(), units_);
}

const Matrix* RecurrentLayer::inputGradients(bool needInputGrad) {
    const Index rows = dgx_.rows(), g = gateWidth();
    if (rows > 0)
        gemm(Op::Transpose, Op::None, features_, g, rows, 1, x_->data(), features_, dgx_.data(), g, 0, gradWx_.data(),
             g);
    else gradWx_.setZero();
    gradBx_ = dgx_.colwise().sum();
    if (!needInputGrad) return nullptr;
    gradInput_.resize(x_->rows(), x_->cols());
    if (rows > 0)
        gemm(Op::None, Op::Transpose, rows, features_, g, 1, dgx_.data(), g, wx_.data(), g, 0, gradInput_.data(),
             features_);
    return &gradInput_;
}

const Matrix& RecurrentLayer::output() {
    if (returnSequences_) return hs_;
    last_ = hs_.rightCols(units_);
    return last_;
}

std::int64_t RecurrentLayer::recurrentBufferBytes() const {
    return matrixBytes(gx_) + matrixBytes(hs_) + matrixBytes(dgx_) + matrixBytes(last_) + matrixBytes(gradInput_) +
           matrixBytes(gradWx_) + matrixBytes(gradWh_) + matrixBytes(gradBx_) + matrixBytes(gradBh_);
}

}  // namespace skynnet
