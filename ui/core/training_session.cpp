#include "ui/core/training_session.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <algorithm>
#include <chrono>

#include "core/error.h"
#include "losses/task_losses.h"
#include "project/checkpoint_store.h"
#include "project/project_file.h"
#include "project/recombine.h"
#include "ui/core/run_job.h"
#include "ui/core/run_worker.h"

namespace skynnet::ui {

// One run: its worker (a thread here or a tool's process, run_worker.h), the buffer it reports
// into, and the GUI-side bookkeeping of its progress estimate.
struct TrainingSession::Job {
    quint64 generation = 0;
    CancelToken cancel;
    std::unique_ptr<RunEventBuffer> events;
    std::unique_ptr<RunWorker> worker;  // after events, which it reports into: destroyed first
    std::shared_ptr<const SplitPlan> plan;
    bool baseline = false;

    quint64 dataRevision = 0;
    QElapsedTimer clock;
    // The run's clock (resource samples, pauses), set before its thread starts.
    std::chrono::steady_clock::time_point origin;
    // Per model (submodels, then the baseline): epochs to train and work (samples x epochs x
    // FLOPs/sample), so the fraction done weighs a wide baseline batch more than a slim submodel's.
    std::vector<int> epochs;
    std::vector<double> work;

    // Since the run began, without its pauses: what the time remaining is extrapolated from.
    double activeSeconds() const { return std::max(0.0, double(clock.elapsed()) / 1000.0 - cancel.pausedSeconds()); }
};

namespace {

void apply(ModelHistory& snap, ModelUpdate& u) {
    snap.epochs.insert(snap.epochs.end(), u.epochs.begin(), u.epochs.end());
    snap.resources.insert(snap.resources.end(), u.resources.begin(), u.resources.end());
    if (u.lastBatch) snap.lastBatch = *u.lastBatch;
    if (u.finished) {
        snap.finished = true;
        snap.status = *u.finished;
    }
}

// The fraction of its own training a model has done, from its last batch report.
double doneFraction(const ModelHistory& s, int epochs) {
    if (s.finished) return 1.0;
    if (epochs <= 0) return 0.0;
    double done = double(s.epochs.size());
    const BatchProgress& b = s.lastBatch;
    if (b.batches > 0 && b.epoch > 0) done = std::max(done, double(b.epoch - 1) + double(b.batch) / b.batches);
    return std::min(1.0, done / epochs);
}

}  // namespace

TrainingSession::TrainingSession(ProjectDocument* document, QObject* parent) : QObject(parent), document_(document) {
    qRegisterMetaType<skynnet::TrainStatus>("skynnet::TrainStatus");
    baselineHistory_.submodel = -1;
    // Precise: a coarse timer may fire up to 5% early, which would break the "at most every
    // throttleMs" promise over a long run.
    flushTimer_.setTimerType(Qt::PreciseTimer);
    flushTimer_.setInterval(throttleMs_);
    connect(&flushTimer_, &QTimer::timeout, this, &TrainingSession::flush);
}

TrainingSession::~TrainingSession() {
    job_.reset();  // a running worker stops and is waited for, with no signals from a dying object
    // An untitled project's checkpoints cannot be found again once this process is gone.
    if (!document_ || document_->filePath().isEmpty()) CheckpointStore::removeFolder(checkpointFolder().toStdString());
}

bool TrainingSession::running() const { return job_ != nullptr; }

bool TrainingSession::paused() const { return job_ && job_->cancel.paused(); }

std::vector<PauseInterval> TrainingSession::pauses() const {
    if (job_ && !job_->worker->inAnotherProcess()) return job_->cancel.pausesSince(job_->origin);
    return pauses_;
}

void TrainingSession::setThrottleMilliseconds(int ms) {
    throttleMs_ = std::max(1, ms);
    flushTimer_.setInterval(throttleMs_);
}

QString TrainingSession::checkpointFolder() const {
    if (document_ && !document_->filePath().isEmpty()) return document_->filePath() + QStringLiteral(".checkpoint");
    if (!untitledCheckpointFolder_.isEmpty()) return untitledCheckpointFolder_;
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/recovery/untitled-%1.checkpoint").arg(QCoreApplication::applicationPid());
}

bool TrainingSession::canResumeRun() const {
    if (job_ || lastStatus_ == TrainStatus::Completed || lastStatus_ == TrainStatus::EarlyStopped) return false;
    return CheckpointStore::holdsRun(checkpointFolder().toStdString());
}

// The session's state for a run that starts now: in-process (external false) or a tool's process.
void TrainingSession::beginRun(std::unique_ptr<Job> job) {
    if (plan_) emit aboutToReplaceRun();
    job_ = std::move(job);
    plan_ = job_->plan;
    runHadBaseline_ = job_->baseline;
    histories_.assign(std::size_t(plan_->submodelCount()), ModelHistory{});
    for (int i = 0; i < plan_->submodelCount(); ++i) histories_[std::size_t(i)].submodel = i;
    baselineHistory_ = ModelHistory{};
    baselineHistory_.submodel = -1;
    results_.reset();
    pauses_.clear();
    external_ = job_->worker->inAnotherProcess();
    places_.assign(histories_.size(), WorkerPlace{});
    job_->clock.start();
    flushTimer_.start();
    emit started(plan_->submodelCount(), job_->baseline);
}

void TrainingSession::requireStartable() const {
    if (!document_) throw Error("no project is open");
    if (!document_->hasData()) throw Error("no data loaded: choose a data file first");
    const ProjectTraining& ts = document_->trainSettings();
    if (ts.config.epochs < 1) throw Error("epochs " + std::to_string(ts.config.epochs) + ": must be at least 1");
    checkLossFitsTask(ts.config.loss, document_->dataset()->task);  // skynnet-cli's rule and message
    (void)document_->plan();  // throws what is wrong with the split; kept by the document for the run
}

QString TrainingSession::startProblem() const {
    try {
        requireStartable();
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

void TrainingSession::start() { startRun(false); }

void TrainingSession::startResumed() { startRun(true); }

void TrainingSession::startRun(bool resumeCheckpoints) {
    if (job_) {  // one run at a time: the old one ends (finished(Cancelled)) before the new one starts
        stop();
        waitForFinished();
    }
    RunInputs in;
    try {
        requireStartable();
        const ProjectTraining& ts = document_->trainSettings();
        RunRequest& r = in.request;
        r.network = document_->network();
        r.split = document_->effectiveSplitOptions();
        r.plan = document_->plan();
        r.config = ts.config;
        r.threads = ts.threadBudget;
        r.baseline = ts.trainBaseline;
        r.evaluation = EvaluationRows::HeldOut;
        r.prepared = document_->cachedPrepared();
        r.checkpointFolder = checkpointFolder().toStdString();
        r.checkpointStart = resumeCheckpoints ? CheckpointStart::Resume : CheckpointStart::Replace;
        in.dataSettings = document_->dataSettings();
        in.data = document_->dataset();
        in.test = document_->testDataset();
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
        return;
    }

    auto job = newJob(*in.request.plan, in.request.baseline);
    in.request.clockOrigin = job->origin;
    job->worker = std::make_unique<ThreadRun>(std::move(in), *job->events, job->cancel);
    // The run's own first lines (its plan, its notes) come from the engine.
    launch(std::move(job), {});
}

std::unique_ptr<TrainingSession::Job> TrainingSession::newJob(const SplitPlan& p, bool baseline) {
    auto job = std::make_unique<Job>();
    job->generation = ++generation_;
    job->dataRevision = document_->dataRevision();
    job->plan = std::make_shared<const SplitPlan>(p);
    job->baseline = baseline;
    for (const auto& s : p.submodels) {
        job->epochs.push_back(p.effectiveEpochs);
        job->work.push_back(double(s.rows.size()) * p.effectiveEpochs *
                            double(std::max<std::int64_t>(s.flopsPerSample, 1)));
    }
    job->epochs.push_back(baseline ? p.epochs : 0);
    job->work.push_back(
        baseline ? double(p.samples) * p.epochs * double(std::max<std::int64_t>(p.originalFlopsPerSample, 1)) : 0.0);
    job->events = std::make_unique<RunEventBuffer>(p.submodelCount());
    job->origin = std::chrono::steady_clock::now();
    return job;
}

void TrainingSession::launch(std::unique_ptr<Job> job, const QStringList& firstLines) {
    const quint64 generation = job->generation;
    try {
        // The generation drops the call if the run was already ended by waitForFinished().
        job->worker->start(this, [this, generation] { onJobEnded(generation); });
    } catch (const std::exception& e) {
        emit failed(QStringLiteral("cannot start the training: ") + QString::fromStdString(e.what()));
        return;
    }
    beginRun(std::move(job));
    for (const QString& line : firstLines) emit logMessage(line);
}

void TrainingSession::pause() {
    if (!job_ || job_->worker->inAnotherProcess() || job_->cancel.paused() || job_->cancel.cancelled()) return;
    job_->cancel.pause();
    emit logMessage(QStringLiteral("paused (workers stop at their next batch boundary)"));
    emit pausedChanged(true);
}

void TrainingSession::resume() {
    if (!job_ || !job_->cancel.paused()) return;
    job_->cancel.resume();
    emit logMessage(QStringLiteral("resumed"));
    emit pausedChanged(false);
    emitOverallProgress();  // the estimate held while paused moves on from where it was
}

void TrainingSession::stop() {
    if (!job_ || job_->cancel.cancelled()) return;
    job_->cancel.cancel();        // also wakes paused workers
    if (job_->cancel.paused()) {  // the pause ends here: stopping is not paused time
        job_->cancel.resume();
        emit pausedChanged(false);
    }
    emit logMessage(job_->worker->stop());
}

bool TrainingSession::waitForFinished(int timeoutMs) {
    if (!job_) return true;
    if (!job_->worker->waitForFinished(timeoutMs)) return false;
    endJob();
    return true;
}

bool TrainingSession::adoptRun(ProjectRun run) {
    if (job_) return false;
    plan_ = std::make_shared<const SplitPlan>(std::move(run.plan));
    histories_ = std::move(run.submodels);
    histories_.resize(std::size_t(plan_->submodelCount()));
    for (int i = 0; i < plan_->submodelCount(); ++i) histories_[std::size_t(i)].submodel = i;
    runHadBaseline_ = run.baseline.has_value();
    baselineHistory_ = run.baseline ? std::move(*run.baseline) : ModelHistory{};
    baselineHistory_.submodel = -1;
    results_ = run.results ? std::make_shared<const ProjectResults>(std::move(*run.results)) : nullptr;
    pauses_ = std::move(run.pauses);
    lastStatus_ = run.status;
    lastMessage_ = QString::fromStdString(run.message);
    emit started(plan_->submodelCount(), runHadBaseline_);
    QList<int> all;
    for (int i = 0; i < plan_->submodelCount(); ++i) all.append(i);
    emit progress(all, runHadBaseline_);
    emit logMessage(QStringLiteral("showing the saved run (%1): %2")
                        .arg(QString::fromStdString(statusName(lastStatus_)), lastMessage_));
    if (results_) emit overallProgress(1.0, 0.0);
    emit finished(lastStatus_, lastMessage_);
    return true;
}

QString TrainingSession::recombineResults(ClassCombine how) {
    if (running()) return tr("a run is going on");
    if (!results_ || !plan_) return tr("no completed run");
    auto copy = std::make_shared<ProjectResults>(*results_);
    try {
        recombine(*copy, *plan_, how);
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    if (document_ && document_->showsSessionRun(plan_))
        if (QString why = document_->recombineRun(document_->shownRun(), how); !why.isEmpty()) return why;
    results_ = std::move(copy);
    emit resultsChanged();
    return {};
}

std::optional<ProjectRun> TrainingSession::lastRun(bool withWeights) const {
    if (job_ || !plan_) return std::nullopt;
    ProjectRun run;
    run.status = lastStatus_;
    run.message = lastMessage_.toStdString();
    run.plan = *plan_;
    run.submodels = histories_;
    if (runHadBaseline_) run.baseline = baselineHistory_;
    run.pauses = pauses_;
    if (results_) {
        run.results = *results_;
        if (!withWeights) {
            run.results->model.reset();
            run.results->baselineWeights.reset();
        }
    }
    return run;
}

bool TrainingSession::clearRun() {
    if (job_) return false;
    plan_.reset();
    histories_.clear();
    baselineHistory_ = ModelHistory{};
    baselineHistory_.submodel = -1;
    results_.reset();
    pauses_.clear();
    lastStatus_ = TrainStatus::Cancelled;
    lastMessage_.clear();
    runHadBaseline_ = false;
    emit started(0, false);
    emit finished(lastStatus_, lastMessage_);
    return true;
}

void TrainingSession::onJobEnded(quint64 generation) {
    if (job_ && job_->generation == generation) endJob();
}

void TrainingSession::endJob() {
    flush();
    flushTimer_.stop();
    pauses_ = pauses();
    std::unique_ptr<Job> job = std::move(job_);  // running() is false from here on
    // Paused at the very end (after the last batch boundary): the run is over, so is its pause.
    if (job->cancel.paused()) emit pausedChanged(false);
    JobOutcome out = job->worker->takeOutcome();
    if (out.prepared && document_) document_->adoptPrepared(out.prepared, job->dataRevision);
    const QString message = QString::fromStdString(out.message);
    lastStatus_ = out.status;
    lastMessage_ = message;
    if (out.status == TrainStatus::Completed) {
        results_ = out.results;
        emit overallProgress(1.0, 0.0);
        // A run in this process said so itself (the engine's last line); a tool's run did not.
        if (job->worker->inAnotherProcess()) emit logMessage(QStringLiteral("finished: ") + message);
    } else {
        emit logMessage(QString::fromStdString(statusName(out.status)) + QStringLiteral(": ") + message);
    }
    emit finished(out.status, message);
}

void TrainingSession::flush() {
    if (!job_) return;
    CollectedEvents c = job_->events->take();
    QList<int> changed;
    for (std::size_t i = 0; i < c.submodels.size() && i < histories_.size(); ++i) {
        if (c.submodels[i].empty()) continue;
        apply(histories_[i], c.submodels[i]);
        changed.append(int(i));
    }
    const bool baselineChanged = !c.baseline.empty();
    if (baselineChanged) apply(baselineHistory_, c.baseline);
    for (std::size_t i = 0; i < c.submodels.size() && i < places_.size(); ++i)
        if (c.submodels[i].place) places_[i] = *c.submodels[i].place;
    for (const QString& line : c.log) emit logMessage(line);
    if (changed.isEmpty() && !baselineChanged) return;
    emit progress(changed, baselineChanged);
    emitOverallProgress();
}

double TrainingSession::overallFraction() const {
    if (!job_) return 0.0;
    double total = 0, done = 0;
    for (std::size_t m = 0; m < job_->work.size(); ++m) {
        const ModelHistory& s = m < histories_.size() ? histories_[m] : baselineHistory_;
        total += job_->work[m];
        done += job_->work[m] * doneFraction(s, job_->epochs[m]);
    }
    return total > 0 ? done / total : 0.0;
}

void TrainingSession::emitOverallProgress() {
    // Frozen while paused: the batches that finish after the pause was asked for would otherwise
    // move it, and the time remaining does not shrink while nothing trains.
    if (!job_ || job_->cancel.paused()) return;
    const double f = overallFraction();
    // Too early to extrapolate: the first batches include thread start-up and data preparation.
    const double remaining = f > 0.01 ? job_->activeSeconds() * (1.0 - f) / f : -1.0;
    emit overallProgress(f, remaining);
}

QString TrainingSession::submodelHost(int index) const {
    if (!external_ || index < 0 || std::size_t(index) >= places_.size()) return {};
    return QString::fromStdString(places_[std::size_t(index)].host);
}

void TrainingSession::startCommand(const QString& program, const QStringList& arguments, const QString& projectCopy) {
    if (job_) {
        stop();
        waitForFinished();
    }
    std::optional<SplitPlan> plan;
    try {  // the checks start() makes, so both refuse a run with the same words
        requireStartable();
        plan = document_->plan();
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
        return;
    }

    auto job = newJob(*plan, document_->trainSettings().trainBaseline);
    job->worker = std::make_unique<ToolRun>(*job->events, job->plan->submodelCount(), program, arguments, projectCopy);
    QStringList firstLines = {QStringLiteral("running: %1 %2").arg(program, arguments.join(QLatin1Char(' ')))};
    for (const auto& w : job->plan->warnings) firstLines << QStringLiteral("note: ") + QString::fromStdString(w);
    launch(std::move(job), firstLines);
}

}  // namespace skynnet::ui
