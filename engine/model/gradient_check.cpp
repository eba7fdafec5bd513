#include "model/gradient_check.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace skynnet {
namespace {

struct Checker {
    const GradientCheckOptions& opt;
    GradientCheckResult result;

    void compare(double analytic, double numeric, const std::string& what) {
        const double allowed = opt.atol + opt.rtol * std::max(std::abs(analytic), std::abs(numeric));
        const double ratio = std::abs(analytic - numeric) / allowed;
        if (++result.checked == 1 || ratio > result.worstRatio) {
            result.worstRatio = ratio;
            result.worst = what + ": analytic " + std::to_string(analytic) + ", numeric " + std::to_string(numeric);
        }
    }

    // Perturbs sampled entries of `values` and compares the numeric derivative of f with `grad`.
    template <class F>
    void tensor(Matrix& values, const Matrix& grad, const std::string& name, F&& f) {
        const Index n = values.size();
        const Index step = std::max<Index>(1, n / opt.maxEntriesPerTensor);
        for (Index i = 0; i < n; i += step) {
            Scalar& v = values.data()[i];
            const Scalar saved = v;
            v = Scalar(saved + opt.epsilon);
            const double plus = f();
            v = Scalar(saved - opt.epsilon);
            const double minus = f();
            v = saved;
            compare(grad.data()[i], (plus - minus) / (2 * opt.epsilon), name + "[" + std::to_string(i) + "]");
        }
    }
};

Matrix randomLike(Index rows, Index cols, std::uint64_t seed) {
    Rng rng(seed);
    Matrix m(rows, cols);
    for (Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(-1.0f, 1.0f);
    return m;
}

double weightedSum(const Matrix& out, const Matrix& r) {
    return (out.cast<double>().array() * r.cast<double>().array()).sum();
}

}  // namespace

GradientCheckResult checkLayer(Layer& layer, const Matrix& x, bool training, std::uint64_t seed,
                               const GradientCheckOptions& options) {
    Checker c{options, {}};
    Matrix input = x;
    const Matrix r = randomLike(layer.forward(input, training).rows(), layer.forward(input, training).cols(), seed);
    layer.forward(input, training);
    const Matrix* gx = layer.backward(r, true);
    const Matrix gradInput = gx ? *gx : Matrix();
    std::vector<Matrix> paramGrads;
    for (const auto& p : layer.params()) paramGrads.push_back(*p.grad);
    auto loss = [&] { return weightedSum(layer.forward(input, training), r); };
    if (gx) c.tensor(input, gradInput, layer.kind() + ".input", loss);
    auto params = layer.params();
    for (std::size_t i = 0; i < params.size(); ++i)
        c.tensor(*params[i].value, paramGrads[i], layer.kind() + ".param" + std::to_string(i), loss);
    return c.result;
}

GradientCheckResult checkLoss(const Loss& loss, const Matrix& output, const Matrix& target,
                              const GradientCheckOptions& options) {
    Checker c{options, {}};
    Matrix out = output, grad;
    loss.gradient(out, target, grad);
    c.tensor(out, grad, lossName(loss.kind()) + ".output", [&] { return loss.value(out, target); });
    return c.result;
}

GradientCheckResult checkFusedLoss(const Loss& loss, const Matrix& logits, const Matrix& target,
                                   const GradientCheckOptions& options) {
    auto activation = makeActivation(loss.fusesWith());
    if (!activation) throw Error(lossName(loss.kind()) + " fuses with no activation");
    Checker c{options, {}};
    Matrix z = logits, grad;
    loss.fusedGradient(activation->forward(z, false), target, grad);
    c.tensor(z, grad, lossName(loss.kind()) + ".fused",
             [&] { return loss.value(activation->forward(z, false), target); });
    return c.result;
}

GradientCheckResult checkNetwork(Network& net, const Loss& loss, const Matrix& x, const Matrix& target,
                                 const GradientCheckOptions& options) {
    Checker c{options, {}};
    const Matrix& out = net.forward(x, true);
    Matrix grad;
    const std::size_t layers = net.layers().size();
    if (loss.fusesWith() != Activation::None && net.endsWith(loss.fusesWith())) {
        loss.fusedGradient(out, target, grad);
        net.backward(grad, layers - 1);
    } else {
        loss.gradient(out, target, grad);
        net.backward(grad, layers);
    }
    auto params = net.params();
    std::vector<Matrix> grads;
    for (const auto& p : params) grads.push_back(*p.grad);
    for (std::size_t i = 0; i < params.size(); ++i)
        c.tensor(*params[i].value, grads[i], "param" + std::to_string(i),
                 [&] { return loss.value(net.forward(x, true), target); });
    return c.result;
}

}  // namespace skynnet
