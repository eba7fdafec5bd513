#include "ui/core/run_recorder.h"

#include <QDateTime>

#include "ui/core/project_document.h"
#include "ui/core/run_history.h"
#include "ui/core/training_session.h"

namespace skynnet::ui {

RunRecorder::RunRecorder(ProjectDocument* document, TrainingSession* session, QObject* parent)
    : QObject(parent), document_(document), session_(session) {
    connect(session, &TrainingSession::started, this, &RunRecorder::onStarted);
    connect(session, &TrainingSession::logMessage, this, &RunRecorder::onLogMessage);
    connect(session, &TrainingSession::finished, this, &RunRecorder::onFinished);
}

void RunRecorder::onStarted() {
    // A training run has its job by the time it says started; a shown run (adoptRun) has none.
    if (!session_ || !document_ || !session_->running()) {
        pending_.reset();
        return;
    }
    ProjectRun record;
    record.startedAt = isoUtc(QDateTime::currentDateTimeUtc()).toStdString();
    record.settings = currentRunSettings(*document_);
    pending_ = std::move(record);
}

void RunRecorder::onLogMessage(const QString& line) {
    if (pending_) pending_->log += logLine(line, QTime::currentTime()).toStdString() + '\n';
}

void RunRecorder::onFinished() {
    if (!pending_ || !session_ || !document_) return;
    ProjectRun record = std::move(*pending_);
    pending_.reset();
    std::optional<ProjectRun> run = session_->lastRun(true);
    if (!run) return;
    run->startedAt = std::move(record.startedAt);
    run->settings = std::move(record.settings);
    run->log = std::move(record.log);
    document_->addRun(std::move(*run), session_->plan());  // gives it its id
}

}  // namespace skynnet::ui
