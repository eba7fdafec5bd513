#include "ui/core/run_worker.h"

#include <QMetaObject>

#include "core/error.h"
#include "project/project_file.h"
#include "ui/core/thread_priority.h"

namespace skynnet::ui {

ThreadRun::ThreadRun(RunInputs inputs, RunEventBuffer& events, CancelToken cancel)
    : inputs_(std::move(inputs)), events_(events), cancel_(std::move(cancel)) {}

ThreadRun::~ThreadRun() {
    // No signals from a dying run: just make the workers stop and wait for them.
    cancel_.cancel();
    if (thread_.joinable()) thread_.join();
}

void ThreadRun::start(QObject* context, std::function<void()> ended) {
    thread_ = std::thread([this, context, ended = std::move(ended)] {
        lowerCurrentThreadPriority();  // and so every worker and kernel thread it starts
        JobOutcome outcome = runTraining(inputs_, events_, cancel_);
        {
            std::lock_guard lock(mutex_);
            outcome_ = std::move(outcome);
            done_ = true;
        }
        ended_.notify_all();
        // The context outlives this thread (the run is destroyed, and so joined, before it), and a
        // call queued to it is dropped if it is deleted meanwhile.
        QMetaObject::invokeMethod(context, ended, Qt::QueuedConnection);
    });
}

QString ThreadRun::stop() { return QStringLiteral("stopping at the next batch boundary"); }

bool ThreadRun::waitForFinished(int timeoutMs) {
    {
        std::unique_lock lock(mutex_);
        const auto isDone = [this] { return done_; };
        if (timeoutMs < 0) ended_.wait(lock, isDone);
        else if (!ended_.wait_for(lock, std::chrono::milliseconds(timeoutMs), isDone)) return false;
    }
    if (thread_.joinable()) thread_.join();  // the outcome is written; the thread is only returning
    return true;
}

JobOutcome ThreadRun::takeOutcome() {
    waitForFinished(-1);
    return std::move(outcome_);
}

ToolRun::ToolRun(RunEventBuffer& events, int submodels, QString program, QStringList arguments, QString projectCopy)
    : process_(events, submodels), program_(std::move(program)), arguments_(std::move(arguments)),
      projectCopy_(std::move(projectCopy)) {}

void ToolRun::start(QObject* context, std::function<void()> ended) {
    QObject::connect(&process_, &CliTraining::ended, context, [this, context, ended = std::move(ended)] {
        // Only records the outcome: `ended` may come from inside waitForFinished(), whose caller
        // ends the job itself.
        recordOutcome();
        QMetaObject::invokeMethod(context, ended, Qt::QueuedConnection);
    });
    process_.start(program_, arguments_);  // a failure to start comes back as ended (Failed)
}

QString ToolRun::stop() {
    process_.stop();
    return QStringLiteral("stopping: ending the training processes");
}

bool ToolRun::waitForFinished(int timeoutMs) { return outcome_ || process_.waitForFinished(timeoutMs); }

void ToolRun::recordOutcome() {
    if (outcome_) return;
    JobOutcome out;
    out.status = process_.status();
    out.message = process_.message().toStdString();
    if (out.status == TrainStatus::Completed) {
        try {  // the tool saved the whole run (results and weights) into the copy, as the app saves one
            ProjectData saved = loadProject(projectCopy_.toStdString());
            if (saved.runs.empty() || !saved.runs.back().results) throw Error("it holds no completed run");
            ProjectRun& run = saved.runs.back();
            out.message = run.message;
            out.results = std::make_shared<const ProjectResults>(std::move(*run.results));
        } catch (const std::exception& e) {
            out.status = TrainStatus::Failed;
            out.message = "the run ended, but its results could not be read from " + projectCopy_.toStdString() + ": " +
                          e.what();
        }
    }
    outcome_ = std::move(out);
}

JobOutcome ToolRun::takeOutcome() {
    recordOutcome();
    return std::move(*outcome_);
}

}  // namespace skynnet::ui
