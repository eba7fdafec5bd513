#pragma once
// Where a session's run works, behind one interface, so that the session never asks which: the
// engine's run on a thread of this process (ThreadRun), or skynnet-cli in processes of its own
// (ToolRun: the machines of a hostfile, under mpirun). Both feed the same RunEventBuffer and end
// with a JobOutcome. Created, started, stopped and destroyed on the GUI thread.
#include <QObject>
#include <QStringList>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "core/cancel.h"
#include "ui/core/cli_training.h"
#include "ui/core/run_job.h"

namespace skynnet::ui {

class RunWorker {
public:
    virtual ~RunWorker() = default;
    // Starts the run; `ended` is called once on `context`'s thread after it has ended (unless
    // waitForFinished saw the end first: then the session has already taken the outcome).
    virtual void start(QObject* context, std::function<void()> ended) = 0;
    // A run in another process cannot pause, and keeps no pauses of its own.
    virtual bool inAnotherProcess() const = 0;
    // After the run's token was cancelled: makes the run end soon. Returns the log line saying how.
    virtual QString stop() = 0;
    // Blocks until the run has ended and its outcome is ready; false on timeout.
    virtual bool waitForFinished(int timeoutMs) = 0;
    // How it went; only once it has ended.
    virtual JobOutcome takeOutcome() = 0;
};

class ThreadRun final : public RunWorker {
public:
    ThreadRun(RunInputs inputs, RunEventBuffer& events, CancelToken cancel);
    ~ThreadRun() override;  // cancels the run and joins its thread

    void start(QObject* context, std::function<void()> ended) override;
    bool inAnotherProcess() const override { return false; }
    QString stop() override;
    bool waitForFinished(int timeoutMs) override;
    JobOutcome takeOutcome() override;

private:
    RunInputs inputs_;
    RunEventBuffer& events_;
    CancelToken cancel_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable ended_;
    bool done_ = false;   // guarded by mutex_
    JobOutcome outcome_;  // written before done_
};

class ToolRun final : public RunWorker {
public:
    // `program arguments`: skynnet-cli train --project <projectCopy> --progress json [...], which
    // saves the run into projectCopy; the results are read from there.
    ToolRun(RunEventBuffer& events, int submodels, QString program, QStringList arguments, QString projectCopy);

    void start(QObject* context, std::function<void()> ended) override;
    bool inAnotherProcess() const override { return true; }
    QString stop() override;
    bool waitForFinished(int timeoutMs) override;
    JobOutcome takeOutcome() override;

private:
    void recordOutcome();  // from the process's end and the project copy

    CliTraining process_;
    QString program_;
    QStringList arguments_;
    QString projectCopy_;
    std::optional<JobOutcome> outcome_;
};

}  // namespace skynnet::ui
