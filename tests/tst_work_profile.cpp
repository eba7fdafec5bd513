// The work profile behind skynnet-bench's "where the time went": each product timed under its
// shape and backend with its exact floating-point operations, threads held counting their wall
// time each, nothing recorded while it is off, and a training epoch's products adding up to the
// network's own count of them, with its layers' passes, updates, gathers and idle threads counted.
#include <QtTest>
#include <chrono>
#include <thread>

#include "core/gemm.h"
#include "core/rng.h"
#include "core/work_profile.h"
#include "model/network.h"
#include "spec_support.h"
#include "train/trainer.h"

using namespace skynnet;

namespace {

const workprofile::Entry* find(const std::vector<workprofile::Entry>& entries, const std::string& name) {
    for (const auto& e : entries)
        if (e.name == name) return &e;
    return nullptr;
}

// Runs f with profiling on, from an empty table, and leaves it off whatever f does.
template <class F>
std::vector<workprofile::Entry> profiled(F&& f) {
    workprofile::clear();
    workprofile::setEnabled(true);
    try {
        f();
    } catch (...) {
        workprofile::setEnabled(false);
        throw;
    }
    workprofile::setEnabled(false);
    return workprofile::entries();
}

}  // namespace

class TestWorkProfile : public QObject {
    Q_OBJECT
private slots:
    void cleanup() {
        workprofile::setEnabled(false);
        workprofile::clear();
    }

    void productsAreTimedByShapeAndBackend() {
        Matrix a = Matrix::Random(8, 3), b = Matrix::Random(3, 4), c(8, 4);
        const auto entries = profiled([&] {
            for (int i = 0; i < 2; ++i)
                gemmWith(GemmBackend::OpenBlas, Op::None, Op::None, 8, 4, 3, 1, a.data(), 3, b.data(), 4, 0, c.data(),
                         4);
            gemmWith(GemmBackend::Eigen, Op::Transpose, Op::None, 3, 4, 8, 1, a.data(), 3, c.data(), 4, 0, b.data(), 4);
        });
        QCOMPARE(entries.size(), std::size_t(2));
        const auto* blas = find(entries, "product NN 8x4x3 openblas");
        const auto* eigen = find(entries, "product TN 3x4x8 eigen");
        QVERIFY(blas && eigen);
        QCOMPARE(blas->calls, std::int64_t(2));
        QCOMPARE(blas->flops, 2.0 * 2 * 8 * 4 * 3);
        QCOMPARE(eigen->calls, std::int64_t(1));
        QCOMPARE(eigen->flops, 2.0 * 3 * 4 * 8);
        QVERIFY(blas->seconds > 0 && eigen->seconds > 0);

        // Off, a product leaves the table as it was.
        gemmWith(GemmBackend::OpenBlas, Op::None, Op::None, 8, 4, 3, 1, a.data(), 3, b.data(), 4, 0, c.data(), 4);
        QCOMPARE(workprofile::entries().size(), std::size_t(2));
        QCOMPARE(find(workprofile::entries(), "product NN 8x4x3 openblas")->calls, std::int64_t(2));
    }

    // Work that holds a team counts its wall time once per thread; the table lists the most time first.
    void heldThreadsEachCountTheWallTime() {
        using namespace std::chrono_literals;
        const auto entries = profiled([] {
            {
                const workprofile::ScopedWork one("one thread", 1);
                std::this_thread::sleep_for(20ms);
            }
            const workprofile::ScopedWork two("two threads", 2);
            std::this_thread::sleep_for(20ms);
        });
        QCOMPARE(entries.size(), std::size_t(2));
        QVERIFY(entries[0].seconds >= entries[1].seconds);
        const auto* one = find(entries, "one thread");
        const auto* two = find(entries, "two threads");
        QVERIFY(one && two);
        QVERIFY2(two->seconds >= 0.040, std::to_string(two->seconds).c_str());
        QVERIFY2(one->seconds >= 0.020, std::to_string(one->seconds).c_str());
        QCOMPARE(two->calls, std::int64_t(1));
    }

    // An epoch of a 200-64-32-3 MLP on 300 rows in batches of 128 (two full, one of 44): its products
    // do 2 x in x out operations per row and layer forward, as many for each weight gradient, and as
    // many for each input gradient but the first layer's, which nothing needs. Its update runs once
    // a batch. The full batches are two slices of 64 rows on two threads; the short one is a single
    // slice on the calling thread; each slice's rows are gathered once.
    void anEpochsProductsAreTheNetworksOwn() {
        Network net(networkOf(Shape::flat(200), "dense:64:relu,dense:32:relu", Task::Classification, 3), 5);
        Rng rng(3);
        const Index rows = 300;
        Matrix x(rows, 200), y = Matrix::Zero(rows, 3);
        for (Index i = 0; i < x.size(); ++i) x.data()[i] = rng.uniform(-1.0f, 1.0f);
        for (Index i = 0; i < rows; ++i) y(i, Index(rng.below(3))) = 1;
        TrainConfig cfg;
        cfg.epochs = 1;
        cfg.batchSize = 128;
        cfg.threads = 2;
        Trainer trainer(net, cfg, Task::Classification);
        const auto entries = profiled([&] { trainer.trainEpoch(x, y, nullptr, nullptr); });

        double productFlops = 0;
        for (const auto& e : entries)
            if (e.name.rfind("product ", 0) == 0) productFlops += e.flops;
        const double forward = 200 * 64 + 64 * 32 + 32 * 3, inputGradients = 64 * 32 + 32 * 3;
        QCOMPARE(productFlops, 2.0 * rows * (2 * forward + inputGradients));
        const auto* update = find(entries, "optimizer update");
        QVERIFY(update);
        QCOMPARE(update->calls, std::int64_t(3));
        const auto* gather = find(entries, "gathering the slices' rows");
        QVERIFY(gather);
        QCOMPARE(gather->calls, std::int64_t(5));
        const auto* idle = find(entries, "threads idle in the slices' region");
        QVERIFY(idle);
        QCOMPARE(idle->calls, std::int64_t(2));
        QVERIFY(idle->seconds >= 0);
        // The first layer's forward pass runs once a slice: 2 + 2 + 1.
        const auto* firstForward = find(entries, "layer 1 dense forward");
        QVERIFY(firstForward);
        QCOMPARE(firstForward->calls, std::int64_t(5));
    }
};

QTEST_GUILESS_MAIN(TestWorkProfile)
#include "tst_work_profile.moc"
