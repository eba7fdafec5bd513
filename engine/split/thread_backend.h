#pragma once
// Submodels on std::threads in this process: W = min(S, budget) workers, each taking the next
// submodel from a shared queue, longest first (split/schedule.h), until none is left. The kernel
// threads of the workers add up to at most the budget (never two thread pools fighting over the cores: see architecture.md).
#include <vector>

#include "split/worker_pool.h"

namespace skynnet {

class ThreadBackend final : public WorkerBackend {
public:
    // threadBudget 0: every hardware thread.
    explicit ThreadBackend(int threadBudget = 0);

    std::string name() const override { return "threads"; }
    int threadBudget() const { return budget_; }
    int workers(int submodels) const override;
    std::vector<SubmodelOutcome> train(const SplitPlan& plan, const Dataset& train, const Dataset* validation,
                                       const TrainConfig& config, const SubmodelEvents& events,
                                       const CancelToken* cancel, const CheckpointHooks* checkpoint = nullptr) override;

    // Kernel threads of each worker: 1 each when S >= budget (one submodel per core beat threaded
    // kernels on these machines), else the budget spread over the S workers, the first ones taking
    // the remainder.
    static std::vector<int> kernelThreadsPerWorker(int submodels, int budget);

private:
    int budget_;
};

}  // namespace skynnet
