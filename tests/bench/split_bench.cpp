// How close the thread backend comes to keeping every core busy: for Skynnet class-group splits
// of the reference MLP (784-512-256-10, Adam, batch 128) on Fashion-MNIST (random data of the same
// size when Debian's package is not installed), the split's wall time against the ideal, the sum
// of the submodels' CPU seconds divided by the cores (the target: a ratio of 1.1 or less).
// Also the process's peak resident memory during each split's training (the data loaded before).
// Prints figures and asserts nothing: speed is measured here, never in a unit test.
//   skynnet-split-bench [EPOCHS=10] [SAMPLES=60000] [N=3,6] [THREADS=all cores]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>

#include "core/parallel.h"
#include "fashion_data.h"
#include "split/parallel_trainer.h"
#include "split/schedule.h"
#include "split/thread_backend.h"
#include "train/resources.h"

using namespace skynnet;

namespace {

// The kernel's high-water mark of this process's resident memory (VmHWM), which writing 5 to
// clear_refs resets to the current figure (Linux): the peak of one training, not of the data
// loading before it. -1 where the kernel offers neither.
void resetPeakResident() { std::ofstream("/proc/self/clear_refs") << "5"; }
std::int64_t peakResidentBytes() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::atoll(line.c_str() + 6) * 1024;
    return -1;
}

}  // namespace

int main(int argc, char** argv) {
    const int epochs = argc > 1 ? std::atoi(argv[1]) : 10;
    const int samples = argc > 2 ? std::atoi(argv[2]) : 60000;
    const std::string ns = argc > 3 ? argv[3] : "3,6";
    const int cores = argc > 4 ? std::atoi(argv[4]) : hardwareThreads();
    const bool real = bench::fashionInstalled();
    const Dataset train = bench::fashionOrRandom(samples);
    std::printf("data: %s, %ld training samples, %d epochs before scaling, %d cores\n",
                real ? "Fashion-MNIST" : "random (Fashion-MNIST not installed)", long(train.size()), epochs, cores);
    NetworkSpec spec;
    spec.input = Shape{1, 28, 28};
    spec.layers = parseLayers("dense:512:relu,dense:256:relu");
    TrainConfig config;
    config.batchSize = 128;

    std::stringstream list(ns);
    for (std::string n; std::getline(list, n, ',');) {
        SplitOptions o;
        o.strategy = Strategy::ClassGroups;
        o.requested = std::atoi(n.c_str());
        o.epochs = epochs;
        const SplitPlan plan = makePlan(spec, train, o);
        auto backend = std::make_shared<ThreadBackend>(cores);
        const std::int64_t residentBefore = processResidentBytes();
        resetPeakResident();
        const ParallelResult r = ParallelTrainer(plan, config, backend).train(train);
        const std::int64_t peak = peakResidentBytes();
        if (r.status != TrainStatus::Completed) {
            std::fprintf(stderr, "N=%s: %s\n", n.c_str(), r.error.c_str());
            return 1;
        }
        const double ideal = r.cpuSeconds / cores;
        for (int i = 0; i < plan.submodelCount(); ++i)
            std::printf("N=%s submodel=%d rows=%zu epochs=%d cost=%.3g wall=%.2fs cpu=%.2fs peak_threads=%d\n",
                        n.c_str(), i + 1, plan.submodels[std::size_t(i)].rows.size(), plan.effectiveEpochs,
                        submodelCost(plan, i), r.submodelWallSeconds[std::size_t(i)],
                        r.submodelCpuSeconds[std::size_t(i)], backend->peakKernelThreads()[std::size_t(i)]);
        std::printf("RESULT split N=%s submodels=%d cores=%d wall=%.2fs cpu=%.2fs ideal=%.2fs ratio=%.3f "
                    "resident_before_mb=%.1f training_peak_resident_mb=%.1f\n",
                    n.c_str(), plan.submodelCount(), cores, r.wallSeconds, r.cpuSeconds, ideal, r.wallSeconds / ideal,
                    double(residentBefore) / 1e6, double(peak) / 1e6);
    }
    return 0;
}
