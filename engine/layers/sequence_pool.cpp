#include "layers/sequence_pool.h"

#include "core/error.h"

namespace skynnet {

void SequencePool::build(Shape input, Rng&) {
    if (!input.sequence) throw Error("seqpool needs a sequence input, got " + input.toString());
    input_ = input;
    steps_ = input.height;
    features_ = input.width;
    output_ = Shape::flat(input.width);
}

const Matrix& SequencePool::forward(const Matrix& x, bool) {
    const Index rows = x.rows(), S = steps_, F = features_;
    if (x.cols() != S * F)
        throw Error("seqpool expects rows of " + std::to_string(S * F) + " values, got " + std::to_string(x.cols()));
    if (mode_ == SequencePoolMode::Last) {
        y_ = x.rightCols(F);
        return y_;
    }
    if (mode_ == SequencePoolMode::Cls) {
        y_ = x.leftCols(F);
        return y_;
    }
    const Matrix* mask = stepMask_;
    if (mask && (mask->rows() != rows || mask->cols() != S))
        throw Error("seqpool: a step mask of " + std::to_string(mask->rows()) + " x " + std::to_string(mask->cols()) +
                    " for a batch of " + std::to_string(rows) + " sequences of " + std::to_string(S) + " steps");
    weights_.resize(rows, S);
    for (Index n = 0; n < rows; ++n) {
        const Scalar real = mask ? mask->row(n).sum() : Scalar(S);
        // All padding: weight 0 everywhere, so the mean is 0 and no gradient flows back.
        const Scalar share = real > 0 ? Scalar(1) / real : Scalar(0);
        for (Index t = 0; t < S; ++t) weights_(n, t) = mask ? (*mask)(n, t) * share : share;
    }
    y_.setZero(rows, F);
    for (Index n = 0; n < rows; ++n)
        for (Index t = 0; t < S; ++t)
            if (weights_(n, t) != 0) y_.row(n) += weights_(n, t) * x.row(n).segment(t * F, F);
    return y_;
}

const Matrix* SequencePool::backward(const Matrix& gradOut, bool needInputGrad) {
    if (!needInputGrad) return nullptr;
    const Index rows = gradOut.rows(), S = steps_, F = features_;
    gradInput_.resize(rows, S * F);
    if (mode_ == SequencePoolMode::Last) {
        gradInput_.leftCols((S - 1) * F).setZero();
        gradInput_.rightCols(F) = gradOut;
        return &gradInput_;
    }
    if (mode_ == SequencePoolMode::Cls) {
        gradInput_.leftCols(F) = gradOut;
        gradInput_.rightCols((S - 1) * F).setZero();
        return &gradInput_;
    }
    for (Index n = 0; n < rows; ++n)
        for (Index t = 0; t < S; ++t) gradInput_.row(n).segment(t * F, F) = weights_(n, t) * gradOut.row(n);
    return &gradInput_;
}

std::int64_t SequencePool::bufferBytes() const {
    return matrixBytes(weights_) + matrixBytes(y_) + matrixBytes(gradInput_);
}

}  // namespace skynnet
