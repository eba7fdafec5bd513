#pragma once
// The only place that knows about OpenMP. Eigen's matrix products use OpenMP too, and read the
// calling thread's own thread count, so each worker thread can set its kernel budget without
// touching the others (Eigen::setNbThreads is global and deliberately never called).
#include <cstdint>

namespace skynnet {

int hardwareThreads();
// The number of threads kernels started from the calling thread may use.
void setKernelThreads(int threads);
int kernelThreads();

// Runs body(i) for i in [begin, end), split over the calling thread's kernel threads.
template <class Body>
void parallelFor(std::int64_t begin, std::int64_t end, Body&& body) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = begin; i < end; ++i) body(i);
}

}  // namespace skynnet
