#pragma once
// This CPU's single-precision FMA peak on one core, measured: independent chains of fused
// multiply-adds on the widest vectors the build targets (-march=native), enough chains to cover
// the FMA latency of every core in use since 2013. A figure to divide achieved GFLOP/s by.
#include <immintrin.h>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace skynnet::bench {

#if defined(__AVX512F__)
using FmaVector = __m512;
inline FmaVector fmaSet(float v) { return _mm512_set1_ps(v); }
inline FmaVector fma(FmaVector a, FmaVector b, FmaVector c) { return _mm512_fmadd_ps(a, b, c); }
inline float fmaSum(FmaVector v) { return _mm512_reduce_add_ps(v); }
#elif defined(__FMA__)
using FmaVector = __m256;
inline FmaVector fmaSet(float v) { return _mm256_set1_ps(v); }
inline FmaVector fma(FmaVector a, FmaVector b, FmaVector c) { return _mm256_fmadd_ps(a, b, c); }
inline float fmaSum(FmaVector v) {
    alignas(32) float f[8];
    _mm256_store_ps(f, v);
    return f[0] + f[1] + f[2] + f[3] + f[4] + f[5] + f[6] + f[7];
}
#else
#error "the FMA peak needs a build with FMA (-march=native on an x86-64 CPU with FMA)"
#endif

// GFLOP/s (an FMA counts 2) of one thread: the best of many runs of a few milliseconds each, so
// that on a shared machine some run falls between the other processes' time slices.
inline double fmaPeakGflops() {
    constexpr int kChains = 12;  // 2 FMA pipes x 4-5 cycles latency, and some to spare
    constexpr long kIterations = 1'000'000;
    constexpr double kLanes = sizeof(FmaVector) / sizeof(float);
    double best = 0;
    volatile float sink = 0;
    for (int run = 0; run < 200; ++run) {
        FmaVector acc[kChains];
        for (int c = 0; c < kChains; ++c) acc[c] = fmaSet(float(c) * 1e-3f);
        const FmaVector a = fmaSet(0.999999f), b = fmaSet(1e-7f);
        const auto start = std::chrono::steady_clock::now();
        for (long i = 0; i < kIterations; ++i)
            for (int c = 0; c < kChains; ++c) acc[c] = fma(acc[c], a, b);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        float total = 0;
        for (int c = 0; c < kChains; ++c) total += fmaSum(acc[c]);
        sink = sink + total;
        best = std::max(best, 2.0 * kLanes * kChains * double(kIterations) / seconds * 1e-9);
    }
    return best;
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
