#pragma once
// Token embedding: a sequence of token ids, Shape::steps(L, 1) with each id stored as a float,
// to the sequence of their vectors, Shape::steps(L, dim): a gather of rows of the weight matrix
// (vocabulary, dim), as PyTorch's nn.Embedding and ONNX's Gather.
//
// Id 0 is padding (PyTorch's padding_idx = 0): its row starts at zero and never gets a gradient,
// so it stays zero. The layer also makes the step mask (Layer::setStepMask) of its output,
// (batch, L) with 1 where the id is not 0, for the layers after it (seqpool:mean). Ids are not
// differentiable: the layer passes no gradient back.
#include "layers/layer.h"

namespace skynnet {

class Embedding final : public Layer {
public:
    // Ids are floats: every id below 2^24 is exact, and no vocabulary may be larger.
    static constexpr int kMaxVocabulary = 1 << 24;

    Embedding(int dim, int vocabulary);

    std::string kind() const override { return "embedding"; }
    int dim() const { return dim_; }
    int vocabulary() const { return vocabulary_; }
    // The input must be Shape::steps(L, 1); draws the weights from N(0, 1), row 0 then zeroed.
    void build(Shape input, Rng& rng) override;
    // An id that is not an integer in [0, vocabulary) is an Error naming it and the vocabulary.
    const Matrix& forward(const Matrix& x, bool training) override;
    // Writes the weight gradient (row 0's stays zero); returns nullptr, or zeros when asked for an
    // input gradient (a token id has none).
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    const Matrix* outputStepMask() const override { return &mask_; }
    std::vector<Param> params() override { return {{&weights_, &gradWeights_, true}}; }
    std::int64_t paramCount() const override { return weights_.size(); }
    // A gather: no multiply-adds.
    std::int64_t flopsPerSample() const override { return 0; }
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<Embedding>(*this); }

    Matrix& weights() { return weights_; }

private:
    int dim_, vocabulary_;
    Index steps_ = 0;
    Matrix weights_, gradWeights_;   // (vocabulary, dim)
    std::vector<std::int32_t> ids_;  // the last forward's ids, (batch * steps) row-major
    Matrix mask_;                    // (batch, steps)
    Matrix y_, gradInput_;
};

}  // namespace skynnet
