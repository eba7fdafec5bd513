// Binary shards (method.md §3) and data shards (§5): the same seeded sharding, different F and
// combination.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.h"
#include "core/rng.h"
#include "split/plan_builders.h"

namespace skynnet::detail {
namespace {

// A stream of the plan seed of its own, so shards never correlate with the weight seeds.
constexpr std::uint64_t kShardStream = 0x5AAD5u;
// The overlap rows' stream, apart from the shards', the "other" rows' and the weights' streams.
constexpr std::uint64_t kOverlapStream = 0x0E1A9u;

void requireShardable(const DataInfo& data, int n, const char* what) {
    if (long(n) > data.samples)
        throw Error(std::string(what) + ": N=" + std::to_string(n) + " shards but only " +
                    std::to_string(data.samples) + " training samples (each shard needs at least one)");
}

void addShards(SplitPlan& plan, const DataInfo& data, const SplitOptions& options) {
    const int n = options.requested;
    auto shards = makeShards(data.samples, n, options.shuffleShards, options.seed);
    for (int i = 0; i < n; ++i) {
        SubmodelPlan s;
        s.index = i;
        s.rows = std::move(shards[std::size_t(i)]);
        s.role = "shard " + std::to_string(i + 1) + " of " + std::to_string(n) + " (" + std::to_string(s.rows.size()) +
                 (s.rows.size() == 1 ? " sample)" : " samples)");
        plan.submodels.push_back(std::move(s));
    }
}

// Beside its own shard, `round(overlap x shard rows)` rows of the other shards (all of them if
// fewer), drawn without replacement by a partial Fisher-Yates shuffle seeded from the plan seed and
// the submodel's index alone: every backend that makes this plan draws the same rows (as the class
// groups' "other" rows, plan_class_groups.cpp).
void addOverlapRows(SubmodelPlan& s, long samples, double overlap, std::uint64_t seed) {
    std::vector<int> others;  // the rows of the other shards, ascending (the shards cover every row)
    others.reserve(std::size_t(samples) - s.rows.size());
    std::size_t own = 0;
    for (int r = 0; r < int(samples); ++r) {
        if (own < s.rows.size() && s.rows[own] == r) ++own;
        else others.push_back(r);
    }
    s.overlapRows = addBorrowedRows(s, std::move(others), overlap, seed, kOverlapStream);
}

// Small or sorted data deals a shard rows of one class: fewer, larger shards, or shuffled ones, mix them.
std::string shardRemedy(const SplitOptions& options) {
    return options.shuffleShards ? "request fewer submodels" : "request fewer submodels, or shuffle the shards";
}

}  // namespace

std::vector<int> evenSizes(long total, int parts) {
    std::vector<int> sizes(static_cast<std::size_t>(parts), int(total / parts));
    for (long i = 0; i < total % parts; ++i) ++sizes[std::size_t(i)];
    return sizes;
}

std::vector<std::vector<int>> makeShards(long samples, int n, bool shuffle, std::uint64_t seed) {
    std::vector<int> order;
    if (shuffle) {
        order = Rng(seed).split(kShardStream).permutation(int(samples));
    } else {
        order.resize(std::size_t(samples));
        std::iota(order.begin(), order.end(), 0);
    }
    std::vector<std::vector<int>> shards;
    std::size_t at = 0;
    for (int size : evenSizes(samples, n)) {
        std::vector<int> shard(order.begin() + long(at), order.begin() + long(at + std::size_t(size)));
        std::sort(shard.begin(), shard.end());  // file order inside a shard: the trainer shuffles anyway
        shards.push_back(std::move(shard));
        at += std::size_t(size);
    }
    return shards;
}

void planBinaryShards(SplitPlan& plan, const DataInfo& data, const SplitOptions& options) {
    const int n = options.requested;
    if (n < 2)
        throw Error("binary shards: N=" + std::to_string(n) +
                    " but the strategy needs at least 2 shards (N=1 is the original model)");
    requireShardable(data, n, "binary shards");
    // The reference halves the widths for its 2 shards; with N shards each sees 1/N of the data.
    plan.factor = double(n);
    addShards(plan, data, options);
    requireTwoClassesEach(plan, data, "binary shards", shardRemedy(options));
}

void planDataShards(SplitPlan& plan, const DataInfo& data, const SplitOptions& options) {
    const int n = options.requested;
    requireShardable(data, n, "data shards");
    const double f = options.dataShardFactor.value_or(std::sqrt(double(n)));
    if (!std::isfinite(f) || f < 1.0)
        throw Error("data shards: reduction factor F=" + formatNumber(f) +
                    " must be at least 1 (below 1 the submodels would be wider than the original)");
    // At N - 1 every submodel already sees every row: a larger overlap could add nothing.
    const double overlap = options.shardOverlap;
    if (overlap > double(n - 1))
        throw Error(
            "data shards: shard overlap " + formatNumber(overlap) + " is more than N-1 = " + std::to_string(n - 1) +
            (n == 1 ? " (a single shard already holds every row)" : " (there every submodel already sees every row)"));
    plan.factor = f;
    addShards(plan, data, options);
    if (overlap > 0)
        for (SubmodelPlan& sub : plan.submodels) addOverlapRows(sub, data.samples, overlap, options.seed);
    // On the rows each submodel learns from, overlap included.
    requireTwoClassesEach(plan, data, "data shards", shardRemedy(options));
}

}  // namespace skynnet::detail
