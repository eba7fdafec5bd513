#include "ui/core/cli_training.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

namespace skynnet::ui {

CliTraining::CliTraining(RunEventBuffer& events, int submodels, QObject* parent)
    : QObject(parent), reader_(events, submodels) {
    // The tool's own group: a signal to it reaches mpirun and every process it started here, and
    // none of the app's.
    process_.setChildProcessModifier([] { ::setpgid(0, 0); });
    connect(&process_, &QProcess::readyReadStandardOutput, this, &CliTraining::readLines);
    connect(&process_, &QProcess::readyReadStandardError, this, [this] { stderr_ += process_.readAllStandardError(); });
    connect(&process_, &QProcess::finished, this, &CliTraining::onFinished);
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || done_) return;
        done_ = true;
        status_ = TrainStatus::Failed;
        message_ = tr("cannot start %1: %2").arg(process_.program(), process_.errorString());
        emit ended();
    });
    killTimer_.setSingleShot(true);
    connect(&killTimer_, &QTimer::timeout, this, [this] { signalGroup(SIGKILL); });
}

CliTraining::~CliTraining() {
    if (!running()) return;
    signalGroup(SIGKILL);
    process_.waitForFinished(5000);
}

void CliTraining::start(const QString& program, const QStringList& arguments) {
    process_.start(program, arguments);
    if (process_.waitForStarted()) group_ = process_.processId();
}

void CliTraining::signalGroup(int signal) {
    // Only a group this object started: never a stale or zero id (kill(0) would signal the app's own group).
    if (group_ > 0 && running()) ::kill(-pid_t(group_), signal);
}

void CliTraining::stop(int graceMs) {
    if (!running() || stopping_) return;
    stopping_ = true;
    signalGroup(SIGTERM);
    killTimer_.start(graceMs);
}

bool CliTraining::waitForFinished(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!done_) {
        const int left = timeoutMs < 0 ? 1000 : int(timeoutMs - clock.elapsed());
        if (left <= 0) return false;
        // Delivers finished() (and so onFinished) on return; the loop ends once it ran.
        if (running()) process_.waitForFinished(std::min(left, 1000));
        else if (!done_) QCoreApplication::processEvents();
    }
    return true;
}

void CliTraining::readLines() {
    partial_ += process_.readAllStandardOutput();
    qsizetype end;
    while ((end = partial_.indexOf('\n')) >= 0) {
        reader_.feed(partial_.left(end));
        partial_.remove(0, end + 1);
    }
}

void CliTraining::onFinished(int exitCode, QProcess::ExitStatus exitStatus) {
    if (done_) return;
    killTimer_.stop();
    readLines();
    if (!partial_.isEmpty()) reader_.feed(partial_);
    partial_.clear();
    stderr_ += process_.readAllStandardError();
    // The group outlives its leader if a child ignored the leader's end: make sure none is left.
    if (group_ > 0) ::kill(-pid_t(group_), SIGKILL);
    done_ = true;
    if (stopping_) {
        status_ = TrainStatus::Cancelled;
        message_ = tr("stopped");
    } else if (exitStatus == QProcess::NormalExit && exitCode == 0 && reader_.result()) {
        status_ = TrainStatus::Completed;
        const Json& r = *reader_.result();
        message_ = QString::fromStdString(r.value("message", std::string()));
    } else {
        status_ = TrainStatus::Failed;
        QString last;
        for (const QByteArray& line : stderr_.split('\n'))
            if (!line.trimmed().isEmpty()) last = QString::fromUtf8(line.trimmed());
        if (last.startsWith(QStringLiteral("skynnet-cli: "))) last = last.mid(13);
        message_ = !reader_.error().isEmpty() ? reader_.error()
                   : !last.isEmpty()          ? last
                   : exitStatus == QProcess::CrashExit ? tr("%1 crashed").arg(process_.program())
                                                       : tr("%1 exited with status %2").arg(process_.program()).arg(exitCode);
    }
    emit ended();
}

}  // namespace skynnet::ui
