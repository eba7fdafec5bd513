#include "layers/head_products.h"

#include "layers/simd.h"

namespace skynnet {
namespace {

constexpr Index kLanes = simd::kLanes;

// op(A)'s entry (r, p).
template <bool TransposeA>
inline Scalar entryOfA(const Scalar* a, Index lda, Index r, Index p) {
    return TransposeA ? a[p * lda + r] : a[r * lda + p];
}

// R rows by V vectors of columns of C, summed over the k products in order.
template <bool TransposeA, int R, int V>
inline void tile(Index k, const Scalar* a, Index lda, const Scalar* b, Index ldb, Scalar* c, Index ldc) {
    simd::Vec acc[R][V];
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < V; ++v) acc[r][v] = simd::zero();
    for (Index p = 0; p < k; ++p) {
        simd::Vec row[V];
        for (int v = 0; v < V; ++v) row[v] = simd::load(b + p * ldb + v * kLanes);
        for (int r = 0; r < R; ++r) {
            const simd::Vec ar = simd::broadcast(entryOfA<TransposeA>(a, lda, r, p));
            for (int v = 0; v < V; ++v) acc[r][v] = simd::fma(ar, row[v], acc[r][v]);
        }
    }
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < V; ++v) simd::store(c + r * ldc + v * kLanes, acc[r][v]);
}

// R rows of C: two-vector tiles, then one-vector ones, then the last columns one by one.
template <bool TransposeA, int R>
void rows(Index n, Index k, const Scalar* a, Index lda, const Scalar* b, Index ldb, Scalar* c, Index ldc) {
    Index j = 0;
    for (; j + 2 * kLanes <= n; j += 2 * kLanes) tile<TransposeA, R, 2>(k, a, lda, b + j, ldb, c + j, ldc);
    for (; j + kLanes <= n; j += kLanes) tile<TransposeA, R, 1>(k, a, lda, b + j, ldb, c + j, ldc);
    for (; j < n; ++j)
        for (int r = 0; r < R; ++r) {
            Scalar sum = 0;
            for (Index p = 0; p < k; ++p) sum += entryOfA<TransposeA>(a, lda, r, p) * b[p * ldb + j];
            c[r * ldc + j] = sum;
        }
}

template <bool TransposeA>
void product(Index m, Index n, Index k, const Scalar* a, Index lda, const Scalar* b, Index ldb, Scalar* c, Index ldc) {
    // Row i of op(A) starts at a + i (transposed: a column of the stored A) or a + i lda.
    const Index rowStep = TransposeA ? 1 : lda;
    Index i = 0;
    for (; i + 4 <= m; i += 4) rows<TransposeA, 4>(n, k, a + i * rowStep, lda, b, ldb, c + i * ldc, ldc);
    switch (m - i) {
    case 3: rows<TransposeA, 3>(n, k, a + i * rowStep, lda, b, ldb, c + i * ldc, ldc); break;
    case 2: rows<TransposeA, 2>(n, k, a + i * rowStep, lda, b, ldb, c + i * ldc, ldc); break;
    case 1: rows<TransposeA, 1>(n, k, a + i * rowStep, lda, b, ldb, c + i * ldc, ldc); break;
    default: break;
    }
}

}  // namespace

void headProduct(bool transposeA, Index m, Index n, Index k, const Scalar* a, Index lda, const Scalar* b, Index ldb,
                 Scalar* c, Index ldc) {
    if (transposeA) product<true>(m, n, k, a, lda, b, ldb, c, ldc);
    else product<false>(m, n, k, a, lda, b, ldb, c, ldc);
}

}  // namespace skynnet
