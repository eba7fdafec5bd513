#pragma once
// Trains one Network: a one-call fit() and a step API (trainBatch, trainEpoch) on the same code.
// Progress goes to plain callbacks; a CancelToken is honoured at batch boundaries and makes the
// call return TrainStatus::Cancelled; a non-finite loss returns Failed naming epoch and batch.
#include <chrono>
#include <memory>

#include "core/cancel.h"
#include "model/network.h"
#include "train/batch_split.h"
#include "train/row_view.h"
#include "train/train_types.h"
#include "train/trainer_state.h"

namespace skynnet {

struct Evaluation {
    double loss = 0, metric = 0;
    Matrix output;  // the network's outputs, one row per sample
};

class Trainer {
public:
    Trainer(Network& network, const TrainConfig& config, Task task);

    // One optimiser step on one batch; returns the batch loss before the step. Between batches the
    // network's weights change only through this trainer: its batch split's replicas keep a copy.
    double trainBatch(const Matrix& x, const Matrix& y);
    // One pass over the data in seeded shuffled batches. Validation is optional (nullptr).
    struct EpochOutcome {
        TrainStatus status = TrainStatus::Completed;
        std::string error;
        EpochStats stats;
    };
    EpochOutcome trainEpoch(const Matrix& x, const Matrix& y, const Matrix* xVal, const Matrix* yVal,
                            const TrainCallbacks& callbacks = {}, const CancelToken* cancel = nullptr);
    // The whole run, with early stopping and restore-best if configured. After resumeFrom() it
    // trains only the epochs left and its result covers the whole training.
    TrainResult fit(const Matrix& x, const Matrix& y, const Matrix* xVal = nullptr, const Matrix* yVal = nullptr,
                    const TrainCallbacks& callbacks = {}, const CancelToken* cancel = nullptr);
    // The same on rows of shared matrices, without copying them: y and yVal hold one target row
    // per view row, in the view's order. The same rows give the same floats as copies of them.
    EpochOutcome trainEpoch(const RowView& x, const Matrix& y, const RowView* xVal, const Matrix* yVal,
                            const TrainCallbacks& callbacks = {}, const CancelToken* cancel = nullptr);
    TrainResult fit(const RowView& x, const Matrix& y, const RowView* xVal = nullptr, const Matrix* yVal = nullptr,
                    const TrainCallbacks& callbacks = {}, const CancelToken* cancel = nullptr);

    // A cancelled token makes it return early with an empty output (cancelled() tells).
    Evaluation evaluate(const Matrix& x, const Matrix& y, const CancelToken* cancel = nullptr);
    Evaluation evaluate(const RowView& x, const Matrix& y, const CancelToken* cancel = nullptr);
    // Makes fit() continue from a state a Trainer of the same network, config and data gave
    // (TrainCallbacks::onCheckpoint). The caller has built the network from the same spec and seed
    // (the seed also draws Dropout's mask streams) and restored its weights.
    // Throws Error when the state does not fit (optimiser state of another shape, more epochs done
    // than configured, best weights of another size).
    void resumeFrom(const TrainerState& state);
    int epochsDone() const { return epoch_; }
    std::int64_t modelBytes() const;
    const Loss& loss() const { return *loss_; }

private:
    // One step on a batch of `rows` rows that rowsOf gathers, slice by slice where the batch is
    // split; x and y, when given, are the whole batch already gathered.
    double trainBatch(Index rows, const BatchSplit::BatchRows& rowsOf, const Matrix* x, const Matrix* y);
    void requireTargetColumns(Index columns) const;
    void maybeReportResources(const TrainCallbacks& callbacks, bool force);
    double cpuSeconds() const;  // of the calling thread and its kernel team
    TrainerState stateNow(const TrainResult& sofar, double best, int sinceBest,
                          const std::vector<Scalar>& bestWeights) const;

    Network& net_;
    TrainConfig config_;
    Task task_;
    std::unique_ptr<Loss> loss_;
    std::unique_ptr<Optimizer> optimizer_;
    std::vector<Param> params_;
    int epoch_ = 0;
    std::uint64_t steps_ = 0;  // optimiser steps taken: with a row's place in its batch, seeds its dropout
    Rng shuffleRng_;
    Matrix xBatch_, yBatch_, grad_;
    std::int64_t flopsPerSample_ = 0;    // forward pass of one sample
    double lastBatchMetricSum_ = 0;      // correct predictions in the last trained batch
    std::unique_ptr<BatchSplit> split_;  // with several kernel threads
    std::chrono::steady_clock::time_point start_, lastResources_;
    RunStopwatch fitClock_;  // fit()'s wall time without its pauses
    double cpuStart_ = 0;
    int peakThreads_ = 1;  // the most kernel threads a batch had
    std::int64_t peakModelBytes_ = 0;
    std::int64_t dataBytes_ = 0;  // of the rows the last trainEpoch was given
    TrainerState resumed_;        // where fit() starts: a fresh state unless resumeFrom() was called
};

}  // namespace skynnet
