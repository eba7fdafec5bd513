#include "optim/optimizer.h"

#include <cmath>

#include "core/error.h"

namespace skynnet {

std::int64_t Optimizer::stateBytes() const {
    std::int64_t n = 0;
    for (const auto* list : stateLists_)
        for (const auto& m : *list) n += matrixBytes(m);
    return n;
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
    default: return 2;
    }
}

void SGD::step(const std::vector<Param>& params) {
    ensureSlots(velocity_, params);
    const float mu = config_.momentum, wd = config_.weightDecay, lr = lr_;
    for (std::size_t i = 0; i < params.size(); ++i) {
        auto w = params[i].value->array();
        auto g = params[i].grad->array();
        if (wd > 0 && params[i].decays) g += wd * w;
        if (mu <= 0) {
            w -= lr * g;
            continue;
        }
        auto v = velocity_[i].array();
        v = mu * v + g;
        if (config_.nesterov) w -= lr * (g + mu * v);
        else w -= lr * v;
    }
}

void Adam::step(const std::vector<Param>& params) {
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
    for (std::size_t i = 0; i < params.size(); ++i) {
        auto w = params[i].value->array();
        auto g = params[i].grad->array();
        if (wd > 0 && params[i].decays) {
            if (decoupled) w *= (1.0f - lr_ * wd);
            else g += wd * w;
        }
        auto m = m_[i].array();
        auto v = v_[i].array();
        m = b1 * m + (1.0f - b1) * g;
        v = b2 * v + (1.0f - b2) * g.square();
        w -= stepSize * m / (v.sqrt() + epsHat);
    }
}

void RMSProp::step(const std::vector<Param>& params) {
    ensureSlots(meanSquare_, params);
    const float rho = config_.rho, eps = config_.epsilon, wd = config_.weightDecay, lr = lr_;
    for (std::size_t i = 0; i < params.size(); ++i) {
        auto w = params[i].value->array();
        auto g = params[i].grad->array();
        if (wd > 0 && params[i].decays) g += wd * w;
        auto s = meanSquare_[i].array();
        s = rho * s + (1.0f - rho) * g.square();
        w -= lr * g / (s.sqrt() + eps);
    }
}

}  // namespace skynnet
