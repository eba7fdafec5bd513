#include "split/schedule.h"

#include <algorithm>
#include <numeric>

namespace skynnet {

double submodelCost(const SplitPlan& plan, int index) {
    const SubmodelPlan& s = plan.submodels.at(std::size_t(index));
    return double(s.flopsPerSample) * double(s.rows.size()) * double(plan.effectiveEpochs);
}

std::vector<int> longestFirst(const SplitPlan& plan) {
    std::vector<double> cost;
    for (int i = 0; i < plan.submodelCount(); ++i) cost.push_back(submodelCost(plan, i));
    std::vector<int> order(cost.size());
    std::iota(order.begin(), order.end(), 0);
    // Stable: equal costs keep their plan order.
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return cost[std::size_t(a)] > cost[std::size_t(b)]; });
    return order;
}

}  // namespace skynnet
