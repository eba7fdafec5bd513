#pragma once
// The File menu's project work for the main window: New, Open (with recent projects), Save, Save
// As, Export, locating data that moved, the unsaved-changes question, autosave and the recovery
// offer at start-up. Every question to the user goes through a replaceable prompt, so tests (and
// other front ends) answer without a modal dialog.
#include <QMessageBox>
#include <QObject>
#include <QString>
#include <functional>

class QAction;
class QMenu;

namespace skynnet {
struct ProjectData;
}

namespace skynnet::ui {

class Autosave;
class MainWindow;
struct LoadedData;

class ProjectController : public QObject {
    Q_OBJECT
public:
    struct Prompts {
        // Unsaved changes before closing, New or Open: Save, Discard or Cancel.
        std::function<QMessageBox::StandardButton(const QString& projectName)> unsavedChanges;
        // A data file that moved or changed: the file to use (oldPath: use it as it is), or empty
        // to open the project without its data.
        std::function<QString(const QString& problem, const QString& oldPath)> locateData;
        // The project file to open (forSaving false) or to save to; empty: cancelled.
        std::function<QString(bool forSaving, const QString& suggestion)> chooseProjectFile;
        // A recovery file left by a session that did not end cleanly: open it?
        std::function<bool(const QString& recoveryPath, const QString& originalProject)> restoreRecovery;
        std::function<void(const QString& title, const QString& message)> showError;
    };

    explicit ProjectController(MainWindow* window);

    Prompts& prompts() { return prompts_; }
    Autosave* autosave() const { return autosave_; }
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
    // Opens a project; data that moved or changed is asked for (locateData), and the project
    // opens without it when it cannot be found. asRecovery: a recovery file, opened as the
    // unsaved state of the project it was made from.
    bool openFile(const QString& path, bool asRecovery = false);
    bool save();    // Save As while untitled
    bool saveAs();
    bool saveTo(const QString& path);
    // Before the project is replaced or the window closes: true to go on (saved, discarded, or
    // nothing to save), false when the user cancelled.
    bool maybeSave();
    void showExportDialog();
    bool locateData();     // points the open project to its data again
    void offerRecovery();  // at start-up, when the last session left a recovery file
    void windowClosing();  // the project is closed for good: its recovery file goes

signals:
    void pageRequested(int page);

private:
    void createActions();
    void refreshRecentMenu();
    void updateActions();
    // Finds (asking when needed) and loads the project's data; false with `problem` set when the
    // project is to open without it.
    bool loadDataFor(ProjectData& project, LoadedData& data, QString& problem);

    MainWindow* window_;
    Prompts prompts_;
    Autosave* autosave_;
    QMenu* recentMenu_ = nullptr;
    QAction *new_ = nullptr, *open_ = nullptr, *save_ = nullptr, *saveAs_ = nullptr, *export_ = nullptr,
            *locate_ = nullptr;
};

}  // namespace skynnet::ui
