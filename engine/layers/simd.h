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
inline Vec selectGreater(Vec a, Vec b, Vec then, Vec otherwise) {
    return _mm512_mask_mov_ps(otherwise, _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ), then);
}
inline Vec selectEqual(Vec a, Vec b, Vec then) {
    return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ), then);
}
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
inline Vec selectGreater(Vec a, Vec b, Vec then, Vec otherwise) {
    return _mm256_blendv_ps(otherwise, then, _mm256_cmp_ps(a, b, _CMP_GT_OQ));
}
inline Vec selectEqual(Vec a, Vec b, Vec then) { return _mm256_and_ps(_mm256_cmp_ps(a, b, _CMP_EQ_OQ), then); }
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
inline Vec selectGreater(Vec a, Vec b, Vec then, Vec otherwise) {
    const Vec m = _mm_cmpgt_ps(a, b);
    return _mm_or_ps(_mm_and_ps(m, then), _mm_andnot_ps(m, otherwise));
}
inline Vec selectEqual(Vec a, Vec b, Vec then) { return _mm_and_ps(_mm_cmpeq_ps(a, b), then); }
#endif

// Lane by lane: selectGreater gives `then` where a > b (never where either is NaN), `otherwise`
// elsewhere; selectEqual gives `then` where a == b, zero elsewhere.

// Makes the compiler hold v in a register: a value several multiply-adds use is then loaded once
// (GCC otherwise folds the load into each of them, and the loads, not the multiply-adds, set the pace).
inline void inRegister(Vec& v) { asm("" : "+v"(v)); }
// Makes the compiler forget where p points, so it cannot match loads through it with others.
template <class T>
inline void opaque(T*& p) {
    asm("" : "+r"(p));
}

// The sum of a vector's lanes, always in the same order: with AVX-512 or AVX2 a tree (halves,
// then quarters, ...: a few instructions where 16 or 8 dependent additions through memory were a
// sixth of the weight gradient's kernel), otherwise lane 0 first.
inline float sum(Vec v) {
#if defined(__AVX512F__)
    return _mm512_reduce_add_ps(v);
#elif defined(__AVX2__) && defined(__FMA__)
    const __m128 halves = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 quarters = _mm_add_ps(halves, _mm_movehl_ps(halves, halves));
    return _mm_cvtss_f32(_mm_add_ss(quarters, _mm_movehdup_ps(quarters)));
#else
    alignas(64) float lanes[kLanes];
    store(lanes, v);
    float total = 0;
    for (float x : lanes) total += x;
    return total;
#endif
}

}  // namespace skynnet::simd
