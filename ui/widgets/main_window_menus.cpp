// The main window's menu bar: File, Edit, View, Train and Help, with their standard shortcuts.
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QKeySequence>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QStyle>
#include <QUndoStack>
#include <utility>

#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/train_page.h"

namespace skynnet::ui {

void MainWindow::buildMenus() {
    buildFileMenu();
    buildEditMenu();
    buildViewMenu();
    buildTrainMenu();
    buildHelpMenu();
}

void MainWindow::buildFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(project_->newAction());
    file->addAction(project_->openAction());
    file->addMenu(project_->recentMenu());
    QAction* openModelAction = file->addAction(tr("Open &Model…"));
    openModelAction->setToolTip(tr("Open a trained model file (.skym) to measure it on data or save its predictions"));
    connect(openModelAction, &QAction::triggered, this, [this] { openModel(); });
    file->addAction(project_->saveAction());
    file->addAction(project_->saveAsAction());
    file->addSeparator();
    file->addAction(project_->exportAction());
    file->addSeparator();
    QAction* open = file->addAction(tr("Open &Data…"));
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(open, &QAction::triggered, this, [this] {
        showPage(DataPageIndex);
        dataPage_->openFileDialog();
    });
    file->addMenu(dataPage_->recentMenu());
    file->addMenu(dataPage_->examplesMenu());
    file->addAction(project_->locateDataAction());
    file->addSeparator();
    connect(file->addAction(tr("Start &Page")), &QAction::triggered, this, &MainWindow::showStartPage);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::buildEditMenu() {
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = document_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    QAction* redo = document_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* history = historyDock_->toggleViewAction();
    history->setText(tr("Undo &History"));
    edit->addAction(history);
}

void MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < PageCount; ++i) {
        QAction* a = view->addAction(sidebar_->item(i)->text().mid(3));
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, i] { showPage(i); });
    }
    view->addSeparator();
    QMenu* theme = view->addMenu(tr("&Theme"));
    themeActions_ = new QActionGroup(this);
    const std::pair<Theme, QString> themes[] = {{Theme::System, tr("&System")},
                                                {Theme::Light, tr("&Light")},
                                                {Theme::Dark, tr("&Dark")}};
    for (const auto& [t, text] : themes) {
        QAction* a = theme->addAction(text);
        a->setCheckable(true);
        a->setData(int(t));
        a->setChecked(t == settings_->theme());
        themeActions_->addAction(a);
        connect(a, &QAction::triggered, this, [this, t = t] { setTheme(t); });
    }
}

void MainWindow::buildTrainMenu() {
    QMenu* train = menuBar()->addMenu(tr("&Train"));
    QAction* start = train->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Start"));
    start->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    connect(start, &QAction::triggered, this, [this] {
        showPage(TrainPageIndex);
        trainPage_->startTraining();
    });
    train->addAction(trainPage_->pauseAction());  // the page's own: its button and F6 show the same state
    QAction* stop = train->addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("S&top"));
    stop->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    connect(stop, &QAction::triggered, session_, &TrainingSession::stop);
    train->addSeparator();
    showResultsAction_ = train->addAction(tr("Show &Results After a Run"));
    showResultsAction_->setCheckable(true);
    showResultsAction_->setChecked(settings_->showResultsAfterRun());
    showResultsAction_->setToolTip(tr("When a run finishes, go from the Train page to the Results page"));
    connect(showResultsAction_, &QAction::toggled, this, [this](bool on) { settings_->setShowResultsAfterRun(on); });
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* manual = help->addAction(tr("&Manual"));
    manual->setShortcut(QKeySequence::HelpContents);
    connect(manual, &QAction::triggered, this, &MainWindow::showManual);
    connect(help->addAction(tr("&Keyboard Shortcuts")), &QAction::triggered, this, &MainWindow::showShortcuts);
    help->addSeparator();
    QAction* about = help->addAction(tr("&About Skynnet"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Skynnet"),
                           tr("<b>Skynnet</b> %1<p>Trains a network as S smaller submodels in parallel, whose "
                              "predictions "
                              "are combined into one answer, and compares them with the original model.</p>")
                               .arg(QApplication::applicationVersion()));
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

}  // namespace skynnet::ui
