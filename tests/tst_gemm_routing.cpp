// The measured GEMM routing: the shapes a network runs, the timing that picks a backend per shape,
// the cache that keeps it per machine, the routes a process records, and the refusal to resume a
// checkpoint made under other routes.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cstring>

#include "core/gemm_routing.h"
#include "io/atomic_file.h"
#include "io/gemm_routing_file.h"
#include "model/network.h"
#include "project/checkpoint_file.h"
#include "spec/layer_spec.h"
#include "spec_support.h"
#include "test_support.h"
#include "train/gemm_tuning.h"

using namespace skynnet;

namespace {

bool contains(const std::vector<GemmShape>& shapes, const GemmShape& s) {
    return std::find(shapes.begin(), shapes.end(), s) != shapes.end();
}

NetworkSpec mlpSpec() { return networkOf(Shape::flat(784), "dense:512:relu,dense:256:relu", Task::Classification, 10); }

// A backend other than the rules' choice for the shape, so that a table entry visibly changes it.
GemmBackend otherThanRules(const GemmShape& s) {
    return gemmRuleRoute(s) == GemmBackend::Eigen ? GemmBackend::OpenBlas : GemmBackend::Eigen;
}

GemmRouting tableRouting(const GemmShape& s, GemmBackend b) {
    GemmRouting r;
    r.machine = gemmMachineKey();
    r.routes[s] = b;
    return r;
}

}  // namespace

class TestGemmRouting : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { installGemmRouting({}); }

    void shapeTextRoundTrips() {
        for (const GemmShape& s : {GemmShape{Op::None, Op::Transpose, 64, 512, 784, false},
                                   GemmShape{Op::Transpose, Op::None, 288, 1452, 64, true}})
            QCOMPARE(gemmShapeFromText(gemmShapeText(s)), s);
        QCOMPARE(gemmShapeText({Op::None, Op::Transpose, 64, 512, 784, false}), std::string("NT 64x512x784"));
        QCOMPARE(gemmShapeText({Op::Transpose, Op::None, 3, 4, 5, true}), std::string("cols TN 3x4x5"));
        for (const char* bad : {"", "NN 1x2", "XN 1x2x3", "NN 0x2x3", "NN 1x2x3 extra", "cols"})
            QVERIFY2(errorOf([&] { gemmShapeFromText(bad); }).find("is not a product shape") != std::string::npos, bad);
        for (GemmBackend b : kGemmBackends) QCOMPARE(gemmBackendFromName(gemmBackendName(b)), b);
        QVERIFY(errorOf([] { gemmBackendFromName("mkl"); }).find("unknown GEMM backend 'mkl'") != std::string::npos);
    }

    // One training step of the MLP, its short last batch and its evaluation: the products the
    // tuner then times are exactly those the network computes.
    void recordsTheShapesANetworkRuns() {
        GemmTuningNetwork n{mlpSpec(), TrainConfig{}, Task::Classification, 1000, 300};
        n.config.batchSize = 128;
        const std::vector<GemmShape> shapes = gemmShapesOf({n});
        // Evaluation of 300 rows in one chunk: the forward products of the whole chunk.
        QVERIFY(contains(shapes, {Op::None, Op::None, 300, 512, 784, false}));
        QVERIFY(contains(shapes, {Op::None, Op::None, 300, 10, 256, false}));
        // Training: the weight gradient of the first layer over a slice of the batch, for some
        // slice of the full batch and some of the last one (1000 = 7 x 128 + 104).
        std::vector<Index> sliceRows;
        for (const GemmShape& s : shapes)
            if (s.opA == Op::Transpose && s.m == 784 && s.n == 512) sliceRows.push_back(s.k);
        QVERIFY2(sliceRows.size() >= 2, "a full batch's slices and the last batch's");
        for (Index rows : sliceRows) QVERIFY(rows <= 128);
        // Nothing else computes while recording: every shape belongs to the MLP's layers.
        for (const GemmShape& s : shapes) {
            const Index dims[] = {784, 512, 256, 10};
            const bool fits = std::any_of(std::begin(dims), std::end(dims),
                                          [&](Index d) { return s.m == d || s.n == d || s.k == d; });
            QVERIFY2(fits, gemmShapeText(s).c_str());
        }
    }

    // Every full-width backend is timed, and the route is the rules' choice or a backend that beat
    // it by the margin.
    void measuresEachBackendAndChoosesAFastOne() {
        const std::vector<GemmShape> shapes{{Op::None, Op::None, 64, 256, 512, false},
                                            {Op::None, Op::Transpose, 64, 256, 10, false}};
        int reported = 0;
        const auto routes = measureGemmRoutes(shapes, 0.02, [&](int done, int total) {
            QCOMPARE(total, 2);
            QCOMPARE(done, ++reported);
        });
        QCOMPARE(int(routes.size()), 2);
        for (const GemmMeasuredRoute& r : routes) {
            for (GemmBackend b : kGemmBackends) QCOMPARE(r.gflops.count(b) == 1, gemmBackendFullWidth(b));
            for (const auto& [b, gflops] : r.gflops) QVERIFY2(gflops > 0.01 && gflops < 1e4, gemmBackendName(b));
            const GemmBackend rule = gemmRuleRoute(r.shape);
            if (r.backend != rule) QVERIFY(r.gflops.at(r.backend) >= 1.03 * r.gflops.at(rule));
            for (const auto& [b, gflops] : r.gflops)
                if (b != rule) QVERIFY(r.gflops.at(r.backend) >= gflops || r.backend == rule);
        }
    }

    // gemm() follows the installed table for its shapes and the rules elsewhere, and the process
    // records each route it took; the product is the chosen backend's, bit for bit.
    void gemmFollowsTheInstalledTable() {
        const GemmShape s{Op::None, Op::None, 37, 29, 23, false};
        const GemmBackend forced = otherThanRules(s);
        installGemmRouting(tableRouting(s, forced));
        QCOMPARE(installedGemmRoutes(), std::size_t(1));
        QCOMPARE(gemmRoute(s), forced);
        Matrix a = Matrix::Random(37, 23), b = Matrix::Random(23, 29), c, expected(37, 29);
        gemm(a, Op::None, b, Op::None, c);
        gemmWith(forced, Op::None, Op::None, 37, 29, 23, 1, a.data(), 23, b.data(), 29, 0, expected.data(), 29);
        QVERIFY(std::memcmp(c.data(), expected.data(), sizeof(Scalar) * std::size_t(c.size())) == 0);
        const GemmShape unmeasured{Op::None, Op::None, 37, 31, 23, false};
        QCOMPARE(gemmRoute(unmeasured), gemmRuleRoute(unmeasured));
        bool sawMeasured = false, sawRule = false;
        for (const GemmRouteUsed& u : gemmRoutesUsed()) {
            if (u.shape == s) sawMeasured = u.measured && u.backend == forced;
            if (u.shape == unmeasured) sawRule = !u.measured && u.backend == gemmRuleRoute(unmeasured);
        }
        QVERIFY(sawMeasured);
        QVERIFY(sawRule);
    }

    // The cache keeps a table per machine: a merge replaces a shape measured again, another
    // machine's table is kept but never used here, and a damaged file is refused by name.
    void cacheKeepsEachMachinesTable() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("routing.json").toStdString();
        qputenv("SKYNNET_GEMM_CACHE", path.c_str());
        QCOMPARE(gemmRoutingCachePath(), path);
        QVERIFY(readGemmRoutingCache(path).machines.empty());

        const GemmShape s{Op::None, Op::None, 64, 256, 512, false}, t{Op::Transpose, Op::None, 512, 256, 64, false};
        GemmRoutingCache cache;
        cache.merge("another CPU", "2026-01-01T00:00:00Z", {{s, GemmBackend::Blis, {{GemmBackend::Blis, 50.0}}}});
        cache.merge(gemmMachineKey(), "", {{s, GemmBackend::Eigen, {{GemmBackend::Eigen, 40.0}}}});
        cache.merge(gemmMachineKey(), "", {{s, otherThanRules(s), {}}, {t, GemmBackend::OpenBlas, {}}});
        writeGemmRoutingCache(path, cache);

        const GemmRoutingCache read = readGemmRoutingCache(path);
        QCOMPARE(int(read.machines.size()), 2);
        const GemmMachineRoutes* mine = read.forMachine(gemmMachineKey());
        QVERIFY(mine);
        QCOMPARE(int(mine->routes.size()), 2);
        QVERIFY(!mine->tuned.empty());
        QCOMPARE(read.forMachine("another CPU")->routes.at(0).gflops.at(GemmBackend::Blis), 50.0);

        const GemmRoutingLoad load = loadGemmRoutingCache();
        QVERIFY(load.warning.empty());
        QVERIFY2(load.summary.find("2 product shapes measured on this machine") != std::string::npos,
                 load.summary.c_str());
        QCOMPARE(installedGemmRoutes(), std::size_t(2));
        QCOMPARE(gemmRoute(s), otherThanRules(s));

        // Only another machine's table: the rules.
        GemmRoutingCache foreign;
        foreign.merge("another CPU", "", {{s, GemmBackend::Blis, {}}});
        writeGemmRoutingCache(path, foreign);
        QVERIFY(loadGemmRoutingCache().summary.find("no table for this machine") != std::string::npos);
        QCOMPARE(installedGemmRoutes(), std::size_t(0));

        // Damaged: a warning naming the file and field, and the rules.
        writeFileAtomically(path, R"({"kind": "skynnet-gemm-routing", "version": 1, "machines": [{"machine": ")" +
                                      gemmMachineKey() +
                                      R"(", "routes": [{"shape": "NN 1x2", "backend": "eigen"}]}]})");
        const GemmRoutingLoad damaged = loadGemmRoutingCache();
        QVERIFY2(damaged.warning.find(path) != std::string::npos, damaged.warning.c_str());
        QVERIFY2(damaged.warning.find("machines[0].routes[0].shape") != std::string::npos, damaged.warning.c_str());
        QCOMPARE(installedGemmRoutes(), std::size_t(0));
        writeFileAtomically(path, "[1, 2]");
        QVERIFY(loadGemmRoutingCache().warning.find("is not a GEMM routing cache") != std::string::npos);
        qunsetenv("SKYNNET_GEMM_CACHE");
    }

    // A checkpoint records the routes its process used; loading it under a routing that sends one
    // of them elsewhere is refused with the shape and both backends named, and allowed under the
    // same routing.
    void resumeRefusesACheckpointOfOtherRoutes() {
        const NetworkSpec spec = networkOf(Shape::flat(6), "dense:5:relu", Task::Classification, 3);
        Network network(spec, 3);
        const GemmShape s{Op::None, Op::None, 7, 5, 6, false};
        installGemmRouting(tableRouting(s, otherThanRules(s)));
        network.predict(Matrix::Random(7, 6), nullptr, 0);  // routes NN 7x5x6 through the table
        QTemporaryDir dir;
        const std::string path = dir.filePath("submodel-1.ckpt").toStdString();
        const CheckpointRunKey key{"p", "c", "d"};
        SubmodelResume r;
        r.finished = true;
        r.result.status = TrainStatus::Completed;
        r.weights = network.flatWeights();
        saveCheckpointFile(path, key, 0, r);
        QCOMPARE(errorOf([&] { loadCheckpointFile(path, key, 0, network); }), std::string("(no error)"));
        installGemmRouting({});  // the rules: that shape now goes elsewhere
        const std::string error = errorOf([&] { loadCheckpointFile(path, key, 0, network); });
        QVERIFY2(error.find("other matrix-product routes") != std::string::npos, error.c_str());
        QVERIFY2(error.find("NN 7x5x6 ran on " + std::string(gemmBackendName(otherThanRules(s)))) != std::string::npos,
                 error.c_str());
        QVERIFY2(error.find(path) != std::string::npos, error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestGemmRouting)
#include "tst_gemm_routing.moc"
