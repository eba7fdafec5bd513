#pragma once
// A pre-norm transformer encoder block over a sequence Shape::steps(T, D), as PyTorch's
// nn.TransformerEncoderLayer(D, heads, mlp, dropout, activation, norm_first=True,
// batch_first=True) computes it:
//   x1 = x + drop1(MHA(LN1(x)))                              MHA: layers/attention.h, its
//                                                            weights' dropout = `dropout` too
//   y  = x1 + drop2(drop(act(LN2(x1) W1 + b1)) W2 + b2)      W1 (D, mlp), W2 (mlp, D)
// Both LayerNorms have epsilon 1e-5; every dropout has the block's rate (training only), each its
// own stream tied to setBatchOrigin. The residuals are inside, so the output is the input's shape
// and a network spec stays a list of layers. Init: the LayerNorms' 1 and 0, MHA's (see there),
// W1 and W2 Glorot uniform (PyTorch draws its Linear default), b1 and b2 zero. The build draws,
// in order: Win, Wout, MHA's dropout seed, W1, W2, then the three other dropouts' seeds.
// The MLP's products are one GEMM each over all (batch * T) rows; nothing depends on the threads.
// Padding: the step mask (Layer::setStepMask) goes to MHA, which gives the padding keys no weight
// (see layers/attention.h); the output has the input's steps, hence its mask.
#include <memory>

#include "layers/activation.h"
#include "layers/attention.h"
#include "layers/dropout.h"
#include "layers/layer_norm.h"

namespace skynnet {

class EncoderBlock final : public Layer {
public:
    EncoderBlock(int heads, int mlp, float dropout, Activation activation = Activation::GELU);

    std::string kind() const override { return "encoder"; }
    // The input must be a sequence whose features (D) the heads divide.
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    void setBatchOrigin(std::uint64_t step, Index firstRow) override;
    void setStepMask(const Matrix* mask) override {
        stepMask_ = mask;
        attention_.setStepMask(mask);
    }
    // In order: LN1 gamma (1, D), LN1 beta (1, D), Win (D, 3D), bin (1, 3D), Wout (D, D),
    // bout (1, D), LN2 gamma (1, D), LN2 beta (1, D), W1 (D, mlp), b1 (1, mlp), W2 (mlp, D),
    // b2 (1, D). Weights decay; biases and the LayerNorms' gamma and beta do not.
    std::vector<Param> params() override;
    std::int64_t paramCount() const override;
    // Both LayerNorms, MHA and the MLP's two products (2 T D mlp each); adds are not counted.
    std::int64_t flopsPerSample() const override;
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<EncoderBlock>(*this); }

    int heads() const { return attention_.heads(); }
    int mlp() const { return mlp_; }
    float dropout() const { return dropout_; }
    Activation activation() const { return activation_; }
    LayerNorm& norm1() { return norm1_; }
    MultiHeadAttention& attention() { return attention_; }
    LayerNorm& norm2() { return norm2_; }
    const LayerNorm& norm1() const { return norm1_; }
    const MultiHeadAttention& attention() const { return attention_; }
    const LayerNorm& norm2() const { return norm2_; }
    Matrix& linear1Weights() { return w1_; }
    Matrix& linear1Bias() { return b1_; }
    Matrix& linear2Weights() { return w2_; }
    Matrix& linear2Bias() { return b2_; }
    const Matrix& linear1Weights() const { return w1_; }
    const Matrix& linear1Bias() const { return b1_; }
    const Matrix& linear2Weights() const { return w2_; }
    const Matrix& linear2Bias() const { return b2_; }

private:
    // A layer owned by pointer that a copy of the block clones (replicas must not share it).
    struct OwnedLayer {
        std::unique_ptr<Layer> layer;
        OwnedLayer() = default;
        explicit OwnedLayer(std::unique_ptr<Layer> l) : layer(std::move(l)) {}
        OwnedLayer(const OwnedLayer& other) : layer(other.layer ? other.layer->clone() : nullptr) {}
        OwnedLayer& operator=(const OwnedLayer& other) {
            if (this != &other) layer = other.layer ? other.layer->clone() : nullptr;
            return *this;
        }
        OwnedLayer(OwnedLayer&&) = default;
        OwnedLayer& operator=(OwnedLayer&&) = default;
    };

    int mlp_;
    float dropout_;
    Activation activation_;
    LayerNorm norm1_, norm2_;
    MultiHeadAttention attention_;
    Dropout drop1_, dropHidden_, drop2_;
    OwnedLayer act_;  // none for Activation::None
    Matrix w1_, b1_, w2_, b2_, gradW1_, gradB1_, gradW2_, gradB2_;
    bool dropping_ = false;              // the last forward applied dropout
    const Matrix* normed2_ = nullptr;    // LN2(x1), LN2's own output: W1's input
    const Matrix* hiddenOut_ = nullptr;  // act(LN2(x1) W1 + b1), after its dropout: W2's input
    Matrix x1_;                          // (batch, T * D): the first residual's sum
    Matrix hidden_;                      // (batch, T * mlp): LN2(x1) W1 + b1
    Matrix mlpOut_;                      // (batch, T * D): before drop2
    Matrix y_, dHidden_, dNormed2_, dX1_, gradInput_;
};

}  // namespace skynnet
