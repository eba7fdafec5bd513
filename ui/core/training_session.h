#pragma once
// The QObject adapter over the engine's parallel trainer: runs a split run (and optionally the
// baseline) on a background thread, turns the engine's callbacks into signals delivered on the
// GUI thread, throttled so charts update at most ~10 times a second however fast the engine
// reports, and drops late events of a cancelled run by a generation id. Lives on the GUI thread.
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <memory>
#include <vector>

#include "split/parallel_trainer.h"
#include "ui/core/project_document.h"

namespace skynnet::ui {

// One submodel's (or the baseline's: submodel == -1) progress snapshot, copied out of the engine.
struct SubmodelSnapshot {
    int submodel = 0;
    std::vector<EpochStats> epochs;         // every finished epoch so far
    std::vector<ResourceSample> resources;  // every resource sample so far
    BatchProgress lastBatch;
    bool finished = false;
    TrainStatus status = TrainStatus::Completed;
};

// Everything a finished run produced, for the Results page and the project file.
struct RunResults {
    SplitPlan plan;
    ParallelResult split;                       // combined model, per-submodel results and times
    std::optional<BaselineResult> baseline;
    double combinedMetric = 0, baselineMetric = 0;  // headline metric on the test set
    Matrix combinedTestOutput, baselineTestOutput;  // for confusion matrix / scatter
    Matrix testTargets;
    std::vector<double> submodelMetrics;         // each on its own sub-problem (test set)
    double wallSeconds = 0;                      // the whole job: preparation, split, baseline, evaluation
    std::string metricName;                      // "accuracy" or "r2"
    // The set the metrics are measured on: "test", or "validation" / "training" when the data
    // has no test rows (test fraction 0 and no test file).
    std::string evaluatedOn = "test";
    long evaluatedSamples = 0;
    // What the combined model needs to predict from raw features and to be saved or exported:
    // the preprocessing fitted for this run and the schema of the raw data it was trained on.
    Preprocessing preprocessing;
    ModelSchema schema;
};

// A run that ended elsewhere (read from a project file), to be shown as if it had just ended.
struct PastRun {
    std::shared_ptr<const SplitPlan> plan;
    std::vector<SubmodelSnapshot> submodels;  // one per plan submodel
    std::optional<SubmodelSnapshot> baseline;
    std::shared_ptr<const RunResults> results;  // null for a run that did not complete
    TrainStatus status = TrainStatus::Completed;
    QString message;
};

class TrainingSession : public QObject {
    Q_OBJECT
public:
    explicit TrainingSession(ProjectDocument* document, QObject* parent = nullptr);
    ~TrainingSession() override;  // cancels and joins a running job

    ProjectDocument* document() const { return document_; }
    bool running() const;
    bool paused() const;
    // The plan of the current (or last) run; null before the first start.
    std::shared_ptr<const SplitPlan> plan() const { return plan_; }
    // Snapshots of the current (or last) run, indexed by submodel; the baseline separately.
    const std::vector<SubmodelSnapshot>& submodels() const { return snapshots_; }
    const SubmodelSnapshot& baseline() const { return baselineSnapshot_; }
    std::shared_ptr<const RunResults> results() const { return results_; }
    // How the last run ended (Cancelled before any run), its message, and whether it had a baseline.
    TrainStatus lastStatus() const { return lastStatus_; }
    QString lastMessage() const { return lastMessage_; }
    bool runHadBaseline() const { return runHadBaseline_; }
    // Minimum interval between progress signals, default 100 ms.
    void setThrottleMilliseconds(int ms);
    int throttleMilliseconds() const { return throttleMs_; }

public slots:
    void start();   // plans from the document (errors -> failed signal), then trains in background
    void pause();
    void resume();
    void stop();    // cancel; `finished` follows once every worker has stopped
    // Blocks (GUI thread) until the background job has ended; for tests and shutdown.
    bool waitForFinished(int timeoutMs = -1);
    // Shows a past run without training: the views get started, progress (every model) and
    // finished, as for a run that just ended. False (nothing changes) while a job runs.
    bool adoptRun(PastRun run);
    // Forgets the last run (a new project): started(0, false), then finished(Cancelled).
    bool clearRun();

signals:
    // Before a new training run replaces the last one's snapshots and results (to keep them
    // elsewhere); not for adoptRun or clearRun, which replace a whole project's state.
    void aboutToReplaceRun();
    void started(int submodelCount, bool withBaseline);
    // Throttled: carries the submodels whose snapshots changed since the last emission.
    void progress(const QList<int>& changedSubmodels, bool baselineChanged);
    void logMessage(const QString& line);
    // Overall fraction 0..1 and an estimate of the seconds remaining (negative: unknown).
    void overallProgress(double fraction, double secondsRemaining);
    void finished(skynnet::TrainStatus status, const QString& message);
    void failed(const QString& message);  // planning or data errors before training started

private:
    struct Job;
    void flush();                            // pending events -> snapshots -> progress signals
    void onJobEnded(quint64 generation);     // queued from the job's thread when it is done
    void endJob();                           // joins, flushes, publishes results, emits finished
    double overallFraction() const;
    void emitOverallProgress();

    QPointer<ProjectDocument> document_;
    std::unique_ptr<Job> job_;
    std::shared_ptr<const SplitPlan> plan_;
    QTimer flushTimer_;
    std::vector<SubmodelSnapshot> snapshots_;
    SubmodelSnapshot baselineSnapshot_;
    std::shared_ptr<const RunResults> results_;
    quint64 generation_ = 0;
    int throttleMs_ = 100;
    TrainStatus lastStatus_ = TrainStatus::Cancelled;
    QString lastMessage_;
    bool runHadBaseline_ = false;
};

}  // namespace skynnet::ui

// Queued connections and QSignalSpy need the status as a registered meta type.
Q_DECLARE_METATYPE(skynnet::TrainStatus)
