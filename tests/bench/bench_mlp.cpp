// Throughput of the reference networks on Fashion-MNIST (random data of the same size when
// Debian's package is not installed), with 1 and 2 kernel threads, the test accuracy after the
// epochs, and the share of this CPU's measured FMA peak the training steps reach:
//   mlp  784-512-256-10 (ReLU, softmax cross-entropy, Adam, batch 128)
//   cnn  conv32 3x3-relu-maxpool2-conv64 3x3-relu-maxpool2-dense128-relu-dense10 (Adam, batch 128)
//   gru  the reference's GRU example: 28 steps of 28 features (image rows), GRU 64, BatchNorm,
//        dense 10 (Adam, batch 128)
//   autoencoder  784-32-784 (ReLU, sigmoid output, binary cross-entropy, Adam, batch 256); its
//        figure is the test MSE, not an accuracy
//   vit  the small Vision Transformer: 7x7 patches (16 tokens of 64), 4 pre-norm encoder blocks
//        (4 heads, MLP 128, GELU), layernorm, the tokens' mean, dense 10 (Adam, batch 128)
// Prints figures and asserts nothing: speed is measured here, never in a unit test.
//   skynnet-bench [EPOCHS=3] [SAMPLES=60000] [NETS=mlp,cnn] [THREADS=1,2]
// With SKYNNET_PROFILE=1 it also prints where each last epoch's time went (where_time_goes.h).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "data/idx_loader.h"
#include "data/preprocessing.h"
#include "fma_peak.h"
#include "io/gemm_routing_file.h"
#include "losses/task_losses.h"
#include "model/network.h"
#include "train/trainer.h"
#include "training_flops.h"
#include "where_time_goes.h"

using namespace skynnet;

namespace {

const char* kTrain = "/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz";
const char* kTest = "/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz";

void randomData(int samples, Matrix& x, Matrix& y) {
    Rng rng(7);
    x.resize(samples, 784);
    for (Index i = 0; i < x.size(); ++i) x.data()[i] = rng.uniform(0.0f, 1.0f);
    y = Matrix::Zero(samples, 10);
    for (int i = 0; i < samples; ++i) y(i, int(rng.below(10))) = 1;
}

const char* layersOf(const std::string& net) {
    if (net == "mlp") return "dense:512:relu,dense:256:relu";
    if (net == "cnn") return "conv:32:3x3:relu,maxpool:2,conv:64:3x3:relu,maxpool:2,flatten,dense:128:relu";
    if (net == "gru") return "gru:64,bn";
    if (net == "autoencoder") return "dense:32:relu";
    if (net == "vit")
        return "patch:7:64,encoder:4:128,encoder:4:128,encoder:4:128,encoder:4:128,layernorm,seqpool:mean";
    return nullptr;
}

// The same 784 values per sample, as an image or (the GRU) as 28 rows of 28.
Shape inputOf(const std::string& net) { return net == "gru" ? Shape::steps(28, 28) : Shape{1, 28, 28}; }

}  // namespace

int main(int argc, char** argv) {
    const int epochs = argc > 1 ? std::atoi(argv[1]) : 3;
    const int samples = argc > 2 ? std::atoi(argv[2]) : 60000;
    const std::string nets = argc > 3 ? argv[3] : "mlp,cnn";
    std::vector<int> threadCounts;
    std::stringstream threadList(argc > 4 ? argv[4] : "1,2");
    for (std::string t; std::getline(threadList, t, ',');) {
        const int n = std::atoi(t.c_str());
        if (n != 1 && n != 2) {
            std::fprintf(stderr, "threads must be 1 or 2, not '%s'\n", t.c_str());
            return 2;
        }
        threadCounts.push_back(n);
    }
    Matrix x, y, xt, yt;
    const bool real = std::filesystem::exists(kTrain);
    if (real) {
        Dataset train = loadIdx(kTrain), test = loadIdx(kTest);
        Preprocessing prep;
        prep.scaling = Scaling::MinMax;
        prep.fit(train);
        x = prep.apply(train.features).topRows(std::min<Index>(samples, train.size()));
        y = train.targetMatrix().topRows(x.rows());
        xt = prep.apply(test.features);
        yt = test.targetMatrix();
    } else {
        randomData(samples, x, y);
    }
    std::printf("data: %s, %ld training samples, %d epochs per thread count\n",
                real ? "Fashion-MNIST" : "random (Fashion-MNIST not installed)", long(x.rows()), epochs);
    const double peak[] = {0, bench::fmaPeakGflops(1), bench::fmaPeakGflops(2)};
    std::printf("FMA peak (measured, fp32): 1 thread %.1f GFLOP/s, 2 threads %.1f GFLOP/s\n", peak[1], peak[2]);
    std::printf("%s\n", loadGemmRoutingCache().summary.c_str());
    const char* profileVariable = std::getenv("SKYNNET_PROFILE");
    const bool profile = profileVariable && std::string(profileVariable) == "1";

    std::stringstream list(nets);
    for (std::string net; std::getline(list, net, ',');) {
        if (!layersOf(net)) {
            std::fprintf(stderr, "unknown network %s (mlp, cnn, gru, autoencoder or vit)\n", net.c_str());
            return 2;
        }
        NetworkSpec spec;
        spec.input = inputOf(net);
        const bool autoencoder = net == "autoencoder";
        const Task task = autoencoder ? Task::Reconstruction : Task::Classification;
        try {
            spec.layers = parseLayers(layersOf(net));
            if (autoencoder) spec.outputActivation = outputActivationFor(task, LossKind::BinaryCrossEntropy);
            spec.setOutputFor(task, autoencoder ? 784 : 10);
            Network probe(spec, 1);
        } catch (const Error& e) {
            std::printf("RESULT skynnet net=%s not built: %s\n", net.c_str(), e.what());
            continue;
        }
        for (int threads : threadCounts) {
            setKernelThreads(threads);
            Network model(spec, 1);
            const double flops = bench::trainingFlopsPerSample(model);
            TrainConfig cfg;
            cfg.epochs = epochs;
            cfg.batchSize = autoencoder ? 256 : 128;
            cfg.threads = threads;
            if (autoencoder) cfg.loss = LossKind::BinaryCrossEntropy;
            Trainer trainer(model, cfg, task);
            const Matrix& targets = autoencoder ? x : y;
            double best = 0;
            for (int e = 0; e < epochs; ++e) {
                const bool profiled = profile && e == epochs - 1;
                workprofile::clear();
                workprofile::setEnabled(profiled);
                const auto start = std::chrono::steady_clock::now();
                const auto o = trainer.trainEpoch(x, targets, nullptr, nullptr);
                const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                workprofile::setEnabled(false);
                best = std::max(best, o.stats.samplesPerSecond);
                std::printf("%s threads=%d epoch=%d loss=%.4f samples/s=%.0f\n", net.c_str(), threads, e + 1,
                            o.stats.loss, o.stats.samplesPerSecond);
                if (profiled) {
                    const double steps = std::ceil(double(x.rows()) / cfg.batchSize);
                    bench::printWhereTimeGoes(net.c_str(), threads, steps, wall, peak[1]);
                }
            }
            // The autoencoder's figure: the test MSE over every output value.
            const double accuracy = !real ? 0.0
                                    : autoencoder
                                        ? (trainer.evaluate(xt, xt).output - xt).squaredNorm() / double(xt.size())
                                        : trainer.evaluate(xt, yt).metric;
            const double gflops = best * flops * 1e-9;
            std::printf("RESULT skynnet net=%s threads=%d best_samples_per_second=%.0f test_accuracy=%.4f "
                        "gflops=%.1f peak_share=%.2f\n",
                        net.c_str(), threads, best, accuracy, gflops, gflops / peak[threads]);
        }
    }
    return 0;
}
