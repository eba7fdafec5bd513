#pragma once
// Losses compare a network's output (after its output activation) with targets of the same shape:
// one-hot rows for classes, 0/1 for binary outputs, values for regression. Every loss is a mean
// over the batch; cross-entropy sums over classes inside a sample, the others average over outputs.
#include <memory>
#include <string>

#include "core/tensor.h"
#include "layers/activation.h"

namespace skynnet {

enum class LossKind { SoftmaxCrossEntropy, BinaryCrossEntropy, MeanSquaredError, MeanAbsoluteError };

class Loss {
public:
    virtual ~Loss() = default;
    virtual LossKind kind() const = 0;
    virtual double value(const Matrix& output, const Matrix& target) const = 0;
    // dL/d(output).
    virtual void gradient(const Matrix& output, const Matrix& target, Matrix& grad) const = 0;
    // The output activation this loss fuses with, where the combined gradient with respect to the
    // pre-activation is the simple and stable (p - y) / n: Softmax for cross-entropy, Sigmoid for
    // binary cross-entropy.
    virtual Activation fusesWith() const { return Activation::None; }
    virtual void fusedGradient(const Matrix& output, const Matrix& target, Matrix& grad) const;
};

std::unique_ptr<Loss> makeLoss(LossKind kind);
std::string lossName(LossKind kind);
// "cross_entropy", "binary_cross_entropy", "mse", "mae"; throws Error otherwise.
LossKind parseLoss(const std::string& name);

class SoftmaxCrossEntropy final : public Loss {
public:
    LossKind kind() const override { return LossKind::SoftmaxCrossEntropy; }
    double value(const Matrix& output, const Matrix& target) const override;
    void gradient(const Matrix& output, const Matrix& target, Matrix& grad) const override;
    Activation fusesWith() const override { return Activation::Softmax; }
    void fusedGradient(const Matrix& output, const Matrix& target, Matrix& grad) const override;
};

class BinaryCrossEntropy final : public Loss {
public:
    LossKind kind() const override { return LossKind::BinaryCrossEntropy; }
    double value(const Matrix& output, const Matrix& target) const override;
    void gradient(const Matrix& output, const Matrix& target, Matrix& grad) const override;
    Activation fusesWith() const override { return Activation::Sigmoid; }
    void fusedGradient(const Matrix& output, const Matrix& target, Matrix& grad) const override;
};

class MeanSquaredError final : public Loss {
public:
    LossKind kind() const override { return LossKind::MeanSquaredError; }
    double value(const Matrix& output, const Matrix& target) const override;
    void gradient(const Matrix& output, const Matrix& target, Matrix& grad) const override;
};

class MeanAbsoluteError final : public Loss {
public:
    LossKind kind() const override { return LossKind::MeanAbsoluteError; }
    double value(const Matrix& output, const Matrix& target) const override;
    void gradient(const Matrix& output, const Matrix& target, Matrix& grad) const override;
};

}  // namespace skynnet
