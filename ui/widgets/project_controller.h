#pragma once
// The File menu's project work for the main window: New, Open (with recent projects), Save, Save
// As, Export, locating data that moved, the unsaved-changes question, autosave and the recovery
// offer at start-up. Every question to the user goes through a replaceable prompt, so tests (and
// other front ends) answer without a modal dialog. Opening reads the file and loads its data on
// worker threads while the window stays responsive; only the final swap runs on the GUI thread.
#include <QMessageBox>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>

#include "ui/widgets/project_views.h"

class QAction;
class QMenu;
class QProgressBar;

namespace skynnet {
struct ProjectData;
}

namespace skynnet::ui {

class AppSettings;
class Autosave;
class ProjectDocument;
class RunRecorder;
class TrainingSession;
struct LoadedData;
struct OpenedProject;

class ProjectController : public QObject {
    Q_OBJECT
public:
    struct Prompts {
        // Unsaved changes before closing, New or Open: Save, Discard or Cancel.
        std::function<QMessageBox::StandardButton(const QString& projectName)> unsavedChanges;
        // Training runs when the window closes, or New or Open replaces the project (`action`:
        // "quit", "start a new project"): one question, Save (stop it and save the project),
        // Discard (stop it, not saving) or Cancel (nothing happens: the run goes on).
        std::function<QMessageBox::StandardButton(const QString& projectName, const QString& action)> stopTraining;
        // A data file that moved or changed: the file to use (oldPath: use it as it is), or empty
        // to open the project without its data.
        std::function<QString(const QString& problem, const QString& oldPath)> locateData;
        // The project file to open (forSaving false) or to save to; empty: cancelled.
        std::function<QString(bool forSaving, const QString& suggestion)> chooseProjectFile;
        // A recovery file left by a session that did not end cleanly: open it?
        std::function<bool(const QString& recoveryPath, const QString& originalProject)> restoreRecovery;
        std::function<void(const QString& title, const QString& message)> showError;
        // The file opened as a project is a trained model file (.skym): open it as a model?
        std::function<bool(const QString& modelPath)> openAsModel;
    };

    // Everything the controller works with, handed in by whoever wires the window. All must
    // outlive the controller.
    struct Collaborators {
        ProjectDocument* document = nullptr;
        TrainingSession* session = nullptr;
        AppSettings* settings = nullptr;
        ProjectWindowView* window = nullptr;
        ProjectDataView* dataPage = nullptr;
        ProjectResultsView* resultsPage = nullptr;
    };

    ProjectController(const Collaborators& with, QObject* parent);

    Prompts& prompts() { return prompts_; }
    Autosave* autosave() const { return autosave_; }
    RunRecorder* runRecorder() const { return recorder_; }
    QMenu* recentMenu() const { return recentMenu_; }
    QAction* newAction() const { return new_; }
    QAction* openAction() const { return open_; }
    QAction* saveAction() const { return save_; }
    QAction* saveAsAction() const { return saveAs_; }
    QAction* exportAction() const { return export_; }
    QAction* locateDataAction() const { return locate_; }

    QString displayName() const;  // the project file's name, or "Untitled"

    bool newProject();
    bool open();  // asks for the file
    // Starts opening a project in the background and returns: false when the user cancelled
    // (unsaved changes, a run to stop). openFinished follows. Data that moved or changed is asked
    // for (locateData) once the file is read, and the project opens without it when it cannot be
    // found. asRecovery: a recovery file, opened as the unsaved state of the project it was made
    // from. A later open (or New) supersedes one still loading.
    bool openFile(const QString& path, bool asRecovery = false);
    bool isOpening() const { return opening_; }
    // Runs the event loop until the pending open has ended; true if it opened the project.
    bool waitForOpen(int timeoutMs = 60000);
    bool save();  // Save As while untitled
    bool saveAs();
    bool saveTo(const QString& path);
    // Before the project is replaced or the window closes: true to go on (saved, discarded, or
    // nothing to save), false when the user cancelled.
    bool maybeSave();
    // The same while training may run: a running run is stopped only once the one question
    // (stopTraining) is answered Save or Discard; Cancel leaves it running and returns false.
    bool stopTrainingAndMaybeSave(const QString& action);
    void showExportDialog();
    bool locateData();     // points the open project to its data again
    void offerRecovery();  // at start-up, when the last session left a recovery file
    void windowClosing();  // the project is closed for good: its recovery file goes
    // Data chosen on the data page while a project opens is the user's later word: it wins.
    void dataLoadStarted();

signals:
    void pageRequested(int page);
    void openStarted(const QString& path);
    // ok: the project is in the window (perhaps without its data); else the error was shown.
    void openFinished(bool ok, const QString& path);
    // A model file was opened as a project and the user chose to open it as a model.
    void modelOpenRequested(const QString& path);

private:
    void createActions();
    void refreshRecentMenu();
    void updateActions();
    // Finds the project's data, asking when it moved or changed; false with `problem` set when
    // the project is to open without it.
    bool locateDataFor(ProjectData& project, QString& problem);
    // The steps of an open, each dropped when a later open or New superseded it (generation).
    void onProjectRead(quint64 generation, const QString& path, bool asRecovery, std::shared_ptr<ProjectData> project,
                       const QString& error);
    void onProjectLoaded(quint64 generation, const QString& path, bool asRecovery, bool relocated, QString problem,
                         std::shared_ptr<OpenedProject> opened, const QString& error);
    void setOpening(bool opening, const QString& path = QString());
    void endOpen(bool ok, const QString& path);
    void supersedeOpen();  // a pending open is dropped

    ProjectDocument* document_;
    TrainingSession* session_;
    AppSettings* settings_;
    ProjectWindowView* window_;
    ProjectDataView* dataPage_;
    ProjectResultsView* resultsPage_;
    Prompts prompts_;
    Autosave* autosave_;
    RunRecorder* recorder_;
    quint64 openGeneration_ = 0;
    bool opening_ = false, lastOpenOk_ = false;
    QProgressBar* openBusy_ = nullptr;  // in the status bar while a project opens
    QMenu* recentMenu_ = nullptr;
    QAction *new_ = nullptr, *open_ = nullptr, *save_ = nullptr, *saveAs_ = nullptr, *export_ = nullptr,
            *locate_ = nullptr;
};

}  // namespace skynnet::ui
