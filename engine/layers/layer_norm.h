#pragma once
// Layer normalisation (PyTorch's nn.LayerNorm over the last dimension): each row of D features is
// normalised by its own mean and biased variance, then scaled and shifted per feature:
//   y = gamma * (x - mean) / sqrt(var + epsilon) + beta.
// A row is one step of a sequence (D = the step's features) or, for any other shape, the whole
// sample (D = its size). gamma starts at 1 and beta at 0; neither decays. Statistics are the row's
// own, so training and inference compute the same thing and there is no state.
#include "layers/layer.h"

namespace skynnet {

class LayerNorm final : public Layer {
public:
    explicit LayerNorm(float epsilon = 1e-5f);

    std::string kind() const override { return "layernorm"; }
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    std::vector<Param> params() override { return {{&gamma_, &gradGamma_, false}, {&beta_, &gradBeta_, false}}; }
    std::int64_t paramCount() const override { return gamma_.size() + beta_.size(); }
    // About four multiply-adds per value: the variance, the centring, the scaling, gamma and beta.
    std::int64_t flopsPerSample() const override { return 8 * input_.size(); }
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<LayerNorm>(*this); }

    float epsilon() const { return epsilon_; }
    // The features each normalised row holds (D).
    Index features() const { return features_; }
    // (1, D) each.
    Matrix& gamma() { return gamma_; }
    Matrix& beta() { return beta_; }
    const Matrix& gamma() const { return gamma_; }
    const Matrix& beta() const { return beta_; }

private:
    float epsilon_;
    Index features_ = 0;
    Matrix gamma_, beta_, gradGamma_, gradBeta_;
    Matrix xhat_;    // the normalised rows of the last forward, as x (batch, T * D)
    Matrix invStd_;  // 1 / sqrt(var + epsilon) of each row, (batch, T)
    Matrix y_, gradInput_;
};

}  // namespace skynnet
