#include "train/gemm_tuning.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include "core/gemm_routing.h"
#include "core/rng.h"
#include "model/network.h"
#include "train/trainer.h"

namespace skynnet {

namespace {

// Random rows a network accepts, and targets of its task's kind: the products depend on the
// shapes alone, so any values that train without a NaN will do.
void randomRows(const NetworkSpec& spec, Task task, Index rows, Rng& rng, Matrix& x, Matrix& y) {
    x.resize(rows, spec.input.size());
    for (Index i = 0; i < x.size(); ++i) x.data()[i] = rng.uniform(0.0f, 1.0f);
    y = Matrix::Zero(rows, spec.outputs);
    for (Index r = 0; r < rows; ++r) {
        if (task == Task::Classification) y(r, Index(rng.below(std::uint64_t(spec.outputs)))) = 1;
        else
            for (Index c = 0; c < y.cols(); ++c)
                y(r, c) = task == Task::Binary ? Scalar(rng.below(2)) : rng.uniform(0.0f, 1.0f);
    }
}

void recordNetwork(const GemmTuningNetwork& n, Rng& rng) {
    Network network(n.spec, 1);
    Trainer trainer(network, n.config, n.task);
    const Index batch = std::max<Index>(1, std::min<Index>(n.config.batchSize, std::max<Index>(1, n.trainRows)));
    Matrix x, y;
    randomRows(n.spec, n.task, batch, rng, x, y);
    trainer.trainBatch(x, y);
    if (const Index tail = n.trainRows % n.config.batchSize; tail > 0 && n.trainRows > n.config.batchSize) {
        randomRows(n.spec, n.task, tail, rng, x, y);
        trainer.trainBatch(x, y);
    }
    // The evaluation's chunks: a whole one and the last, shorter one.
    const Index chunk = network.predictChunkRows();
    for (Index rows : {std::min(chunk, n.evaluationRows), n.evaluationRows % chunk}) {
        if (rows <= 0) continue;
        randomRows(n.spec, n.task, rows, rng, x, y);
        trainer.evaluate(x, y);
    }
}

// A, B and C of a shape, as gemm() would find them stored (row-major, tight).
struct Operands {
    Matrix a, b, c;
    explicit Operands(const GemmShape& s, Rng& rng) {
        a.resize(s.opA == Op::None ? s.m : s.k, s.opA == Op::None ? s.k : s.m);
        b.resize(s.opB == Op::None ? s.k : s.n, s.opB == Op::None ? s.n : s.k);
        c = Matrix::Zero(s.m, s.n);
        for (Index i = 0; i < a.size(); ++i) a.data()[i] = rng.uniform(-1.0f, 1.0f);
        for (Index i = 0; i < b.size(); ++i) b.data()[i] = rng.uniform(-1.0f, 1.0f);
    }
    void run(GemmBackend backend, const GemmShape& s) {
        gemmWith(backend, s.opA, s.opB, s.m, s.n, s.k, 1, a.data(), a.cols(), b.data(), b.cols(), 0, c.data(),
                 c.cols());
    }
};

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::vector<GemmShape> gemmShapesOf(const std::vector<GemmTuningNetwork>& networks) {
    const GemmShapeRecorder recorder;
    Rng rng(11);
    for (const GemmTuningNetwork& n : networks) recordNetwork(n, rng);
    return recorder.shapes();
}

std::vector<GemmMeasuredRoute> measureGemmRoutes(const std::vector<GemmShape>& shapes, double secondsPerShape,
                                                 const std::function<void(int, int)>& progress) {
    std::vector<GemmBackend> backends;
    for (GemmBackend b : kGemmBackends)
        if (gemmBackendFullWidth(b)) backends.push_back(b);
    constexpr int rounds = 3;
    const double slot = secondsPerShape / double(rounds * backends.size());
    std::vector<GemmMeasuredRoute> routes;
    Rng rng(12);
    for (const GemmShape& shape : shapes) {
        Operands operands(shape, rng);
        std::map<GemmBackend, double> best;
        for (GemmBackend b : backends) {
            operands.run(b, shape);  // warm: the library's first call sets itself up
            best[b] = std::numeric_limits<double>::infinity();
        }
        for (int round = 0; round < rounds; ++round)
            for (GemmBackend b : backends) {
                const auto start = std::chrono::steady_clock::now();
                do {
                    const auto call = std::chrono::steady_clock::now();
                    operands.run(b, shape);
                    best[b] = std::min(best[b], secondsSince(call));
                } while (secondsSince(start) < slot);
            }
        GemmMeasuredRoute route;
        route.shape = shape;
        for (const auto& [b, seconds] : best) route.gflops[b] = gemmShapeFlop(shape) / seconds / 1e9;
        // The rules' choice unless another backend beats it by 3%: the rules were measured too.
        GemmBackend choice = gemmRuleRoute(shape);
        if (!best.count(choice)) choice = backends.front();
        for (const auto& [b, seconds] : best)
            if (seconds < best[choice] / 1.03 &&
                seconds == std::min_element(best.begin(), best.end(), [](auto& l, auto& r) {
                               return l.second < r.second;
                           })->second)
                choice = b;
        route.backend = choice;
        routes.push_back(route);
        if (progress) progress(int(routes.size()), int(shapes.size()));
    }
    return routes;
}

}  // namespace skynnet
