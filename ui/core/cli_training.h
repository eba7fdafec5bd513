#pragma once
// A training run in another process: skynnet-cli with --progress json (starting mpirun itself when
// it runs on the machines of a hostfile), started through QProcess in a process group of its own. Its
// stdout lines feed a RunEventBuffer (ProgressEventReader), so the session treats it like its
// in-process runs; stop() ends the whole group, mpirun and every rank it started on this machine,
// so nothing is left behind. Lives on the GUI thread.
#include <QObject>
#include <QStringList>

#include "ui/core/grouped_process.h"
#include "ui/core/progress_events.h"

namespace skynnet::ui {

class CliTraining : public QObject {
    Q_OBJECT
public:
    // The buffer must outlive this object.
    CliTraining(RunEventBuffer& events, int submodels, QObject* parent = nullptr);
    // Destroyed while it runs, it kills the group.

    void start(const QString& program, const QStringList& arguments);
    // SIGTERM to the process group, SIGKILL to it if it has not ended `graceMs` later. Open MPI
    // starts its ranks in process groups of their own: mpirun passes SIGTERM on to every rank and
    // ends (about a second here), so the grace is long enough that it never needs the SIGKILL,
    // which would reach mpirun but not its ranks.
    void stop(int graceMs = 10000);
    bool running() const { return process_.running(); }
    // Blocks until the process ended and `ended` was emitted; false on timeout.
    bool waitForFinished(int timeoutMs = -1) { return process_.waitForFinished(timeoutMs); }
    // The group's id (the tool's pid), 0 before start.
    qint64 processGroup() const { return process_.processGroup(); }

    // How it went, once ended: Completed with the result event and exit status 0; Cancelled after
    // stop(); otherwise Failed with the error event's message, else the tool's last stderr line.
    TrainStatus status() const { return status_; }
    const QString& message() const { return message_; }
    const std::optional<ResultEvent>& result() const { return reader_.result(); }

signals:
    void ended();

private:
    void onFinished(int exitCode, QProcess::ExitStatus exitStatus);

    GroupedProcess process_;
    ProgressEventReader reader_;
    TrainStatus status_ = TrainStatus::Failed;
    QString message_;
};

}  // namespace skynnet::ui
