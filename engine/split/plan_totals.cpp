#include "split/plan_totals.h"

#include <algorithm>
#include <functional>
#include <queue>

#include "split/schedule.h"

namespace skynnet {

double originalCost(const SplitPlan& plan) {
    return double(plan.originalFlopsPerSample) * double(plan.samples) * double(plan.epochs);
}

double longestFirstMakespan(std::vector<double> sizes, int machines) {
    if (sizes.empty()) return 0;
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    machines = std::max(1, machines);
    if (machines >= int(sizes.size())) return sizes.front();
    std::priority_queue<double, std::vector<double>, std::greater<>> busy;  // each machine's busy time
    for (int k = 0; k < machines; ++k) busy.push(0.0);
    double end = 0;
    for (double s : sizes) {
        const double t = busy.top() + s;
        busy.pop();
        busy.push(t);
        end = std::max(end, t);
    }
    return end;
}

PlanTotals planTotals(const SplitPlan& plan, int workers) {
    PlanTotals t;
    t.submodels = plan.submodelCount();
    t.workers = std::clamp(workers, 1, std::max(1, t.submodels));
    t.originalParams = plan.originalParams;
    t.originalMemoryBytes = plan.originalMemoryBytes;
    t.originalInferenceFlops = plan.originalFlopsPerSample;
    t.originalWork = originalCost(plan);
    std::vector<double> costs;
    std::vector<std::int64_t> memory;
    for (int i = 0; i < t.submodels; ++i) {
        const SubmodelPlan& s = plan.submodels[std::size_t(i)];
        t.combinedParams += s.params;
        t.inferenceFlops += s.flopsPerSample;
        memory.push_back(s.memoryBytes);
        costs.push_back(submodelCost(plan, i));
        t.work += costs.back();
        t.slowestWork = std::max(t.slowestWork, costs.back());
    }
    std::sort(memory.begin(), memory.end(), std::greater<>());
    if (!memory.empty()) t.machineMemoryBytes = memory.front();
    for (int i = 0; i < t.workers && i < int(memory.size()); ++i) t.concurrentMemoryBytes += memory[std::size_t(i)];
    t.thisMachineWork = longestFirstMakespan(costs, t.workers);
    return t;
}

std::optional<double> secondsPerWork(const SplitPlan& plan, const std::vector<double>& submodelCpuSeconds) {
    double cost = 0, cpu = 0;
    for (int i = 0; i < plan.submodelCount() && std::size_t(i) < submodelCpuSeconds.size(); ++i) {
        cost += submodelCost(plan, i);
        cpu += submodelCpuSeconds[std::size_t(i)];
    }
    if (cost <= 0 || cpu <= 0) return std::nullopt;
    return cpu / cost;
}

double trainingSecondsOnMachines(const SplitPlan& plan, const std::vector<double>& submodelCpuSeconds) {
    const std::optional<double> rate = secondsPerWork(plan, submodelCpuSeconds);
    return rate ? planTotals(plan, 1).slowestWork * *rate : 0.0;
}

}  // namespace skynnet
