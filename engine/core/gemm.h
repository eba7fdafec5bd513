#pragma once
// The one matrix-product kernel every layer calls: C = alpha * op(A) * op(B) + beta * C on
// row-major float matrices. Behind it, the backend measured fastest for the shape on this machine
// (core/gemm_routing.h: `skynnet-cli tune`), or without a measurement the one measured fastest for
// the shape's class on these machines (tests/bench/gemm_bench.cpp prints the figures); every
// backend runs on the calling thread alone, so a product's floats never depend on how many
// threads a model has.
#include <string>

#include "core/tensor.h"

namespace skynnet {

enum class Op { None, Transpose };

// op(A) is m x k, op(B) is k x n, C is m x n; lda, ldb, ldc are the row strides as stored.
// With beta == 0, C's old values are never read (NaN in C stays out of the result).
void gemm(Op opA, Op opB, Index m, Index n, Index k, Scalar alpha, const Scalar* a, Index lda, const Scalar* b,
          Index ldb, Scalar beta, Scalar* c, Index ldc);

// The products of a convolution's im2col columns, one chunk of a few samples at a time (W x
// columns, g x columns^T, W^T x g): their shapes are a dense layer's too (64 x 363 x 288 against
// 64 x 512 x 784), but not their best backend, so they take it by name rather than by shape.
void gemmOnColumns(Op opA, Op opB, Index m, Index n, Index k, Scalar alpha, const Scalar* a, Index lda, const Scalar* b,
                   Index ldb, Scalar beta, Scalar* c, Index ldc);

// c = op(a) * op(b), c resized to fit.
void gemm(const Matrix& a, Op opA, const Matrix& b, Op opB, Matrix& c);

enum class GemmBackend { Eigen, OpenBlas, Blis, OneDnn };
inline constexpr GemmBackend kGemmBackends[] = {GemmBackend::Eigen, GemmBackend::OpenBlas, GemmBackend::Blis,
                                                GemmBackend::OneDnn};
// The backend measured fastest for the shape's class where every library has kernels for the CPU.
GemmBackend gemmBackendByShape(Op opA, Op opB, Index m, Index n, Index k);
// Whether the library runs kernels for this CPU as wide as this build's vectors (a choice of the
// machine, fixed for the process: the floats still never depend on the threads).
bool gemmBackendFullWidth(GemmBackend backend);
// The backend gemm() takes for a product of this shape: by shape, oneDNN in place of a library
// that is narrower here (or, where oneDNN is narrower too, Eigen but OpenBLAS's products into 16
// columns or fewer).
GemmBackend gemmBackendFor(Op opA, Op opB, Index m, Index n, Index k);
// The backend gemmOnColumns takes without a measurement.
GemmBackend gemmBackendForColumns();
// The libraries' versions and the kernels each runs on this CPU, as one line.
std::string gemmLibrariesText();
const char* gemmBackendName(GemmBackend backend);
// One backend's product, whatever the shape (benchmarks, tests comparing the backends).
void gemmWith(GemmBackend backend, Op opA, Op opB, Index m, Index n, Index k, Scalar alpha, const Scalar* a, Index lda,
              const Scalar* b, Index ldb, Scalar beta, Scalar* c, Index ldc);

}  // namespace skynnet
