#pragma once
// The Study page's study from start to end, without widgets: it starts `skynnet-cli study
// --project` (study_process.h) on a copy of the project's settings with the user's choices, reads
// its progress events into the study's record (study_record.h), stops it, keeps the record in the
// project (ProjectDocument::study) as it grows, and loads it back when the project's study
// changes. The same choices on an unchanged project continue a stopped study in its folder; other
// choices start afresh. The page shows what it holds and forwards the user's actions.
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <optional>

#include "ui/core/run_log_progress.h"
#include "ui/core/study_process.h"
#include "ui/core/study_record.h"

namespace skynnet {
struct ProjectStudy;
}

namespace skynnet::ui {

class ProjectDocument;

class StudySession : public QObject {
    Q_OBJECT
public:
    explicit StudySession(ProjectDocument* document, QObject* parent = nullptr);

    // Why no study can start now ("Load the data first..."); empty when one can.
    QString unavailableReason() const;
    // Starts (or continues) the study with these choices; false, with error() saying why, when it
    // cannot start.
    bool start(const StudyChoice& choice);
    // Ends the run in progress; the finished runs are kept and a later start continues.
    void stop();
    bool running() const { return process_->running(); }
    // Blocks until the study ended and `runningChanged(false)` was emitted; false on timeout.
    bool waitForFinished(int timeoutMs = -1) { return process_->waitForFinished(timeoutMs); }
    const StudyProcess* process() const { return process_; }

    // The study shown: the document's, updated as events arrive while it runs.
    const StudyRecord& record() const { return record_; }
    bool hasStudy() const { return hasRecord_; }
    // What the study is doing or did, as a sentence for the page.
    const QString& status() const { return status_; }
    // Why it failed, could not start or cannot be shown; empty otherwise.
    const QString& error() const { return error_; }
    // While it runs: the study's estimate of the time its pending runs take, less the time since
    // it was made (below 0 once overrun); empty until a run has finished.
    std::optional<double> remainingSeconds() const;
    // The run in progress (its number from 1 and name, as the study's run_started said) and how far
    // it has got by its log (run_log_progress.h); null between runs and when no study runs.
    const RunLogProgress* runProgress() const { return runActive_ ? &runLog_ : nullptr; }
    int currentRun() const { return currentRun_; }
    const QString& currentRunName() const { return currentRunName_; }

signals:
    // The record, the status or the error changed.
    void changed();
    // A study came from the document (opened, undone): the page shows its choices.
    void loaded(const skynnet::ui::StudyChoice& choice);
    void runningChanged(bool running);
    // The run in progress got further (or started or ended): read about twice a second.
    void runProgressChanged();

private:
    bool fail(const QString& message);
    void onEvent(const StudyEvent& event);
    void onEnded(StudyProcess::Outcome outcome, const QString& message);
    void endRunProgress();
    void loadFromDocument();
    void keepInDocument(const std::optional<ProjectStudy>& base);

    ProjectDocument* document_;
    StudyProcess* process_;
    StudyRecord record_;
    bool hasRecord_ = false;
    bool keeping_ = false;  // the session itself is putting the study into the document
    QString status_, error_;
    std::optional<double> remainingEstimate_;  // as the study estimated it when the last run finished
    QElapsedTimer sinceEstimate_;
    RunLogProgress runLog_;
    bool runActive_ = false;
    int currentRun_ = 0;
    QString currentRunName_;
    QTimer runLogTimer_;
};

}  // namespace skynnet::ui
