#pragma once
// Keeps every run the session trains in the project document: when a run starts it records what
// the run is made from (the document's data, network, split and training settings), when, and
// under which id; while it runs, its log lines; when it ends (completed, stopped or failed), the
// session's run with its curves, results and weights joins the document's kept runs. Runs the
// session only shows (adoptRun, clearRun) are not recorded. Lives on the GUI thread.
#include <QObject>
#include <QPointer>
#include <QString>
#include <optional>

#include "project/project_file.h"

namespace skynnet::ui {

class ProjectDocument;
class TrainingSession;

class RunRecorder : public QObject {
    Q_OBJECT
public:
    RunRecorder(ProjectDocument* document, TrainingSession* session, QObject* parent = nullptr);

    bool recording() const { return pending_.has_value(); }
    // The log of the run being recorded so far (lines as logLine() makes them).
    QString log() const { return pending_ ? QString::fromStdString(pending_->log) : QString(); }

private:
    void onStarted();
    void onLogMessage(const QString& line);
    void onFinished();

    QPointer<ProjectDocument> document_;
    QPointer<TrainingSession> session_;
    std::optional<ProjectRun> pending_;  // the record of the run in progress: id, start, settings, log
};

}  // namespace skynnet::ui
