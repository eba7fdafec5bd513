#include "layers/dropout.h"

#include "core/error.h"

namespace skynnet {

Dropout::Dropout(float rate) : rate_(rate) {
    if (!(rate >= 0.0f && rate < 1.0f)) throw Error("dropout rate must be in [0, 1), got " + std::to_string(rate));
}

void Dropout::build(Shape input, Rng& rng) {
    input_ = input;
    output_ = input;
    seed_ = rng.next();
}

const Matrix& Dropout::forward(const Matrix& x, bool training) {
    lastTraining_ = training && rate_ > 0.0f;
    if (!lastTraining_) {
        y_ = x;
        return y_;
    }
    if (!(frozen_ && mask_.rows() == x.rows() && mask_.cols() == x.cols())) {
        mask_.resize(x.rows(), x.cols());
        const Scalar keep = Scalar(1) / (Scalar(1) - rate_);
        const Rng stepStream = Rng(seed_).split(step_);
        for (Index r = 0; r < x.rows(); ++r) {
            Rng row = stepStream.split(std::uint64_t(firstRow_ + r));
            for (Index c = 0; c < x.cols(); ++c) mask_(r, c) = row.uniform() < rate_ ? Scalar(0) : keep;
        }
        ++step_;
        firstRow_ = 0;
    }
    y_.resize(x.rows(), x.cols());
    y_.array() = x.array() * mask_.array();
    return y_;
}

const Matrix* Dropout::backward(const Matrix& gradOut, bool needInputGrad) {
    if (!needInputGrad) return nullptr;
    if (lastTraining_) gradInput_.array() = gradOut.array() * mask_.array();
    else gradInput_ = gradOut;
    return &gradInput_;
}

}  // namespace skynnet
