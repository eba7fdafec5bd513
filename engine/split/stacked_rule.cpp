#include "split/stacked_rule.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <string>

#include "core/error.h"
#include "core/parallel.h"

namespace skynnet {
namespace {

using RowMatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Params = std::vector<double>;  // W row-major, then b

// Rows per chunk of the objective: the chunks' sums are added in chunk order, so the bits do not
// depend on how many threads ran them.
constexpr Index kChunkRows = 256;

Params flatten(const StackedWeights& w) {
    Params p = w.weights;
    p.insert(p.end(), w.bias.begin(), w.bias.end());
    return p;
}

StackedWeights unflatten(const Params& p, int classes, int features) {
    StackedWeights w;
    w.classes = classes;
    w.features = features;
    const auto split = p.begin() + std::ptrdiff_t(classes) * features;
    w.weights.assign(p.begin(), split);
    w.bias.assign(split, p.end());
    return w;
}

double dot(const Params& a, const Params& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

double maxAbs(const Params& a) {
    double m = 0;
    for (double v : a) m = std::max(m, std::abs(v));
    return m;
}

// Row r's logits W x + b into z (C entries).
void logits(const StackedWeights& w, const double* x, double* z) {
    for (int c = 0; c < w.classes; ++c) {
        const double* wc = w.weights.data() + std::size_t(c) * std::size_t(w.features);
        double s = w.bias[std::size_t(c)];
        for (int d = 0; d < w.features; ++d) s += wc[d] * x[d];
        z[c] = s;
    }
}

// Softmax of z in place; returns log of the normaliser minus the max (so log p_c = z_c - max - it).
double softmaxInPlace(double* z, int n, double& maxOut) {
    double m = z[0];
    for (int c = 1; c < n; ++c) m = std::max(m, z[c]);
    double s = 0;
    for (int c = 0; c < n; ++c) s += (z[c] = std::exp(z[c] - m));
    for (int c = 0; c < n; ++c) z[c] /= s;
    maxOut = m;
    return std::log(s);
}

void checkLayout(const std::vector<Matrix>& subProbs, const std::vector<std::vector<int>>& classes, int classCount,
                 bool otherOutput) {
    if (subProbs.size() != classes.size())
        throw Error("stacked rule: " + std::to_string(subProbs.size()) + " submodel outputs for " +
                    std::to_string(classes.size()) + " class-group submodels");
    for (std::size_t s = 0; s < subProbs.size(); ++s) {
        const Index expected = Index(classes[s].size()) + (otherOutput ? 1 : 0);
        if (subProbs[s].cols() != expected)
            throw Error("stacked rule: submodel " + std::to_string(s + 1) + " gave " +
                        std::to_string(subProbs[s].cols()) + " columns, expected " + std::to_string(expected));
        for (int c : classes[s])
            if (c < 0 || c >= classCount)
                throw Error("stacked rule: submodel " + std::to_string(s + 1) + " owns class " + std::to_string(c) +
                            " outside the " + std::to_string(classCount) + " classes");
    }
}

// Two-loop recursion: -H g from the last pairs (s, y), H0 scaled by s'y / y'y of the newest pair.
Params lbfgsDirection(const Params& g, const std::deque<Params>& ss, const std::deque<Params>& ys) {
    Params q = g;
    std::vector<double> alpha(ss.size());
    for (std::size_t k = ss.size(); k-- > 0;) {
        alpha[k] = dot(ss[k], q) / dot(ys[k], ss[k]);
        for (std::size_t i = 0; i < q.size(); ++i) q[i] -= alpha[k] * ys[k][i];
    }
    if (!ss.empty()) {
        const double gamma = dot(ss.back(), ys.back()) / dot(ys.back(), ys.back());
        for (double& v : q) v *= gamma;
    }
    for (std::size_t k = 0; k < ss.size(); ++k) {
        const double beta = dot(ys[k], q) / dot(ys[k], ss[k]);
        for (std::size_t i = 0; i < q.size(); ++i) q[i] += ss[k][i] * (alpha[k] - beta);
    }
    for (double& v : q) v = -v;
    return q;
}

}  // namespace

int stackedFeatureCount(const std::vector<std::vector<int>>& classes, bool otherOutput) {
    int d = 0;
    for (const auto& owned : classes) d += int(owned.size()) + (otherOutput ? 1 : 0);
    return d;
}

RowMatrixD stackedFeatures(const std::vector<Matrix>& subProbs) {
    if (subProbs.empty()) throw Error("stacked rule: no submodel outputs");
    Index cols = 0;
    for (std::size_t s = 0; s < subProbs.size(); ++s) {
        if (subProbs[s].rows() != subProbs[0].rows())
            throw Error("stacked rule: submodel " + std::to_string(s + 1) + " gave " +
                        std::to_string(subProbs[s].rows()) + " rows, submodel 1 gave " +
                        std::to_string(subProbs[0].rows()));
        cols += subProbs[s].cols();
    }
    RowMatrixD x(subProbs[0].rows(), cols);
    Index at = 0;
    for (const Matrix& p : subProbs) {
        for (Index r = 0; r < p.rows(); ++r)
            for (Index k = 0; k < p.cols(); ++k)
                x(r, at + k) = std::log(std::max(double(p(r, k)), kStackedMinProbability));
        at += p.cols();
    }
    return x;
}

StackedWeights productStart(const std::vector<std::vector<int>>& classes, int classCount, bool otherOutput) {
    StackedWeights w;
    w.classes = classCount;
    w.features = stackedFeatureCount(classes, otherOutput);
    w.weights.assign(std::size_t(classCount) * std::size_t(w.features), 0.0);
    w.bias.assign(std::size_t(classCount), 0.0);
    int offset = 0;
    for (const auto& owned : classes) {
        std::vector<bool> owns(std::size_t(classCount), false);
        for (std::size_t k = 0; k < owned.size(); ++k) {
            owns[std::size_t(owned[k])] = true;
            w.weights[std::size_t(owned[k]) * std::size_t(w.features) + std::size_t(offset) + k] = 1;
        }
        const int notOwned = classCount - int(owned.size());
        if (otherOutput && notOwned > 0) {
            // The product spreads "other" evenly: log(other / notOwned) = log other - log notOwned.
            const int column = offset + int(owned.size());
            for (int c = 0; c < classCount; ++c)
                if (!owns[std::size_t(c)]) {
                    w.weights[std::size_t(c) * std::size_t(w.features) + std::size_t(column)] = 1;
                    w.bias[std::size_t(c)] -= std::log(double(notOwned));
                }
        }
        offset += int(owned.size()) + (otherOutput ? 1 : 0);
    }
    return w;
}

double stackedObjective(const StackedWeights& w, const RowMatrixD& x, const std::vector<int>& labels, double penalty,
                        StackedWeights* gradient, const StackedWeights* anchor) {
    const Index n = x.rows();
    const int C = w.classes, D = w.features;
    const Index chunks = (n + kChunkRows - 1) / kChunkRows;
    const std::size_t size = std::size_t(C) * std::size_t(D + 1);
    std::vector<double> losses(std::size_t(chunks), 0.0);
    std::vector<Params> grads(gradient ? std::size_t(chunks) : 0, Params(size, 0.0));
    const int threads = threadsWorthFor(std::int64_t(n) * C * D, 1 << 18);
    parallelFor(0, chunks, threads, [&](std::int64_t chunk) {
        std::vector<double> z(static_cast<std::size_t>(C));
        double loss = 0;
        Params* g = gradient ? &grads[std::size_t(chunk)] : nullptr;
        for (Index r = chunk * kChunkRows; r < std::min(n, (chunk + 1) * kChunkRows); ++r) {
            const double* xr = x.data() + r * D;
            const int y = labels[std::size_t(r)];
            logits(w, xr, z.data());
            const double zy = z[std::size_t(y)];
            double m = 0;
            const double logSum = softmaxInPlace(z.data(), C, m);
            loss += m + logSum - zy;
            if (!g) continue;
            z[std::size_t(y)] -= 1;  // d loss / d z = p - onehot(y)
            for (int c = 0; c < C; ++c) {
                double* gc = g->data() + std::size_t(c) * std::size_t(D);
                for (int d = 0; d < D; ++d) gc[d] += z[std::size_t(c)] * xr[d];
                (*g)[std::size_t(C) * std::size_t(D) + std::size_t(c)] += z[std::size_t(c)];
            }
        }
        losses[std::size_t(chunk)] = loss;
    });
    double total = 0;
    for (double l : losses) total += l;
    const double inv = n > 0 ? 1.0 / double(n) : 0.0;
    Params params = flatten(w);
    if (anchor) {
        const Params a = flatten(*anchor);
        for (std::size_t i = 0; i < size; ++i) params[i] -= a[i];
    }
    double norm = 0;
    for (double v : params) norm += v * v;
    if (gradient) {
        Params sum(size, 0.0);
        for (const Params& g : grads)
            for (std::size_t i = 0; i < size; ++i) sum[i] += g[i];
        for (std::size_t i = 0; i < size; ++i) sum[i] = sum[i] * inv + penalty * params[i];
        *gradient = unflatten(sum, C, D);
    }
    return total * inv + 0.5 * penalty * norm;
}

StackedFit fitStackedRule(const std::vector<Matrix>& subProbs, const std::vector<int>& labels,
                          const std::vector<std::vector<int>>& classes, int classCount, bool otherOutput,
                          const StackedFitOptions& options) {
    checkLayout(subProbs, classes, classCount, otherOutput);
    const RowMatrixD x = stackedFeatures(subProbs);
    if (x.rows() == 0)
        throw Error("the stacked rule is fitted on the validation rows, and there are none (a validation fraction "
                    "above 0 gives some)");
    if (std::size_t(x.rows()) != labels.size())
        throw Error("stacked rule: " + std::to_string(labels.size()) + " labels for " + std::to_string(x.rows()) +
                    " rows");
    for (std::size_t r = 0; r < labels.size(); ++r)
        if (labels[r] < 0 || labels[r] >= classCount)
            throw Error("stacked rule: row " + std::to_string(r + 1) + " has class " + std::to_string(labels[r]) +
                        ", outside the " + std::to_string(classCount) + " classes");

    StackedFit fit;
    const StackedWeights start = productStart(classes, classCount, otherOutput);
    const int C = start.classes, D = start.features;
    StackedWeights g;
    Params theta = flatten(start);
    const double penalty = options.priorRows / double(x.rows());
    double f = stackedObjective(start, x, labels, penalty, &g, &start);
    Params grad = flatten(g);
    std::deque<Params> ss, ys;
    constexpr std::size_t memory = 10;
    for (; fit.iterations < options.maxIterations && maxAbs(grad) > options.gradientTolerance; ++fit.iterations) {
        Params dir = lbfgsDirection(grad, ss, ys);
        double slope = dot(grad, dir);
        if (!(slope < 0)) {  // not a descent direction: forget the curvature pairs, go down the gradient
            ss.clear(), ys.clear();
            dir = grad;
            for (double& v : dir) v = -v;
            slope = dot(grad, dir);
        }
        // Backtracking to the Armijo condition; the first step is scaled so it moves at most 1 per entry.
        double step = ss.empty() ? std::min(1.0, 1.0 / maxAbs(dir)) : 1.0;
        Params next(theta.size());
        double fNext = f;
        StackedWeights gNext;
        bool moved = false;
        for (int tries = 0; tries < 40; ++tries, step *= 0.5) {
            for (std::size_t i = 0; i < theta.size(); ++i) next[i] = theta[i] + step * dir[i];
            fNext = stackedObjective(unflatten(next, C, D), x, labels, penalty, &gNext, &start);
            if (fNext <= f + 1e-4 * step * slope) {
                moved = true;
                break;
            }
        }
        if (!moved) break;  // no decrease left at double precision
        Params gradNext = flatten(gNext), s(theta.size()), y(theta.size());
        for (std::size_t i = 0; i < theta.size(); ++i) s[i] = next[i] - theta[i], y[i] = gradNext[i] - grad[i];
        if (dot(s, y) > 1e-12 * dot(y, y)) {  // keep only pairs of positive curvature
            ss.push_back(std::move(s)), ys.push_back(std::move(y));
            if (ss.size() > memory) ss.pop_front(), ys.pop_front();
        }
        // A decrease at the level of double rounding: the gradient tolerance is out of reach.
        const bool stalled = f - fNext <= 1e-14 * std::max(1.0, std::abs(f));
        theta = std::move(next), grad = std::move(gradNext), f = fNext;
        if (stalled) {
            ++fit.iterations;
            break;
        }
    }
    fit.weights = unflatten(theta, C, D);
    fit.startLoss = stackedObjective(start, x, labels, 0.0);
    fit.loss = stackedObjective(fit.weights, x, labels, 0.0);
    if (!(fit.loss <= fit.startLoss)) {
        fit.weights = start;
        fit.loss = fit.startLoss;
        fit.keptStart = true;
    }
    return fit;
}

Matrix applyStackedRule(const std::vector<Matrix>& subProbs, const StackedWeights& w) {
    const RowMatrixD x = stackedFeatures(subProbs);
    if (x.cols() != w.features)
        throw Error("the stacked rule's weights take " + std::to_string(w.features) + " submodel output columns, the " +
                    "submodels gave " + std::to_string(x.cols()));
    if (w.weights.size() != std::size_t(w.classes) * std::size_t(w.features) || w.bias.size() != std::size_t(w.classes))
        throw Error("the stacked rule's weights do not have their stated shape");
    Matrix out(x.rows(), w.classes);
    std::vector<double> z(static_cast<std::size_t>(w.classes));
    for (Index r = 0; r < x.rows(); ++r) {
        logits(w, x.data() + r * w.features, z.data());
        double m = 0;
        softmaxInPlace(z.data(), w.classes, m);
        for (int c = 0; c < w.classes; ++c) out(r, c) = Scalar(z[std::size_t(c)]);
    }
    return out;
}

}  // namespace skynnet
