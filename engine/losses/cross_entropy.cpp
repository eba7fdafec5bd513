// Softmax cross-entropy and binary cross-entropy. Probabilities are clamped away from 0 and 1 in
// the value so a confident wrong answer gives a large finite loss rather than infinity.
#include "losses/loss.h"

namespace skynnet {
namespace {
constexpr Scalar kEps = 1e-7f;
}

double SoftmaxCrossEntropy::value(const Matrix& p, const Matrix& y) const {
    const double total = -(y.array() * p.array().max(kEps).log()).cast<double>().sum();
    return total / double(p.rows());
}

void SoftmaxCrossEntropy::gradient(const Matrix& p, const Matrix& y, Matrix& grad) const {
    grad.resize(p.rows(), p.cols());
    grad.array() = -y.array() / p.array().max(kEps) / Scalar(p.rows());
}

void SoftmaxCrossEntropy::fusedGradient(const Matrix& p, const Matrix& y, Matrix& grad) const {
    grad.resize(p.rows(), p.cols());
    grad.array() = (p.array() - y.array()) / Scalar(p.rows());
}

double BinaryCrossEntropy::value(const Matrix& p, const Matrix& y) const {
    const auto q = p.array().max(kEps).min(Scalar(1) - kEps);
    const double total = -(y.array() * q.log() + (Scalar(1) - y.array()) * (Scalar(1) - q).log()).cast<double>().sum();
    return total / double(p.size());
}

void BinaryCrossEntropy::gradient(const Matrix& p, const Matrix& y, Matrix& grad) const {
    grad.resize(p.rows(), p.cols());
    const auto q = p.array().max(kEps).min(Scalar(1) - kEps);
    grad.array() = (q - y.array()) / (q * (Scalar(1) - q)) / Scalar(p.size());
}

void BinaryCrossEntropy::fusedGradient(const Matrix& p, const Matrix& y, Matrix& grad) const {
    grad.resize(p.rows(), p.cols());
    grad.array() = (p.array() - y.array()) / Scalar(p.size());
}

}  // namespace skynnet
