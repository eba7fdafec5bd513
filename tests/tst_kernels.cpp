// The GEMM kernel interface: every backend against a plain triple loop in double, for every
// transpose combination, alpha and beta, strided storage and the shape classes gemm() routes.
#include <QtTest>

#include <cmath>
#include <tuple>

#include "core/gemm.h"
#include "core/parallel.h"
#include "core/rng.h"

#include "test_support.h"

using namespace skynnet;

namespace {

// A stored matrix with a row stride wider than its columns (padding filled with NaN, which must
// never reach a result).
struct Stored {
    Index rows, cols, ld;
    std::vector<Scalar> v;
    Stored(Index r, Index c, Index pad, Rng& rng) : rows(r), cols(c), ld(c + pad), v(std::size_t(r * (c + pad))) {
        for (Index i = 0; i < r; ++i)
            for (Index j = 0; j < ld; ++j) at(i, j) = j < c ? rng.uniform(-1, 1) : std::nanf("");
    }
    Scalar& at(Index i, Index j) { return v[std::size_t(i * ld + j)]; }
    Scalar at(Index i, Index j) const { return v[std::size_t(i * ld + j)]; }
};

// op(X)(i, j) from X as stored.
Scalar element(const Stored& x, Op op, Index i, Index j) { return op == Op::None ? x.at(i, j) : x.at(j, i); }

}  // namespace

class TestKernels : public QObject {
    Q_OBJECT
private slots:
    void everyBackendComputesTheProduct_data() {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("k");
        QTest::newRow("small odd") << 5 << 7 << 3;
        QTest::newRow("dense slice") << 64 << 40 << 70;
        QTest::newRow("thin inner into wide output") << 9 << 130 << 10;
        QTest::newRow("tall im2col") << 2100 << 17 << 33;
    }
    void everyBackendComputesTheProduct() {
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, k);
        Rng rng(11);
        for (Op opA : {Op::None, Op::Transpose})
            for (Op opB : {Op::None, Op::Transpose}) {
                const Stored a = opA == Op::None ? Stored(m, k, 3, rng) : Stored(k, m, 2, rng);
                const Stored b = opB == Op::None ? Stored(k, n, 1, rng) : Stored(n, k, 4, rng);
                const Stored c0(m, n, 5, rng);
                for (GemmBackend backend : kGemmBackends)
                    for (const auto& [alpha, beta] :
                         {std::pair{1.0f, 0.0f}, std::pair{-0.5f, 1.0f}, std::pair{2.0f, 0.25f}}) {
                        Stored c = c0;
                        gemmWith(backend, opA, opB, m, n, k, alpha, a.v.data(), a.ld, b.v.data(), b.ld, beta,
                                 c.v.data(), c.ld);
                        double worst = 0;
                        for (Index i = 0; i < m; ++i)
                            for (Index j = 0; j < n; ++j) {
                                double sum = 0;
                                for (Index p = 0; p < k; ++p)
                                    sum += double(element(a, opA, i, p)) * double(element(b, opB, p, j));
                                const double want = alpha * sum + beta * double(c0.at(i, j));
                                worst = std::max(worst, std::abs(double(c.at(i, j)) - want));
                            }
                        // The padding after each row of C is left alone.
                        for (Index i = 0; i < m; ++i)
                            for (Index j = n; j < c.ld; ++j) QVERIFY(std::isnan(c.at(i, j)));
                        const std::string where = std::string(gemmBackendName(backend)) +
                                                  (opA == Op::None ? " N" : " T") + (opB == Op::None ? "N" : "T") +
                                                  " alpha " + std::to_string(alpha) + " beta " + std::to_string(beta) +
                                                  ": " + std::to_string(worst);
                        QVERIFY2(worst < 1e-5 * std::sqrt(double(k)) * 4, where.c_str());
                    }
            }
    }

    void betaZeroNeverReadsC() {
        Rng rng(2);
        const Stored a(4, 6, 0, rng), b(6, 5, 0, rng);
        for (GemmBackend backend : kGemmBackends) {
            std::vector<Scalar> c(20, std::nanf(""));
            gemmWith(backend, Op::None, Op::None, 4, 5, 6, 1, a.v.data(), 6, b.v.data(), 5, 0, c.data(), 5);
            for (Scalar v : c) QVERIFY2(std::isfinite(v), gemmBackendName(backend));
            // No inner dimension: C = beta C, zero for beta 0 whatever C held.
            gemmWith(backend, Op::None, Op::None, 4, 5, 0, 1, a.v.data(), 1, b.v.data(), 5, 0, c.data(), 5);
            for (Scalar v : c) QCOMPARE(v, 0.0f);
        }
    }

    void routesAroundNarrowLibraries() {
        // The shape's choice where the library has full-width kernels for this CPU, oneDNN
        // otherwise, or where it is narrow too, Eigen but OpenBLAS into 16 columns or fewer.
        const std::tuple<Op, Index, Index, Index> shapes[] = {{Op::None, 64, 256, 10},        {Op::None, 7744, 64, 288},
                                                              {Op::Transpose, 64, 288, 7744}, {Op::None, 128, 512, 784},
                                                              {Op::None, 128, 10, 256},       {Op::None, 32, 9, 43264}};
        for (const auto& [opA, m, n, k] : shapes) {
            const GemmBackend byShape = gemmBackendByShape(opA, Op::None, m, n, k);
            const GemmBackend expected = gemmBackendFullWidth(byShape)                 ? byShape
                                         : gemmBackendFullWidth(GemmBackend::OneDnn)   ? GemmBackend::OneDnn
                                         : n <= 16 && byShape == GemmBackend::OpenBlas ? GemmBackend::OpenBlas
                                                                                       : GemmBackend::Eigen;
            QCOMPARE(gemmBackendFor(opA, Op::None, m, n, k), expected);
        }
        QVERIFY(gemmBackendFullWidth(GemmBackend::Eigen));
    }

    void routesEachShapeClass() {
        QCOMPARE(gemmBackendByShape(Op::None, Op::Transpose, 64, 256, 10), GemmBackend::Eigen);
        QCOMPARE(gemmBackendByShape(Op::None, Op::Transpose, 7744, 64, 288), GemmBackend::Blis);
        QCOMPARE(gemmBackendByShape(Op::None, Op::None, 7744, 288, 64), GemmBackend::Blis);
        QCOMPARE(gemmBackendByShape(Op::Transpose, Op::None, 64, 288, 7744), GemmBackend::OpenBlas);
        QCOMPARE(gemmBackendByShape(Op::None, Op::None, 128, 512, 784), GemmBackend::OpenBlas);
        QCOMPARE(gemmBackendByShape(Op::None, Op::Transpose, 43264, 32, 9), GemmBackend::OpenBlas);
        // Conv with patches as columns: the wide outputs and conv1's weight gradient.
        QCOMPARE(gemmBackendByShape(Op::None, Op::None, 32, 43264, 9), GemmBackend::Blis);
        QCOMPARE(gemmBackendByShape(Op::Transpose, Op::None, 288, 7744, 64), GemmBackend::Blis);
        QCOMPARE(gemmBackendByShape(Op::None, Op::Transpose, 32, 9, 43264), GemmBackend::Blis);
        QCOMPARE(gemmBackendByShape(Op::None, Op::Transpose, 64, 288, 7744), GemmBackend::OpenBlas);
    }

    void matrixFormChecksAndResizes() {
        Matrix a = Matrix::Random(3, 4), b = Matrix::Random(5, 4), c;
        gemm(a, Op::None, b, Op::Transpose, c);
        QCOMPARE(c.rows(), Index(3));
        QCOMPARE(c.cols(), Index(5));
        QVERIFY(c.isApprox(a * b.transpose(), 1e-5f));
        VERIFY_CONTAINS(errorOf([&] { gemm(a, Op::None, b, Op::None, c); }), "matrix product of 3x4 by 5x4");
    }

    void kernelsStaySingleThreadedAndDeterministic() {
        // The same product with 1 and 2 kernel threads on the calling thread: the same bits.
        Rng rng(5);
        const Stored a(300, 200, 0, rng), b(200, 150, 0, rng);
        for (GemmBackend backend : kGemmBackends) {
            bool restored = true;
            auto run = [&](int threads) {
                const KernelThreadScope scope(threads);
                std::vector<Scalar> c(300 * 150);
                gemmWith(backend, Op::None, Op::None, 300, 150, 200, 1, a.v.data(), 200, b.v.data(), 150, 0, c.data(),
                         150);
                restored = restored && kernelThreads() == threads;  // the kernel's own scope is undone
                return c;
            };
            QVERIFY2(run(1) == run(2), gemmBackendName(backend));
            QVERIFY(restored);
        }
    }

    void bitsDoNotDependOnWhereTheMatricesLie() {
        // A batch slice runs on the master network or on a replica, whose weights and buffers lie
        // elsewhere: a kernel whose summation order followed the addresses would make the weights
        // depend on which thread took which slice.
        Rng rng(6);
        const Index m = 64, n = 70, k = 130;
        const Stored a(m, k, 0, rng), b(k, n, 0, rng);
        for (GemmBackend backend : kGemmBackends)
            for (Op opB : {Op::None, Op::Transpose}) {
                auto run = [&](std::size_t shift) {
                    // The same values, moved by `shift` floats from the vectors' own alignment.
                    std::vector<Scalar> as(a.v.size() + shift), bs(b.v.size() + shift), cs(std::size_t(m * n) + shift);
                    std::copy(a.v.begin(), a.v.end(), as.begin() + long(shift));
                    std::copy(b.v.begin(), b.v.end(), bs.begin() + long(shift));
                    gemmWith(backend, Op::None, opB, m, n, k, 1, as.data() + shift, k, bs.data() + shift,
                             opB == Op::None ? n : k, 0, cs.data() + shift, n);
                    return std::vector<Scalar>(cs.begin() + long(shift), cs.end());
                };
                const std::vector<Scalar> first = run(0);
                for (std::size_t shift : {1, 3, 16, 1024}) QVERIFY2(run(shift) == first, gemmBackendName(backend));
            }
    }
};

QTEST_APPLESS_MAIN(TestKernels)
#include "tst_kernels.moc"
