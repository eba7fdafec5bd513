#include "train/trainer.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/parallel.h"
#include "core/work_profile.h"
#include "train/batch_split.h"
#include "train/metrics.h"
#include "train/resources.h"

namespace skynnet {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Rows order[begin, end) of the view, where order indexes the view's rows.
void gatherRows(const RowView& from, const std::vector<int>& order, std::size_t begin, std::size_t end, Matrix& to) {
    to.resize(Index(end - begin), from.cols());
    for (std::size_t i = begin; i < end; ++i) to.row(Index(i - begin)) = from.matrix.row(from.row(order[i]));
}

void gatherRows(const Matrix& from, const std::vector<int>& order, std::size_t begin, std::size_t end, Matrix& to) {
    gatherRows(RowView{&from}, order, begin, end, to);
}

// The rows a model learns from, as copies would take them; validation rows count too: a model
// trained on a machine of its own needs them there.
std::int64_t dataBytesOf(const RowView& x, const Matrix& y, const RowView* xVal, const Matrix* yVal) {
    return x.bytes() + matrixBytes(y) + (xVal ? xVal->bytes() : 0) + (yVal ? matrixBytes(*yVal) : 0);
}

// A wrong row list would read outside the shared matrix: refused like a size mismatch.
void requireRowsInside(const RowView& x, const char* what) {
    if (!x.rows) return;
    for (const int r : *x.rows)
        if (r < 0 || r >= x.matrix.rows)
            throw Error(std::string(what) + " row " + std::to_string(r) + " is outside the data's " +
                        std::to_string(x.matrix.rows) + " rows");
}

// Network::predict's chunks, gathered from the view: the same products, so the same floats.
Matrix predictRows(Network& net, const RowView& x, const CancelToken* cancel) {
    const Index chunkRows = net.predictChunkRows();
    if (!x.rows && x.whole) return net.predict(*x.whole, cancel, chunkRows);
    Matrix out(x.size(), net.spec().outputs), part;
    for (Index start = 0; start < x.size(); start += chunkRows) {
        const Index n = std::min(chunkRows, x.size() - start);
        part.resize(n, x.cols());
        for (Index i = 0; i < n; ++i) part.row(i) = x.matrix.row(x.row(start + i));
        Matrix chunk = net.predict(part, cancel, chunkRows);
        if (chunk.rows() != n) return Matrix();  // cancelled
        out.middleRows(start, n) = chunk;
    }
    return out;
}

}  // namespace

std::string statusName(TrainStatus s) {
    switch (s) {
    case TrainStatus::Completed: return "completed";
    case TrainStatus::EarlyStopped: return "early_stopped";
    case TrainStatus::Cancelled: return "cancelled";
    case TrainStatus::Failed: return "failed";
    }
    return "completed";
}

Trainer::Trainer(Network& network, const TrainConfig& config, Task task)
    : net_(network), config_(config), task_(task), loss_(makeLoss(config.loss)), params_(network.params()),
      shuffleRng_(config.seed) {
    for (const auto& layer : net_.layers()) flopsPerSample_ += layer->flopsPerSample();
    if (config.batchSize < 1) throw Error("batch size must be at least 1");
    if (config.epochs < 0) throw Error("epochs must not be negative");
    // Cross-entropies need probabilities: refuse them on an output that gives none.
    if (loss_->fusesWith() != Activation::None && !net_.endsWith(loss_->fusesWith()))
        throw Error("the " + lossName(config.loss) + " loss needs a " + activationName(loss_->fusesWith()) +
                    " output, but the network's output is " + activationName(net_.spec().outputActivation));
    checkAugmentable(config.augmentation, net_.spec().input);
    config_.optimizer.schedule.totalEpochs = config.epochs;
    optimizer_ = makeOptimizer(config_.optimizer);
    start_ = lastResources_ = Clock::now();
}

void Trainer::requireTargetColumns(Index columns) const {
    if (columns != net_.spec().outputs)
        throw Error("targets have " + std::to_string(columns) + " columns, the network outputs " +
                    std::to_string(net_.spec().outputs));
}

double Trainer::trainBatch(const Matrix& x, const Matrix& y) {
    requireTargetColumns(y.cols());
    if (y.rows() != x.rows())
        throw Error("a batch of " + std::to_string(x.rows()) + " rows has " + std::to_string(y.rows()) +
                    " target rows");
    return trainBatch(x.rows(), BatchSplit::rowsOf(x, y), &x, &y);
}

double Trainer::trainBatch(Index rows, const BatchSplit::BatchRows& rowsOf, const Matrix* x, const Matrix* y) {
    const KernelThreadScope scope(config_.threads);
    // The batch's slices depend on the batch and the network alone, so the floats do not depend
    // on the kernel threads; the threads only take slices. A batch of one slice (a small step) is
    // done before a second thread would even wake up: it stays on this thread.
    const int slices = BatchSplit::slicesFor(rows, flopsPerSample_);
    BatchSplit::Step step;
    if (slices > 1) {
        if (!split_) split_ = std::make_unique<BatchSplit>();
        step = split_->computeSliceGradients(net_, *loss_, task_, rows, rowsOf, steps_, slices, kernelThreads());
    } else {
        // Single-threaded kernels: a parallel matrix product blocks its sums by its thread count.
        const KernelThreadScope serial(1);
        net_.setBatchOrigin(steps_, 0);
        if (!x || !y) {
            const workprofile::ScopedWork gather("gathering the slices' rows", 1);
            rowsOf(0, rows, xBatch_, yBatch_);
            x = &xBatch_;
            y = &yBatch_;
        }
        step = forwardBackward(net_, *loss_, task_, *x, *y, rows, grad_);
    }
    ++steps_;
    peakThreads_ = std::max(peakThreads_, kernelThreads());
    lastBatchMetricSum_ = step.metricSum;
    const workprofile::ScopedWork update("optimizer update", kernelThreads());
    if (slices > 1) {
        // The slices' sum and the replicas' new weights ride in the update's own parallel loop.
        optimizer_->step(params_, split_->optimizerHooks());
        split_->replicasUpdated();
    } else {
        optimizer_->step(params_);
        // The replicas missed this update (an epoch's last, short batch).
        if (split_) split_->masterWeightsChanged();
    }
    return step.loss;
}

double Trainer::cpuSeconds() const {
    // The team of the most threads any batch had: cores handed over mid-training count too.
    const KernelThreadScope team(std::max(kernelThreads(), peakThreads_));
    return workerCpuSeconds();
}

std::int64_t Trainer::modelBytes() const {
    std::int64_t params = 0;
    for (const auto& p : params_) params += 2 * matrixBytes(*p.value);  // values and gradients
    return params + optimizer_->stateBytes() + net_.bufferBytes() + matrixBytes(xBatch_) + matrixBytes(yBatch_) +
           matrixBytes(grad_) + (split_ ? split_->bufferBytes() : 0);
}

void Trainer::maybeReportResources(const TrainCallbacks& callbacks, bool force) {
    const auto bytes = modelBytes();
    peakModelBytes_ = std::max(peakModelBytes_, bytes);
    if (!callbacks.onResources) return;
    if (!force && secondsSince(lastResources_) < config_.resourceReportSeconds) return;
    lastResources_ = Clock::now();
    ResourceSample s;
    s.elapsedSeconds = secondsSince(config_.clockOrigin.value_or(start_));
    s.cpuSeconds = cpuSeconds() - cpuStart_;
    // The high-water mark: the last, shorter batch of an epoch shrinks the buffers for a moment,
    // which would draw a saw-tooth that is not memory anyone could reclaim.
    s.modelBytes = peakModelBytes_;
    s.dataBytes = dataBytes_;
    s.processResidentBytes = processResidentBytes();
    callbacks.onResources(s);
}

Trainer::EpochOutcome Trainer::trainEpoch(const Matrix& x, const Matrix& y, const Matrix* xVal, const Matrix* yVal,
                                          const TrainCallbacks& callbacks, const CancelToken* cancel) {
    const RowView val{xVal};
    return trainEpoch(RowView{&x}, y, xVal ? &val : nullptr, yVal, callbacks, cancel);
}

Trainer::EpochOutcome Trainer::trainEpoch(const RowView& x, const Matrix& y, const RowView* xVal, const Matrix* yVal,
                                          const TrainCallbacks& callbacks, const CancelToken* cancel) {
    const KernelThreadScope threads(config_.threads);
    EpochOutcome outcome;
    if (x.size() != y.rows())
        throw Error(std::to_string(x.size()) + " samples but " + std::to_string(y.rows()) + " target rows");
    if (x.size() == 0) throw Error("no training samples");
    requireTargetColumns(y.cols());
    requireRowsInside(x, "training");
    if (xVal) requireRowsInside(*xVal, "validation");
    dataBytes_ = dataBytesOf(x, y, xVal, yVal);
    optimizer_->startEpoch(epoch_);
    const RunStopwatch epochClock(cancel);  // a pause is not the epoch's time
    auto lastBatchReport = epochClock.started();
    const std::vector<int> order = shuffleRng_.permutation(int(x.size()));
    const std::size_t n = order.size(), bs = std::size_t(config_.batchSize);
    const int batches = int((n + bs - 1) / bs);
    double lossSum = 0;
    std::size_t seen = 0;
    // Metric on the training data as seen during the epoch (before each step), like Keras reports.
    double metricSum = 0;
    for (int b = 0; b < batches; ++b) {
        if (cancel) cancel->waitWhilePaused();
        if (cancel && cancel->cancelled()) {
            outcome.status = TrainStatus::Cancelled;
            return outcome;
        }
        // A scheduler may have handed this model more (or fewer) cores since the last batch.
        if (callbacks.kernelThreads)
            if (const int t = callbacks.kernelThreads(); t > 0) config_.threads = t;
        const std::size_t begin = std::size_t(b) * bs, end = std::min(n, begin + bs);
        double value = 0;
        if (config_.augmentation.enabled()) {
            // Augmentation draws from one stream along the whole batch: gathered whole first.
            gatherRows(x, order, begin, end, xBatch_);
            augmentRows(xBatch_, net_.spec().input, config_.augmentation, augmentationStream(config_.seed, steps_));
            gatherRows(y, order, begin, end, yBatch_);
            value = trainBatch(xBatch_, yBatch_);
        } else {
            const BatchSplit::BatchRows rowsOf = [&](Index first, Index last, Matrix& xs, Matrix& ys) {
                gatherRows(x, order, begin + std::size_t(first), begin + std::size_t(last), xs);
                gatherRows(y, order, begin + std::size_t(first), begin + std::size_t(last), ys);
            };
            value = trainBatch(Index(end - begin), rowsOf, nullptr, nullptr);
        }
        if (!std::isfinite(value)) {
            outcome.status = TrainStatus::Failed;
            outcome.error = "training diverged: the loss became " +
                            std::string(std::isnan(value) ? "NaN" : "infinite") + " at epoch " +
                            std::to_string(epoch_ + 1) + ", batch " + std::to_string(b + 1) +
                            " (try a lower learning rate)";
            return outcome;
        }
        const double rows = double(end - begin);
        lossSum += value * rows;
        metricSum += lastBatchMetricSum_;
        seen += end - begin;
        if (callbacks.onBatch && (b + 1 == batches || secondsSince(lastBatchReport) >= config_.batchReportSeconds)) {
            lastBatchReport = Clock::now();
            callbacks.onBatch({epoch_ + 1, b + 1, batches, lossSum / double(seen)});
        }
        maybeReportResources(callbacks, false);
    }
    ++epoch_;
    EpochStats& s = outcome.stats;
    s.epoch = epoch_;
    s.loss = lossSum / double(seen);
    s.learningRate = optimizer_->learningRate();
    s.seconds = epochClock.seconds();
    s.samplesPerSecond = s.seconds > 0 ? double(seen) / s.seconds : 0;
    // The epoch's last evaluations can take as long as many batches: they honour cancel too.
    const KernelThreadScope evaluationThreads(config_.threads);
    if (predictsValues(task_)) s.metric = evaluate(x, y, cancel).metric;
    else s.metric = metricSum / double(seen);
    if (xVal && yVal && xVal->size() > 0) {
        const Evaluation v = evaluate(*xVal, *yVal, cancel);
        s.hasValidation = true;
        s.validationLoss = v.loss;
        s.validationMetric = v.metric;
    }
    if (cancel && cancel->cancelled()) {
        outcome.status = TrainStatus::Cancelled;
        return outcome;
    }
    maybeReportResources(callbacks, true);
    if (callbacks.onEpoch) callbacks.onEpoch(s);
    return outcome;
}

void Trainer::resumeFrom(const TrainerState& state) {
    if (state.epochsDone < 0 || state.epochsDone > config_.epochs)
        throw Error("the training state has " + std::to_string(state.epochsDone) + " epochs done, the training has " +
                    std::to_string(config_.epochs));
    if (int(state.history.size()) != state.epochsDone)
        throw Error("the training state has " + std::to_string(state.history.size()) + " epochs of history for " +
                    std::to_string(state.epochsDone) + " epochs done");
    if (!state.bestWeights.empty() && std::int64_t(state.bestWeights.size()) != net_.weightCount())
        throw Error("the training state's best weights are " + std::to_string(state.bestWeights.size()) +
                    " values, the network has " + std::to_string(net_.weightCount()));
    optimizer_->setState(state.optimizer, params_);
    epoch_ = state.epochsDone;
    steps_ = state.steps;
    shuffleRng_.setState(state.shuffleRng);
    peakModelBytes_ = std::max(peakModelBytes_, state.peakModelBytes);
    resumed_ = state;
    if (split_) split_->masterWeightsChanged();
}

TrainerState Trainer::stateNow(const TrainResult& sofar, double best, int sinceBest,
                               const std::vector<Scalar>& bestWeights) const {
    TrainerState s;
    s.epochsDone = epoch_;
    s.steps = steps_;
    s.shuffleRng = shuffleRng_.state();
    s.optimizer = optimizer_->state();
    s.bestScore = best;
    s.sinceBest = sinceBest;
    s.bestWeights = bestWeights;
    s.history = sofar.history;
    s.bestEpoch = sofar.bestEpoch;
    s.wallSeconds = resumed_.wallSeconds + fitClock_.seconds();
    s.cpuSeconds = resumed_.cpuSeconds + cpuSeconds() - cpuStart_;
    s.peakModelBytes = peakModelBytes_;
    return s;
}

TrainResult Trainer::fit(const Matrix& x, const Matrix& y, const Matrix* xVal, const Matrix* yVal,
                         const TrainCallbacks& callbacks, const CancelToken* cancel) {
    const RowView val{xVal};
    return fit(RowView{&x}, y, xVal ? &val : nullptr, yVal, callbacks, cancel);
}

TrainResult Trainer::fit(const RowView& x, const Matrix& y, const RowView* xVal, const Matrix* yVal,
                         const TrainCallbacks& callbacks, const CancelToken* cancel) {
    const KernelThreadScope threads(config_.threads);
    TrainResult result;
    start_ = lastResources_ = Clock::now();
    fitClock_.restart(cancel);
    cpuStart_ = cpuSeconds();
    dataBytes_ = dataBytesOf(x, y, xVal, yVal);
    maybeReportResources(callbacks, true);  // where this model starts on the run's clock
    const bool validating = xVal && yVal && xVal->size() > 0;
    const EarlyStopping& es = config_.earlyStopping;
    double best = resumed_.bestScore;
    int sinceBest = resumed_.sinceBest;
    std::vector<Scalar> bestWeights = resumed_.bestWeights;
    result.history = resumed_.history;
    result.bestEpoch = resumed_.bestEpoch;
    for (int e = resumed_.epochsDone; e < config_.epochs; ++e) {
        EpochOutcome o = trainEpoch(x, y, xVal, yVal, callbacks, cancel);
        if (o.status != TrainStatus::Completed) {
            result.status = o.status;
            result.error = o.error;
            break;
        }
        result.history.push_back(o.stats);
        if (es.enabled && validating) {
            // Lower loss is better; higher metric is better: compare on one scale.
            const double score = es.monitor == EarlyStopping::Monitor::ValidationLoss ? -o.stats.validationLoss
                                                                                      : o.stats.validationMetric;
            if (result.bestEpoch == 0 || score > best) {
                best = score;
                result.bestEpoch = o.stats.epoch;
                sinceBest = 0;
                if (es.restoreBest) bestWeights = net_.flatWeights();
            } else if (++sinceBest >= es.patience) {
                result.status = TrainStatus::EarlyStopped;
                break;
            }
        } else {
            result.bestEpoch = o.stats.epoch;
        }
        if (callbacks.onCheckpoint && e + 1 < config_.epochs)
            callbacks.onCheckpoint(stateNow(result, best, sinceBest, bestWeights));
    }
    if (es.enabled && es.restoreBest && !bestWeights.empty() && result.status != TrainStatus::Failed) {
        net_.setFlatWeights(bestWeights);
        if (split_) split_->masterWeightsChanged();
    }
    result.wallSeconds = resumed_.wallSeconds + fitClock_.seconds();
    result.cpuSeconds = resumed_.cpuSeconds + cpuSeconds() - cpuStart_;
    result.earlierWallSeconds = resumed_.wallSeconds;
    result.earlierCpuSeconds = resumed_.cpuSeconds;
    result.peakModelBytes = peakModelBytes_;
    result.dataBytes = dataBytes_;
    return result;
}

Evaluation Trainer::evaluate(const Matrix& x, const Matrix& y, const CancelToken* cancel) {
    return evaluate(RowView{&x}, y, cancel);
}

Evaluation Trainer::evaluate(const RowView& x, const Matrix& y, const CancelToken* cancel) {
    requireRowsInside(x, "evaluation");
    Evaluation e;
    e.output = predictRows(net_, x, cancel);
    if (cancel && cancel->cancelled()) return e;
    e.loss = loss_->value(e.output, y);
    e.metric = headlineMetric(task_, e.output, y);
    return e;
}

}  // namespace skynnet
