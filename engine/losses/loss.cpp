#include "losses/loss.h"

#include "core/error.h"

namespace skynnet {

void Loss::fusedGradient(const Matrix& output, const Matrix& target, Matrix& grad) const {
    gradient(output, target, grad);
}

std::unique_ptr<Loss> makeLoss(LossKind kind) {
    switch (kind) {
    case LossKind::SoftmaxCrossEntropy: return std::make_unique<SoftmaxCrossEntropy>();
    case LossKind::BinaryCrossEntropy: return std::make_unique<BinaryCrossEntropy>();
    case LossKind::MeanSquaredError: return std::make_unique<MeanSquaredError>();
    case LossKind::MeanAbsoluteError: return std::make_unique<MeanAbsoluteError>();
    }
    return nullptr;
}

std::string lossName(LossKind kind) {
    switch (kind) {
    case LossKind::SoftmaxCrossEntropy: return "cross_entropy";
    case LossKind::BinaryCrossEntropy: return "binary_cross_entropy";
    case LossKind::MeanSquaredError: return "mse";
    case LossKind::MeanAbsoluteError: return "mae";
    }
    return "mse";
}

LossKind parseLoss(const std::string& name) {
    for (auto k : {LossKind::SoftmaxCrossEntropy, LossKind::BinaryCrossEntropy, LossKind::MeanSquaredError,
                   LossKind::MeanAbsoluteError})
        if (lossName(k) == name) return k;
    throw Error("unknown loss '" + name + "' (expected cross_entropy, binary_cross_entropy, mse or mae)");
}

}  // namespace skynnet
