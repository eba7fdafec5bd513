#pragma once
// The QObject adapter over the engine's parallel trainer: runs a split run (and optionally the
// baseline) on a background thread, turns the engine's callbacks into signals delivered on the
// GUI thread, throttled so charts update at most ~10 times a second however fast the engine
// reports, and drops late events of a cancelled run by a generation id. Lives on the GUI thread.
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <memory>
#include <optional>
#include <vector>

#include "project/project_file.h"
#include "split/parallel_trainer.h"
#include "ui/core/project_document.h"

namespace skynnet::ui {

class TrainingSession : public QObject {
    Q_OBJECT
public:
    explicit TrainingSession(ProjectDocument* document, QObject* parent = nullptr);
    ~TrainingSession() override;  // cancels and joins a running job

    ProjectDocument* document() const { return document_; }
    bool running() const;
    bool paused() const;
    // When the current (or last, or adopted) run was paused, on the clock of its resource samples;
    // a pause going on now ends now. Its durations, ETAs and saved figures leave these out.
    std::vector<PauseInterval> pauses() const;
    // The plan of the current (or last) run; null before the first start.
    std::shared_ptr<const SplitPlan> plan() const { return plan_; }
    // The curves of the current (or last) run so far, indexed by submodel; the baseline
    // (submodel -1) separately.
    const std::vector<ModelHistory>& submodels() const { return histories_; }
    const ModelHistory& baseline() const { return baselineHistory_; }
    // What the last run measured, with the combined model's and the baseline's weights as a
    // project saves them; null before a completed run.
    std::shared_ptr<const ProjectResults> results() const { return results_; }
    // The last run's results combined by another rule (class groups, project/recombine.h), and
    // the document's record of it when it keeps the run; emits resultsChanged. Returns why it
    // cannot (a run going on, no results, another strategy), or empty.
    QString recombineResults(ClassCombine how);
    // The last run as the project file keeps it (nullopt before any run, and while a run is in
    // progress); withWeights false leaves out the trained weights, which only the shown run needs.
    std::optional<ProjectRun> lastRun(bool withWeights = true) const;
    // How the last run ended (Cancelled before any run), its message, and whether it had a baseline.
    TrainStatus lastStatus() const { return lastStatus_; }
    QString lastMessage() const { return lastMessage_; }
    bool runHadBaseline() const { return runHadBaseline_; }
    // Whether the current (or last) run trains in another process (startCommand): it cannot pause.
    bool runsInAnotherProcess() const { return external_; }
    // Where submodel `index` trains in a run of another process ("vm", the MPI rank's host); empty
    // for in-process runs and before the submodel started.
    QString submodelHost(int index) const;
    // Where runs checkpoint their submodels: "<project file>.checkpoint" beside the project, or for
    // an untitled project a folder of this process (default AppDataLocation/recovery/
    // untitled-<pid>.checkpoint, so two app instances never share one), removed with the session.
    QString checkpointFolder() const;
    void setUntitledCheckpointFolder(const QString& folder) { untitledCheckpointFolder_ = folder; }
    // No run is going, the last one did not complete (stopped, failed, or the app ended before it
    // did) and the checkpoint folder holds its run: startResumed() can continue it.
    bool canResumeRun() const;
    // Why start() would fail now, in the words of its `failed` signal (no data, epochs, a loss that
    // does not fit the task, a split that cannot be planned); empty when it would start.
    QString startProblem() const;
    // Minimum interval between progress signals, default 100 ms.
    void setThrottleMilliseconds(int ms);
    int throttleMilliseconds() const { return throttleMs_; }

public slots:
    void start();  // plans from the document (errors -> failed signal), then trains in background
    // As start(), continuing the stopped run from its checkpoints: finished submodels are loaded,
    // the others go on from their last epoch end (a plan or data changed since is refused: finished
    // with Failed and the reason).
    void startResumed();
    // The one pause state: pausedChanged tells every control that shows it (pause and resume of a
    // run in another process, or of no run, do nothing and say nothing).
    void pause();
    void resume();
    void stop();  // cancel (ending a pause); `finished` follows once every worker has stopped
    // The document's plan trained by another process: `program arguments` must be skynnet-cli
    // train --project <projectCopy> --progress json [...] (under mpirun or not), the project copy
    // a save of the document. Its events drive the same signals as start(); on success the run it
    // saved into projectCopy (its last) gives the results. Errors before it starts -> failed.
    void startCommand(const QString& program, const QStringList& arguments, const QString& projectCopy);
    // Blocks (GUI thread) until the background job has ended; for tests and shutdown.
    bool waitForFinished(int timeoutMs = -1);
    // Shows a past run (read from a project file) without training: the views get started,
    // progress (every model) and finished, as for a run that just ended. False (nothing changes)
    // while a job runs.
    bool adoptRun(ProjectRun run);
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
    // Overall fraction 0..1 and an estimate of the seconds remaining (negative: unknown), from
    // the time spent training; not emitted while paused, and again at once on resume.
    void overallProgress(double fraction, double secondsRemaining);
    // pause() or resume() took effect, or a paused run ended (false).
    void pausedChanged(bool paused);
    void finished(skynnet::TrainStatus status, const QString& message);
    void failed(const QString& message);  // planning or data errors before training started
    void resultsChanged();                // recombineResults() changed the last run's results

private:
    struct Job;
    void startRun(bool resumeCheckpoints);
    void requireStartable() const;                                      // throws Error with startProblem()'s text
    std::unique_ptr<Job> newJob(const SplitPlan& plan, bool baseline);  // progress bookkeeping, no worker yet
    // Starts the job's worker and makes it the session's run; firstLines go to the log after started.
    void launch(std::unique_ptr<Job> job, const QStringList& firstLines);
    void beginRun(std::unique_ptr<Job> job);
    void flush();                         // pending events -> snapshots -> progress signals
    void onJobEnded(quint64 generation);  // queued from the job's thread when it is done
    void endJob();                        // joins, flushes, publishes results, emits finished
    double overallFraction() const;
    void emitOverallProgress();

    QPointer<ProjectDocument> document_;
    std::unique_ptr<Job> job_;
    std::shared_ptr<const SplitPlan> plan_;
    QTimer flushTimer_;
    std::vector<ModelHistory> histories_;
    ModelHistory baselineHistory_;
    std::shared_ptr<const ProjectResults> results_;
    quint64 generation_ = 0;
    int throttleMs_ = 100;
    TrainStatus lastStatus_ = TrainStatus::Cancelled;
    QString lastMessage_;
    bool runHadBaseline_ = false;
    bool external_ = false;
    std::vector<WorkerPlace> places_;    // per submodel, of a run in another process
    std::vector<PauseInterval> pauses_;  // of the last run, once it ended (or adopted)
    QString untitledCheckpointFolder_;
};

}  // namespace skynnet::ui

// Queued connections and QSignalSpy need the status as a registered meta type.
Q_DECLARE_METATYPE(skynnet::TrainStatus)
