#include "core/gemm.h"

#include <cblas.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

extern "C" {
#include <blis.h>
}
#include <oneapi/dnnl/dnnl.h>

#include "core/error.h"
#include "core/gemm_routing.h"
#include "core/parallel.h"
#include "core/work_profile.h"

namespace skynnet {
namespace {

using RowMajor = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstView = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;
using View = Eigen::Map<RowMajor, 0, Eigen::OuterStride<>>;

void eigenGemm(Op opA, Op opB, Index m, Index n, Index k, Scalar alpha, const Scalar* a, Index lda, const Scalar* b,
               Index ldb, Scalar beta, Scalar* c, Index ldc) {
    // A as stored: k x m when op transposes it.
    const ConstView A(a, opA == Op::None ? m : k, opA == Op::None ? k : m, Eigen::OuterStride<>(lda));
    const ConstView B(b, opB == Op::None ? k : n, opB == Op::None ? n : k, Eigen::OuterStride<>(ldb));
    View C(c, m, n, Eigen::OuterStride<>(ldc));
    if (beta == 0) C.setZero();
    else if (beta != 1) C *= beta;
    if (opA == Op::None && opB == Op::None) C.noalias() += alpha * A * B;
    else if (opA == Op::None) C.noalias() += alpha * A * B.transpose();
    else if (opB == Op::None) C.noalias() += alpha * A.transpose() * B;
    else C.noalias() += alpha * A.transpose() * B.transpose();
}

void openBlasGemm(Op opA, Op opB, Index m, Index n, Index k, Scalar alpha, const Scalar* a, Index lda, const Scalar* b,
                  Index ldb, Scalar beta, Scalar* c, Index ldc) {
    cblas_sgemm(CblasRowMajor, opA == Op::None ? CblasNoTrans : CblasTrans, opB == Op::None ? CblasNoTrans : CblasTrans,
                blasint(m), blasint(n), blasint(k), alpha, a, blasint(lda), b, blasint(ldb), beta, c, blasint(ldc));
}

void blisGemm(Op opA, Op opB, Index m, Index n, Index k, Scalar alpha, const Scalar* a, Index lda, const Scalar* b,
              Index ldb, Scalar beta, Scalar* c, Index ldc) {
    // One thread whatever BLIS_NUM_THREADS or OMP_NUM_THREADS say; row-major is row stride ld,
    // column stride 1 in BLIS's general strides.
    rntm_t rntm = BLIS_RNTM_INITIALIZER;
    bli_rntm_set_num_threads(1, &rntm);
    bli_sgemm_ex(opA == Op::None ? BLIS_NO_TRANSPOSE : BLIS_TRANSPOSE,
                 opB == Op::None ? BLIS_NO_TRANSPOSE : BLIS_TRANSPOSE, m, n, k, &alpha, const_cast<Scalar*>(a), lda, 1,
                 const_cast<Scalar*>(b), ldb, 1, &beta, c, ldc, 1, nullptr, &rntm);
}

void oneDnnGemm(Op opA, Op opB, Index m, Index n, Index k, Scalar alpha, const Scalar* a, Index lda, const Scalar* b,
                Index ldb, Scalar beta, Scalar* c, Index ldc) {
    // Row-major, like ours. It runs on omp_get_max_threads() threads: 1 here (gemmWith's scope).
    const dnnl_status_t status = dnnl_sgemm(opA == Op::None ? 'N' : 'T', opB == Op::None ? 'N' : 'T', m, n, k, alpha, a,
                                            lda, b, ldb, beta, c, ldc);
    if (status != dnnl_success) throw Error("oneDNN sgemm failed with status " + std::to_string(int(status)));
}

}  // namespace

const char* gemmBackendName(GemmBackend backend) {
    switch (backend) {
    case GemmBackend::Eigen: return "eigen";
    case GemmBackend::OpenBlas: return "openblas";
    case GemmBackend::Blis: return "blis";
    case GemmBackend::OneDnn: return "onednn";
    }
    return "eigen";
}

// The classes and their figures on a Zen 3 core (skynnet-gemm-bench, GFLOP/s of a 92 peak):
// - a wide output (conv's products with patches as columns: W x columns 32 x 43264 x 9 and
//   64 x 7744 x 288, W^T x gradient 288 x 7744 x 64): BLIS 64, 79 and 78, against Eigen 41, 29
//   and 30 and OpenBLAS 29, 72 and 35;
// - a long inner dimension into a narrow output (conv1's weight gradient, 32 x 9 x 43264): BLIS 60,
//   OpenBLAS 30, Eigen 29;
// - a short inner dimension into a wide output (dense dX of 256-10, k = 10, n = 256): Eigen 41-46,
//   OpenBLAS 30-32, BLIS 13;
// - a tall product of a plain A with an inner dimension worth packing (patches as rows: 7744 x 64
//   x 288 and 7744 x 288 x 64): BLIS 71 and 87, OpenBLAS 61 and 68;
// - everything else (the dense products of batch slices, the weight gradients of conv2, 64 x 288
//   x 7744, and of dense layers): OpenBLAS 69-84 on the large ones, against Eigen 22-59 and BLIS
//   35-86.
GemmBackend gemmBackendByShape(Op opA, Op, Index m, Index n, Index k) {
    if (n >= 2048) return GemmBackend::Blis;
    if (k >= 2048 && n <= 16) return GemmBackend::Blis;
    if (k <= 16 && n >= 128) return GemmBackend::Eigen;
    if (opA == Op::None && m >= 2048 && k >= 32) return GemmBackend::Blis;
    return GemmBackend::OpenBlas;
}

namespace {

std::string lowercase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

}  // namespace

bool gemmBackendFullWidth(GemmBackend backend) {
    switch (backend) {
    case GemmBackend::Eigen: return true;
    case GemmBackend::OpenBlas: {
#if defined(__AVX512F__)
        // Its AVX-512 kernels; Debian's 0.3.21 takes its Haswell ones on CPUs it does not know
        // (a Zen 5: 41-47% of the FMA peak on the dense products, against Eigen's 55-65%).
        static const bool wide = [] {
            const std::string core = lowercase(openblas_get_corename());
            return core == "skylakex" || core == "cooperlake" || core == "sapphirerapids";
        }();
        return wide;
#else
        return true;
#endif
    }
    case GemmBackend::Blis: {
        // BLIS 0.9 runs its generic kernels on a CPU it does not know (a Zen 5: 4-15% of the peak).
        static const bool known = lowercase(bli_arch_string(bli_arch_query_id())) != "generic";
        return known;
    }
    case GemmBackend::OneDnn: {
        // oneDNN picks its kernels by the CPU's instruction sets, not by its model name.
#if defined(__AVX512F__) || defined(__AVX2__)
#if defined(__AVX512F__)
        constexpr dnnl_cpu_isa_t buildWidth = dnnl_cpu_isa_avx512_core;
#else
        constexpr dnnl_cpu_isa_t buildWidth = dnnl_cpu_isa_avx2;
#endif
        static const bool wide = (dnnl_get_effective_cpu_isa() & buildWidth) == buildWidth;
#else
        constexpr bool wide = true;  // a build for the baseline x86-64 has SSE's 4 lanes: oneDNN has them all
#endif
        return wide;
    }
    }
    return true;
}

GemmBackend gemmBackendFor(Op opA, Op opB, Index m, Index n, Index k) {
    const GemmBackend byShape = gemmBackendByShape(opA, opB, m, n, k);
    if (gemmBackendFullWidth(byShape)) return byShape;
    // oneDNN in place of a library whose kernels are narrower here: on a Zen 5 (skynnet-gemm-bench,
    // one core of a 253-261 GFLOP/s peak) 224-244 GFLOP/s on the dense products of 784-512 and
    // 512-256 slices, where Eigen gives 157-173, OpenBLAS's Haswell kernels 110-122 and BLIS's
    // generic ones 38-40; 112-195 on those of the 10-unit output layer (Eigen 48-113, OpenBLAS
    // 67-95); 166-254 on conv2's im2col products (Eigen 110-170).
    if (gemmBackendFullWidth(GemmBackend::OneDnn)) return GemmBackend::OneDnn;
    // Eigen otherwise, but on the products into 16 columns or fewer (the output layer's 10 units),
    // where OpenBLAS's narrow kernels still match or beat it (Zen 5: 51-59 GFLOP/s against 31-57).
    return n <= 16 && byShape == GemmBackend::OpenBlas ? GemmBackend::OpenBlas : GemmBackend::Eigen;
}

namespace {

// One backend's product; `columns` names a convolution's im2col product in the work profile.
void product(GemmBackend backend, bool columns, Op opA, Op opB, Index m, Index n, Index k, Scalar alpha,
             const Scalar* a, Index lda, const Scalar* b, Index ldb, Scalar beta, Scalar* c, Index ldc) {
    if (m == 0 || n == 0) return;
    if (k == 0) {
        // No product to add: C = beta C (the libraries' quick return leaves C untouched).
        View C(c, m, n, Eigen::OuterStride<>(ldc));
        if (beta == 0) C.setZero();
        else C *= beta;
        return;
    }
    // Single-threaded outside a parallel region too (OpenBLAS takes the caller's OpenMP budget):
    // kernels run on the thread that calls them, parallelism is the batch split's.
    const KernelThreadScope serial(1);
    const workprofile::WorkTimer timer;
    switch (backend) {
    case GemmBackend::Eigen: eigenGemm(opA, opB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;
    case GemmBackend::OpenBlas: openBlasGemm(opA, opB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;
    case GemmBackend::Blis: blisGemm(opA, opB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;
    case GemmBackend::OneDnn: oneDnnGemm(opA, opB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;
    default: throw Error(std::string("unknown GEMM backend ") + gemmBackendName(backend));
    }
    if (timer.running()) {
        const GemmShape shape{opA, opB, m, n, k, columns};
        timer.record("product " + gemmShapeText(shape) + " " + gemmBackendName(backend), gemmShapeFlop(shape));
    }
}

}  // namespace

void gemmWith(GemmBackend backend, Op opA, Op opB, Index m, Index n, Index k, Scalar alpha, const Scalar* a, Index lda,
              const Scalar* b, Index ldb, Scalar beta, Scalar* c, Index ldc) {
    product(backend, false, opA, opB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm(Op opA, Op opB, Index m, Index n, Index k, Scalar alpha, const Scalar* a, Index lda, const Scalar* b,
          Index ldb, Scalar beta, Scalar* c, Index ldc) {
    product(gemmRoute({opA, opB, m, n, k, false}), false, opA, opB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// skynnet-gemm-bench's chunk rows ("x3": 3 samples of conv64 3x3 on 32x13x13, "x4": 4 of conv32
// 3x3 on 28x28), GFLOP/s of a 118 peak: BLIS 90, 91 and 103 for W x columns, g x columns^T and
// W^T x g of conv2, against OpenBLAS 68, 92 and 86 and Eigen 65, 73 and 71; BLIS 83 and 82 for
// conv1's two, against Eigen 55 and 39 and OpenBLAS 36 and 28.
// Where BLIS runs its generic kernels, oneDNN: 192-254 GFLOP/s on a Zen 5 (but 64-65 on conv1's
// g x columns^T into 9 columns, where Eigen gives 66-73), against BLIS 14-40; else Eigen.
GemmBackend gemmBackendForColumns() {
    return gemmBackendFullWidth(GemmBackend::Blis)     ? GemmBackend::Blis
           : gemmBackendFullWidth(GemmBackend::OneDnn) ? GemmBackend::OneDnn
                                                       : GemmBackend::Eigen;
}

void gemmOnColumns(Op opA, Op opB, Index m, Index n, Index k, Scalar alpha, const Scalar* a, Index lda, const Scalar* b,
                   Index ldb, Scalar beta, Scalar* c, Index ldc) {
    product(gemmRoute({opA, opB, m, n, k, true}), true, opA, opB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

std::string gemmLibrariesText() {
    const dnnl_version_t* dnnl = dnnl_version();
    char blisVersion[64];
    std::snprintf(blisVersion, sizeof blisVersion, "%s", bli_info_get_version_str());
    return std::string(openblas_get_config()) + " core " + openblas_get_corename() + ", BLIS " + blisVersion + " " +
           bli_arch_string(bli_arch_query_id()) + ", oneDNN " + std::to_string(dnnl->major) + "." +
           std::to_string(dnnl->minor) + "." + std::to_string(dnnl->patch) + " isa " +
           std::to_string(int(dnnl_get_effective_cpu_isa()));
}

void gemm(const Matrix& a, Op opA, const Matrix& b, Op opB, Matrix& c) {
    const Index m = opA == Op::None ? a.rows() : a.cols(), k = opA == Op::None ? a.cols() : a.rows();
    const Index kb = opB == Op::None ? b.rows() : b.cols(), n = opB == Op::None ? b.cols() : b.rows();
    if (k != kb)
        throw Error("matrix product of " + std::to_string(m) + "x" + std::to_string(k) + " by " + std::to_string(kb) +
                    "x" + std::to_string(n));
    c.resize(m, n);
    gemm(opA, opB, m, n, k, 1, a.data(), a.cols(), b.data(), b.cols(), 0, c.data(), c.cols());
}

}  // namespace skynnet
