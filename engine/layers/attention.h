#pragma once
// Multi-head self-attention over a sequence Shape::steps(T, D), as PyTorch's
// nn.MultiheadAttention(D, heads, dropout, batch_first=True) computes it with query = key = value:
//   [Q | K | V] = x Win + bin              Win (D, 3D): rows are input features, Q, K, V blocks
//                                          of D columns in that order; bin (1, 3D)
//   head h reads columns [h dh, (h+1) dh) of Q, K and V, dh = D / heads:
//   A_h = softmax(Q_h K_h^T / sqrt(dh))    row i over the keys j; causal: j > i masked (-inf)
//   C_h = dropout(A_h) V_h                 inverted dropout on the weights, training only
//   out = [C_0 | ... | C_{heads-1}] Wout + bout      Wout (D, D), bout (1, D)
// Weights are stored as x W (PyTorch keeps their transposes). Init: Glorot uniform for Win with
// the fans of the whole (D, 3D) matrix (PyTorch's xavier_uniform_ of in_proj_weight) and for Wout
// (PyTorch draws out_proj from its Linear default instead), both biases zero.
//
// MultiHeadAttention is the core (no residual), which EncoderBlock uses after its LayerNorm;
// SelfAttention is the layer `attention:HEADS[:causal]`: x + MultiHeadAttention(x).
//
// Speed: the projections are one GEMM each over all (batch * T) rows; the products of the heads
// (Q K^T, A V and their gradients) run per (sample, head) through layers/head_products.h's
// register tiles. Everything runs on the calling thread, in a fixed order: the bits do not depend
// on the thread count. Memory: the softmax weights of the last forward, (batch, heads, T, T), and
// as much again for the dropout mask when training with dropout: it grows with T^2.
//
// Dropout draws the mask of a sample from a stream seeded by the layer's seed (drawn at build),
// the step and the sample's row in the step's batch, as layers/dropout.h does: the same masks
// however a batch is split over replicas.
//
// Padding (PyTorch's key_padding_mask): with a step mask (Layer::setStepMask, 0 at padding steps,
// as an embedding makes it from token ids 0), a padding key's score is -inf before the softmax,
// with the causal mask when both apply: its weight is exactly 0, in forward and backward, so a real
// query never reads padding. Queries at padding steps are still computed (seqpool:mean ignores
// them). A query that would see no real key has no key mask: a sample of padding alone (an empty
// text) attends to all steps (to the earlier ones when causal), and so does, when causal, a
// padding query before the sample's first real step (pre-padding); PyTorch gives NaN there.
#include "layers/layer.h"

namespace skynnet {

class MultiHeadAttention final : public Layer {
public:
    MultiHeadAttention(int heads, bool causal, float dropout);

    std::string kind() const override { return "mha"; }
    // The input must be a sequence whose features the heads divide; draws Win, Wout, then the seed.
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    void setBatchOrigin(std::uint64_t step, Index firstRow) override {
        step_ = step;
        firstRow_ = firstRow;
    }
    // Win (D, 3D), bin (1, 3D), Wout (D, D), bout (1, D), in that order.
    std::vector<Param> params() override;
    std::int64_t paramCount() const override;
    // The projections (2 T D 3D + 2 T D D) and the products Q K^T and A V over the pairs a query
    // sees (T^2, or T (T + 1) / 2 when causal), 2 D each.
    std::int64_t flopsPerSample() const override;
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<MultiHeadAttention>(*this); }

    int heads() const { return heads_; }
    bool causal() const { return causal_; }
    float dropout() const { return dropout_; }
    Index steps() const { return steps_; }
    Index dim() const { return dim_; }
    Index headDim() const { return dim_ / heads_; }
    Matrix& inWeights() { return wIn_; }
    Matrix& inBias() { return bIn_; }
    Matrix& outWeights() { return wOut_; }
    Matrix& outBias() { return bOut_; }
    const Matrix& inWeights() const { return wIn_; }
    const Matrix& inBias() const { return bIn_; }
    const Matrix& outWeights() const { return wOut_; }
    const Matrix& outBias() const { return bOut_; }
    // The softmax weights of the last forward (before dropout): (batch, heads * T * T), row n
    // holding sample n's heads in order, each a row-major (T, T) of queries by keys.
    const Matrix& attentionWeights() const { return probs_; }

private:
    void drawMask(Index batch);
    void attendForward(Index n);
    void attendBackward(Index n);
    Index pairsPerHead() const { return causal_ ? steps_ * (steps_ + 1) / 2 : steps_ * steps_; }

    int heads_;
    bool causal_;
    float dropout_;
    Index steps_ = 0, dim_ = 0;
    Matrix wIn_, bIn_, wOut_, bOut_, gradWIn_, gradBIn_, gradWOut_, gradBOut_;
    std::uint64_t seed_ = 1, step_ = 0;
    Index firstRow_ = 0;
    bool dropping_ = false;  // the last forward applied dropout
    const Matrix* x_ = nullptr;
    Matrix qkv_;       // (batch * T, 3D)
    Matrix probs_;     // (batch, heads * T * T), softmax weights before dropout
    Matrix mask_;      // like probs_: 0 or 1 / (1 - dropout), when dropping_
    Matrix context_;   // (batch * T, D): the heads' outputs side by side
    Matrix y_;         // (batch, T * D)
    Matrix dContext_;  // (batch * T, D)
    Matrix dQkv_;      // (batch * T, 3D)
    Matrix gradInput_;
    std::vector<Scalar> scratch_;  // one head's transposed keys or values, and three (T, T)
};

class SelfAttention final : public Layer {
public:
    SelfAttention(int heads, bool causal, float dropout) : core_(heads, causal, dropout) {}

    std::string kind() const override { return "attention"; }
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    void setBatchOrigin(std::uint64_t step, Index firstRow) override { core_.setBatchOrigin(step, firstRow); }
    // The core masks the padding keys; the output keeps the input's steps, hence its mask.
    void setStepMask(const Matrix* mask) override {
        stepMask_ = mask;
        core_.setStepMask(mask);
    }
    // The core's: Win (D, 3D), bin (1, 3D), Wout (D, D), bout (1, D).
    std::vector<Param> params() override { return core_.params(); }
    std::int64_t paramCount() const override { return core_.paramCount(); }
    // The core's, plus one add per value for the residual (not a multiply-add: not counted).
    std::int64_t flopsPerSample() const override { return core_.flopsPerSample(); }
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<SelfAttention>(*this); }

    int heads() const { return core_.heads(); }
    bool causal() const { return core_.causal(); }
    float dropout() const { return core_.dropout(); }
    MultiHeadAttention& core() { return core_; }
    const MultiHeadAttention& core() const { return core_; }

private:
    MultiHeadAttention core_;
    Matrix y_, gradInput_;
};

}  // namespace skynnet
