#pragma once
// Optimisers update every Param from its gradient with Eigen array expressions, and Adam's moments
// and weights in one pass of Eigen's vector packets (vectorised either way: a scalar loop here once
// cost a whole training 2.5x). Weight decay is L2 added to the gradient for
// SGD, Adam and RMSProp, and decoupled (applied to the weights) for AdamW.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "layers/layer.h"
#include "optim/schedule.h"

namespace skynnet {

enum class OptimizerKind { SGD, Adam, AdamW, RMSProp };

struct OptimizerConfig {
    OptimizerKind kind = OptimizerKind::Adam;
    float learningRate = 1e-3f;
    float momentum = 0.0f;  // SGD
    bool nesterov = false;  // SGD
    float beta1 = 0.9f;     // Adam, AdamW
    float beta2 = 0.999f;   // Adam, AdamW
    float rho = 0.9f;       // RMSProp
    float epsilon = 1e-7f;
    float weightDecay = 0.0f;
    Schedule schedule;
    bool operator==(const OptimizerConfig&) const = default;
};

// What an optimiser has learnt so far, for checkpoints: its step count and each of its state
// lists (Adam: moments m then v), one matrix per parameter, or empty before the first step.
struct OptimizerState {
    std::int64_t steps = 0;
    std::vector<std::vector<Matrix>> lists;
};

// Work a caller can do on each segment of a parameter inside the update's own parallel loop,
// while that segment is in cache and without waking the threads again: before the update, provide
// the segment's gradient (e.g. the sum of a split batch's slice gradients), and after it (e.g. copy
// the new values to replicas).
// Arguments: the parameter's index in the list, the first value, the count.
struct SegmentHooks {
    // Writes the gradient of the segment into `to` (count values, a scratch buffer of the update's
    // thread), which the update then reads in place of the parameter's gradient matrix: a sum made
    // there stays in the L1 cache and never goes out to memory.
    std::function<void(std::size_t, Index, Index, Scalar* to)> gradient;
    std::function<void(std::size_t, Index, Index)> after;
    // Asks for the memory the two hooks will touch for a later segment, so that it is on its way
    // while this one is updated (prefetchValues).
    std::function<void(std::size_t, Index, Index)> prefetch;
};

// Starts loading [values, values + count) into the cache without waiting for it: the update of
// a large layer is memory-bound, and its arrays, read one after another, each wait for memory.
inline void prefetchValues(const Scalar* values, Index count) {
    for (Index i = 0; i < count; i += 64 / Index(sizeof(Scalar))) __builtin_prefetch(values + i);
}

class Optimizer {
public:
    explicit Optimizer(const OptimizerConfig& config) : config_(config), lr_(config.learningRate) {}
    virtual ~Optimizer() = default;

    // Updates every parameter from its gradient; the params must be the same list every call.
    // With hooks, each segment's before runs just before its update and after just after.
    virtual void step(const std::vector<Param>& params, const SegmentHooks& hooks = {}) = 0;
    // State slots per parameter (2 for Adam's moments): used for memory estimates.
    virtual int slotsPerParam() const = 0;
    // Applies the schedule for a 0-based epoch.
    void startEpoch(int epoch) { lr_ = config_.schedule.rate(config_.learningRate, epoch); }
    float learningRate() const { return lr_; }
    std::int64_t stateBytes() const;
    OptimizerState state() const;
    // Throws Error when the state does not fit this optimiser or these params (another kind, shape).
    void setState(const OptimizerState& state, const std::vector<Param>& params);

protected:
    // Lazily sizes one state matrix per parameter, zero-filled.
    void ensureSlots(std::vector<Matrix>& slots, const std::vector<Param>& params);
    OptimizerConfig config_;
    float lr_;
    std::vector<std::vector<Matrix>*> stateLists_;
    std::int64_t steps_ = 0;  // steps taken (Adam's bias correction counts them)
};

std::unique_ptr<Optimizer> makeOptimizer(const OptimizerConfig& config);
std::string optimizerName(OptimizerKind kind);
// "sgd", "adam", "adamw", "rmsprop"; throws Error otherwise.
OptimizerKind parseOptimizer(const std::string& name);
int slotsPerParam(OptimizerKind kind, float momentum);

class SGD final : public Optimizer {
public:
    explicit SGD(const OptimizerConfig& c) : Optimizer(c) { stateLists_ = {&velocity_}; }
    void step(const std::vector<Param>& params, const SegmentHooks& hooks = {}) override;
    int slotsPerParam() const override { return config_.momentum > 0 ? 1 : 0; }

private:
    std::vector<Matrix> velocity_;
};

class Adam final : public Optimizer {
public:
    explicit Adam(const OptimizerConfig& c) : Optimizer(c) { stateLists_ = {&m_, &v_}; }
    void step(const std::vector<Param>& params, const SegmentHooks& hooks = {}) override;
    int slotsPerParam() const override { return 2; }

private:
    std::vector<Matrix> m_, v_;
};

class RMSProp final : public Optimizer {
public:
    explicit RMSProp(const OptimizerConfig& c) : Optimizer(c) { stateLists_ = {&meanSquare_}; }
    void step(const std::vector<Param>& params, const SegmentHooks& hooks = {}) override;
    int slotsPerParam() const override { return 1; }

private:
    std::vector<Matrix> meanSquare_;
};

}  // namespace skynnet
