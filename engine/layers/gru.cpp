#include "layers/gru.h"

#include <cmath>

namespace skynnet {

namespace {
Scalar sigmoid(Scalar a) { return Scalar(1) / (Scalar(1) + std::exp(-a)); }
}  // namespace

const Matrix& Gru::forward(const Matrix& x, bool) {
    inputProducts(x);
    const Index b = batch(), u = units_, steps = steps_;
    gates_.resize(b * steps, 4 * u);
    for (Index t = 0; t < steps; ++t) {
        recurrentProduct(t, gh_);
        for (Index i = 0; i < b; ++i) {
            const Scalar* gx = gx_.data() + (i * steps + t) * 3 * u;
            const Scalar* gh = gh_.data() + i * 3 * u;
            const Scalar* hPrev = t > 0 ? hs_.data() + i * hs_.cols() + (t - 1) * u : nullptr;
            Scalar* h = hs_.data() + i * hs_.cols() + t * u;
            Scalar* saved = gates_.data() + (i * steps + t) * 4 * u;
            for (Index j = 0; j < u; ++j) {
                const Scalar r = sigmoid(gx[j] + gh[j]);
                const Scalar z = sigmoid(gx[u + j] + gh[u + j]);
                const Scalar hn = gh[2 * u + j];
                const Scalar n = std::tanh(gx[2 * u + j] + r * hn);
                const Scalar hp = hPrev ? hPrev[j] : Scalar(0);
                h[j] = (1 - z) * n + z * hp;
                saved[j] = r;
                saved[u + j] = z;
                saved[2 * u + j] = n;
                saved[3 * u + j] = hn;
            }
        }
    }
    return output();
}

const Matrix* Gru::backward(const Matrix& gradOut, bool needInputGrad) {
    const Index b = batch(), u = units_, steps = steps_;
    startBackward();
    dh_ = Matrix::Zero(b, u);
    dgh_.resize(b, 3 * u);
    for (Index t = steps - 1; t >= 0; --t) {
        addOutputGrad(gradOut, t, dh_);
        dhPrev_.resize(b, u);
        for (Index i = 0; i < b; ++i) {
            const Scalar* saved = gates_.data() + (i * steps + t) * 4 * u;
            const Scalar* hPrev = t > 0 ? hs_.data() + i * hs_.cols() + (t - 1) * u : nullptr;
            Scalar* dgx = dgx_.data() + (i * steps + t) * 3 * u;
            Scalar* dgh = dgh_.data() + i * 3 * u;
            for (Index j = 0; j < u; ++j) {
                const Scalar r = saved[j], z = saved[u + j], n = saved[2 * u + j], hn = saved[3 * u + j];
                const Scalar hp = hPrev ? hPrev[j] : Scalar(0);
                const Scalar dh = dh_(i, j);
                // Through h' = (1 - z) n + z h, then each gate's activation.
                const Scalar an = dh * (1 - z) * (1 - n * n);
                const Scalar az = dh * (hp - n) * z * (1 - z);
                const Scalar ar = an * hn * r * (1 - r);
                dgx[j] = ar;
                dgx[u + j] = az;
                dgx[2 * u + j] = an;
                dgh[j] = ar;
                dgh[u + j] = az;
                dgh[2 * u + j] = an * r;  // the reset gate scales h W_hn + b_hn
                dhPrev_(i, j) = dh * z;
            }
        }
        recurrentGradients(t, dgh_.data(), 3 * u, dhPrev_);
        std::swap(dh_, dhPrev_);
    }
    return inputGradients(needInputGrad);
}

std::int64_t Gru::bufferBytes() const {
    return recurrentBufferBytes() + matrixBytes(gates_) + matrixBytes(gh_) + matrixBytes(dgh_) + matrixBytes(dh_) +
           matrixBytes(dhPrev_);
}

}  // namespace skynnet
