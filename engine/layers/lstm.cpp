#include "layers/lstm.h"

#include <cmath>

namespace skynnet {

namespace {
Scalar sigmoid(Scalar a) { return Scalar(1) / (Scalar(1) + std::exp(-a)); }
}  // namespace

void Lstm::build(Shape input, Rng& rng) {
    RecurrentLayer::build(input, rng);
    bx_.middleCols(units_, units_).setOnes();
}

const Matrix& Lstm::forward(const Matrix& x, bool) {
    inputProducts(x);
    const Index b = batch(), u = units_, steps = steps_;
    gates_.resize(b * steps, 4 * u);
    cs_.resize(b, steps * u);
    for (Index t = 0; t < steps; ++t) {
        recurrentProduct(t, gh_);
        for (Index i = 0; i < b; ++i) {
            const Scalar* gx = gx_.data() + (i * steps + t) * 4 * u;
            const Scalar* gh = gh_.data() + i * 4 * u;
            const Scalar* cPrev = t > 0 ? cs_.data() + i * cs_.cols() + (t - 1) * u : nullptr;
            Scalar* c = cs_.data() + i * cs_.cols() + t * u;
            Scalar* h = hs_.data() + i * hs_.cols() + t * u;
            Scalar* saved = gates_.data() + (i * steps + t) * 4 * u;
            for (Index j = 0; j < u; ++j) {
                const Scalar ig = sigmoid(gx[j] + gh[j]);
                const Scalar fg = sigmoid(gx[u + j] + gh[u + j]);
                const Scalar gg = std::tanh(gx[2 * u + j] + gh[2 * u + j]);
                const Scalar og = sigmoid(gx[3 * u + j] + gh[3 * u + j]);
                c[j] = fg * (cPrev ? cPrev[j] : Scalar(0)) + ig * gg;
                h[j] = og * std::tanh(c[j]);
                saved[j] = ig;
                saved[u + j] = fg;
                saved[2 * u + j] = gg;
                saved[3 * u + j] = og;
            }
        }
    }
    return output();
}

const Matrix* Lstm::backward(const Matrix& gradOut, bool needInputGrad) {
    const Index b = batch(), u = units_, steps = steps_;
    startBackward();
    dh_ = Matrix::Zero(b, u);
    dc_ = Matrix::Zero(b, u);
    for (Index t = steps - 1; t >= 0; --t) {
        addOutputGrad(gradOut, t, dh_);
        for (Index i = 0; i < b; ++i) {
            const Scalar* saved = gates_.data() + (i * steps + t) * 4 * u;
            const Scalar* c = cs_.data() + i * cs_.cols() + t * u;
            const Scalar* cPrev = t > 0 ? cs_.data() + i * cs_.cols() + (t - 1) * u : nullptr;
            Scalar* dg = dgx_.data() + (i * steps + t) * 4 * u;
            for (Index j = 0; j < u; ++j) {
                const Scalar ig = saved[j], fg = saved[u + j], gg = saved[2 * u + j], og = saved[3 * u + j];
                const Scalar tc = std::tanh(c[j]);
                const Scalar dh = dh_(i, j);
                // dc: from the next step's c (dc_) and from h' = o tanh(c').
                const Scalar dc = dc_(i, j) + dh * og * (1 - tc * tc);
                dg[j] = dc * gg * ig * (1 - ig);
                dg[u + j] = dc * (cPrev ? cPrev[j] : Scalar(0)) * fg * (1 - fg);
                dg[2 * u + j] = dc * ig * (1 - gg * gg);
                dg[3 * u + j] = dh * tc * og * (1 - og);
                dc_(i, j) = dc * fg;
            }
        }
        // The pre-activations' gradient is the same for the input and the recurrent part.
        dhPrev_ = Matrix::Zero(b, u);
        recurrentGradients(t, dgx_.data() + t * 4 * u, Index(steps) * 4 * u, dhPrev_);
        std::swap(dh_, dhPrev_);
    }
    return inputGradients(needInputGrad);
}

std::int64_t Lstm::bufferBytes() const {
    return recurrentBufferBytes() + matrixBytes(gates_) + matrixBytes(cs_) + matrixBytes(gh_) + matrixBytes(dh_) +
           matrixBytes(dhPrev_) + matrixBytes(dc_);
}

}  // namespace skynnet
