#include "split/thread_backend.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "core/parallel.h"
#include "split/core_share.h"
#include "split/schedule.h"

namespace skynnet {

ThreadBackend::ThreadBackend(int threadBudget) : budget_(threadBudget > 0 ? threadBudget : hardwareThreads()) {}

int ThreadBackend::workers(int submodels) const { return std::max(1, std::min(submodels, budget_)); }

std::vector<int> ThreadBackend::kernelThreadsPerWorker(int submodels, int budget) {
    const int w = std::max(1, std::min(submodels, budget));
    std::vector<int> threads(static_cast<std::size_t>(w), std::max(1, budget / w));
    if (submodels < budget)
        for (int i = 0; i < budget % w; ++i) ++threads[std::size_t(i)];
    return threads;
}

std::vector<SubmodelOutcome> ThreadBackend::train(const SplitPlan& plan, const Dataset& train,
                                                  const Dataset* validation, const TrainConfig& config,
                                                  const SubmodelEvents& events, const CancelToken* cancel,
                                                  const CheckpointHooks* checkpoint) {
    const int s = plan.submodelCount();
    std::vector<SubmodelOutcome> outcomes(static_cast<std::size_t>(s));
    const std::vector<int> kernels = kernelThreadsPerWorker(s, budget_);
    // Longest first; outcomes stay in plan order.
    const std::vector<int> order = longestFirst(plan);
    std::atomic<int> next{0};
    // Cancelled with the caller's token, or alone when a submodel fails: a failed submodel spoils
    // the combination, so its running siblings stop at their next batch boundary too.
    CancelToken run = cancel ? cancel->linked() : CancelToken();

    CoreShare cores(kernels);
    std::vector<std::atomic<int>> peaks(static_cast<std::size_t>(s));
    for (auto& p : peaks) p = 0;

    const auto work = [&](int worker) {
        // Per thread: OpenMP (and Eigen's products) read the calling thread's own setting.
        setKernelThreads(kernels[std::size_t(worker)]);
        TrainConfig c = config;
        c.threads = kernels[std::size_t(worker)];
        SubmodelEvents mine = events;
        mine.kernelThreads = [&cores, &peaks, worker](int index) {
            const int t = cores.threadsOf(worker);
            std::atomic<int>& peak = peaks[std::size_t(index)];
            for (int seen = peak.load(); t > seen && !peak.compare_exchange_weak(seen, t);) {
            }
            return t;
        };
        for (int q = next.fetch_add(1); q < s; q = next.fetch_add(1)) {
            const int i = order[std::size_t(q)];
            auto& out = outcomes[std::size_t(i)];
            try {
                if (run.cancelled()) out = skippedSubmodel(plan, i, events);
                else out = trainSubmodel(plan, i, train, validation, c, mine, &run, nullptr, checkpoint);
            } catch (const std::exception& e) {  // only allocation can get here; never escape a thread
                out.result.status = TrainStatus::Failed;
                out.result.error = "submodel " + std::to_string(i + 1) + ": " + e.what();
            }
            if (out.result.status == TrainStatus::Failed) run.cancel();
        }
        // The queue is empty: this worker's cores go to the submodels still training.
        cores.retire(worker);
    };

    std::vector<std::thread> threads;
    try {
        for (int w = 0; w < int(kernels.size()); ++w) threads.emplace_back(work, w);
    } catch (...) {
        // Could not start every worker: the started ones drain the queue; join them, then report.
        for (auto& t : threads) t.join();
        throw;
    }
    for (auto& t : threads) t.join();
    peakKernelThreads_.clear();
    for (const auto& p : peaks) peakKernelThreads_.push_back(p.load());
    return outcomes;
}

}  // namespace skynnet
