#pragma once
// The main window: the five pages in workflow order behind a sidebar, menus with the standard
// shortcuts, an undo history dock, a status bar, and the project, session and settings they
// share. Before anything is open it shows the start page instead of the pages. Wiring only: every
// page does its own work, the project controller the File menu's.
#include <QMainWindow>
#include <memory>

#include "ui/core/app_settings.h"  // owned through unique_ptr, passed by value
#include "ui/widgets/project_views.h"

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QListWidget;
class QStackedWidget;

namespace skynnet::ui {

class DataPage;
class HelpWindow;
class NetworkPage;
class OpenModelDialog;
class ProjectController;
class ProjectDocument;
class ResultsPage;
class SplitPage;
class StartPage;
class StudyPage;
class TrainPage;
class TrainingSession;

class MainWindow : public QMainWindow, private ProjectWindowView {
    Q_OBJECT
public:
    enum Page {
        DataPageIndex,
        NetworkPageIndex,
        SplitPageIndex,
        TrainPageIndex,
        ResultsPageIndex,
        StudyPageIndex,
        PageCount
    };

    // settings: null uses the application's own (QSettings of the organisation/application name).
    explicit MainWindow(std::unique_ptr<AppSettings> settings = nullptr, QWidget* parent = nullptr);
    ~MainWindow() override;

    ProjectDocument* document() const { return document_; }
    TrainingSession* session() const { return session_; }
    AppSettings* settings() const { return settings_.get(); }
    DataPage* dataPage() const { return dataPage_; }
    NetworkPage* networkPage() const { return networkPage_; }
    SplitPage* splitPage() const { return splitPage_; }
    TrainPage* trainPage() const { return trainPage_; }
    ResultsPage* resultsPage() const { return resultsPage_; }
    StudyPage* studyPage() const { return studyPage_; }
    // New, Open, Save, Export, autosave and their questions (replaceable in tests).
    ProjectController* projectController() const { return project_; }
    QDockWidget* historyDock() const { return historyDock_; }
    StartPage* startPage() const { return startPage_; }

    void showPage(int page);  // leaves the start page
    void showStartPage();
    bool startPageShown() const;
    int currentPage() const override;
    static QString pageName(int page);  // "data", "network", ...

    // An example project with its settings (see examples.h); false if not available here.
    bool openExample(const QString& id);
    // The ready example project: Fashion-MNIST when installed, else the built-in spirals.
    void openDefaultExample();
    // File > Open Model…: a model file in a dialog of its own (asked for when path is empty);
    // null when the user cancelled the file dialog. The dialog deletes itself when closed.
    OpenModelDialog* openModel(const QString& path = QString());
    HelpWindow* showManual();  // Help > Manual
    void showShortcuts();      // Help > Keyboard Shortcuts
    // Opens what a file is by its name: a project (.skynnet), a model file (.skym) or data.
    void openPath(const QString& path);
    // Whether the sidebar marks a page with a tick (its work exists: data loaded, results to
    // show), and the tooltip that says so.
    bool sidebarMarked(int page) const;
    QString sidebarToolTip(int page) const;

    // View > Theme: applies the palette to the application and its charts, and saves the choice
    // unless `save` is false (a one-off --theme).
    void setTheme(Theme theme, bool save = true);
    QActionGroup* themeActions() const { return themeActions_; }  // System, Light, Dark (data: int(Theme))
    // Train > Show Results After a Run (the setting AppSettings::showResultsAfterRun).
    QAction* showResultsAction() const { return showResultsAction_; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // ProjectWindowView, for the project controller.
    QWidget* dialogParent() override { return this; }
    void showStatus(const QString& message, int timeoutMs) override;
    void clearStatus() override;
    void addPermanentStatusWidget(QWidget* widget) override;
    int pageCount() const override { return PageCount; }

    // The constructor's steps, in this order.
    void createPages();     // and the project controller over them
    void buildWorkspace();  // the sidebar and the page stack, behind the start page
    void connectOpenRequests();
    void buildHistoryDock();
    void buildStatusBar();
    // The menu bar (main_window_menus.cpp), a function a menu.
    void buildMenus();
    void buildFileMenu();
    void buildEditMenu();
    void buildViewMenu();
    void buildTrainMenu();
    void buildHelpMenu();
    void connectWindowUpdates();  // status bar, sidebar marks, title and page changes

    void updateStatus();
    void updateTitle();
    void updateSidebarMarks();
    void showWorkspace();
    void fitToScreen();  // no larger than the available screen

    std::unique_ptr<AppSettings> settings_;
    ProjectDocument* document_;
    TrainingSession* session_;
    QListWidget* sidebar_;
    QStackedWidget* stack_;
    QStackedWidget* central_;  // the start page or the workspace (sidebar and pages)
    StartPage* startPage_;
    QWidget* workspace_;
    HelpWindow* help_ = nullptr;
    DataPage* dataPage_;
    NetworkPage* networkPage_;
    SplitPage* splitPage_;
    TrainPage* trainPage_;
    ResultsPage* resultsPage_;
    StudyPage* studyPage_;
    ProjectController* project_;
    QDockWidget* historyDock_;
    QLabel* dataStatus_;
    QLabel* runStatus_;
    bool budgetRestored_ = false;
    bool openedFromStart_ = false;  // the project being opened was asked for on the start page
    QActionGroup* themeActions_ = nullptr;
    QAction* showResultsAction_ = nullptr;
};

}  // namespace skynnet::ui
