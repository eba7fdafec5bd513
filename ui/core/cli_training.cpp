#include "ui/core/cli_training.h"

namespace skynnet::ui {

CliTraining::CliTraining(RunEventBuffer& events, int submodels, QObject* parent)
    : QObject(parent), process_(false), reader_(events, submodels) {
    connect(&process_, &GroupedProcess::line, this, [this](const QByteArray& line) { reader_.feed(line); });
    connect(&process_, &GroupedProcess::finished, this, &CliTraining::onFinished);
    connect(&process_, &GroupedProcess::failedToStart, this, [this](const QString& message) {
        status_ = TrainStatus::Failed;
        message_ = message;
        emit ended();
    });
}

void CliTraining::start(const QString& program, const QStringList& arguments) { process_.start(program, arguments); }

void CliTraining::stop(int graceMs) { process_.stop(graceMs); }

void CliTraining::onFinished(int exitCode, QProcess::ExitStatus exitStatus) {
    if (process_.stopping()) {
        status_ = TrainStatus::Cancelled;
        message_ = tr("stopped");
    } else if (exitStatus == QProcess::NormalExit && exitCode == 0 && reader_.result()) {
        status_ = TrainStatus::Completed;
        message_ = QString::fromStdString(reader_.result()->message.value_or(std::string()));
    } else {
        status_ = TrainStatus::Failed;
        QString last;
        for (const QByteArray& line : process_.standardError().split('\n'))
            if (!line.trimmed().isEmpty()) last = QString::fromUtf8(line.trimmed());
        const bool errorLine = last.startsWith(QStringLiteral("skynnet-cli: "));
        if (errorLine) last = last.mid(13);
        // Killed by a signal, the tool's last stderr line is whatever it printed last (a row of its
        // plan's table, say), not a reason: only its own error line is.
        if (!reader_.error().isEmpty()) message_ = reader_.error();
        else if (exitStatus == QProcess::CrashExit)
            message_ =
                errorLine
                    ? tr("%1 was ended by a signal (killed, or it crashed) after: %2").arg(process_.program(), last)
                    : tr("%1 was ended by a signal (killed, or it crashed)").arg(process_.program());
        else message_ = !last.isEmpty() ? last : tr("%1 exited with status %2").arg(process_.program()).arg(exitCode);
    }
    emit ended();
}

}  // namespace skynnet::ui
