#include "ui/core/run_job.h"

#include <QString>
#include <chrono>

#include "core/parallel.h"
#include "project/checkpoint_store.h"
#include "project/project_file.h"
#include "split/thread_backend.h"
#include "train/metrics.h"
#include "ui/core/formatting.h"

namespace skynnet::ui {
namespace {

using Clock = std::chrono::steady_clock;

QString number(double v) { return QString::number(v, 'g', 4); }

// After a duration in the log: that the run's pauses meanwhile are not in it, so nobody adds
// them back. pausedBefore: the token's pausedSeconds() when the measured part began.
QString pausedNote(const CancelToken& cancel, double pausedBefore) {
    const double paused = cancel.pausedSeconds() - pausedBefore;
    return paused > 0 ? QStringLiteral(" (not counting %1 s paused)").arg(formatSeconds(paused)) : QString();
}

// The held-out set the metrics are measured on; without test rows the best remaining stand-in.
const Dataset& evaluationSet(const PreparedData& p, std::string& name) {
    if (p.test.size() > 0) {
        name = "test";
        return p.test;
    }
    if (p.validation.size() > 0) {
        name = "validation";
        return p.validation;
    }
    name = "training";
    return p.train;
}

// nullptr when the token stopped it.
std::shared_ptr<ProjectResults> evaluate(const RunInputs& in, const PreparedData& data, ParallelResult& split,
                                         std::optional<BaselineResult>& baseline, const CancelToken& cancel) {
    // The run's thread budget holds for its evaluation too, not only for its training.
    const KernelThreadScope threads(in.threadBudget > 0 ? in.threadBudget : hardwareThreads());
    std::string evaluatedOn;
    const Dataset& eval = evaluationSet(data, evaluatedOn);
    CombinedEvaluation e = split.model.evaluate(eval, &cancel);
    if (e.cancelled) return nullptr;
    Matrix baselineOutput;
    if (baseline) {
        baselineOutput = baseline->network.predict(eval.features, &cancel);
        if (cancel.cancelled()) return nullptr;
    }
    // What the combined model needs to predict from raw features and to be saved or exported:
    // the preprocessing fitted for this run and the raw data's schema.
    const SavedCombinedModel model = toSaved(split.model, data.preprocessing, data.schema);
    // The figures and weights as the command-line tool records a run; the evaluation added below.
    auto r = std::make_shared<ProjectResults>(
        std::move(*completedRun(in.plan, split, baseline ? &*baseline : nullptr, &model).results));
    r->evaluatedOn = evaluatedOn;
    r->evaluatedSamples = long(eval.size());
    r->metricName = headlineMetricName(in.plan.task);
    r->combinedMetric = e.metric;
    r->combinedTestOutput = std::move(e.output);
    for (const auto& s : e.submodels) r->submodelMetrics.push_back(s.metric);
    r->testTargets = eval.targetMatrix();
    if (baseline) {
        r->baselineMetric = headlineMetric(in.plan.task, baselineOutput, r->testTargets);
        r->baselineTestOutput = std::move(baselineOutput);
    }
    return r;
}

std::optional<CheckpointStore> openCheckpoints(const RunInputs& in, const TrainConfig& config, const Dataset& train,
                                               const Dataset* validation, RunEventBuffer& events) {
    if (in.checkpointFolder.empty()) return std::nullopt;
    const CheckpointRunKey key = checkpointRunKey(in.plan, config, train, validation);
    if (!in.resumeCheckpoints) return CheckpointStore::start(in.checkpointFolder, in.plan, key);
    CheckpointStore store = CheckpointStore::resume(in.checkpointFolder, in.plan, key);
    events.log(QStringLiteral("resuming from %1: %2")
                   .arg(QString::fromStdString(in.checkpointFolder), QString::fromStdString(store.progressText())));
    return store;
}

}  // namespace

RunOutcome runTraining(const RunInputs& in, RunEventBuffer& events, const CancelToken& cancel) {
    const auto start = in.clockOrigin.value_or(Clock::now());
    const RunStopwatch wholeRun(&cancel);  // the job's time without its pauses
    RunOutcome out;
    try {
        std::shared_ptr<const PreparedData> data = in.prepared;
        if (!data) {
            data = std::make_shared<const PreparedData>(prepareData(*in.data, in.test.get(), in.dataSettings.preparation()));
            out.prepared = data;
        }
        if (cancel.cancelled()) {
            out.status = TrainStatus::Cancelled;
            out.message = "stopped before training started";
            return out;
        }
        const Dataset* validation = data->validation.size() > 0 ? &data->validation : nullptr;
        // One clock for the whole run, so the charts place every model where it ran, live and reopened.
        TrainConfig config = in.config;
        config.clockOrigin = start;
        const std::optional<CheckpointStore> checkpoints = openCheckpoints(in, config, data->train, validation, events);
        const std::optional<CheckpointHooks> hooks =
            checkpoints ? std::optional<CheckpointHooks>(checkpoints->hooks()) : std::nullopt;
        ParallelTrainer trainer(in.plan, config, std::make_shared<ThreadBackend>(in.threadBudget));
        double pausedBefore = cancel.pausedSeconds();
        ParallelResult split =
            trainer.train(data->train, validation, events.submodelEvents(), &cancel, hooks ? &*hooks : nullptr);
        if (split.status != TrainStatus::Completed) {
            out.status = split.status;
            out.message = split.status == TrainStatus::Failed ? split.error : "stopped during the split run";
            return out;
        }
        events.log(QStringLiteral("split run: %1 submodel(s) in %2 s wall, %3 s CPU%4")
                       .arg(in.plan.submodelCount())
                       .arg(formatSeconds(split.wallSeconds))
                       .arg(formatSeconds(split.cpuSeconds))
                       .arg(pausedNote(cancel, pausedBefore)));

        std::optional<BaselineResult> baseline;
        if (in.baseline) {
            pausedBefore = cancel.pausedSeconds();
            events.log(QStringLiteral("baseline: training the original model %1 for %2 epoch(s)")
                           .arg(QString::fromStdString(in.plan.original.widthsSummary()))
                           .arg(in.plan.epochs));
            baseline = trainBaseline(in.plan, data->train, validation, config, in.threadBudget, events.baselineCallbacks(),
                                     &cancel);
            const TrainResult& b = baseline->result;
            events.baselineFinished(b.status);
            if (b.status == TrainStatus::Failed || b.status == TrainStatus::Cancelled) {
                out.status = b.status;
                out.message = b.status == TrainStatus::Failed ? "baseline: " + b.error : "stopped during the baseline";
                return out;
            }
            events.log(QStringLiteral("baseline: %1 after %2 epoch(s) in %3 s%4")
                           .arg(QString::fromStdString(statusName(b.status)))
                           .arg(b.history.size())
                           .arg(formatSeconds(b.wallSeconds))
                           .arg(pausedNote(cancel, pausedBefore)));
        }

        auto results = evaluate(in, *data, split, baseline, cancel);
        if (!results) {
            out.status = TrainStatus::Cancelled;
            out.message = "stopped during the evaluation";
            return out;
        }
        results->wallSeconds = wholeRun.seconds();
        QString summary = QStringLiteral("combined %1 %2 on %3 %4 samples")
                              .arg(QString::fromStdString(results->metricName), number(results->combinedMetric))
                              .arg(results->evaluatedSamples)
                              .arg(QString::fromStdString(results->evaluatedOn));
        if (results->baseline) summary += QStringLiteral(", baseline %1").arg(number(results->baselineMetric));
        out.message = summary.toStdString();
        out.results = std::move(results);
        out.status = TrainStatus::Completed;
        if (checkpoints) checkpoints->removeFolder();
    } catch (const std::exception& e) {
        out.status = TrainStatus::Failed;
        out.message = e.what();
    }
    return out;
}

}  // namespace skynnet::ui
