#pragma once
// The thread budget of one ThreadBackend run, shared by its workers. Each worker starts with its
// share; one that finds the queue empty retires and its cores go to the workers still training,
// one core at a time to whichever has the fewest (ties: the lowest worker). A training asks for its
// worker's threads before each batch (TrainCallbacks::kernelThreads), so a freed core is busy
// again one batch later. Safe to call from every worker at once.
#include <mutex>
#include <vector>

namespace skynnet {

class CoreShare {
public:
    explicit CoreShare(std::vector<int> threadsPerWorker);

    // The kernel threads worker `worker` may use now (0 once it has retired).
    int threadsOf(int worker) const;
    // The worker has no more submodels: its cores go to the others still working. With none left,
    // they simply fall idle.
    void retire(int worker);

private:
    mutable std::mutex mutex_;
    std::vector<int> threads_;
    std::vector<bool> working_;
};

}  // namespace skynnet
