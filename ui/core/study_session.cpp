#include "ui/core/study_session.h"

#include <QDir>

#include "core/error.h"
#include "ui/core/host_run.h"
#include "ui/core/project_document.h"
#include "ui/core/run_history.h"
#include "ui/core/study_setup.h"

namespace skynnet::ui {

StudySession::StudySession(ProjectDocument* document, QObject* parent)
    : QObject(parent), document_(document), process_(new StudyProcess(this)) {
    connect(process_, &StudyProcess::progressEvent, this, &StudySession::onEvent);
    connect(process_, &StudyProcess::ended, this, &StudySession::onEnded);
    runLogTimer_.setInterval(500);
    connect(&runLogTimer_, &QTimer::timeout, this, [this] {
        if (runActive_ && runLog_.poll()) emit runProgressChanged();
    });
    connect(document_, &ProjectDocument::studyChanged, this, [this] {
        if (!keeping_) loadFromDocument();
    });
    loadFromDocument();
}

QString StudySession::unavailableReason() const {
    return document_->hasData() ? QString() : tr("Load the data first: a study trains the project.");
}

bool StudySession::fail(const QString& message) {
    error_ = message;
    emit changed();
    return false;
}

bool StudySession::start(const StudyChoice& choice) {
    if (running()) return false;
    error_.clear();
    if (const QString reason = unavailableReason(); !reason.isEmpty()) return fail(reason);
    // The same choices on an unchanged project continue the study in its folder; anything else
    // starts afresh.
    const std::optional<ProjectStudy> kept = document_->study();
    const bool continues = hasRecord_ && record_.choice == choice && kept &&
                           studyOutOfDateParts(*kept, *document_).isEmpty() && !record_.folder.isEmpty() &&
                           QDir(record_.folder).exists();
    StudyRecord record = continues ? record_ : StudyRecord{};
    if (!continues) {
        record.choice = choice;
        record.folder = studyFolderFor(document_->filePath());
        if (!clearStudyFolder(record.folder))
            return fail(tr("Cannot remove the earlier study in %1").arg(record.folder));
    }
    record.complete = false;
    const QString projectCopy = studyProjectPath(record.folder);
    try {
        if (!QDir().mkpath(record.folder))
            throw Error(tr("cannot create the folder %1").arg(record.folder).toStdString());
        writeStudyProject(projectCopy, *document_);
    } catch (const Error& e) {
        return fail(QString::fromUtf8(e.what()));
    }
    record_ = record;
    hasRecord_ = true;
    ProjectStudy study;
    study.settings = continues && kept ? kept->settings : std::optional<RunSettings>(currentRunSettings(*document_));
    keepInDocument(study);
    remainingEstimate_.reset();
    currentRun_ = 0;
    currentRunName_.clear();
    // The study runs in a child process (`skynnet-cli study`), which runs each of its runs as a
    // child process of its own: a study is many runs, and one that crashes or is killed for its
    // memory must not take the app (or the other runs) down with it. Keep them child processes.
    process_->start(skynnetCliProgram(), studyArguments(choice, projectCopy, record_.folder, 0));
    status_ = continues ? tr("Continuing the study in %1…").arg(record_.folder)
                        : tr("Starting the study in %1…").arg(record_.folder);
    emit changed();
    emit runningChanged(running());
    return running();
}

void StudySession::stop() {
    if (!running()) return;
    status_ = tr("Stopping: the run in progress ends, the finished ones are kept…");
    emit changed();
    process_->stop();
}

std::optional<double> StudySession::remainingSeconds() const {
    if (!running() || !remainingEstimate_) return std::nullopt;
    return *remainingEstimate_ - sinceEstimate_.elapsed() / 1000.0;
}

void StudySession::onEvent(const StudyEvent& event) {
    if (const auto* plan = std::get_if<StudyPlanEvent>(&event)) {
        record_.total = int(plan->runs.size());
    } else if (const auto* started = std::get_if<StudyRunStartedEvent>(&event)) {
        status_ =
            tr("Run %1 of %2: %3").arg(started->index).arg(record_.total).arg(QString::fromStdString(started->run));
        currentRun_ = started->index;
        currentRunName_ = QString::fromStdString(started->run);
        runLog_ = RunLogProgress(QString::fromStdString(started->log));
        runActive_ = true;
        runLogTimer_.start();
        emit runProgressChanged();
    } else if (const auto* finished = std::get_if<StudyRunFinishedEvent>(&event)) {
        record_.addRun(finished->run);
        if (finished->index == currentRun_) endRunProgress();
        if (finished->estimated) {
            remainingEstimate_ = finished->remainingSeconds;
            sinceEstimate_.start();
        }
    } else if (const auto* partial = std::get_if<StudyPartialSummaryEvent>(&event)) {
        record_.summary = partial->summary;
        record_.complete = false;
    } else if (const auto* summary = std::get_if<StudySummaryEvent>(&event)) {
        record_.summary = summary->summary;
        record_.complete = true;
        for (const Json& run : summary->runs) record_.addRun(run);
    } else {
        return;  // an error event: the end reports it
    }
    keepInDocument(document_->study());
    emit changed();
}

void StudySession::endRunProgress() {
    runLogTimer_.stop();
    runActive_ = false;
    emit runProgressChanged();
}

void StudySession::onEnded(StudyProcess::Outcome outcome, const QString& message) {
    remainingEstimate_.reset();
    endRunProgress();
    const int finished = record_.finishedRuns();
    switch (outcome) {
    case StudyProcess::Outcome::Completed: status_ = tr("Finished: %1 runs.").arg(finished); break;
    case StudyProcess::Outcome::Stopped:
        status_ = tr("Stopped: %1 of %2 runs are finished and kept; Start continues the study.")
                      .arg(finished)
                      .arg(record_.total);
        break;
    case StudyProcess::Outcome::Failed:
        status_ = record_.complete ? tr("Finished with errors.") : tr("The study failed.");
        error_ = message;
        break;
    }
    keepInDocument(document_->study());
    emit changed();
    emit runningChanged(false);
}

// The record into the document's study (`base`: its recorded settings), without reloading it.
void StudySession::keepInDocument(const std::optional<ProjectStudy>& base) {
    ProjectStudy study = base.value_or(ProjectStudy{});
    study.record = record_.toJson();
    keeping_ = true;
    document_->setStudy(study);
    keeping_ = false;
}

void StudySession::loadFromDocument() {
    if (running()) return;
    const std::optional<ProjectStudy>& study = document_->study();
    hasRecord_ = false;
    record_ = StudyRecord{};
    error_.clear();
    if (study && !study->record.is_null()) {
        try {
            record_ = StudyRecord::fromJson(study->record);
            hasRecord_ = true;
        } catch (const Error& e) {
            error_ = tr("The project's study cannot be shown: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    const int finished = record_.finishedRuns();
    status_ = !hasRecord_ ? tr("No study yet: choose the N list and seeds, then Start.")
              : record_.complete
                  ? tr("Study of %1 runs.").arg(finished)
                  : tr("%1 of %2 runs finished; Start continues the study.").arg(finished).arg(record_.total);
    if (hasRecord_) emit loaded(record_.choice);
    emit changed();
}

}  // namespace skynnet::ui
