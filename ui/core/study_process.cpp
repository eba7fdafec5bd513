#include "ui/core/study_process.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <csignal>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

namespace skynnet::ui {

StudyProcess::StudyProcess(QObject* parent) : QObject(parent) {
    // Its own group, so a signal to it reaches none of the app's processes; and it ends with the app.
    process_.setChildProcessModifier([] {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    });
    connect(&process_, &QProcess::readyReadStandardOutput, this, &StudyProcess::readLines);
    connect(&process_, &QProcess::readyReadStandardError, this, [this] { stderr_ += process_.readAllStandardError(); });
    connect(&process_, &QProcess::finished, this, &StudyProcess::onFinished);
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || done_) return;
        finish(Outcome::Failed, tr("cannot start %1: %2").arg(process_.program(), process_.errorString()));
    });
    killTimer_.setSingleShot(true);
    connect(&killTimer_, &QTimer::timeout, this, [this] { signalGroup(SIGKILL); });
}

StudyProcess::~StudyProcess() {
    if (!running()) return;
    signalGroup(SIGKILL);
    process_.waitForFinished(5000);
}

void StudyProcess::start(const QString& program, const QStringList& arguments) {
    done_ = stopping_ = summarized_ = false;
    partial_.clear();
    stderr_.clear();
    error_.clear();
    group_ = 0;
    process_.start(program, arguments);
    if (process_.waitForStarted()) group_ = process_.processId();
}

void StudyProcess::signalGroup(int signal) {
    // Only a group this object started: never a stale or zero id (kill(0) would signal the app's own group).
    if (group_ > 0 && running()) ::kill(-pid_t(group_), signal);
}

void StudyProcess::stop(int graceMs) {
    if (!running() || stopping_) return;
    stopping_ = true;
    signalGroup(SIGTERM);
    killTimer_.start(graceMs);
}

bool StudyProcess::waitForFinished(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!done_) {
        const int left = timeoutMs < 0 ? 1000 : int(timeoutMs - clock.elapsed());
        if (left <= 0) return false;
        if (running()) process_.waitForFinished(std::min(left, 1000));
        else QCoreApplication::processEvents();
    }
    return true;
}

void StudyProcess::readLines() {
    partial_ += process_.readAllStandardOutput();
    qsizetype end;
    while ((end = partial_.indexOf('\n')) >= 0) {
        feed(partial_.left(end));
        partial_.remove(0, end + 1);
    }
}

void StudyProcess::feed(const QByteArray& raw) {
    const QByteArray line = raw.trimmed();
    if (line.isEmpty()) return;
    Json e;
    try {
        e = parseJson(std::string_view(line.constData(), std::size_t(line.size())), "study progress");
    } catch (const std::exception&) {
        return;  // not an event (stdout holds events only; a stray line is no reason to fail the study)
    }
    if (!e.is_object()) return;
    const std::string kind = e.value("event", std::string());
    if (kind == "error") error_ = QString::fromStdString(e.value("message", std::string()));
    if (kind == "summary") summarized_ = true;
    emit progressEvent(e);
}

void StudyProcess::onFinished(int exitCode, QProcess::ExitStatus exitStatus) {
    if (done_) return;
    killTimer_.stop();
    readLines();
    if (!partial_.isEmpty()) feed(partial_);
    partial_.clear();
    stderr_ += process_.readAllStandardError();
    // The group outlives its leader if a process in it ignored the leader's end: none is left.
    if (group_ > 0) ::kill(-pid_t(group_), SIGKILL);
    if (stopping_) {
        finish(Outcome::Stopped, error_.isEmpty() ? tr("stopped") : error_);
        return;
    }
    if (exitStatus == QProcess::NormalExit && exitCode == 0 && summarized_) {
        finish(Outcome::Completed, QString());
        return;
    }
    QString last;
    for (const QByteArray& line : stderr_.split('\n'))
        if (line.trimmed().startsWith("skynnet-cli: ")) last = QString::fromUtf8(line.trimmed().mid(13));
    const QString message = !error_.isEmpty() ? error_
                            : !last.isEmpty() ? last
                            : exitStatus == QProcess::CrashExit
                                ? tr("%1 crashed").arg(process_.program())
                                : tr("%1 exited with status %2").arg(process_.program()).arg(exitCode);
    finish(Outcome::Failed, message);
}

void StudyProcess::finish(Outcome outcome, const QString& message) {
    done_ = true;
    emit ended(outcome, message);
}

}  // namespace skynnet::ui
