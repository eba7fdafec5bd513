#pragma once
// This CPU's single-precision FMA peak on one core, measured: independent chains of fused
// multiply-adds on the widest vectors the CPU has (chosen at run time, so a build for the x86-64
// baseline measures the same peak as one for this CPU; OpenBLAS and BLIS pick their kernels at run
// time too), enough chains to cover the FMA latency of every core in use since 2013. A figure to
// divide achieved GFLOP/s by.
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace skynnet::bench {

// GFLOP/s (an FMA counts 2) of one thread: the best of many runs of a few milliseconds each, so
// that on a shared machine some run falls between the other processes' time slices. The same
// loop for each vector width (the intrinsics need their target on the function itself).
#define SKYNNET_FMA_PEAK_LOOP(Vector, set1, fmadd)                                                              \
    constexpr int kChains = 12; /* 2 FMA pipes x 4-5 cycles latency, and some to spare */                       \
    constexpr long kIterations = 1'000'000;                                                                     \
    constexpr double kLanes = sizeof(Vector) / sizeof(float);                                                   \
    double best = 0;                                                                                            \
    volatile float sink = 0;                                                                                    \
    for (int run = 0; run < 200; ++run) {                                                                       \
        Vector acc[kChains];                                                                                    \
        for (int c = 0; c < kChains; ++c) acc[c] = set1(float(c) * 1e-3f);                                      \
        const Vector a = set1(0.999999f), b = set1(1e-7f);                                                      \
        const auto start = std::chrono::steady_clock::now();                                                    \
        for (long i = 0; i < kIterations; ++i)                                                                  \
            for (int c = 0; c < kChains; ++c) acc[c] = fmadd(acc[c], a, b);                                     \
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); \
        alignas(64) float lanes[sizeof(Vector) / sizeof(float)];                                                \
        float total = 0;                                                                                        \
        for (int c = 0; c < kChains; ++c) {                                                                     \
            std::copy_n(reinterpret_cast<const float*>(&acc[c]), int(kLanes), lanes);                           \
            for (float v : lanes) total += v;                                                                   \
        }                                                                                                       \
        sink = sink + total;                                                                                    \
        best = std::max(best, 2.0 * kLanes * kChains * double(kIterations) / seconds * 1e-9);                   \
    }                                                                                                           \
    return best;

__attribute__((target("avx512f"))) inline double fmaPeakAvx512() {
    SKYNNET_FMA_PEAK_LOOP(__m512, _mm512_set1_ps, _mm512_fmadd_ps)
}
__attribute__((target("avx2,fma"))) inline double fmaPeakAvx2() {
    SKYNNET_FMA_PEAK_LOOP(__m256, _mm256_set1_ps, _mm256_fmadd_ps)
}
#undef SKYNNET_FMA_PEAK_LOOP

// 0 on a CPU without FMA.
inline double fmaPeakGflops() {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return fmaPeakAvx512();
    if (__builtin_cpu_supports("fma")) return fmaPeakAvx2();
    return 0;
}

// The peak of `threads` threads running at once (a core's clock drops when its neighbours work).
inline double fmaPeakGflops(int threads) {
    if (threads <= 1) return fmaPeakGflops();
    std::vector<double> each(std::size_t(threads), 0.0);
#pragma omp parallel num_threads(threads)
    each[std::size_t(omp_get_thread_num())] = fmaPeakGflops();
    double total = 0;
    for (double g : each) total += g;
    return total;
}

}  // namespace skynnet::bench
