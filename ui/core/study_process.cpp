#include "ui/core/study_process.h"

#include "core/error.h"

namespace skynnet::ui {

StudyProcess::StudyProcess(QObject* parent) : QObject(parent), process_(true) {
    connect(&process_, &GroupedProcess::line, this, &StudyProcess::feed);
    connect(&process_, &GroupedProcess::finished, this, &StudyProcess::onFinished);
    connect(&process_, &GroupedProcess::failedToStart, this,
            [this](const QString& message) { emit ended(Outcome::Failed, message); });
}

void StudyProcess::start(const QString& program, const QStringList& arguments) {
    summarized_ = false;
    error_.clear();
    process_.start(program, arguments);
}

void StudyProcess::feed(const QByteArray& raw) {
    const QByteArray line = raw.trimmed();
    if (line.isEmpty()) return;
    Json j;
    try {
        j = parseJson(std::string_view(line.constData(), std::size_t(line.size())), "study progress");
    } catch (const std::exception&) {
        return;  // not an event (stdout holds events only; a stray line is no reason to fail the study)
    }
    std::optional<StudyEvent> event;
    try {
        event = studyEventFromJson(JsonField(j, "study progress"));
    } catch (const Error& e) {
        qWarning("skipped a study event: %s", e.what());
        return;
    }
    if (!event) return;  // a newer tool's kind
    if (const auto* error = std::get_if<ErrorEvent>(&*event)) error_ = QString::fromStdString(error->message);
    if (std::holds_alternative<StudySummaryEvent>(*event)) summarized_ = true;
    emit progressEvent(*event);
}

void StudyProcess::onFinished(int exitCode, QProcess::ExitStatus exitStatus) {
    if (process_.stopping()) {
        emit ended(Outcome::Stopped, error_.isEmpty() ? tr("stopped") : error_);
        return;
    }
    if (exitStatus == QProcess::NormalExit && exitCode == 0 && summarized_) {
        emit ended(Outcome::Completed, QString());
        return;
    }
    QString last;
    for (const QByteArray& line : process_.standardError().split('\n'))
        if (line.trimmed().startsWith("skynnet-cli: ")) last = QString::fromUtf8(line.trimmed().mid(13));
    const QString message = !error_.isEmpty() ? error_
                            : !last.isEmpty() ? last
                            : exitStatus == QProcess::CrashExit
                                ? tr("%1 crashed").arg(process_.program())
                                : tr("%1 exited with status %2").arg(process_.program()).arg(exitCode);
    emit ended(Outcome::Failed, message);
}

}  // namespace skynnet::ui
