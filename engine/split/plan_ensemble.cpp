// The plain ensemble (SplitOptions::ensemble): N thin copies of the network, each learning the
// whole task from all the training rows, their outputs averaged. Not the Skynnet method
// (method.md): the alternative a user would try instead of splitting, on the same parameter
// budget, so that a study can tell what the split's own idea (each submodel sees a part of the
// task) costs or gains against simply averaging smaller networks.
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>

#include "core/error.h"
#include "split/plan_builders.h"

namespace skynnet::detail {
namespace {

// Parameters of n members at width factor f, all together; empty when a layer would fall below 2.
std::optional<std::int64_t> membersParams(const NetworkSpec& original, double f, const SplitPlan& plan, int n) {
    try {
        return std::int64_t(n) * paramCount(shrinkSpec(original, f, plan.task, plan.outputs));
    } catch (const Error&) {
        return std::nullopt;
    }
}

// The total parameters of the split the ensemble stands beside: the task's own strategy, same N.
// The reason it cannot be planned goes to `why`.
std::optional<std::int64_t> splitParams(const NetworkSpec& original, const DataInfo& data, const SplitOptions& options,
                                        std::string& why) {
    SplitOptions own = options;
    own.strategy = Strategy::Auto;
    own.ensemble = false;
    own.dataShardFactor.reset();
    try {
        const SplitPlan split = makePlan(original, data, own);
        std::int64_t total = 0;
        for (const SubmodelPlan& s : split.submodels) total += s.params;
        return total;
    } catch (const Error& e) {
        why = e.what();
        return std::nullopt;
    }
}

// The F >= 1 whose n members come closest to `target` parameters in all. Parameters only fall as
// F grows (every scalable width is ceil(w / F)), so a bisection finds the step where they cross it.
double matchingFactor(const NetworkSpec& original, const SplitPlan& plan, int n, std::int64_t target) {
    const auto tooMany = [&](double f) {
        const auto p = membersParams(original, f, plan, n);
        return p && *p > target;
    };
    if (!tooMany(1.0)) return 1.0;
    double low = 1.0, high = 2.0;
    while (tooMany(high)) {
        low = high;
        high *= 2;
        if (high > 1e6) return 1.0;  // nothing scalable: the width factor changes nothing
    }
    for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (low + high);
        (tooMany(mid) ? low : high) = mid;
    }
    const auto below = membersParams(original, high, plan, n), above = membersParams(original, low, plan, n);
    if (below && std::llabs(target - *below) <= std::llabs(*above - target)) return high;
    return low;
}

}  // namespace

void planEnsemble(SplitPlan& plan, const DataInfo& data, const SplitOptions& options, const NetworkSpec& original) {
    const int n = options.requested;
    if (options.dataShardFactor) {
        plan.factor = *options.dataShardFactor;
        if (!std::isfinite(plan.factor) || plan.factor < 1.0)
            throw Error("ensemble: reduction factor F=" + formatNumber(plan.factor) +
                        " must be at least 1 (below 1 the members would be wider than the original)");
    } else {
        std::string why;
        const std::optional<std::int64_t> target = splitParams(original, data, options, why);
        if (target) {
            plan.factor = matchingFactor(original, plan, n, *target);
        } else {
            plan.factor = std::sqrt(double(n));
            plan.warnings.push_back("ensemble: no split of this task with N=" + std::to_string(n) + " to match (" +
                                    why + "), so F = sqrt(N) = " + formatNumber(plan.factor));
        }
    }
    std::vector<int> all(std::size_t(data.samples));
    std::iota(all.begin(), all.end(), 0);
    for (int i = 0; i < n; ++i) {
        SubmodelPlan s;
        s.index = i;
        s.rows = all;
        s.role = "member " + std::to_string(i + 1) + " of " + std::to_string(n) + " (all " +
                 std::to_string(data.samples) + " samples)";
        plan.submodels.push_back(std::move(s));
    }
}

}  // namespace skynnet::detail
