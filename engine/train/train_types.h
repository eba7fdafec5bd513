#pragma once
// Values the training loop reports through plain callbacks; copied out, never shared with a worker.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/augmentation.h"
#include "losses/loss.h"
#include "optim/optimizer.h"

namespace skynnet {

struct EarlyStopping {
    enum class Monitor { ValidationLoss, ValidationMetric };
    bool enabled = false;
    int patience = 5;
    Monitor monitor = Monitor::ValidationLoss;
    bool restoreBest = true;
    bool operator==(const EarlyStopping&) const = default;
};

struct TrainConfig {
    int epochs = 10;
    int batchSize = 128;
    OptimizerConfig optimizer;
    LossKind loss = LossKind::SoftmaxCrossEntropy;
    std::uint64_t seed = 1;  // shuffling order
    int threads = 0;         // kernel threads for this training; 0 leaves the caller's setting
    EarlyStopping earlyStopping;
    Augmentation augmentation;           // of the training batches only; off by default
    double batchReportSeconds = 0.2;     // batch progress at most this often
    double resourceReportSeconds = 1.0;  // resource samples at least this often during an epoch
    // Resource samples' elapsedSeconds count from here; unset: from the start of fit(). A run of
    // several models sets one origin, so every model's samples share the run's clock.
    std::optional<std::chrono::steady_clock::time_point> clockOrigin;
    bool operator==(const TrainConfig&) const = default;
};

struct EpochStats {
    int epoch = 0;  // 1-based
    double loss = 0, metric = 0;
    bool hasValidation = false;
    double validationLoss = 0, validationMetric = 0;
    // Wall seconds of the epoch's batches, and samples per such second: without the time the run
    // was paused (CancelToken), so a pause does not make an epoch look slow.
    double seconds = 0, samplesPerSecond = 0, learningRate = 0;
};

struct BatchProgress {
    int epoch = 0, batch = 0, batches = 0;  // 1-based epoch and batch
    double loss = 0;                        // running mean over the epoch so far
};

struct ResourceSample {
    double elapsedSeconds = 0;    // since TrainConfig::clockOrigin (default: training's start)
    double cpuSeconds = 0;        // this worker's threads since training started
    std::int64_t modelBytes = 0;  // peak so far of parameters + gradients + optimiser state + buffers
    // The rows it learns from (features and targets, training and validation): with modelBytes,
    // what this model needs on a machine of its own.
    std::int64_t dataBytes = 0;
    std::int64_t processResidentBytes = 0;
};

struct TrainerState;  // train/trainer_state.h

struct TrainCallbacks {
    std::function<void(const EpochStats&)> onEpoch;
    std::function<void(const BatchProgress&)> onBatch;
    std::function<void(const ResourceSample&)> onResources;
    // Asked before each batch: the kernel threads for it and the epoch's evaluations, so a
    // scheduler can hand a running model the cores others freed (the floats do not change).
    // Unset, or an answer of 0: TrainConfig::threads.
    std::function<int()> kernelThreads;
    // fit() at the end of every epoch after which it trains on (not the last one, not an early
    // stop): the state a resumed Trainer starts from, with the network's weights as they are now.
    // An exception thrown here ends fit() (a checkpoint that cannot be written fails the training).
    std::function<void(const TrainerState&)> onCheckpoint;
};

enum class TrainStatus { Completed, EarlyStopped, Cancelled, Failed };
std::string statusName(TrainStatus s);

struct TrainResult {
    TrainStatus status = TrainStatus::Completed;
    std::string error;  // for Failed: names the epoch and batch
    std::vector<EpochStats> history;
    int bestEpoch = 0;                       // the epoch whose weights were kept (early stopping)
    double wallSeconds = 0, cpuSeconds = 0;  // wall: without the time the run was paused
    // Of wallSeconds and cpuSeconds, what sessions before this one spent: a training resumed from a
    // checkpoint (TrainerState), or loaded finished from one (all of it). 0 for one done in one go.
    double earlierWallSeconds = 0, earlierCpuSeconds = 0;
    bool resumed() const { return earlierWallSeconds > 0 || earlierCpuSeconds > 0; }
    std::int64_t peakModelBytes = 0;
    std::int64_t dataBytes = 0;  // the rows it learned from (ResourceSample::dataBytes)
    // What this training needed on a machine of its own: its model, its buffers and its rows.
    std::int64_t peakBytes() const { return peakModelBytes + dataBytes; }
};

}  // namespace skynnet
