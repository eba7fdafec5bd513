#pragma once
// `skynnet-cli study ... --progress json` run by the Study page, through QProcess in a process
// group of its own as CliTraining runs a training (cli_training.h). The study starts each run as
// a child train process of its own and passes SIGTERM on to it, keeping the runs already finished:
// stop() sends SIGTERM to the study's group, then SIGKILL to it if it has not ended `graceMs`
// later (each train child dies with its study: PR_SET_PDEATHSIG). The study itself dies with the
// app the same way, so no run outlives it. Every stdout line is one JSON event (app/cli
// study_options.cpp, studyHelp). Lives on the GUI thread.
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>

#include "io/json.h"

namespace skynnet::ui {

class StudyProcess : public QObject {
    Q_OBJECT
public:
    enum class Outcome { Completed, Stopped, Failed };

    explicit StudyProcess(QObject* parent = nullptr);
    ~StudyProcess() override;  // kills the group if it still runs

    void start(const QString& program, const QStringList& arguments);
    void stop(int graceMs = 30000);
    bool running() const { return process_.state() != QProcess::NotRunning; }
    // Blocks until the process ended and `ended` was emitted; false on timeout.
    bool waitForFinished(int timeoutMs = -1);
    qint64 processGroup() const { return group_; }

signals:
    // One per stdout line that is a JSON object.
    void progressEvent(const skynnet::Json& event);
    // message: why it failed (the error event's, else the tool's last stderr line), or the
    // stopped study's own words.
    void ended(skynnet::ui::StudyProcess::Outcome outcome, const QString& message);

private:
    void readLines();
    void feed(const QByteArray& line);
    void onFinished(int exitCode, QProcess::ExitStatus exitStatus);
    void signalGroup(int signal);
    void finish(Outcome outcome, const QString& message);

    QProcess process_;
    QByteArray partial_, stderr_;
    QTimer killTimer_;
    qint64 group_ = 0;
    bool stopping_ = false, done_ = false, summarized_ = false;
    QString error_;  // the last error event's message
};

}  // namespace skynnet::ui
