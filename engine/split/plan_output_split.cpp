// Regression output split, "non-local" regression (method.md §4): each submodel learns a contiguous
// chunk of the target columns from all inputs and all samples.
#include <numeric>

#include "core/error.h"
#include "split/plan_builders.h"

namespace skynnet::detail {

void planOutputSplit(SplitPlan& plan, const DataInfo& data, const SplitOptions& options) {
    const int n = options.requested, m = data.targetColumns;
    if (m < n) {
        if (!options.regressionFallbackToShards)
            throw Error("output split: the target has " + std::to_string(m) + " column" + (m == 1 ? "" : "s") +
                        ", fewer than N=" + std::to_string(n) + " submodels (request at most " + std::to_string(m) +
                        ", or allow the fallback to data shards with averaged predictions)");
        plan.strategy = Strategy::DataShards;
        plan.warnings.push_back("the target has " + std::to_string(m) + " column" + (m == 1 ? "" : "s") +
                                ", fewer than N=" + std::to_string(n) + ": using " + std::to_string(n) +
                                " data shards with averaged predictions instead of an output split");
        planDataShards(plan, data, options);
        return;
    }
    plan.factor = double(n);
    std::vector<int> all(std::size_t(data.samples));
    std::iota(all.begin(), all.end(), 0);
    int begin = 0;
    const auto sizes = evenSizes(m, n);
    for (int i = 0; i < n; ++i) {
        SubmodelPlan s;
        s.index = i;
        s.columnBegin = begin;
        s.columnEnd = begin + sizes[std::size_t(i)];
        s.rows = all;
        // Columns, like classes and groups, are 0-based indices into the data; submodels 1-based.
        s.role = s.columnEnd - s.columnBegin == 1
                     ? "column " + std::to_string(s.columnBegin)
                     : "columns " + std::to_string(s.columnBegin) + "-" + std::to_string(s.columnEnd - 1);
        begin = s.columnEnd;
        plan.submodels.push_back(std::move(s));
    }
}

}  // namespace skynnet::detail
