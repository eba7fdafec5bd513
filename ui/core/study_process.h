#pragma once
// `skynnet-cli study ... --progress json` run by the StudySession, through QProcess in a process
// group of its own (grouped_process.h), as CliTraining runs a training. The study starts each run as
// a child train process of its own and passes SIGTERM on to it, keeping the runs already finished:
// stop() sends SIGTERM to the study's group, then SIGKILL to it if it has not ended `graceMs`
// later (each train child dies with its study: PR_SET_PDEATHSIG). The study itself dies with the
// app the same way, so no run outlives it. Every stdout line is one JSON event, read through the
// engine's reader of the events the tool writes (engine/study/study_event.h). Lives on the GUI
// thread.
#include <QObject>
#include <QStringList>

#include "study/study_event.h"
#include "ui/core/grouped_process.h"

namespace skynnet::ui {

class StudyProcess : public QObject {
    Q_OBJECT
public:
    enum class Outcome { Completed, Stopped, Failed };

    // Destroyed while it runs, it kills the group.
    explicit StudyProcess(QObject* parent = nullptr);

    void start(const QString& program, const QStringList& arguments);
    void stop(int graceMs = 30000) { process_.stop(graceMs); }
    bool running() const { return process_.running(); }
    // Blocks until the process ended and `ended` was emitted; false on timeout.
    bool waitForFinished(int timeoutMs = -1) { return process_.waitForFinished(timeoutMs); }
    qint64 processGroup() const { return process_.processGroup(); }

signals:
    // One per stdout line that is a study event this build knows (a newer tool's kind, a stray
    // line or a bad event is skipped, the last with a warning naming the field at fault).
    void progressEvent(const skynnet::StudyEvent& event);
    // message: why it failed (the error event's, else the tool's last stderr line), or the
    // stopped study's own words.
    void ended(skynnet::ui::StudyProcess::Outcome outcome, const QString& message);

private:
    void feed(const QByteArray& line);
    void onFinished(int exitCode, QProcess::ExitStatus exitStatus);

    GroupedProcess process_;
    bool summarized_ = false;
    QString error_;  // the last error event's message
};

}  // namespace skynnet::ui
