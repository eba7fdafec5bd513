#pragma once
// The widest float vector this translation unit is compiled for, behind a handful of names the
// direct convolution kernels use: AVX-512 (16 lanes), AVX2 with FMA (8), or the x86-64 baseline
// SSE2 (4, multiply then add). Which one is fixed per build (-march), so the floats are the same
// bit for bit within a build and differ between builds only by rounding.
#include <immintrin.h>

namespace skynnet::simd {

#if defined(__AVX512F__)
inline constexpr int kLanes = 16;
using Vec = __m512;
inline Vec load(const float* p) { return _mm512_loadu_ps(p); }
inline void store(float* p, Vec v) { _mm512_storeu_ps(p, v); }
inline Vec broadcast(float x) { return _mm512_set1_ps(x); }
inline Vec zero() { return _mm512_setzero_ps(); }
inline Vec fma(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
inline Vec add(Vec a, Vec b) { return _mm512_add_ps(a, b); }
inline Vec max(Vec a, Vec b) { return _mm512_max_ps(a, b); }
#elif defined(__AVX2__) && defined(__FMA__)
inline constexpr int kLanes = 8;
using Vec = __m256;
inline Vec load(const float* p) { return _mm256_loadu_ps(p); }
inline void store(float* p, Vec v) { _mm256_storeu_ps(p, v); }
inline Vec broadcast(float x) { return _mm256_set1_ps(x); }
inline Vec zero() { return _mm256_setzero_ps(); }
inline Vec fma(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
inline Vec add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
inline Vec max(Vec a, Vec b) { return _mm256_max_ps(a, b); }
#else
inline constexpr int kLanes = 4;
using Vec = __m128;
inline Vec load(const float* p) { return _mm_loadu_ps(p); }
inline void store(float* p, Vec v) { _mm_storeu_ps(p, v); }
inline Vec broadcast(float x) { return _mm_set1_ps(x); }
inline Vec zero() { return _mm_setzero_ps(); }
inline Vec fma(Vec a, Vec b, Vec c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }
inline Vec add(Vec a, Vec b) { return _mm_add_ps(a, b); }
inline Vec max(Vec a, Vec b) { return _mm_max_ps(a, b); }
#endif

// Makes the compiler hold v in a register: a value several multiply-adds use is then loaded once
// (GCC otherwise folds the load into each of them, and the loads, not the multiply-adds, set the pace).
inline void inRegister(Vec& v) { asm("" : "+v"(v)); }

// The sum of a vector's lanes, always in the same order (lane 0 first).
inline float sum(Vec v) {
    alignas(64) float lanes[kLanes];
    store(lanes, v);
    float total = 0;
    for (float x : lanes) total += x;
    return total;
}

}  // namespace skynnet::simd
