#include "layers/layer_norm.h"

#include <cmath>

#include "core/error.h"

namespace skynnet {

LayerNorm::LayerNorm(float epsilon) : epsilon_(epsilon) {
    if (!(epsilon > 0.0f)) throw Error("layernorm's epsilon must be positive, got " + std::to_string(epsilon));
}

void LayerNorm::build(Shape input, Rng&) {
    input_ = input;
    output_ = input;
    features_ = input.sequence ? Index(input.width) : input.size();
    if (features_ < 1) throw Error("layernorm needs at least 1 feature, got " + input.toString());
    gamma_ = Matrix::Ones(1, features_);
    beta_ = Matrix::Zero(1, features_);
    gradGamma_ = Matrix::Zero(1, features_);
    gradBeta_ = Matrix::Zero(1, features_);
}

const Matrix& LayerNorm::forward(const Matrix& x, bool) {
    const Index D = features_;
    if (x.cols() != input_.size())
        throw Error("layernorm expects rows of " + std::to_string(input_.size()) + " values, got " +
                    std::to_string(x.cols()));
    const Index rows = x.rows() * (x.cols() / D);  // normalised rows: (batch * steps) of D
    xhat_.resize(x.rows(), x.cols());
    invStd_.resize(x.rows(), x.cols() / D);
    y_.resize(x.rows(), x.cols());
    const Scalar* g = gamma_.data();
    const Scalar* b = beta_.data();
    for (Index r = 0; r < rows; ++r) {
        const Scalar* in = x.data() + r * D;
        Scalar* xh = xhat_.data() + r * D;
        Scalar* out = y_.data() + r * D;
        // Two passes (mean, then the mean square deviation): no cancellation on large offsets.
        Scalar sum = 0;
        for (Index j = 0; j < D; ++j) sum += in[j];
        const Scalar mean = sum / Scalar(D);
        Scalar squares = 0;
        for (Index j = 0; j < D; ++j) {
            const Scalar d = in[j] - mean;
            squares += d * d;
        }
        const Scalar inv = Scalar(1) / std::sqrt(squares / Scalar(D) + epsilon_);
        invStd_.data()[r] = inv;
        for (Index j = 0; j < D; ++j) {
            xh[j] = (in[j] - mean) * inv;
            out[j] = g[j] * xh[j] + b[j];
        }
    }
    return y_;
}

const Matrix* LayerNorm::backward(const Matrix& gradOut, bool needInputGrad) {
    const Index D = features_, rows = xhat_.size() / D;
    if (gradOut.rows() != xhat_.rows() || gradOut.cols() != xhat_.cols())
        throw Error("layernorm's output gradient does not match its last forward");
    // Parameter gradients: sums over every normalised row, in row order (thread-independent).
    gradGamma_.setZero();
    gradBeta_.setZero();
    Scalar* gg = gradGamma_.data();
    Scalar* gb = gradBeta_.data();
    for (Index r = 0; r < rows; ++r) {
        const Scalar* dy = gradOut.data() + r * D;
        const Scalar* xh = xhat_.data() + r * D;
        for (Index j = 0; j < D; ++j) {
            gg[j] += dy[j] * xh[j];
            gb[j] += dy[j];
        }
    }
    if (!needInputGrad) return nullptr;
    // With g = dy * gamma: dx = invStd * (g - mean(g) - xhat * mean(g * xhat)).
    gradInput_.resize(gradOut.rows(), gradOut.cols());
    const Scalar* gamma = gamma_.data();
    for (Index r = 0; r < rows; ++r) {
        const Scalar* dy = gradOut.data() + r * D;
        const Scalar* xh = xhat_.data() + r * D;
        Scalar* dx = gradInput_.data() + r * D;
        Scalar sumG = 0, sumGX = 0;
        for (Index j = 0; j < D; ++j) {
            const Scalar g = dy[j] * gamma[j];
            sumG += g;
            sumGX += g * xh[j];
        }
        const Scalar meanG = sumG / Scalar(D), meanGX = sumGX / Scalar(D), inv = invStd_.data()[r];
        for (Index j = 0; j < D; ++j) dx[j] = inv * (dy[j] * gamma[j] - meanG - xh[j] * meanGX);
    }
    return &gradInput_;
}

std::int64_t LayerNorm::bufferBytes() const {
    return matrixBytes(xhat_) + matrixBytes(invStd_) + matrixBytes(y_) + matrixBytes(gradInput_) +
           matrixBytes(gradGamma_) + matrixBytes(gradBeta_);
}

}  // namespace skynnet
