#include "core/parallel.h"

#include <omp.h>

#include <algorithm>
#include <thread>

namespace skynnet {

int hardwareThreads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : int(n);
}

void setKernelThreads(int threads) { omp_set_num_threads(threads < 1 ? 1 : threads); }

int kernelThreads() { return omp_get_max_threads(); }

int threadsWorthFor(std::int64_t work, std::int64_t minWorkPerThread) {
    const std::int64_t worth = minWorkPerThread > 0 ? work / minWorkPerThread : work;
    return int(std::clamp<std::int64_t>(worth, 1, kernelThreads()));
}

int currentThreadIndex() { return omp_get_thread_num(); }

int currentTeamSize() { return omp_get_num_threads(); }

}  // namespace skynnet
