#include "ui/core/grouped_process.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <csignal>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

namespace skynnet::ui {

GroupedProcess::GroupedProcess(bool endsWithApp, QObject* parent) : QObject(parent) {
    process_.setChildProcessModifier([endsWithApp] {
        ::setpgid(0, 0);
        if (endsWithApp) ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    });
    connect(&process_, &QProcess::readyReadStandardOutput, this, &GroupedProcess::readLines);
    connect(&process_, &QProcess::readyReadStandardError, this, [this] { stderr_ += process_.readAllStandardError(); });
    connect(&process_, &QProcess::finished, this, &GroupedProcess::onFinished);
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || ended_) return;
        ended_ = true;
        emit failedToStart(tr("cannot start %1: %2").arg(process_.program(), process_.errorString()));
    });
    killTimer_.setSingleShot(true);
    connect(&killTimer_, &QTimer::timeout, this, [this] { signalGroup(SIGKILL); });
}

GroupedProcess::~GroupedProcess() {
    // The owner is being destroyed around this member: it hears nothing more.
    blockSignals(true);
    if (!running()) return;
    signalGroup(SIGKILL);
    process_.waitForFinished(5000);
}

void GroupedProcess::start(const QString& program, const QStringList& arguments) {
    stopping_ = ended_ = false;
    partial_.clear();
    stderr_.clear();
    group_ = 0;
    process_.start(program, arguments);
    if (process_.waitForStarted()) group_ = process_.processId();
}

void GroupedProcess::signalGroup(int signal) {
    // Only a group this object started: never a stale or zero id (kill(0) would signal the app's own group).
    if (group_ > 0 && running()) ::kill(-pid_t(group_), signal);
}

void GroupedProcess::stop(int graceMs) {
    if (!running() || stopping_) return;
    stopping_ = true;
    signalGroup(SIGTERM);
    killTimer_.start(graceMs);
}

bool GroupedProcess::waitForFinished(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!ended_) {
        const int left = timeoutMs < 0 ? 1000 : int(timeoutMs - clock.elapsed());
        if (left <= 0) return false;
        // Delivers finished() (and so onFinished) on return; the loop ends once it ran.
        if (running()) process_.waitForFinished(std::min(left, 1000));
        else if (!ended_) QCoreApplication::processEvents();
    }
    return true;
}

void GroupedProcess::readLines() {
    partial_ += process_.readAllStandardOutput();
    qsizetype end;
    while ((end = partial_.indexOf('\n')) >= 0) {
        const QByteArray text = partial_.left(end);
        partial_.remove(0, end + 1);
        emit line(text);
    }
}

void GroupedProcess::onFinished(int exitCode, QProcess::ExitStatus exitStatus) {
    if (ended_) return;
    killTimer_.stop();
    readLines();
    if (!partial_.isEmpty()) emit line(std::exchange(partial_, QByteArray()));
    stderr_ += process_.readAllStandardError();
    // The group outlives its leader if a child ignored the leader's end: make sure none is left.
    if (group_ > 0) ::kill(-pid_t(group_), SIGKILL);
    ended_ = true;
    emit finished(exitCode, exitStatus);
}

}  // namespace skynnet::ui
