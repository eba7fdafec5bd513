#pragma once
// A child process in a process group of its own, read line by line: what CliTraining (a training,
// perhaps mpirun and its ranks) and StudyProcess (a study and its train runs) share. stop() sends
// SIGTERM to the whole group, then SIGKILL to it if it has not ended `graceMs` later; a signal to
// the group reaches none of the app's processes, and nothing in the group outlives its leader.
// Lives on the GUI thread.
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>

namespace skynnet::ui {

class GroupedProcess : public QObject {
    Q_OBJECT
public:
    // endsWithApp: the child gets SIGTERM when the app dies (PR_SET_PDEATHSIG), as a study does; a
    // training is stopped by the session instead, which keeps what it reported.
    explicit GroupedProcess(bool endsWithApp, QObject* parent = nullptr);
    ~GroupedProcess() override;  // kills the group if it still runs, without signalling its owner

    // May be called again once `ended`: a stopped study starts again.
    void start(const QString& program, const QStringList& arguments);
    void stop(int graceMs);
    bool stopping() const { return stopping_; }
    bool running() const { return process_.state() != QProcess::NotRunning; }
    // Blocks until `finished` or `failedToStart` was emitted; false on timeout.
    bool waitForFinished(int timeoutMs);
    // The group's id (the child's pid), 0 before start.
    qint64 processGroup() const { return group_; }
    QString program() const { return process_.program(); }
    // Everything the child wrote on stderr so far.
    const QByteArray& standardError() const { return stderr_; }

signals:
    // One per stdout line, the last one too if it has no newline.
    void line(const QByteArray& line);
    // After the last line, with the group's stragglers killed.
    void finished(int exitCode, QProcess::ExitStatus exitStatus);
    void failedToStart(const QString& message);

private:
    void readLines();
    void onFinished(int exitCode, QProcess::ExitStatus exitStatus);
    void signalGroup(int signal);

    QProcess process_;
    QByteArray partial_;  // an unfinished stdout line
    QByteArray stderr_;
    QTimer killTimer_;
    qint64 group_ = 0;
    bool stopping_ = false, ended_ = false;
};

}  // namespace skynnet::ui
