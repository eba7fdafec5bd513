#include "ui/widgets/project_controller.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include "core/error.h"
#include "split/combined_model_file.h"
#include "ui/core/app_settings.h"
#include "ui/core/autosave.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/run_recorder.h"
#include "ui/core/training_session.h"
#include "ui/widgets/examples.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/file_chooser.h"
#include "ui/widgets/session_guard.h"

namespace skynnet::ui {
namespace {

// Functions, not static strings: a translation installed after start-up must still apply.
QString projectFilter() { return ProjectController::tr("Skynnet projects (*.skynnet);;All files (*)"); }
QString locateHint() {
    return ProjectController::tr("\nThe project opened without its data: use File > Locate Data… to point to it.");
}

// Between the steps of applying an opened project (see onProjectLoaded).
constexpr int stepPauseMs = 16;

QString withProjectSuffix(const QString& path) {
    return QFileInfo(path).suffix().isEmpty() ? path + QString::fromLatin1(projectFileSuffix) : path;
}

// Front-end fields of a project's "extra" (null in files written by other tools).
int savedPage(const Json& extra, int pageCount) {
    const auto page = extra.is_object() ? JsonField(extra).find("page") : std::nullopt;
    return page && page->isInteger() && page->asInt64() >= 0 && page->asInt64() < pageCount ? int(page->asInt64()) : 0;
}

QString recoveryOrigin(const Json& extra) {
    const auto origin = extra.is_object() ? JsonField(extra).find(Autosave::originKey) : std::nullopt;
    return origin && origin->isString() ? QString::fromStdString(origin->asString()) : QString();
}

// Where the Locate dialog opens: where the user last found moved data (data sent together tends
// to land in one place), else the folder the file was expected in.
QString locateStartFolder(const AppSettings& settings, const QString& oldPath) {
    const QString last = settings.lastLocateFolder();
    return !last.isEmpty() && QFileInfo(last).isDir() ? last : QFileInfo(oldPath).absolutePath();
}

// A project file and a model file share one container; only reading it as a model tells which.
bool holdsModel(const QString& path) {
    try {
        (void)loadAnyModel(path.toStdString());
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

// A cursor that says "wait" for a synchronous save, restored however the scope ends.
struct WaitCursor {
    WaitCursor() { QApplication::setOverrideCursor(Qt::WaitCursor); }
    ~WaitCursor() { QApplication::restoreOverrideCursor(); }
};

// A worker's answer: the value, or the message of what it threw.
template <typename T>
struct Outcome {
    std::shared_ptr<T> value;
    QString error;
};

// Runs `work` on the global thread pool and hands its outcome to `done` on the receiver's thread,
// unless the receiver is gone by then (QPointer: a window closed while a project loads).
template <typename T, typename Work, typename Done>
void runInBackground(QObject* receiver, Work work, Done done) {
    QFuture<Outcome<T>> future = QtConcurrent::run([work = std::move(work)]() mutable {
        Outcome<T> o;
        try {
            o.value = std::make_shared<T>(work());
        } catch (const std::exception& e) {
            o.error = QString::fromUtf8(e.what());
        }
        return o;
    });
    auto* watcher = new QFutureWatcher<Outcome<T>>(receiver);
    QObject::connect(watcher, &QFutureWatcherBase::finished, receiver,
                     [watcher, done = std::move(done), guard = QPointer<QObject>(receiver)]() mutable {
                         watcher->deleteLater();
                         if (guard) done(watcher->future().result());
                     });
    watcher->setFuture(future);
}

}  // namespace

ProjectController::ProjectController(const Collaborators& with, QObject* parent)
    : QObject(parent), document_(with.document), session_(with.session), settings_(with.settings), window_(with.window),
      dataPage_(with.dataPage), resultsPage_(with.resultsPage) {
    Q_ASSERT(document_ && session_ && settings_ && window_ && dataPage_ && resultsPage_);
    ProjectDocument* doc = document_;
    TrainingSession* session = session_;
    autosave_ = new Autosave(doc, session, settings_, this);

    prompts_.unsavedChanges = [this](const QString& name) {
        return QMessageBox::warning(window_->dialogParent(), tr("Unsaved changes"),
                                    tr("Save the changes to %1?").arg(name),
                                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    };
    prompts_.stopTraining = [this](const QString& name, const QString& action) {
        QMessageBox box(QMessageBox::Warning, tr("Training is running"),
                        tr("Training is running in %1. Stop it and %2?").arg(name, action),
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window_->dialogParent());
        box.setInformativeText(tr("The run stops at its next batch; saved, the project keeps it as a stopped run."));
        box.button(QMessageBox::Save)->setText(tr("Stop and Save"));
        box.button(QMessageBox::Discard)->setText(tr("Stop Without Saving"));
        box.setDefaultButton(QMessageBox::Cancel);
        return QMessageBox::StandardButton(box.exec());
    };
    prompts_.locateData = [this](const QString& problem, const QString& oldPath) {
        QMessageBox box(QMessageBox::Warning, tr("Project data"), problem, QMessageBox::NoButton,
                        window_->dialogParent());
        QPushButton* locate = box.addButton(tr("Locate…"), QMessageBox::AcceptRole);
        QPushButton* asIs = QFileInfo::exists(oldPath) ? box.addButton(tr("Use It Anyway"), QMessageBox::YesRole)
                                                       : nullptr;
        box.addButton(tr("Open Without Data"), QMessageBox::RejectRole);
        box.exec();
        if (asIs && box.clickedButton() == asIs) return oldPath;
        if (box.clickedButton() != locate) return QString();
        const QString chosen = askForFile(window_->dialogParent(),
                                          {FileRequest::OpenFile, tr("Locate %1").arg(QFileInfo(oldPath).fileName()),
                                           locateStartFolder(*settings_, oldPath), tr("All files (*)")});
        if (!chosen.isEmpty()) settings_->setLastLocateFolder(QFileInfo(chosen).absolutePath());
        return chosen;
    };
    prompts_.chooseProjectFile = [this](bool forSaving, const QString& suggestion) {
        return forSaving ? askForFile(window_->dialogParent(),
                                      {FileRequest::SaveFile, tr("Save Project"), suggestion, projectFilter()})
                         : askForFile(window_->dialogParent(),
                                      {FileRequest::OpenFile, tr("Open Project"), suggestion, projectFilter()});
    };
    prompts_.restoreRecovery = [this](const QString&, const QString& original) {
        const QString what = original.isEmpty() ? tr("an untitled project") : QFileInfo(original).fileName();
        return QMessageBox::question(window_->dialogParent(), tr("Recover unsaved work"),
                                     tr("Skynnet did not close cleanly last time. Open the automatically saved copy of "
                                        "%1?")
                                         .arg(what)) == QMessageBox::Yes;
    };
    prompts_.showError = [this](const QString& title, const QString& message) {
        QMessageBox::critical(window_->dialogParent(), title, message);
    };
    prompts_.openAsModel = [this](const QString& path) {
        QMessageBox box(QMessageBox::Question, tr("Open Project"),
                        tr("%1 is a trained model file, not a project. Open it as a model, to measure it on data or "
                           "save its predictions?")
                            .arg(QFileInfo(path).fileName()),
                        QMessageBox::Cancel, window_->dialogParent());
        QPushButton* asModel = box.addButton(tr("Open as Model"), QMessageBox::AcceptRole);
        box.setDefaultButton(asModel);
        box.exec();
        return box.clickedButton() == asModel;
    };

    openBusy_ = new QProgressBar;
    openBusy_->setRange(0, 0);  // indeterminate: reading and loading do not report progress
    openBusy_->setMaximumWidth(140);
    openBusy_->setTextVisible(false);
    openBusy_->hide();
    window_->addPermanentStatusWidget(openBusy_);

    createActions();
    // Every run the session trains is kept in the project, with its settings, log and weights.
    recorder_ = new RunRecorder(doc, session, this);
    // A trained model is worth a question before it is thrown away; a stopped run is not.
    connect(session, &TrainingSession::finished, this, [doc, session](TrainStatus status) {
        if ((status == TrainStatus::Completed || status == TrainStatus::EarlyStopped) && session->results())
            doc->markModified();
    });
    connect(session, &TrainingSession::started, this, &ProjectController::updateActions);
    connect(session, &TrainingSession::finished, this, &ProjectController::updateActions);
    connect(doc, &ProjectDocument::dataChanged, this, &ProjectController::updateActions);
    connect(doc, &ProjectDocument::modifiedChanged, this, &ProjectController::updateActions);
    connect(doc, &ProjectDocument::filePathChanged, this, &ProjectController::updateActions);
    connect(autosave_, &Autosave::failed, this,
            [this](const QString& message) { window_->showStatus(tr("Autosave failed: %1").arg(message), 8000); });
    updateActions();
}

void ProjectController::createActions() {
    QStyle* style = window_->dialogParent()->style();
    new_ = new QAction(style->standardIcon(QStyle::SP_FileIcon), tr("&New Project"), this);
    new_->setShortcut(QKeySequence::New);
    connect(new_, &QAction::triggered, this, &ProjectController::newProject);
    open_ = new QAction(style->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Project…"), this);
    open_->setShortcut(QKeySequence::Open);
    connect(open_, &QAction::triggered, this, &ProjectController::open);
    save_ = new QAction(style->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save Project"), this);
    save_->setShortcut(QKeySequence::Save);
    connect(save_, &QAction::triggered, this, &ProjectController::save);
    saveAs_ = new QAction(tr("Save Project &As…"), this);
    saveAs_->setShortcut(QKeySequence::SaveAs);
    connect(saveAs_, &QAction::triggered, this, &ProjectController::saveAs);
    export_ = new QAction(tr("&Export Model…"), this);
    export_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    export_->setToolTip(tr("Save the trained combined model as a model file, ONNX or a C++ header"));
    connect(export_, &QAction::triggered, this, &ProjectController::showExportDialog);
    locate_ = new QAction(tr("&Locate Data…"), this);
    locate_->setToolTip(tr("Point the project to its data file after it moved"));
    connect(locate_, &QAction::triggered, this, &ProjectController::locateData);
    recentMenu_ = new QMenu(tr("Open Recent &Project"), window_->dialogParent());
    recentMenu_->setToolTipsVisible(true);
    connect(recentMenu_, &QMenu::aboutToShow, this, &ProjectController::refreshRecentMenu);
    refreshRecentMenu();
}

void ProjectController::refreshRecentMenu() {
    recentMenu_->clear();
    const QStringList files = settings_->recentProjects();
    for (const QString& f : files) {
        QAction* a = recentMenu_->addAction(QFileInfo(f).fileName());
        a->setToolTip(f);
        connect(a, &QAction::triggered, this, [this, f] { openFile(f); });
    }
    if (files.isEmpty()) recentMenu_->addAction(tr("(no recent projects)"))->setEnabled(false);
}

void ProjectController::updateActions() {
    const auto results = session_->results();
    const bool running = session_->running();
    export_->setEnabled(!running && results && results->model);
    const ProjectDocument* doc = document_;
    const std::string& data = doc->dataSettings().train.path;
    locate_->setEnabled(!doc->hasData() && !data.empty() && data.rfind("builtin:", 0) != 0);
    // An untitled project with nothing in it has nothing to save.
    const bool something = doc->hasData() || doc->isModified() || !doc->filePath().isEmpty() || !data.empty();
    save_->setEnabled(something);
    saveAs_->setEnabled(something);
}

QString ProjectController::displayName() const {
    const QString path = document_->filePath();
    return path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
}

bool ProjectController::maybeSave() {
    if (!document_->isModified()) return true;
    switch (prompts_.unsavedChanges(displayName())) {
    case QMessageBox::Save: return save();
    case QMessageBox::Discard: return true;
    default: return false;
    }
}

bool ProjectController::stopTrainingAndMaybeSave(const QString& action) {
    if (!session_->running()) return maybeSave();
    const QMessageBox::StandardButton answer = prompts_.stopTraining(displayName(), action);
    if (answer != QMessageBox::Save && answer != QMessageBox::Discard) return false;  // the run goes on
    QApplication::setOverrideCursor(Qt::WaitCursor);
    session_->stop();
    session_->waitForFinished();  // the stopped run is in the document from here on
    QApplication::restoreOverrideCursor();
    return answer == QMessageBox::Discard || save();
}

bool ProjectController::newProject() {
    if (!stopTrainingAndMaybeSave(tr("start a new project"))) return false;
    if (dataPage_->isLoading()) dataPage_->waitForLoad();
    supersedeOpen();
    session_->clearRun();
    document_->reset();
    resultsPage_->refresh();  // "no results yet" rather than a stopped run's message
    dataPage_->showProblem(QString());
    autosave_->discard();
    updateActions();
    emit pageRequested(0);  // the first page, where a project begins: its data
    return true;
}

bool ProjectController::open() {
    const QString path = prompts_.chooseProjectFile(false, settings_->lastProjectFolder());
    return !path.isEmpty() && openFile(path);
}

bool ProjectController::locateDataFor(ProjectData& project, QString& problem) {
    ProjectDataSource& source = project.data;
    if (source.train.path.empty()) return false;  // a project without data: nothing to report
    for (ProjectDataFile* f : {&source.train, &source.trainLabels, &source.test, &source.testLabels}) {
        if (f->status != DataFileStatus::Missing && f->status != DataFileStatus::Changed) continue;
        const QString old = QString::fromStdString(f->path);
        const QString text =
            f->status == DataFileStatus::Missing
                ? tr("The data file %1 was not found where the project expects it; it may have moved.").arg(old)
                : tr("The data file %1 has changed since the project was saved, so the saved results may "
                     "not match it.")
                      .arg(old);
        const QString chosen = prompts_.locateData(text, old);
        if (chosen.isEmpty()) {
            problem = text + locateHint();
            return false;
        }
        f->path = QFileInfo(chosen).absoluteFilePath().toStdString();
        f->status = checkDataFile(*f);
        if (f->status == DataFileStatus::Missing) {
            problem = tr("%1 does not exist.").arg(chosen) + locateHint();
            return false;
        }
    }
    return true;
}

bool ProjectController::openFile(const QString& path, bool asRecovery) {
    const QString action = tr("open %1").arg(QFileInfo(path).fileName());
    if (asRecovery ? !confirmStopTraining(window_->dialogParent(), session_, action)
                   : !stopTrainingAndMaybeSave(action))
        return false;
    if (dataPage_->isLoading()) dataPage_->waitForLoad();  // a late load must not replace the project's data

    const quint64 generation = ++openGeneration_;  // an open still running is stale from here on
    setOpening(true, path);
    emit openStarted(path);
    const std::string file = path.toStdString();
    runInBackground<ProjectData>(
        this, [file] { return loadProject(file); },
        [this, generation, path, asRecovery](const Outcome<ProjectData>& o) {
            onProjectRead(generation, path, asRecovery, o.value, o.error);
        });
    return true;
}

void ProjectController::onProjectRead(quint64 generation, const QString& path, bool asRecovery,
                                      std::shared_ptr<ProjectData> project, const QString& error) {
    if (generation != openGeneration_) return;  // superseded
    if (!project) {
        if (holdsModel(path)) {
            endOpen(false, path);
            if (prompts_.openAsModel(path)) emit modelOpenRequested(path);
            return;
        }
        if (!QFileInfo::exists(path)) settings_->removeRecentProject(QFileInfo(path).absoluteFilePath());
        // Ended first, so the window is back where the user opened it from under the message.
        endOpen(false, path);
        prompts_.showError(tr("Cannot open the project"), error);
        return;
    }
    // The questions about moved data come now, between reading the file and loading the data.
    const std::vector<std::string> savedPaths = {project->data.train.path, project->data.test.path};
    QString problem;
    const bool haveData = locateDataFor(*project, problem);
    if (generation != openGeneration_) return;  // a prompt's event loop let the user start another
    const bool relocated = savedPaths != std::vector<std::string>{project->data.train.path, project->data.test.path};
    runInBackground<OpenedProject>(
        this, [project, haveData] { return openProjectData(std::move(*project), haveData); },
        [this, generation, path, asRecovery, relocated, problem](const Outcome<OpenedProject>& o) {
            onProjectLoaded(generation, path, asRecovery, relocated, problem, o.value, o.error);
        });
}

void ProjectController::onProjectLoaded(quint64 generation, const QString& path, bool asRecovery, bool relocated,
                                        QString problem, std::shared_ptr<OpenedProject> opened, const QString& error) {
    if (generation != openGeneration_) return;  // superseded
    if (!opened) {
        endOpen(false, path);
        prompts_.showError(tr("Cannot open the project"), error);
        return;
    }
    if (!opened->dataProblem.isEmpty())
        problem = tr("Could not load the project's data:\n%1").arg(opened->dataProblem) + locateHint();
    TrainingSession* session = session_;
    if (session->running()) {  // started while the project loaded: the open the user asked for wins
        session->stop();
        session->waitForFinished();
    }
    const ProjectData& project = opened->project;
    // The bundled example opens as an untitled copy: Save asks where, never over the shared file.
    const bool copy = !asRecovery && isExampleProject(path);
    const QString file = asRecovery ? recoveryOrigin(project.extra)
                         : copy     ? QString()
                                    : QFileInfo(path).absoluteFilePath();
    const int page = problem.isEmpty() ? savedPage(project.extra, window_->pageCount()) : 0;  // 0: the data page
    try {
        applyProjectDocument(*document_, *session, *opened);
    } catch (const std::exception& e) {
        endOpen(false, path);
        prompts_.showError(tr("Cannot open the project"), QString::fromUtf8(e.what()));
        return;
    }
    dataPage_->showProblem(problem);
    // The run next, after the event loop has drawn the pages the document refreshed: each half
    // makes every page update, and together they would hold the window up for too long. A pause
    // of about a frame, not 0: a zero timeout is a posted event, run in the same batch as the
    // charts' pending scene updates, and a 1 ms one fires in the same pass as other timers, before
    // the event loop gets to input and painting.
    QTimer::singleShot(stepPauseMs, this, [this, generation, path, file, page, asRecovery, copy, relocated, opened] {
        if (generation != openGeneration_) return;  // superseded (New, another open, data loaded)
        TrainingSession* session = session_;
        if (session->running()) {  // a run was started in the moment between: the open still wins
            session->stop();
            session->waitForFinished();
        }
        applyProjectRun(*document_, *session, *opened, file);
        // The unsaved state of a recovered project, or data the user pointed to: both to be saved.
        if (asRecovery || relocated) document_->markModified();
        if (!asRecovery) {
            if (!copy) {
                settings_->addRecentProject(file);
                settings_->setLastProjectFolder(QFileInfo(file).absolutePath());
            }
            autosave_->discard();
        }
        // And the results page and the saved page last, once more after the event loop ran.
        QTimer::singleShot(stepPauseMs, this, [this, generation, path, page, copy] {
            if (generation != openGeneration_) return;
            // A completed run refreshed it already (finished); else "no results yet", not the
            // message of a run that did not complete.
            if (!session_->results()) resultsPage_->refresh();
            updateActions();
            emit pageRequested(page);
            endOpen(true, path);
            window_->showStatus(copy ? tr("Opened %1 as an untitled copy: Save asks where to keep it")
                                           .arg(QFileInfo(path).fileName())
                                     : tr("Opened %1").arg(QFileInfo(path).fileName()),
                                copy ? 10000 : 5000);
        });
    });
}

void ProjectController::setOpening(bool opening, const QString& path) {
    opening_ = opening;
    openBusy_->setVisible(opening);
    const QString text = opening ? tr("Opening %1…").arg(QFileInfo(path).fileName()) : QString();
    dataPage_->showBusy(text);
    if (opening) window_->showStatus(text, 0);
    else window_->clearStatus();
}

void ProjectController::endOpen(bool ok, const QString& path) {
    lastOpenOk_ = ok;
    setOpening(false);
    emit openFinished(ok, path);
}

void ProjectController::supersedeOpen() {
    if (!opening_) return;
    ++openGeneration_;
    lastOpenOk_ = false;
    setOpening(false);
}

bool ProjectController::waitForOpen(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (opening_ && clock.elapsed() < timeoutMs) {
        QEventLoop loop;
        QTimer::singleShot(10, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return !opening_ && lastOpenOk_;
}

bool ProjectController::save() {
    const QString path = document_->filePath();
    return path.isEmpty() ? saveAs() : saveTo(path);
}

bool ProjectController::saveAs() {
    const QString current = document_->filePath();
    const QString suggestion = current.isEmpty() ? settings_->lastProjectFolder() + QStringLiteral("/untitled.skynnet")
                                                 : current;
    const QString path = prompts_.chooseProjectFile(true, suggestion);
    return !path.isEmpty() && saveTo(withProjectSuffix(path));
}

bool ProjectController::saveTo(const QString& path) {
    const QString file = QFileInfo(path).absoluteFilePath();
    try {
        WaitCursor wait;
        saveProjectFile(file, *document_, *session_, Json::object({{"page", window_->currentPage()}}));
    } catch (const std::exception& e) {
        prompts_.showError(tr("Cannot save the project"), QString::fromUtf8(e.what()));
        return false;
    }
    document_->setFilePath(file);
    document_->setClean();
    settings_->addRecentProject(file);
    settings_->setLastProjectFolder(QFileInfo(file).absolutePath());
    autosave_->discard();
    window_->showStatus(tr("Saved %1").arg(QFileInfo(file).fileName()), 5000);
    return true;
}

void ProjectController::showExportDialog() {
    const auto results = session_->results();
    const std::optional<SavedCombinedModel> model = results ? results->model : std::nullopt;
    if (!model) return;
    const QString project = document_->filePath();
    const QString base = project.isEmpty() ? settings_->lastProjectFolder() + QStringLiteral("/model")
                                           : QFileInfo(project).absolutePath() + QLatin1Char('/') +
                                                 QFileInfo(project).completeBaseName() + QStringLiteral("-model");
    ExportDialog dialog(*model, base, settings_, window_->dialogParent());
    dialog.exec();
}

bool ProjectController::locateData() {
    const ProjectDataSource current = document_->dataSettings();
    const QString path = QString::fromStdString(current.train.path);
    if (path.isEmpty() || document_->hasData()) return false;
    const QString chosen = prompts_.locateData(tr("Where is the data file %1 now?").arg(path), path);
    if (chosen.isEmpty()) return false;
    ProjectDataSource moved = current;
    moved.train = ProjectDataFile{};  // a new file: fingerprinted when saved
    moved.train.path = QFileInfo(chosen).absoluteFilePath().toStdString();
    dataPage_->loadSettings(moved);  // in the background; the page shows how it went
    return true;
}

void ProjectController::offerRecovery() {
    const QString pending = autosave_->pendingRecovery();
    if (pending.isEmpty()) return;
    QString original;
    try {
        original = recoveryOrigin(loadProject(pending.toStdString()).extra);
    } catch (const std::exception&) {
        autosave_->discard();  // unreadable: nothing to offer
        return;
    }
    if (prompts_.restoreRecovery(pending, original)) openFile(pending, true);
    else autosave_->discard();
}

void ProjectController::dataLoadStarted() { supersedeOpen(); }

void ProjectController::windowClosing() {
    supersedeOpen();  // a project still loading has nowhere to go
    autosave_->finish();
}

}  // namespace skynnet::ui
