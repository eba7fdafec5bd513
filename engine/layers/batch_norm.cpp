#include "layers/batch_norm.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace skynnet {
namespace {

using Planes = Eigen::Map<Matrix>;  // one sample as (channels, positions)
using ConstPlanes = Eigen::Map<const Matrix>;
}  // namespace

BatchNorm::BatchNorm(float momentum, float epsilon) : momentum_(momentum), epsilon_(epsilon) {
    if (!(momentum > 0.0f && momentum <= 1.0f))
        throw Error("bn momentum must be in (0, 1], got " + std::to_string(momentum));
    if (!(epsilon > 0.0f)) throw Error("bn epsilon must be positive, got " + std::to_string(epsilon));
}

void BatchNorm::build(Shape input, Rng&) {
    input_ = input;
    output_ = input;
    // A sequence normalises per feature over every step of every sample: the flat algorithm on
    // the (batch * steps, features) view of the same memory.
    const bool flat = input.sequence || (input.channels == 1 && input.height == 1);
    channels_ = flat ? input.width : input.channels;
    positions_ = flat ? 1 : Index(input.height) * input.width;
    unitsPerSample_ = input.sequence ? input.height : 1;
    gamma_ = Matrix::Ones(1, channels_);
    beta_ = Matrix::Zero(1, channels_);
    gradGamma_ = Matrix::Zero(1, channels_);
    gradBeta_ = Matrix::Zero(1, channels_);
    runningMean_ = Matrix::Zero(1, channels_);
    runningVar_ = Matrix::Ones(1, channels_);
}

const Matrix& BatchNorm::forward(const Matrix& x, bool training) {
    // Unit n (a sample, or a sequence's step), (C, S) row-major, starts at data() + n * C * S.
    const Index units = x.rows() * unitsPerSample_, C = channels_, S = positions_;
    lastTraining_ = training;
    RowVector& mean = mean_;
    if (training) {
        // Two passes in double: the variance of values far from zero keeps its digits.
        if (defer_ && deferredUsed_ == deferred_.size()) deferred_.emplace_back();
        BatchFigures& batch = defer_ ? deferred_[deferredUsed_++] : current_;
        batch.firstRow = firstRow_;
        batch.count = double(units) * double(S);
        batch.mean.setZero(C);
        batch.squares.setZero(C);
        for (Index n = 0; n < units; ++n)
            batch.mean += ConstPlanes(x.data() + n * C * S, C, S).cast<double>().rowwise().sum();
        batch.mean /= batch.count;
        for (Index n = 0; n < units; ++n)
            batch.squares += (ConstPlanes(x.data() + n * C * S, C, S).cast<double>().colwise() - batch.mean)
                                 .array()
                                 .square()
                                 .matrix()
                                 .rowwise()
                                 .sum();
        mean = batch.mean.cast<Scalar>().transpose();
        invStd_ = (batch.squares.array() / batch.count + double(epsilon_)).rsqrt().cast<Scalar>().transpose();
        if (!defer_) fold(batch);
        firstRow_ = 0;
    } else {
        mean = runningMean_.row(0);
        invStd_ = (runningVar_.row(0).array() + epsilon_).rsqrt();
    }
    xhat_.resize(x.rows(), x.cols());
    y_.resize(x.rows(), x.cols());
    for (Index n = 0; n < units; ++n) {
        Planes xh(xhat_.data() + n * C * S, C, S);
        xh = ((ConstPlanes(x.data() + n * C * S, C, S).colwise() - mean.transpose()).array().colwise() *
              invStd_.transpose().array())
                 .matrix();
        Planes(y_.data() + n * C * S, C, S) = ((xh.array().colwise() * gamma_.row(0).transpose().array()).colwise() +
                                               beta_.row(0).transpose().array())
                                                  .matrix();
    }
    return y_;
}

const Matrix* BatchNorm::backward(const Matrix& gradOut, bool needInputGrad) {
    const Index units = gradOut.rows() * unitsPerSample_, C = channels_, S = positions_;
    Sums sumG = Sums::Zero(C), sumGX = Sums::Zero(C);
    for (Index n = 0; n < units; ++n) {
        const ConstPlanes g(gradOut.data() + n * C * S, C, S), xh(xhat_.data() + n * C * S, C, S);
        sumG += g.cast<double>().rowwise().sum();
        sumGX += (g.array() * xh.array()).matrix().cast<double>().rowwise().sum();
    }
    gradGamma_.row(0) = sumGX.cast<Scalar>().transpose();
    gradBeta_.row(0) = sumG.cast<Scalar>().transpose();
    if (!needInputGrad) return nullptr;
    gradInput_.resize(gradOut.rows(), gradOut.cols());
    const Eigen::Array<Scalar, Eigen::Dynamic, 1> scale = (gamma_.row(0).array() * invStd_.array()).transpose();
    if (!lastTraining_) {
        // The statistics are constants: y is affine in x.
        for (Index n = 0; n < units; ++n)
            Planes(gradInput_.data() + n * C * S, C,
                   S) = (ConstPlanes(gradOut.data() + n * C * S, C, S).array().colwise() * scale).matrix();
        return &gradInput_;
    }
    // dx = gamma / sigma * (g - mean(g) - xhat * mean(g * xhat)), the means over the channel's values.
    const double count = double(units) * double(S);
    const Eigen::Array<Scalar, Eigen::Dynamic, 1> meanG = (sumG / count).cast<Scalar>().array();
    const Eigen::Array<Scalar, Eigen::Dynamic, 1> meanGX = (sumGX / count).cast<Scalar>().array();
    for (Index n = 0; n < units; ++n) {
        const ConstPlanes g(gradOut.data() + n * C * S, C, S), xh(xhat_.data() + n * C * S, C, S);
        Planes(gradInput_.data() + n * C * S, C,
               S) = (((g.array().colwise() - meanG) - xh.array().colwise() * meanGX).colwise() * scale).matrix();
    }
    return &gradInput_;
}

void BatchNorm::fold(const BatchFigures& batch) {
    // One value per channel says nothing about its spread: the running values stay as they are.
    if (batch.count < 2) return;
    const double m = momentum_;
    runningMean_.row(0) = ((1 - m) * runningMean_.row(0).cast<double>() + m * batch.mean.transpose()).cast<Scalar>();
    const Sums unbiased = batch.squares / (batch.count - 1);
    runningVar_.row(0) = ((1 - m) * runningVar_.row(0).cast<double>() + m * unbiased.transpose()).cast<Scalar>();
}

void BatchNorm::foldDeferredState(const std::vector<Layer*>& replicas) {
    std::vector<BatchFigures*> slices;
    std::vector<BatchNorm*> layers{this};
    for (Layer* r : replicas) layers.push_back(&dynamic_cast<BatchNorm&>(*r));
    for (BatchNorm* l : layers) {
        for (std::size_t i = 0; i < l->deferredUsed_; ++i) slices.push_back(&l->deferred_[i]);
        l->deferredUsed_ = 0;
    }
    if (slices.empty()) return;
    std::sort(slices.begin(), slices.end(),
              [](const BatchFigures* a, const BatchFigures* b) { return a->firstRow < b->firstRow; });
    // Chan et al.'s pairwise merge of counts, means and squared deviations, in row order.
    BatchFigures& all = current_;
    all = *slices.front();
    for (std::size_t i = 1; i < slices.size(); ++i) {
        const BatchFigures& b = *slices[i];
        const double count = all.count + b.count;
        const Sums delta = b.mean - all.mean;
        all.squares += b.squares + delta.cwiseProduct(delta) * (all.count * b.count / count);
        all.mean += delta * (b.count / count);
        all.count = count;
    }
    fold(all);
}

std::vector<Param> BatchNorm::params() {
    // Neither gamma nor beta decays: shrinking gamma towards 0 would fight the normalisation.
    return {{&gamma_, &gradGamma_, false}, {&beta_, &gradBeta_, false}};
}

std::int64_t BatchNorm::bufferBytes() const {
    return matrixBytes(xhat_) + matrixBytes(y_) + matrixBytes(gradInput_) + matrixBytes(gradGamma_) +
           matrixBytes(gradBeta_);
}

}  // namespace skynnet
