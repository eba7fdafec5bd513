#include "ui/core/training_speed.h"

#include <algorithm>
#include <chrono>
#include <exception>

#include "model/network.h"
#include "train/trainer.h"

namespace skynnet::ui {
namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Every k-th row, so that every class of a sorted file is among them.
Dataset spreadRows(const Dataset& data, int count) {
    std::vector<int> rows;
    const Index n = data.size();
    for (int i = 0; i < count; ++i) rows.push_back(int(Index(i) * n / count));
    return data.subset(rows);
}

}  // namespace

std::optional<TrainingSpeed> measureTrainingSpeed(const NetworkSpec& network, const Dataset& data,
                                                  PreparationSettings preparation, TrainConfig config, double seconds) {
    try {
        const int rows = int(std::min<Index>(data.size(), 2000));
        if (rows < 2) return std::nullopt;
        const Dataset part = spreadRows(data, rows);
        preparation.separateTestFile = false;  // the part alone stands for the data here
        const auto prepareStart = std::chrono::steady_clock::now();
        const PreparedData prepared = prepareData(part, nullptr, preparation);
        const double prepareSeconds = secondsSince(prepareStart);

        const Index batch = std::min<Index>(std::max(config.batchSize, 1), prepared.train.size());
        if (batch < 1) return std::nullopt;
        const Matrix x = prepared.train.features.topRows(batch);
        const Matrix y = prepared.train.targetMatrix().topRows(batch);
        config.threads = 1;  // the speed of one core: a study's runs spread their models over the cores
        Network net(network, config.seed);
        Trainer trainer(net, config, prepared.task());
        trainer.trainBatch(x, y);  // the first step allocates the optimiser's state and buffers
        const auto start = std::chrono::steady_clock::now();
        Index trained = 0;
        do {
            trainer.trainBatch(x, y);
            trained += batch;
        } while (secondsSince(start) < seconds);
        const double elapsed = secondsSince(start);
        TrainingSpeed speed;
        speed.costPerSecond = double(flopsPerSample(network)) * double(trained) / elapsed;
        // Reading a file costs about as much as preparing it; a run does both for all its rows.
        speed.dataSecondsPerRun = 2 * prepareSeconds * double(data.size()) / rows;
        if (!(speed.costPerSecond > 0)) return std::nullopt;
        return speed;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace skynnet::ui
