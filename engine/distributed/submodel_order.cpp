#include "distributed/submodel_order.h"

#include <algorithm>
#include <numeric>

namespace skynnet {

std::vector<int> longestFirstOrder(const SplitPlan& plan) {
    const auto cost = [&](int i) {
        const SubmodelPlan& s = plan.submodels[std::size_t(i)];
        return double(s.flopsPerSample) * double(s.rows.size()) * double(plan.effectiveEpochs);
    };
    std::vector<int> order(plan.submodels.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return cost(a) > cost(b); });
    return order;
}

}  // namespace skynnet
