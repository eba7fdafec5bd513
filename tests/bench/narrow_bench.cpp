// Whether the split's narrow submodels compute as efficiently as the original's wide layers: the
// original network and each submodel of a class-group split at N trained one after the other, on
// one thread each, on Fashion-MNIST (random data of the same size when Debian's package is not
// installed), with their GFLOP/s side by side and the split's CPU against its FLOP share:
//   ratio = (submodels' CPU / original's CPU) / (submodels' FLOPs / original's FLOPs)
// 1.0 means a FLOP costs the submodels what it costs the original; the target is 1.1 or less.
// Each model trains ROUNDS times, the original and the submodels in turn, and keeps its least CPU
// time: a noisy moment of the machine then slows one round of a model, not the figure.
// Prints figures and asserts nothing: speed is measured here, never in a unit test.
//   skynnet-narrow-bench [EPOCHS=1] [SAMPLES=30000] [NETS=mlp,cnn] [N=6] [ROUNDS=3]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <sstream>
#include <string>

#include "core/parallel.h"
#include "cpu_time.h"
#include "fashion_data.h"
#include "fma_peak.h"
#include "io/gemm_routing_file.h"
#include "split/split_plan.h"
#include "train/trainer.h"
#include "training_flops.h"

using namespace skynnet;

namespace {

struct Figures {
    double flop = 0, cpu = 0;
};

// `epochs` epochs of `spec` on the rows, one thread; targets are any class of the outputs (the
// FLOPs and the kernels do not depend on them).
Figures trainOnRows(const NetworkSpec& spec, const Dataset& data, const std::vector<int>& rows, int epochs) {
    Matrix x(Index(rows.size()), data.features.cols());
    Matrix y = Matrix::Zero(x.rows(), spec.outputs);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        x.row(Index(i)) = data.features.row(rows[i]);
        y(Index(i), data.labels[std::size_t(rows[i])] % spec.outputs) = 1;
    }
    Network net(spec, 1);
    TrainConfig config;
    config.batchSize = 128;
    config.threads = 1;
    Trainer trainer(net, config, Task::Classification);
    const double start = bench::processSeconds();
    for (int e = 0; e < epochs; ++e) trainer.trainEpoch(x, y, nullptr, nullptr);
    return {bench::trainingFlopsPerSample(net) * double(rows.size()) * epochs, bench::processSeconds() - start};
}

}  // namespace

int main(int argc, char** argv) {
    const int epochs = argc > 1 ? std::atoi(argv[1]) : 1;
    const int samples = argc > 2 ? std::atoi(argv[2]) : 30000;
    const std::string nets = argc > 3 ? argv[3] : "mlp,cnn";
    const int n = argc > 4 ? std::atoi(argv[4]) : 6;
    const int rounds = argc > 5 ? std::max(1, std::atoi(argv[5])) : 3;
    setKernelThreads(1);
    const Dataset train = bench::fashionOrRandom(samples);
    const double peak = bench::fmaPeakGflops(1);
    std::printf("data: %ld samples, %d epochs each, 1 thread, best of %d rounds; FMA peak %.1f GFLOP/s\n%s\n",
                long(train.size()), epochs, rounds, peak, loadGemmRoutingCache().summary.c_str());
    std::vector<int> all(train.size());
    std::iota(all.begin(), all.end(), 0);
    std::stringstream list(nets);
    for (std::string net; std::getline(list, net, ',');) {
        NetworkSpec spec;
        spec.input = Shape{1, 28, 28};
        if (net == "mlp") spec.layers = parseLayers("dense:512:relu,dense:256:relu");
        else if (net == "cnn")
            spec.layers = parseLayers("conv:32:3x3:relu,maxpool:2,conv:64:3x3:relu,maxpool:2,flatten,dense:128:relu");
        else {
            std::fprintf(stderr, "unknown network %s (mlp or cnn)\n", net.c_str());
            return 2;
        }
        SplitOptions options;
        options.strategy = Strategy::ClassGroups;
        options.requested = n;
        const SplitPlan plan = makePlan(spec, train, options);
        // Model 0 is the original, 1..S the submodels: each round trains them all in turn.
        std::vector<Figures> best(plan.submodels.size() + 1);
        for (int round = 0; round < rounds; ++round)
            for (std::size_t m = 0; m < best.size(); ++m) {
                const Figures f = m == 0 ? trainOnRows(plan.original, train, all, epochs)
                                         : trainOnRows(plan.submodels[m - 1].spec, train, plan.submodels[m - 1].rows,
                                                       epochs);
                if (round == 0 || f.cpu < best[m].cpu) best[m] = f;
            }
        const Figures original = best[0];
        std::printf("%s original: %.2f GFLOP in %.2f s CPU: %.1f GFLOP/s (%.0f%% of peak)\n", net.c_str(),
                    original.flop / 1e9, original.cpu, original.flop / original.cpu / 1e9,
                    100 * original.flop / original.cpu / 1e9 / peak);
        Figures split;
        for (const SubmodelPlan& s : plan.submodels) {
            const Figures f = best[std::size_t(s.index) + 1];
            split.flop += f.flop;
            split.cpu += f.cpu;
            std::printf("%s submodel %d (%s, %zu rows): %.2f GFLOP in %.2f s CPU: %.1f GFLOP/s, %.2f of the "
                        "original's\n",
                        net.c_str(), s.index + 1, s.role.c_str(), s.rows.size(), f.flop / 1e9, f.cpu,
                        f.flop / f.cpu / 1e9, (f.flop / f.cpu) / (original.flop / original.cpu));
        }
        const double ratio = (split.cpu / original.cpu) / (split.flop / original.flop);
        std::printf("RESULT narrow net=%s N=%d original_gflops=%.1f submodels_gflops=%.1f flop_share=%.3f "
                    "cpu_share=%.3f ratio=%.3f\n",
                    net.c_str(), plan.submodelCount(), original.flop / original.cpu / 1e9, split.flop / split.cpu / 1e9,
                    split.flop / original.flop, split.cpu / original.cpu, ratio);
    }
    return 0;
}
