#pragma once
// The small products of attention heads (Q K^T, A V and their gradients): a (T, dh) by (dh, T) or
// (T, T) by (T, dh) product per sample and head, far too small for the GEMM libraries (a call
// costs more than the product at T = dh = 16), and too many to afford their overhead. A register
// tile of 4 rows by one or two SIMD vectors of columns, the inner dimension in order: each entry
// is summed in the same order whatever the tile, so the floats depend on the build alone.
#include "core/tensor.h"

namespace skynnet {

// C (m x n) = op(A) B, overwriting C. A is (m x k) as stored, or (k x m) stored when transposeA;
// B is (k x n); lda, ldb, ldc are row strides.
void headProduct(bool transposeA, Index m, Index n, Index k, const Scalar* a, Index lda, const Scalar* b, Index ldb,
                 Scalar* c, Index ldc);

}  // namespace skynnet
