#include "layers/activation.h"

#include <unsupported/Eigen/SpecialFunctions>

#include <cmath>

#include "core/error.h"

namespace skynnet {

std::string activationName(Activation a) {
    switch (a) {
    case Activation::None: return "linear";
    case Activation::ReLU: return "relu";
    case Activation::LeakyReLU: return "leaky_relu";
    case Activation::Sigmoid: return "sigmoid";
    case Activation::Tanh: return "tanh";
    case Activation::Softmax: return "softmax";
    case Activation::GELU: return "gelu";
    case Activation::ReLU6: return "relu6";
    case Activation::Softplus: return "softplus";
    case Activation::ELU: return "elu";
    }
    return "linear";
}

Activation parseActivation(const std::string& name) {
    if (name == "relu") return Activation::ReLU;
    if (name == "leaky_relu" || name == "leakyrelu") return Activation::LeakyReLU;
    if (name == "sigmoid") return Activation::Sigmoid;
    if (name == "tanh") return Activation::Tanh;
    if (name == "softmax") return Activation::Softmax;
    if (name == "gelu") return Activation::GELU;
    if (name == "relu6") return Activation::ReLU6;
    if (name == "softplus") return Activation::Softplus;
    if (name == "elu") return Activation::ELU;
    if (name == "linear" || name == "none" || name.empty()) return Activation::None;
    throw Error("unknown activation '" + name +
                "' (expected relu, leaky_relu, sigmoid, tanh, softmax, gelu, relu6, softplus, elu or linear)");
}

std::unique_ptr<Layer> makeActivation(Activation a) {
    switch (a) {
    case Activation::None: return nullptr;
    case Activation::ReLU: return std::make_unique<ReLU>();
    case Activation::LeakyReLU: return std::make_unique<LeakyReLU>();
    case Activation::Sigmoid: return std::make_unique<Sigmoid>();
    case Activation::Tanh: return std::make_unique<Tanh>();
    case Activation::Softmax: return std::make_unique<Softmax>();
    case Activation::GELU: return std::make_unique<GELU>();
    case Activation::ReLU6: return std::make_unique<ReLU6>();
    case Activation::Softplus: return std::make_unique<Softplus>();
    case Activation::ELU: return std::make_unique<ELU>();
    }
    return nullptr;
}

const Matrix* ActivationLayer::backward(const Matrix& gradOut, bool needInputGrad) {
    if (!needInputGrad) return nullptr;
    gradInput_.resize(gradOut.rows(), gradOut.cols());
    inputGradient(gradOut);
    return &gradInput_;
}

const Matrix& ReLU::forward(const Matrix& x, bool) {
    if (rectifiedInput_) return x;
    y_.resize(x.rows(), x.cols());
    y_.array() = x.array().max(Scalar(0));
    return y_;
}

const Matrix* ReLU::backward(const Matrix& gradOut, bool needInputGrad) {
    if (rectifiedInput_) return needInputGrad ? &gradOut : nullptr;
    return ActivationLayer::backward(gradOut, needInputGrad);
}

void ReLU::inputGradient(const Matrix& g) {
    gradInput_.array() = (y_.array() > Scalar(0)).select(g.array(), Scalar(0));
}

const Matrix& LeakyReLU::forward(const Matrix& x, bool) {
    y_.resize(x.rows(), x.cols());
    y_.array() = (x.array() > Scalar(0)).select(x.array(), x.array() * slope_);
    return y_;
}

void LeakyReLU::inputGradient(const Matrix& g) {
    // The output has the sign of the input for any positive slope.
    gradInput_.array() = (y_.array() > Scalar(0)).select(g.array(), g.array() * slope_);
}

const Matrix& Sigmoid::forward(const Matrix& x, bool) {
    y_.resize(x.rows(), x.cols());
    y_.array() = Scalar(1) / (Scalar(1) + (-x.array()).exp());
    return y_;
}

void Sigmoid::inputGradient(const Matrix& g) { gradInput_.array() = g.array() * y_.array() * (Scalar(1) - y_.array()); }

const Matrix& Tanh::forward(const Matrix& x, bool) {
    y_.resize(x.rows(), x.cols());
    y_.array() = x.array().tanh();
    return y_;
}

void Tanh::inputGradient(const Matrix& g) { gradInput_.array() = g.array() * (Scalar(1) - y_.array().square()); }

namespace {

// The normal CDF through Eigen's vectorised erf (its SpecialFunctions module): the C library's
// scalar erf made GELU about 30% of a transformer block's time. The two differ by under 1e-6.
template <class A>
auto normalCdf(const A& x) {
    return Scalar(0.5) * (Scalar(1) + (x * Scalar(M_SQRT1_2)).erf());
}

}  // namespace

const Matrix& GELU::forward(const Matrix& x, bool) {
    x_ = &x;
    y_.resize(x.rows(), x.cols());
    y_.array() = x.array() * normalCdf(x.array());
    return y_;
}

void GELU::inputGradient(const Matrix& g) {
    // d/dx x Phi(x) = Phi(x) + x phi(x).
    const Scalar invSqrt2Pi = Scalar(0.5 * M_2_SQRTPI * M_SQRT1_2);
    const auto x = x_->array();
    gradInput_.array() = g.array() * (normalCdf(x) + x * invSqrt2Pi * (Scalar(-0.5) * x * x).exp());
}

const Matrix& ReLU6::forward(const Matrix& x, bool) {
    y_.resize(x.rows(), x.cols());
    y_.array() = x.array().max(Scalar(0)).min(Scalar(6));
    return y_;
}

void ReLU6::inputGradient(const Matrix& g) {
    gradInput_.array() = (y_.array() > Scalar(0) && y_.array() < Scalar(6)).select(g.array(), Scalar(0));
}

const Matrix& Softplus::forward(const Matrix& x, bool) {
    // max(x, 0) + log(1 + e^-|x|): e^x never overflows.
    y_.resize(x.rows(), x.cols());
    y_.array() = x.array().max(Scalar(0)) + (-x.array().abs()).exp().log1p();
    return y_;
}

void Softplus::inputGradient(const Matrix& g) {
    // sigmoid(x) = 1 - e^-y; expm1 keeps it accurate where y is tiny (very negative x).
    gradInput_.array() = g.array() * -(-y_.array()).expm1();
}

const Matrix& ELU::forward(const Matrix& x, bool) {
    y_.resize(x.rows(), x.cols());
    y_.array() = (x.array() > Scalar(0)).select(x.array(), x.array().expm1());
    return y_;
}

void ELU::inputGradient(const Matrix& g) {
    // The output is positive exactly where the input is; below, dy/dx = e^x = y + 1.
    gradInput_.array() = (y_.array() > Scalar(0)).select(g.array(), g.array() * (y_.array() + Scalar(1)));
}

void softmaxRows(const Matrix& logits, Matrix& out) {
    out.resize(logits.rows(), logits.cols());
    for (Index r = 0; r < logits.rows(); ++r) {
        const Scalar m = logits.row(r).maxCoeff();
        out.row(r).array() = (logits.row(r).array() - m).exp();
        out.row(r) /= out.row(r).sum();
    }
}

const Matrix& Softmax::forward(const Matrix& x, bool) {
    softmaxRows(x, y_);
    return y_;
}

void Softmax::inputGradient(const Matrix& g) {
    // dx = p * (g - <g, p>) row by row.
    const Eigen::Matrix<Scalar, Eigen::Dynamic, 1> dots = (g.array() * y_.array()).rowwise().sum();
    gradInput_.array() = y_.array() * (g.array().colwise() - dots.array());
}

}  // namespace skynnet
