#pragma once
// The only place that knows about OpenMP. Eigen's matrix products use OpenMP too, and read the
// calling thread's own thread count, so each worker thread can set its kernel budget without
// touching the others (Eigen::setNbThreads is global and deliberately never called).
#include <cstdint>
#include <utility>

namespace skynnet {

int hardwareThreads();
// The number of threads kernels started from the calling thread may use.
void setKernelThreads(int threads);
int kernelThreads();
// 0-based index of the calling thread inside a parallel region (0 outside one).
int currentThreadIndex();
// Threads in the calling thread's current team (1 outside a parallel region).
int currentTeamSize();

// Sets the calling thread's kernel threads for a scope (0 keeps them) and restores them after.
class KernelThreadScope {
public:
    explicit KernelThreadScope(int threads) : saved_(kernelThreads()) {
        if (threads > 0) setKernelThreads(threads);
    }
    ~KernelThreadScope() { setKernelThreads(saved_); }
    KernelThreadScope(const KernelThreadScope&) = delete;
    KernelThreadScope& operator=(const KernelThreadScope&) = delete;

private:
    int saved_;
};

// How many of the calling thread's kernel threads `work` is worth, when a thread pays for itself
// only with `minWorkPerThread` of it. A woken OpenMP thread spins for milliseconds after its region
// before it sleeps: regions around tiny work (a small network's whole update takes microseconds)
// keep a second core busy doing nothing, which a submodel's CPU time then counts, and which under
// load takes the core from a sibling that has real work.
int threadsWorthFor(std::int64_t work, std::int64_t minWorkPerThread);

// Runs body(i) for i in [begin, end), split over up to `threads` threads; one thread runs the loop
// here, without a parallel region. The threads take the next i as they come free: a thread that
// runs slower (its core shared, its data farther away) does less of the work instead of making the
// others wait for it at the end (an optimiser update's second half took twice as long as its
// first on a 2-core machine). So body(i) should be coarse: a segment, a file, a chunk.
template <class Body>
void parallelFor(std::int64_t begin, std::int64_t end, int threads, Body&& body) {
    if (threads <= 1 || end - begin <= 1) {
        for (std::int64_t i = begin; i < end; ++i) body(i);
        return;
    }
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (std::int64_t i = begin; i < end; ++i) body(i);
}

// The same over all the calling thread's kernel threads (for work that is large whatever its count,
// such as decoding image files).
template <class Body>
void parallelFor(std::int64_t begin, std::int64_t end, Body&& body) {
    parallelFor(begin, end, kernelThreads(), std::forward<Body>(body));
}

// Runs body(t) once for each t in [0, threads), spread over a team of up to `threads` threads.
// OpenMP may grant fewer (OMP_THREAD_LIMIT, OMP_DYNAMIC, a nested region): the team's threads
// then take the remaining slots in turn, so no slot is ever skipped.
template <class Body>
void parallelRegion(int threads, Body&& body) {
#pragma omp parallel num_threads(threads)
    for (int t = currentThreadIndex(), team = currentTeamSize(); t < threads; t += team) body(t);
}

}  // namespace skynnet
