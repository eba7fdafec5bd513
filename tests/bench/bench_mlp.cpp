// Throughput of the reference MLP 784-512-256-10 (ReLU, softmax cross-entropy, Adam, batch 128)
// on Fashion-MNIST (random data of the same size when Debian's package is not installed), with 1
// and 2 kernel threads, and the test accuracy after the epochs. Prints figures and asserts nothing:
// speed is measured here, never in a unit test.
//   skynnet-bench [EPOCHS=3] [SAMPLES=60000]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/parallel.h"
#include "data/idx_loader.h"
#include "data/preprocessing.h"
#include "model/network.h"
#include "train/trainer.h"

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

}  // namespace

int main(int argc, char** argv) {
    const int epochs = argc > 1 ? std::atoi(argv[1]) : 3;
    const int samples = argc > 2 ? std::atoi(argv[2]) : 60000;
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

    NetworkSpec spec;
    spec.input = Shape{1, 28, 28};
    spec.layers = parseLayers("dense:512:relu,dense:256:relu");
    spec.setOutputFor(Task::Classification, 10);
    for (int threads : {1, 2}) {
        setKernelThreads(threads);
        Network net(spec, 1);
        TrainConfig cfg;
        cfg.epochs = epochs;
        cfg.batchSize = 128;
        cfg.threads = threads;
        Trainer trainer(net, cfg, Task::Classification);
        double best = 0;
        for (int e = 0; e < epochs; ++e) {
            const auto o = trainer.trainEpoch(x, y, nullptr, nullptr);
            best = std::max(best, o.stats.samplesPerSecond);
            std::printf("threads=%d epoch=%d loss=%.4f samples/s=%.0f\n", threads, e + 1, o.stats.loss,
                        o.stats.samplesPerSecond);
        }
        const double accuracy = real ? trainer.evaluate(xt, yt).metric : 0.0;
        std::printf("RESULT skynnet threads=%d best_samples_per_second=%.0f test_accuracy=%.4f\n", threads, best,
                    accuracy);
    }
    return 0;
}
