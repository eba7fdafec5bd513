#include "layers/global_avg_pool.h"

namespace skynnet {
namespace {

using Planes = Eigen::Map<Matrix>;  // one sample as (C, H*W)
using ConstPlanes = Eigen::Map<const Matrix>;

}  // namespace

void GlobalAvgPool::build(Shape input, Rng&) {
    input_ = input;
    output_ = Shape{input.channels, 1, 1};
}

const Matrix& GlobalAvgPool::forward(const Matrix& x, bool) {
    const Index C = input_.channels, S = Index(input_.height) * input_.width;
    y_.resize(x.rows(), C);
    for (Index n = 0; n < x.rows(); ++n) y_.row(n) = ConstPlanes(x.row(n).data(), C, S).rowwise().mean().transpose();
    return y_;
}

const Matrix* GlobalAvgPool::backward(const Matrix& gradOut, bool needInputGrad) {
    if (!needInputGrad) return nullptr;
    const Index C = input_.channels, S = Index(input_.height) * input_.width;
    gradInput_.resize(gradOut.rows(), input_.size());
    for (Index n = 0; n < gradOut.rows(); ++n)
        Planes(gradInput_.row(n).data(), C, S).colwise() = gradOut.row(n).transpose() / Scalar(S);
    return &gradInput_;
}

}  // namespace skynnet
