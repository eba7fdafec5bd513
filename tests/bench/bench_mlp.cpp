// Throughput of the reference MLP 784-512-256-10 (ReLU, softmax cross-entropy, Adam, batch 128),
// with 1 and 2 kernel threads. Prints figures; asserts nothing (speed is never a unit test here).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/parallel.h"
#include "model/network.h"
#include "train/trainer.h"

using namespace skynnet;

int main(int argc, char** argv) {
    const int samples = argc > 1 ? std::atoi(argv[1]) : 60000;
    const int epochs = argc > 2 ? std::atoi(argv[2]) : 3;
    Rng rng(7);
    Matrix x(samples, 784);
    for (Index i = 0; i < x.size(); ++i) x.data()[i] = rng.uniform(0.0f, 1.0f);
    Matrix y = Matrix::Zero(samples, 10);
    for (int i = 0; i < samples; ++i) y(i, int(rng.below(10))) = 1;

    NetworkSpec spec;
    spec.input = Shape{1, 28, 28};
    spec.layers = parseLayers("dense:512:relu,dense:256:relu");
    spec.setOutputFor(Task::Classification, 10);
    for (int threads : {1, 2}) {
        Network net(spec, 1);
        TrainConfig cfg;
        cfg.epochs = 1;
        cfg.batchSize = 128;
        cfg.threads = threads;
        setKernelThreads(threads);
        Trainer trainer(net, cfg, Task::Classification);
        double best = 0;
        for (int e = 0; e < epochs; ++e) {
            const auto o = trainer.trainEpoch(x, y, nullptr, nullptr);
            if (o.stats.samplesPerSecond > best) best = o.stats.samplesPerSecond;
            std::printf("threads=%d epoch=%d samples/s=%.0f\n", threads, e + 1, o.stats.samplesPerSecond);
        }
        std::printf("RESULT threads=%d best_samples_per_second=%.0f\n", threads, best);
    }
    return 0;
}
