#pragma once
// A Vision Transformer's patch embedding: an image (C, H, W) cut into square patches of p x p
// pixels, each projected to `dim` features, plus a learned position per token, with an optional
// learned class token in front:
//   token t of the patches = patch_t W + b + position[t (+1 with the class token)]
//   token 0 with the class token = cls + position[0]
// Patches are taken in row-major order (patch row, then patch column); a patch's C p p values in
// (channel, dy, dx) order, as Conv2d(C, dim, kernel_size=p, stride=p) reads them, so ONNX can
// write the layer as Conv + Reshape + Transpose (+ Concat) + Add. Output Shape::steps(tokens,
// dim), tokens = (H/p)(W/p) (+1).
// Init: W Glorot uniform (fans C p p and dim), b zero, positions N(0, 0.02^2), the class token
// zero; the build draws W, then the positions. Only W decays.
// The projection is one GEMM over all (batch * patches) rows; nothing depends on the threads.
#include "layers/layer.h"

namespace skynnet {

class PatchEmbedding final : public Layer {
public:
    PatchEmbedding(int patch, int dim, bool classToken);

    std::string kind() const override { return "patch"; }
    // The input must be an image (not a sequence) whose height and width the patch divides.
    void build(Shape input, Rng& rng) override;
    const Matrix& forward(const Matrix& x, bool training) override;
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override;
    // W (C p p, dim), b (1, dim), positions (tokens, dim), then the class token (1, dim) when
    // there is one.
    std::vector<Param> params() override;
    std::int64_t paramCount() const override;
    // The projection: 2 C p p dim per patch (the adds of b and the positions are not counted).
    std::int64_t flopsPerSample() const override { return 2 * std::int64_t(patchCount()) * weights_.size(); }
    std::int64_t bufferBytes() const override;
    std::unique_ptr<Layer> clone() const override { return std::make_unique<PatchEmbedding>(*this); }

    int patch() const { return patch_; }
    int dim() const { return dim_; }
    bool hasClassToken() const { return classToken_; }
    // Patches of the built image, and tokens (patches, +1 with the class token).
    int patchCount() const { return patchRows_ * patchCols_; }
    int tokens() const { return patchCount() + (classToken_ ? 1 : 0); }
    Matrix& weights() { return weights_; }
    Matrix& bias() { return bias_; }
    Matrix& positions() { return positions_; }
    Matrix& classToken() { return cls_; }  // (1, dim); empty without a class token
    const Matrix& weights() const { return weights_; }
    const Matrix& bias() const { return bias_; }
    const Matrix& positions() const { return positions_; }
    const Matrix& classToken() const { return cls_; }

private:
    int patch_, dim_;
    bool classToken_;
    int patchRows_ = 0, patchCols_ = 0;
    Matrix weights_, bias_, positions_, cls_, gradWeights_, gradBias_, gradPositions_, gradCls_;
    Matrix patches_;     // (batch * patches, C p p): the last forward's patches, one per row
    Matrix projected_;   // (batch * patches, dim): patches_ W
    Matrix y_;           // (batch, tokens * dim)
    Matrix dProjected_;  // (batch * patches, dim)
    Matrix dPatches_;    // (batch * patches, C p p)
    Matrix gradInput_;
};

}  // namespace skynnet
