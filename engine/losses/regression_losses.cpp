// Mean squared and mean absolute error, averaged over every output of every sample.
#include "losses/loss.h"

namespace skynnet {

double MeanSquaredError::value(const Matrix& out, const Matrix& y) const {
    return (out - y).array().square().cast<double>().sum() / double(out.size());
}

void MeanSquaredError::gradient(const Matrix& out, const Matrix& y, Matrix& grad) const {
    grad.resize(out.rows(), out.cols());
    grad.array() = Scalar(2) * (out.array() - y.array()) / Scalar(out.size());
}

double MeanAbsoluteError::value(const Matrix& out, const Matrix& y) const {
    return (out - y).array().abs().cast<double>().sum() / double(out.size());
}

void MeanAbsoluteError::gradient(const Matrix& out, const Matrix& y, Matrix& grad) const {
    // The subgradient 0 at an exact match.
    grad.resize(out.rows(), out.cols());
    grad.array() = (out.array() - y.array()).sign() / Scalar(out.size());
}

}  // namespace skynnet
