#pragma once
// Element-wise activations and softmax. Each keeps its output (and what its derivative needs) for
// backward; the derivative is written in terms of the output where that is exact.
#include "layers/layer.h"

namespace skynnet {

enum class Activation { None, ReLU, LeakyReLU, Sigmoid, Tanh, Softmax, GELU, ReLU6, Softplus, ELU };

std::string activationName(Activation a);
// Parses "relu", "leaky_relu", "sigmoid", "tanh", "softmax", "gelu", "relu6", "softplus", "elu",
// "linear"/"none"; throws Error otherwise.
Activation parseActivation(const std::string& name);
// nullptr for Activation::None.
std::unique_ptr<Layer> makeActivation(Activation a);

class ActivationLayer : public Layer {
public:
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    std::int64_t bufferBytes() const override { return matrixBytes(y_) + matrixBytes(gradInput_); }

protected:
    // dL/dx from dL/dy, into gradInput_.
    virtual void inputGradient(const Matrix& gradOut) = 0;
    Matrix y_, gradInput_;
};

class ReLU final : public ActivationLayer {
public:
    std::string kind() const override { return "relu"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<ReLU>(*this); }
    // The layer below applies this ReLU itself (Conv2D::rectifyOutput): values and gradients pass
    // through unchanged.
    void takeRectifiedInput() { rectifiedInput_ = true; }

protected:
    void inputGradient(const Matrix& gradOut) override;

private:
    bool rectifiedInput_ = false;
};

class LeakyReLU final : public ActivationLayer {
public:
    explicit LeakyReLU(float slope = 0.01f) : slope_(slope) {}
    std::string kind() const override { return "leaky_relu"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<LeakyReLU>(*this); }
    float slope() const { return slope_; }

protected:
    void inputGradient(const Matrix& gradOut) override;

private:
    float slope_;
};

class Sigmoid final : public ActivationLayer {
public:
    std::string kind() const override { return "sigmoid"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<Sigmoid>(*this); }

protected:
    void inputGradient(const Matrix& gradOut) override;
};

class Tanh final : public ActivationLayer {
public:
    std::string kind() const override { return "tanh"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<Tanh>(*this); }

protected:
    void inputGradient(const Matrix& gradOut) override;
};

// The exact GELU, x * Phi(x) with the normal CDF through erf (not the tanh approximation). Its
// derivative needs the input, so it keeps a pointer to it like Dense does.
class GELU final : public ActivationLayer {
public:
    std::string kind() const override { return "gelu"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<GELU>(*this); }

protected:
    void inputGradient(const Matrix& gradOut) override;

private:
    const Matrix* x_ = nullptr;
};

// min(max(x, 0), 6).
class ReLU6 final : public ActivationLayer {
public:
    std::string kind() const override { return "relu6"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<ReLU6>(*this); }

protected:
    void inputGradient(const Matrix& gradOut) override;
};

// log(1 + e^x), computed without overflow; its derivative sigmoid(x) is 1 - e^-y.
class Softplus final : public ActivationLayer {
public:
    std::string kind() const override { return "softplus"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<Softplus>(*this); }

protected:
    void inputGradient(const Matrix& gradOut) override;
};

// ELU with alpha 1: x for x > 0, e^x - 1 otherwise.
class ELU final : public ActivationLayer {
public:
    std::string kind() const override { return "elu"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<ELU>(*this); }

protected:
    void inputGradient(const Matrix& gradOut) override;
};

// Row-wise softmax. With cross-entropy the network skips this backward and uses the fused
// gradient (p - y); the Jacobian product here serves every other use and the gradient checks.
class Softmax final : public ActivationLayer {
public:
    std::string kind() const override { return "softmax"; }
    const Matrix& forward(const Matrix& x, bool training) override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<Softmax>(*this); }

protected:
    void inputGradient(const Matrix& gradOut) override;
};

// Softmax of each row of logits, numerically stable.
void softmaxRows(const Matrix& logits, Matrix& out);

}  // namespace skynnet
