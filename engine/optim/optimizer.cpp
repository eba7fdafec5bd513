#include "optim/optimizer.h"

#include <array>
#include <cmath>

#include "core/error.h"
#include "core/parallel.h"

namespace skynnet {
namespace {

using Segment = Eigen::Map<Eigen::Array<Scalar, Eigen::Dynamic, 1>>;

// Runs f(i, w, g, slots...) on contiguous segments of every parameter i, split over the kernel
// threads in one parallel loop: the update of a large layer is memory-bound and, left serial, costs
// a fifth of a 2-thread step, and a loop per parameter would wake the threads once per parameter.
// slots(i) gives parameter i's optimiser state matrices (none, one or two).
// Below this many values per thread, a second thread costs more than its share of the update.
constexpr std::int64_t kValuesPerThread = 32768;

template <class Slots, class F>
void updateInSegments(const std::vector<Param>& params, const SegmentHooks& hooks, Slots&& slots, F&& f) {
    // 8 KB of each array: a segment's gradient, weights and state (and the hooks' slice gradients)
    // stay in the L1 cache across the hook before, the update's passes and the hook after.
    constexpr Index kSegment = 2048;
    std::vector<std::pair<std::size_t, Index>> segments;  // (parameter, first value)
    for (std::size_t i = 0; i < params.size(); ++i)
        for (Index begin = 0; begin < params[i].value->size(); begin += kSegment) segments.emplace_back(i, begin);
    auto length = [&](std::size_t s) {
        return std::min(kSegment, params[segments[s].first].value->size() - segments[s].second);
    };
    auto prefetch = [&](std::size_t s) {
        const auto [i, begin] = segments[s];
        const Index len = length(s);
        prefetchValues(params[i].value->data() + begin, len);
        for (Matrix* own : slots(i))
            if (own) prefetchValues(own->data() + begin, len);
        if (hooks.prefetch) hooks.prefetch(i, begin, len);
        else prefetchValues(params[i].grad->data() + begin, len);
    };
    auto update = [&](std::size_t s) {
        const auto [i, begin] = segments[s];
        const Param& p = params[i];
        const Index len = length(s);
        const std::array<Matrix*, 2> own = slots(i);
        alignas(64) static thread_local Scalar scratch[kSegment];
        Scalar* gradient = p.grad->data() + begin;
        if (hooks.gradient) {
            hooks.gradient(i, begin, len, scratch);
            gradient = scratch;
        }
        Segment w(p.value->data() + begin, len), g(gradient, len);
        Segment a(own[0] ? own[0]->data() + begin : nullptr, own[0] ? len : 0);
        Segment b(own[1] ? own[1]->data() + begin : nullptr, own[1] ? len : 0);
        f(i, w, g, a, b);
        if (hooks.after) hooks.after(i, begin, len);
    };
    std::int64_t values = 0;
    for (const Param& p : params) values += p.value->size();
    const int threads = threadsWorthFor(values, kValuesPerThread);
    // A thread takes a run of consecutive segments and, when two or more threads update at once,
    // asks for the next one's memory before it updates the current one (the MLP 784-512-256-10 on
    // a 2-core Zen 3: 2 threads 2-14% faster, pair by pair; 1 thread, whose hardware prefetcher
    // keeps up alone, 2-7% slower for the extra instructions). The runs are still taken as the
    // threads come free.
    constexpr std::int64_t kSegmentsPerRun = 8;
    const std::int64_t count = std::int64_t(segments.size());
    const std::int64_t runs = (count + kSegmentsPerRun - 1) / kSegmentsPerRun;
    auto run = [&](std::int64_t r) {
        const std::int64_t first = r * kSegmentsPerRun, last = std::min(count, first + kSegmentsPerRun);
        for (std::int64_t s = first; s < last; ++s) {
            if (threads > 1 && s + 1 < last) prefetch(std::size_t(s + 1));
            update(std::size_t(s));
        }
    };
    parallelFor(0, runs, threads, run);
}

struct AdamRates {
    float b1, b2, stepSize, epsHat;
};

// m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2; w -= stepSize m / (sqrt(v) + epsHat), in one pass
// over each value. As three array expressions (three passes over a segment) the last pass's
// square root and division had no other work to overlap: the MLP 784-512-256-10's update took
// 0.40-0.42 ms a training step, against 0.32-0.34 ms in one pass (one Zen 3 core).
void adamUpdate(Scalar* w, const Scalar* g, Scalar* m, Scalar* v, Index n, AdamRates r) {
    using namespace Eigen::internal;
    using Packet = packet_traits<Scalar>::type;
    constexpr Index kLanes = unpacket_traits<Packet>::size;
    const Packet b1 = pset1<Packet>(r.b1), b2 = pset1<Packet>(r.b2), c1 = pset1<Packet>(1.0f - r.b1),
                 c2 = pset1<Packet>(1.0f - r.b2), step = pset1<Packet>(r.stepSize), eps = pset1<Packet>(r.epsHat);
    Index i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        const Packet gi = ploadu<Packet>(g + i);
        const Packet mi = pmadd(b1, ploadu<Packet>(m + i), pmul(c1, gi));
        const Packet vi = pmadd(b2, ploadu<Packet>(v + i), pmul(c2, pmul(gi, gi)));
        pstoreu(m + i, mi);
        pstoreu(v + i, vi);
        pstoreu(w + i, psub(ploadu<Packet>(w + i), pdiv(pmul(step, mi), padd(psqrt(vi), eps))));
    }
    for (; i < n; ++i) {
        m[i] = std::fma(r.b1, m[i], (1.0f - r.b1) * g[i]);
        v[i] = std::fma(r.b2, v[i], (1.0f - r.b2) * (g[i] * g[i]));
        w[i] -= r.stepSize * m[i] / (std::sqrt(v[i]) + r.epsHat);
    }
}

}  // namespace

std::int64_t Optimizer::stateBytes() const {
    std::int64_t n = 0;
    for (const auto* list : stateLists_)
        for (const auto& m : *list) n += matrixBytes(m);
    return n;
}

OptimizerState Optimizer::state() const {
    OptimizerState s;
    s.steps = steps_;
    for (const auto* list : stateLists_) s.lists.push_back(*list);
    return s;
}

void Optimizer::setState(const OptimizerState& state, const std::vector<Param>& params) {
    if (state.lists.size() != stateLists_.size())
        throw Error("the optimizer state has " + std::to_string(state.lists.size()) + " state lists, " +
                    optimizerName(config_.kind) + " keeps " + std::to_string(stateLists_.size()));
    if (state.steps < 0) throw Error("the optimizer state has a negative step count");
    for (const auto& list : state.lists) {
        if (list.empty()) continue;
        if (list.size() != params.size())
            throw Error("the optimizer state holds " + std::to_string(list.size()) + " matrices for " +
                        std::to_string(params.size()) + " parameters");
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i].rows() != params[i].value->rows() || list[i].cols() != params[i].value->cols())
                throw Error("the optimizer state of parameter " + std::to_string(i + 1) + " has the wrong shape");
    }
    steps_ = state.steps;
    for (std::size_t i = 0; i < stateLists_.size(); ++i) *stateLists_[i] = state.lists[i];
}

void Optimizer::ensureSlots(std::vector<Matrix>& slots, const std::vector<Param>& params) {
    if (slots.size() == params.size()) return;
    slots.clear();
    for (const auto& p : params) slots.push_back(Matrix::Zero(p.value->rows(), p.value->cols()));
}

std::unique_ptr<Optimizer> makeOptimizer(const OptimizerConfig& c) {
    switch (c.kind) {
    case OptimizerKind::SGD: return std::make_unique<SGD>(c);
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW: return std::make_unique<Adam>(c);
    case OptimizerKind::RMSProp: return std::make_unique<RMSProp>(c);
    }
    return nullptr;
}

std::string optimizerName(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::SGD: return "sgd";
    case OptimizerKind::Adam: return "adam";
    case OptimizerKind::AdamW: return "adamw";
    case OptimizerKind::RMSProp: return "rmsprop";
    }
    return "adam";
}

OptimizerKind parseOptimizer(const std::string& name) {
    for (auto k : {OptimizerKind::SGD, OptimizerKind::Adam, OptimizerKind::AdamW, OptimizerKind::RMSProp})
        if (optimizerName(k) == name) return k;
    throw Error("unknown optimizer '" + name + "' (expected sgd, adam, adamw or rmsprop)");
}

int slotsPerParam(OptimizerKind kind, float momentum) {
    switch (kind) {
    case OptimizerKind::SGD: return momentum > 0 ? 1 : 0;
    case OptimizerKind::RMSProp: return 1;
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW: return 2;
    }
    return 2;
}

void SGD::step(const std::vector<Param>& params, const SegmentHooks& hooks) {
    if (config_.momentum > 0) ensureSlots(velocity_, params);
    const float mu = config_.momentum, wd = config_.weightDecay, lr = lr_;
    const bool nesterov = config_.nesterov;
    auto slots = [&](std::size_t i) { return std::array<Matrix*, 2>{mu > 0 ? &velocity_[i] : nullptr, nullptr}; };
    updateInSegments(params, hooks, slots, [&](std::size_t i, Segment& w, Segment& g, Segment& v, Segment&) {
        if (wd > 0 && params[i].decays) g += wd * w;
        if (mu <= 0) {
            w -= lr * g;
            return;
        }
        v = mu * v + g;
        if (nesterov) w -= lr * (g + mu * v);
        else w -= lr * v;
    });
}

void Adam::step(const std::vector<Param>& params, const SegmentHooks& hooks) {
    ensureSlots(m_, params);
    ensureSlots(v_, params);
    ++steps_;
    const float b1 = config_.beta1, b2 = config_.beta2, eps = config_.epsilon, wd = config_.weightDecay;
    const bool decoupled = config_.kind == OptimizerKind::AdamW;
    // Bias corrections folded into the step size, as in the Adam paper's efficient form.
    const float c1 = 1.0f - std::pow(b1, float(steps_));
    const float c2 = 1.0f - std::pow(b2, float(steps_));
    const float stepSize = lr_ * std::sqrt(c2) / c1;
    const float epsHat = eps * std::sqrt(c2);
    const float lr = lr_;
    auto slots = [&](std::size_t i) { return std::array<Matrix*, 2>{&m_[i], &v_[i]}; };
    updateInSegments(params, hooks, slots, [&](std::size_t i, Segment& w, Segment& g, Segment& m, Segment& v) {
        if (wd > 0 && params[i].decays) {
            if (decoupled) w *= (1.0f - lr * wd);
            else g += wd * w;
        }
        adamUpdate(w.data(), g.data(), m.data(), v.data(), w.size(), {b1, b2, stepSize, epsHat});
    });
}

void RMSProp::step(const std::vector<Param>& params, const SegmentHooks& hooks) {
    ensureSlots(meanSquare_, params);
    const float rho = config_.rho, eps = config_.epsilon, wd = config_.weightDecay, lr = lr_;
    auto slots = [&](std::size_t i) { return std::array<Matrix*, 2>{&meanSquare_[i], nullptr}; };
    updateInSegments(params, hooks, slots, [&](std::size_t i, Segment& w, Segment& g, Segment& s, Segment&) {
        if (wd > 0 && params[i].decays) g += wd * w;
        s = rho * s + (1.0f - rho) * g.square();
        w -= lr * g / (s.sqrt() + eps);
    });
}

}  // namespace skynnet
