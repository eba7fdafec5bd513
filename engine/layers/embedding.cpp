#include "layers/embedding.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.h"

namespace skynnet {
namespace {

// An id as the data holds it: 7, 2.5, -1, nan (never 7.000000).
std::string idText(Scalar id) {
    std::ostringstream out;
    out.precision(9);
    out << id;
    return out.str();
}

}  // namespace

Embedding::Embedding(int dim, int vocabulary) : dim_(dim), vocabulary_(vocabulary) {
    if (dim < 1) throw Error("an embedding needs a dimension of at least 1, got " + std::to_string(dim));
    if (vocabulary < 1 || vocabulary > kMaxVocabulary)
        throw Error("an embedding's vocabulary must hold 1 to " + std::to_string(kMaxVocabulary) + " ids, got " +
                    std::to_string(vocabulary));
}

void Embedding::build(Shape input, Rng& rng) {
    if (!input.sequence || input.width != 1)
        throw Error("an embedding reads a sequence of token ids, one per step; got " + input.toString());
    input_ = input;
    steps_ = input.height;
    output_ = Shape::steps(input.height, dim_);
    weights_.resize(vocabulary_, dim_);
    for (Index i = 0; i < weights_.size(); ++i) weights_.data()[i] = rng.normal(0.0f, 1.0f);
    weights_.row(0).setZero();  // padding
    gradWeights_ = Matrix::Zero(vocabulary_, dim_);
}

const Matrix& Embedding::forward(const Matrix& x, bool) {
    const Index rows = x.rows(), S = steps_, D = dim_;
    if (x.cols() != S)
        throw Error("an embedding expects " + std::to_string(S) + " token ids per row, got " +
                    std::to_string(x.cols()));
    // Check every id before writing anything, so that a bad batch leaves no half-made output.
    ids_.resize(std::size_t(rows * S));
    for (Index i = 0; i < rows * S; ++i) {
        const Scalar id = x.data()[i];
        // The negated test also refuses NaN.
        if (!(id >= 0 && id < Scalar(vocabulary_) && id == std::floor(id)))
            throw Error("token id " + idText(id) + " is not in the embedding's vocabulary of " +
                        std::to_string(vocabulary_) + " ids (0 to " + std::to_string(vocabulary_ - 1) + ")");
        ids_[std::size_t(i)] = std::int32_t(id);
    }
    mask_.resize(rows, S);
    y_.resize(rows, S * D);
    for (Index i = 0; i < rows * S; ++i) {
        const std::int32_t id = ids_[std::size_t(i)];
        mask_.data()[i] = id != 0 ? Scalar(1) : Scalar(0);
        std::copy_n(weights_.row(id).data(), D, y_.data() + i * D);
    }
    return y_;
}

const Matrix* Embedding::backward(const Matrix& gradOut, bool needInputGrad) {
    const Index D = dim_, count = Index(ids_.size());
    if (gradOut.rows() * gradOut.cols() != count * D)
        throw Error("an embedding's output gradient does not match its last forward");
    // One pass in row order: each row of the gradient sums its ids' steps in the same order
    // whatever the thread count.
    gradWeights_.setZero();
    for (Index i = 0; i < count; ++i) {
        const std::int32_t id = ids_[std::size_t(i)];
        if (id == 0) continue;  // padding never learns
        const Scalar* g = gradOut.data() + i * D;
        Scalar* to = gradWeights_.row(id).data();
        for (Index j = 0; j < D; ++j) to[j] += g[j];
    }
    if (!needInputGrad) return nullptr;
    gradInput_.setZero(gradOut.rows(), steps_);
    return &gradInput_;
}

std::int64_t Embedding::bufferBytes() const {
    return matrixBytes(y_) + matrixBytes(mask_) + matrixBytes(gradWeights_) + matrixBytes(gradInput_) +
           std::int64_t(ids_.capacity() * sizeof(std::int32_t));
}

}  // namespace skynnet
