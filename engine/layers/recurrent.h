#pragma once
// What the recurrent layers (GRU, LSTM) share: the sequence layout, the four parameter tensors and
// the products that do not depend on the cell's equations.
//
// Layout: a sample row holds `steps` time steps of `features` values each, step-major (step 0's
// features first). Viewed with `features` columns, the same row-major memory is a (batch * steps,
// features) matrix whose row b * steps + t is sample b's step t, so the input part of every gate
// of every step is one GEMM. The recurrent part is one GEMM per step over the whole batch.
// Output: every step's h (steps * units per row, step-major) or the last step's (units per row).
//
// Parameters, as in Dense (y = x W): input weights (features, gates * units), recurrent weights
// (units, gates * units), and two biases (1, gates * units) like PyTorch's b_ih and b_hh, so that
// weights from PyTorch or ONNX map one to one. Gate blocks sit in columns in the cell's gate order.
#include "layers/init.h"
#include "layers/layer.h"

namespace skynnet {

class RecurrentLayer : public Layer {
public:
    void build(Shape input, Rng& rng) override;
    std::vector<Param> params() override;
    std::int64_t paramCount() const override;
    std::int64_t flopsPerSample() const override;

    int units() const { return units_; }
    int steps() const { return steps_; }
    Index features() const { return features_; }
    bool returnSequences() const { return returnSequences_; }
    Matrix& inputWeights() { return wx_; }
    Matrix& recurrentWeights() { return wh_; }
    Matrix& inputBias() { return bx_; }
    Matrix& recurrentBias() { return bh_; }

protected:
    RecurrentLayer(int units, int steps, bool returnSequences, int gates, Init init);

    Index gateWidth() const { return Index(gates_) * units_; }
    // gx_ = x Wx + bx for every sample and step (row b * steps + t), in one GEMM.
    void inputProducts(const Matrix& x);
    // gh = h_{t-1} Wh + bh over the batch (h_{-1} = 0, so step 0's is the bias alone).
    void recurrentProduct(Index t, Matrix& gh) const;
    // Zeroes the gradients the time loop accumulates and sizes dgx_.
    void startBackward();
    // Adds the gradient of step t's h that comes from the layer's output into dh (batch, units).
    void addOutputGrad(const Matrix& gradOut, Index t, Matrix& dh) const;
    // From dG, the gradient of step t's recurrent pre-activations (batch rows, stride ldg):
    // dWh += h_{t-1}^T dG, dbh += column sums of dG, dhPrev += dG Wh^T.
    void recurrentGradients(Index t, const Scalar* dG, Index ldg, Matrix& dhPrev);
    // After the time loop, from dgx_ (the gradient of gx_): dWx, dbx and dL/dx (one GEMM each).
    const Matrix* inputGradients(bool needInputGrad);
    // The caller's view of hs_: hs_ itself or its last step.
    const Matrix& output();
    Index batch() const { return hs_.rows(); }

    int units_, steps_, gates_;
    bool returnSequences_;
    Init init_;
    Index features_ = 0;
    Matrix wx_, wh_, bx_, bh_, gradWx_, gradWh_, gradBx_, gradBh_;
    const Matrix* x_ = nullptr;
    Matrix gx_;   // (batch * steps, gates * units)
    Matrix hs_;   // (batch, steps * units): h of every step
    Matrix dgx_;  // gradient of gx_
    Matrix last_, gradInput_;

    std::int64_t recurrentBufferBytes() const;
};

}  // namespace skynnet
