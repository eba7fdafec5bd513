// GFLOP/s of this project's matrix products on one core, for each GEMM backend the machine has,
// as a share of the core's measured FMA peak: the dense layers' forward and backward products of
// the reference MLP 784-512-256-10 on 64- and 128-row batch slices, and the im2col products of
// the reference CNN's conv32 3x3 and conv64 3x3 on 28x28 (64-row slices). OpenBLAS and BLIS are
// opened at run time (both export cblas_sgemm: one process must not link both), each on this
// thread alone, as the engine calls its kernels. The last column is the engine's own gemm().
// Prints figures and asserts nothing.
//   skynnet-gemm-bench [SECONDS_PER_FIGURE=0.3] [conv: the conv layers only | TEXT: the products whose name has it]
#include <dlfcn.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "core/gemm.h"
#include "core/rng.h"
#include "cpu_time.h"
#include "fma_peak.h"
#include "io/gemm_routing_file.h"
#include "layers/conv2d.h"

using namespace skynnet;

namespace {

struct Product {
    std::string name;
    Op opA, opB;
    Index m, n, k;
};

// The products as the layers call them: Dense y = x W, dW = x^T g, dx = g W^T; Conv2D (im2col,
// W of filters x patch) y = P W^T, dW = g^T P, dP = g W.
std::vector<Product> shapes() {
    std::vector<Product> s;
    const Index dense[][2] = {{784, 512}, {512, 256}, {256, 10}};
    for (Index rows : {64, 128})
        for (const auto& d : dense) {
            const std::string tag = std::to_string(d[0]) + "-" + std::to_string(d[1]) + " b" + std::to_string(rows);
            s.push_back({"dense fwd " + tag, Op::None, Op::None, rows, d[1], d[0]});
            s.push_back({"dense dW  " + tag, Op::Transpose, Op::None, d[0], d[1], rows});
            if (d[0] != 784) s.push_back({"dense dX  " + tag, Op::None, Op::Transpose, rows, d[0], d[1]});
        }
    const Index slice = 64;
    // conv32 3x3 on 1x28x28: 26x26 positions, patch 9; conv64 3x3 on 32x13x13: 11x11, patch 288.
    const Index p1 = slice * 26 * 26, p2 = slice * 11 * 11;
    s.push_back({"conv1 fwd  P W^T", Op::None, Op::Transpose, p1, 32, 9});
    s.push_back({"conv1 dW   g^T P", Op::Transpose, Op::None, 32, 9, p1});
    s.push_back({"conv2 fwd  P W^T", Op::None, Op::Transpose, p2, 64, 288});
    s.push_back({"conv2 dW   g^T P", Op::Transpose, Op::None, 64, 288, p2});
    s.push_back({"conv2 dP   g W  ", Op::None, Op::None, p2, 288, 64});
    // The same products with patches as columns (patch x positions): y = W P, dW = g P^T, dP = W^T g.
    s.push_back({"conv1 fwd  W P   (cols)", Op::None, Op::None, 32, p1, 9});
    s.push_back({"conv1 dW   g P^T (cols)", Op::None, Op::Transpose, 32, 9, p1});
    s.push_back({"conv2 fwd  W P   (cols)", Op::None, Op::None, 64, p2, 288});
    s.push_back({"conv2 dW   g P^T (cols)", Op::None, Op::Transpose, 64, 288, p2});
    s.push_back({"conv2 dP   W^T g (cols)", Op::Transpose, Op::None, 288, p2, 64});
    // The products of one chunk of a few samples, as Conv2D runs them (Conv2D::chunkSamples).
    for (Index chunk : {1, 3, 6}) {
        const Index n = chunk * 11 * 11;
        const std::string tag = " x" + std::to_string(chunk);
        s.push_back({"conv2 fwd  W P  " + tag, Op::None, Op::None, 64, n, 288});
        s.push_back({"conv2 dW   g P^T" + tag, Op::None, Op::Transpose, 64, 288, n});
        s.push_back({"conv2 dP   W^T g" + tag, Op::Transpose, Op::None, 288, n, 64});
    }
    for (Index chunk : {1, 4}) {
        const Index n = chunk * 26 * 26;
        const std::string tag = " x" + std::to_string(chunk);
        s.push_back({"conv1 fwd  W P  " + tag, Op::None, Op::None, 32, n, 9});
        s.push_back({"conv1 dW   g P^T" + tag, Op::None, Op::Transpose, 32, 9, n});
    }
    return s;
}

using Kernel =
    std::function<void(Op, Op, Index, Index, Index, const Scalar*, Index, const Scalar*, Index, Scalar*, Index)>;

struct Backend {
    std::string name;
    Kernel run;
};

// CBLAS's enums (cblas.h) and BLIS's typed API (blis.h, 64-bit dim_t as Debian builds it).
using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*,
                            int);
using BliSgemm = void (*)(int, int, std::int64_t, std::int64_t, std::int64_t, const float*, const float*, std::int64_t,
                          std::int64_t, const float*, std::int64_t, std::int64_t, const float*, float*, std::int64_t,
                          std::int64_t);

std::vector<Backend> backends() {
    std::vector<Backend> b;
    b.push_back({"eigen", [](Op ta, Op tb, Index m, Index n, Index k, const Scalar* a, Index lda, const Scalar* bm,
                             Index ldb, Scalar* c, Index ldc) {
                     gemmWith(GemmBackend::Eigen, ta, tb, m, n, k, 1, a, lda, bm, ldb, 0, c, ldc);
                 }});
    if (void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL)) {
        auto f = reinterpret_cast<CblasSgemm>(dlsym(lib, "cblas_sgemm"));
        auto config = reinterpret_cast<char* (*)()>(dlsym(lib, "openblas_get_config"));
        auto core = reinterpret_cast<char* (*)()>(dlsym(lib, "openblas_get_corename"));
        if (f) {
            std::printf("openblas: %s, core %s\n", config ? config() : "?", core ? core() : "?");
            b.push_back({"openblas", [f](Op ta, Op tb, Index m, Index n, Index k, const Scalar* a, Index lda,
                                         const Scalar* bm, Index ldb, Scalar* c, Index ldc) {
                             f(101, ta == Op::Transpose ? 112 : 111, tb == Op::Transpose ? 112 : 111, int(m), int(n),
                               int(k), 1.0f, a, int(lda), bm, int(ldb), 0.0f, c, int(ldc));
                         }});
        }
    } else {
        std::printf("openblas: not installed (libopenblas-openmp-dev)\n");
    }
    if (void* lib = dlopen("libblis.so.4", RTLD_NOW | RTLD_LOCAL)) {
        auto f = reinterpret_cast<BliSgemm>(dlsym(lib, "bli_sgemm"));
        auto arch = reinterpret_cast<int (*)()>(dlsym(lib, "bli_arch_query_id"));
        auto archName = reinterpret_cast<const char* (*)(int)>(dlsym(lib, "bli_arch_string"));
        if (f) {
            std::printf("blis: arch %s\n", arch && archName ? archName(arch()) : "?");
            b.push_back({"blis", [f](Op ta, Op tb, Index m, Index n, Index k, const Scalar* a, Index lda,
                                     const Scalar* bm, Index ldb, Scalar* c, Index ldc) {
                             const float one = 1, zero = 0;
                             // Row-major: row stride = the leading dimension, column stride 1.
                             f(ta == Op::Transpose ? 8 : 0, tb == Op::Transpose ? 8 : 0, m, n, k, &one, a, lda, 1, bm,
                               ldb, 1, &zero, c, ldc, 1);
                         }});
        }
    } else {
        std::printf("blis: not installed (libblis-dev)\n");
    }
    b.push_back({"onednn", [](Op ta, Op tb, Index m, Index n, Index k, const Scalar* a, Index lda, const Scalar* bm,
                              Index ldb, Scalar* c, Index ldc) {
                     gemmWith(GemmBackend::OneDnn, ta, tb, m, n, k, 1, a, lda, bm, ldb, 0, c, ldc);
                 }});
    b.push_back(
        {"engine", [](Op ta, Op tb, Index m, Index n, Index k, const Scalar* a, Index lda, const Scalar* bm, Index ldb,
                      Scalar* c, Index ldc) { gemm(ta, tb, m, n, k, 1, a, lda, bm, ldb, 0, c, ldc); }});
    return b;
}

// Best GFLOP/s of repeated calls: many short batches timed in this thread's CPU time, so that on
// a shared machine some fall between the other processes' time slices and none counts their time.
double gflops(const Kernel& kernel, const Product& s, const std::vector<Scalar>& a, const std::vector<Scalar>& b,
              std::vector<Scalar>& c, double seconds) {
    const Index lda = s.opA == Op::None ? s.k : s.m, ldb = s.opB == Op::None ? s.n : s.k;
    const double flop = 2.0 * double(s.m) * double(s.n) * double(s.k);
    const auto run = [&] { kernel(s.opA, s.opB, s.m, s.n, s.k, a.data(), lda, b.data(), ldb, c.data(), s.n); };
    run();
    using Clock = std::chrono::steady_clock;
    const int perBatch = std::max(1, int(3e7 / flop));  // batches of at least ~30 MFLOP, far above the clock's jitter
    double best = 0;
    for (const auto end = Clock::now() + std::chrono::duration<double>(seconds); Clock::now() < end;) {
        const double t = bench::threadSeconds();
        for (int i = 0; i < perBatch; ++i) run();
        best = std::max(best, flop * perBatch / (bench::threadSeconds() - t) * 1e-9);
    }
    return best;
}

// The conv layers of the reference CNN as a whole (im2col, products, layout, col2im), forward
// and backward on a 64-row slice: GFLOP/s of forward + weight gradient (+ input gradient).
void convLayers(double seconds, double peak) {
    struct Case {
        const char* name;
        skynnet::Shape input;
        int filters;
        bool inputGrad;
    };
    const Case cases[] = {{"conv1 32 3x3 on 1x28x28", {1, 28, 28}, 32, false},
                          {"conv2 64 3x3 on 32x13x13", {32, 13, 13}, 64, true}};
    Rng rng(4);
    for (const Case& c : cases) {
        ConvOptions o;
        o.filters = c.filters;
        Conv2D conv(o, Init::He);
        conv.build(c.input, rng);
        Matrix x(64, c.input.size());
        for (Index i = 0; i < x.size(); ++i) x.data()[i] = rng.uniform(-1, 1);
        Matrix g = Matrix::Constant(64, conv.outputShape().size(), 0.01f);
        const double flop = double(conv.flopsPerSample()) * 64 * (c.inputGrad ? 3 : 2);
        using Clock = std::chrono::steady_clock;
        double best = 0;
        for (const auto end = Clock::now() + std::chrono::duration<double>(seconds); Clock::now() < end;) {
            const double t = bench::threadSeconds();
            conv.forward(x, true);
            conv.backward(g, c.inputGrad);
            best = std::max(best, flop / (bench::threadSeconds() - t) * 1e-9);
        }
        std::printf("%-26s forward+backward of 64 rows: %6.1f GFLOP/s (%4.0f%%)\n", c.name, best, 100 * best / peak);
    }
}

double maxDifference(const std::vector<Scalar>& x, const std::vector<Scalar>& y) {
    double d = 0;
    for (std::size_t i = 0; i < x.size(); ++i) d = std::max(d, double(std::abs(x[i] - y[i])));
    return d;
}

}  // namespace

int main(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 0.3;
    omp_set_num_threads(1);  // every backend on this thread alone, as in a batch slice
    const double peak = bench::fmaPeakGflops();
    std::printf("FMA peak, 1 core: %.1f GFLOP/s\n", peak);
    // The "engine" column is gemm() as training calls it: the routes measured here when tuned.
    std::printf("%s\n", loadGemmRoutingCache().summary.c_str());
    if (argc > 2 && std::string(argv[2]) == "conv") {  // the conv layers alone (profiling)
        convLayers(seconds, peak);
        return 0;
    }
    const std::vector<Backend> all = backends();
    std::printf("%-26s %6s %6s %6s", "product (m x n x k)", "m", "n", "k");
    for (const auto& b : all) std::printf(" %16s", b.name.c_str());
    std::printf("   fastest\n");
    const std::string only = argc > 2 ? argv[2] : "";
    Rng rng(3);
    for (const Product& s : shapes()) {
        if (s.name.find(only) == std::string::npos) continue;
        std::vector<Scalar> a(std::size_t(s.m * s.k)), b(std::size_t(s.k * s.n)), c(std::size_t(s.m * s.n));
        for (auto& v : a) v = rng.uniform(-1, 1);
        for (auto& v : b) v = rng.uniform(-1, 1);
        std::printf("%-26s %6ld %6ld %6ld", s.name.c_str(), long(s.m), long(s.n), long(s.k));
        std::vector<Scalar> reference;
        double best = 0;
        std::string fastest;
        for (const auto& backend : all) {
            const double g = gflops(backend.run, s, a, b, c, seconds);
            if (reference.empty()) reference = c;
            // A backend that computes another product is a bench bug, never a figure.
            const double diff = maxDifference(c, reference);
            if (diff > 1e-3 * std::sqrt(double(s.k))) {
                std::printf("\n%s differs from eigen by %g\n", backend.name.c_str(), diff);
                return 1;
            }
            std::printf(" %6.1f (%4.0f%%)  ", g, 100 * g / peak);
            if (backend.name != "engine" && g > best) {
                best = g;
                fastest = backend.name;
            }
        }
        std::printf("   %s\n", fastest.c_str());
    }
    if (only.empty()) convLayers(seconds * 3, peak);
    return 0;
}
