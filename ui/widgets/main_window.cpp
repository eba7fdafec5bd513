#include "ui/widgets/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QIcon>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QUndoStack>
#include <QUndoView>
#include <algorithm>
#include <utility>

#include "ui/core/app_settings.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/examples.h"
#include "ui/widgets/file_chooser.h"
#include "ui/widgets/fit_to_screen.h"
#include "ui/widgets/help_window.h"
#include "ui/widgets/network_page.h"
#include "ui/widgets/open_model_dialog.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/results_page.h"
#include "ui/widgets/session_guard.h"
#include "ui/widgets/shortcut_list.h"
#include "ui/widgets/spin_box_undo.h"
#include "ui/widgets/split_page.h"
#include "ui/widgets/start_page.h"
#include "ui/widgets/study_page.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/train_page.h"

namespace skynnet::ui {
namespace {

// Each page's own icon; none of them a tick, which only marks work that exists (updateSidebarMarks).
constexpr QStyle::StandardPixmap pageIcons[] = {QStyle::SP_DirOpenIcon,
                                                QStyle::SP_FileDialogDetailedView,
                                                QStyle::SP_FileDialogListView,
                                                QStyle::SP_MediaPlay,
                                                QStyle::SP_FileDialogContentsView,
                                                QStyle::SP_FileDialogInfoView};

// The Study page's is a chart of the metric against time, which no standard icon draws (the
// executable's resources; a test without them falls back to the standard one).
QIcon pageIcon(const QStyle* style, int page) {
    const QString study = QStringLiteral(":/icons/study.svg");
    if (page == MainWindow::StudyPageIndex && QFile::exists(study)) return QIcon(study);
    return style->standardIcon(pageIcons[page]);
}

QString modelFilter() { return MainWindow::tr("Skynnet models (*.skym);;All files (*)"); }

}  // namespace

MainWindow::MainWindow(std::unique_ptr<AppSettings> settings, QWidget* parent)
    : QMainWindow(parent), settings_(settings ? std::move(settings) : std::make_unique<AppSettings>()) {
    qApp->installEventFilter(new SpinBoxUndo(this));           // Ctrl+Z inside a number box undoes the project
    if (QFile::exists(QStringLiteral(":/icons/skynnet.svg")))  // compiled into the app, not into tests
        setWindowIcon(QIcon(QStringLiteral(":/icons/skynnet.svg")));
    setAcceptDrops(true);
    applyTheme(settings_->theme());  // before any chart is made, so each starts in the theme's colours
    document_ = new ProjectDocument(this);
    session_ = new TrainingSession(document_, this);

    createPages();
    buildWorkspace();
    connectOpenRequests();
    buildHistoryDock();
    buildStatusBar();
    buildMenus();
    connectWindowUpdates();

    resize(1400, 900);
    fitToScreen();  // at QT_SCALE_FACTOR=1.5 a 1600 x 1000 screen has room for 1066 x 666
    restoreGeometry(settings_->windowGeometry());
    restoreState(settings_->windowState());
    updateStatus();
    updateTitle();
    updateSidebarMarks();
    // After the constructor, so the window is up when the question comes.
    QTimer::singleShot(0, project_, &ProjectController::offerRecovery);
}

void MainWindow::createPages() {
    dataPage_ = new DataPage(document_, session_, settings_.get());
    networkPage_ = new NetworkPage(document_);
    splitPage_ = new SplitPage(document_);
    trainPage_ = new TrainPage(document_, session_, settings_.get());
    resultsPage_ = new ResultsPage(session_);
    studyPage_ = new StudyPage(document_);

    project_ = new ProjectController({.document = document_,
                                      .session = session_,
                                      .settings = settings_.get(),
                                      .window = this,
                                      .dataPage = dataPage_,
                                      .resultsPage = resultsPage_},
                                     this);
    // Before the status bar's "Loading…" (connectWindowUpdates): superseding an open clears the status bar.
    connect(dataPage_, &DataPage::loadStarted, project_, &ProjectController::dataLoadStarted);
    connect(networkPage_, &NetworkPage::dataSettingsRequested, dataPage_, &DataPage::loadSettings);
}

void MainWindow::buildWorkspace() {
    sidebar_ = new QListWidget;
    sidebar_->setObjectName(QStringLiteral("sidebar"));
    sidebar_->setIconSize(QSize(24, 24));
    sidebar_->setFixedWidth(128);  // "5  Results" with its icon; more is taken from the pages at 1024 pixels
    sidebar_->setSpacing(2);
    stack_ = new QStackedWidget;
    const QList<QWidget*> pages{dataPage_, networkPage_, splitPage_, trainPage_, resultsPage_, studyPage_};
    const QStringList titles{tr("1  Data"),  tr("2  Network"), tr("3  Split"),
                             tr("4  Train"), tr("5  Results"), tr("6  Study")};
    for (int i = 0; i < PageCount; ++i) {
        sidebar_->addItem(new QListWidgetItem(pageIcon(style(), i), titles[i]));
        // A page taller or wider than a small screen scrolls instead of pushing the window past it.
        auto* scroll = new QScrollArea;
        scroll->setWidget(pages[i]);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        stack_->addWidget(scroll);
    }
    connect(sidebar_, &QListWidget::currentRowChanged, stack_, &QStackedWidget::setCurrentIndex);
    sidebar_->setCurrentRow(0);

    workspace_ = new QWidget;
    auto* layout = new QHBoxLayout(workspace_);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(sidebar_);
    layout->addWidget(stack_, 1);
    startPage_ = new StartPage(settings_.get());
    central_ = new QStackedWidget;
    central_->addWidget(startPage_);
    central_->addWidget(workspace_);
    setCentralWidget(central_);
}

void MainWindow::connectOpenRequests() {
    // Whatever the user opens from anywhere (start page, menus, a drop) shows the pages.
    connect(dataPage_, &DataPage::loadStarted, this, &MainWindow::showWorkspace);
    connect(project_, &ProjectController::openStarted, this, [this] {
        openedFromStart_ = startPageShown();
        showWorkspace();
    });
    // A file that did not open (not a project, unreadable) leaves the window where the user was:
    // the start page, not an empty Data page.
    connect(project_, &ProjectController::openFinished, this, [this](bool ok) {
        if (!ok && openedFromStart_ && !document_->hasData() && !dataPage_->isLoading()) showStartPage();
        openedFromStart_ = false;
    });
    connect(document_, &ProjectDocument::dataChanged, this, [this] {
        if (document_->hasData()) showWorkspace();  // data given to the document directly (tests, tools)
    });
    connect(project_, &ProjectController::modelOpenRequested, this, [this](const QString& path) { openModel(path); });
    connect(startPage_, &StartPage::openDataRequested, dataPage_, &DataPage::openFileDialog);
    connect(startPage_, &StartPage::openFolderRequested, dataPage_, &DataPage::openFolderDialog);
    connect(startPage_, &StartPage::openProjectRequested, project_, &ProjectController::open);
    connect(startPage_, &StartPage::openModelRequested, this, [this] { openModel(); });
    connect(startPage_, &StartPage::projectChosen, this, [this](const QString& path) { project_->openFile(path); });
    connect(startPage_, &StartPage::dataChosen, dataPage_, &DataPage::loadFile);
    connect(startPage_, &StartPage::exampleChosen, this, &MainWindow::openExample);
}

void MainWindow::buildHistoryDock() {
    historyDock_ = new QDockWidget(tr("Undo History"), this);
    historyDock_->setObjectName(QStringLiteral("undoHistory"));  // for saveState/restoreState
    auto* history = new QUndoView(document_->undoStack());
    history->setEmptyLabel(tr("<opened or new project>"));
    historyDock_->setWidget(history);
    addDockWidget(Qt::RightDockWidgetArea, historyDock_);
    historyDock_->hide();
}

void MainWindow::buildStatusBar() {
    dataStatus_ = new QLabel;
    runStatus_ = new QLabel;
    statusBar()->addWidget(dataStatus_, 1);
    statusBar()->addPermanentWidget(runStatus_);
}

void MainWindow::connectWindowUpdates() {
    connect(dataPage_, &DataPage::loadStarted, this,
            [this](const QString& path) { statusBar()->showMessage(tr("Loading %1…").arg(path)); });
    connect(dataPage_, &DataPage::loadFinished, this, [this](bool ok, const QString& message) {
        statusBar()->showMessage(ok ? message : tr("Loading failed"), 5000);
        // The saved thread budget is applied after the first data, not before: any training
        // setting made before the data would freeze the data-dependent defaults (epochs).
        if (ok && !budgetRestored_) {
            budgetRestored_ = true;
            ProjectTraining t = document_->trainSettings();
            if (settings_->threadBudget() != t.threadBudget) {
                t.threadBudget = settings_->threadBudget();
                document_->setTrainSettings(t);
            }
        }
    });
    connect(document_, &ProjectDocument::dataChanged, this, &MainWindow::updateStatus);
    connect(document_, &ProjectDocument::dataChanged, this, &MainWindow::updateSidebarMarks);
    connect(session_, &TrainingSession::started, this, &MainWindow::updateSidebarMarks);
    connect(session_, &TrainingSession::finished, this, &MainWindow::updateSidebarMarks);
    connect(document_, &ProjectDocument::studyChanged, this, &MainWindow::updateSidebarMarks);
    connect(document_, &ProjectDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document_, &ProjectDocument::filePathChanged, this, [this](const QString& path) {
        if (!path.isEmpty()) budgetRestored_ = true;  // a project brings its own thread budget
        updateTitle();
    });
    connect(project_, &ProjectController::pageRequested, this, &MainWindow::showPage);
    connect(session_, &TrainingSession::started, this, &MainWindow::updateStatus);
    connect(session_, &TrainingSession::finished, this, &MainWindow::updateStatus);
    connect(session_, &TrainingSession::pausedChanged, this, &MainWindow::updateStatus);
    connect(session_, &TrainingSession::overallProgress, this,
            [this](double fraction, double) { runStatus_->setText(tr("Training %1%").arg(int(fraction * 100))); });
    connect(studyPage_, &StudyPage::progressChanged, this, &MainWindow::updateStatus);
    // The Train page keeps a finished run's summary and curves in view unless the user asked
    // for Results after each run (Train > Show Results After a Run).
    connect(trainPage_, &TrainPage::runCompleted, this, [this] {
        if (settings_->showResultsAfterRun() && currentPage() == TrainPageIndex) showPage(ResultsPageIndex);
    });
    connect(trainPage_, &TrainPage::resultsRequested, this, [this] { showPage(ResultsPageIndex); });
}

MainWindow::~MainWindow() = default;

void MainWindow::showStatus(const QString& message, int timeoutMs) { statusBar()->showMessage(message, timeoutMs); }
void MainWindow::clearStatus() { statusBar()->clearMessage(); }
void MainWindow::addPermanentStatusWidget(QWidget* widget) { statusBar()->addPermanentWidget(widget); }

void MainWindow::setTheme(Theme theme, bool save) {
    applyTheme(theme);
    if (save) settings_->setTheme(theme);
    for (QAction* a : themeActions_->actions()) a->setChecked(Theme(a->data().toInt()) == theme);
}

void MainWindow::fitToScreen() { ui::fitToScreen(this); }

void MainWindow::showPage(int page) {
    if (page < 0 || page >= PageCount) return;
    showWorkspace();
    sidebar_->setCurrentRow(page);
}

void MainWindow::showWorkspace() { central_->setCurrentWidget(workspace_); }

void MainWindow::showStartPage() { central_->setCurrentWidget(startPage_); }

bool MainWindow::startPageShown() const { return central_->currentWidget() == startPage_; }

OpenModelDialog* MainWindow::openModel(const QString& path) {
    QString file = path;
    if (file.isEmpty()) {
        file = askForFile(this,
                          {FileRequest::OpenFile, tr("Open Model"), settings_->lastProjectFolder(), modelFilter()});
        if (file.isEmpty()) return nullptr;
    }
    settings_->setLastProjectFolder(QFileInfo(file).absolutePath());
    auto* dialog = new OpenModelDialog(settings_.get(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->loadModel(file);  // a failure is shown in the dialog
    dialog->show();
    return dialog;
}

HelpWindow* MainWindow::showManual() {
    if (!help_) help_ = new HelpWindow(this);
    help_->show();
    help_->raise();
    help_->activateWindow();
    return help_;
}

void MainWindow::showShortcuts() {
    ShortcutsDialog dialog(shortcutEntries(menuBar()), this);
    dialog.exec();
}

bool MainWindow::sidebarMarked(int page) const { return sidebar_->item(page)->data(Qt::UserRole).toBool(); }

QString MainWindow::sidebarToolTip(int page) const { return sidebar_->item(page)->toolTip(); }

void MainWindow::updateSidebarMarks() {
    const bool data = document_->hasData();
    const bool results = bool(session_->results());
    const bool studied = studyPage_->hasStudy() && studyPage_->record().complete;
    const bool done[PageCount] = {data, false, false, false, results, studied};
    const QString tips[PageCount] = {data ? tr("Data loaded") : tr("No data loaded yet"),
                                     tr("The network to split"),
                                     tr("How the network is split"),
                                     session_->running() ? tr("Training") : tr("Start, watch and stop training"),
                                     results ? tr("The results of the last run") : tr("No results yet: train first"),
                                     studied ? tr("The project's split study")
                                             : tr("What the split costs and gains, over seeds")};
    for (int i = 0; i < PageCount; ++i) {
        QListWidgetItem* item = sidebar_->item(i);
        item->setIcon(done[i] ? style()->standardIcon(QStyle::SP_DialogApplyButton) : pageIcon(style(), i));
        item->setData(Qt::UserRole, done[i]);  // what the icon says (sidebarMarked)
        item->setToolTip(tips[i]);
    }
}

int MainWindow::currentPage() const { return stack_->currentIndex(); }

QString MainWindow::pageName(int page) {
    static const char* const names[] = {"data", "network", "split", "train", "results", "study"};
    return page >= 0 && page < PageCount ? QString::fromLatin1(names[page]) : QString();
}

bool MainWindow::openExample(const QString& id) { return dataPage_->loadExample(id); }

void MainWindow::openDefaultExample() { openExample(defaultExampleId()); }

void MainWindow::updateStatus() {
    const auto data = document_->dataset();
    dataStatus_->setText(
        data ? tr("%1 — %2 samples, %3")
                   .arg(QFileInfo(QString::fromStdString(document_->dataSettings().train.path)).fileName())
                   .arg(data->size())
                   .arg(QString::fromStdString(taskName(data->task)))
             : tr("No data loaded"));
    // A training on the Train page speaks first: its percentage comes with overallProgress.
    if (session_->paused()) runStatus_->setText(tr("Paused"));
    else if (session_->running()) {
        if (!runStatus_->text().startsWith(tr("Training"))) runStatus_->setText(tr("Training…"));
    } else if (studyPage_->running()) runStatus_->setText(studyPage_->statusBarText());
    else if (session_->results()) runStatus_->setText(tr("Last run complete"));
    else runStatus_->setText(tr("Ready"));
}

void MainWindow::updateTitle() {
    // "[*]" is where Qt puts the modified marker.
    setWindowTitle(tr("%1[*] — Skynnet").arg(project_->displayName()));
    setWindowModified(document_->isModified());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!project_->stopTrainingAndMaybeSave(tr("quit"))) {
        event->ignore();
        return;
    }
    project_->windowClosing();
    settings_->setWindowGeometry(saveGeometry());
    settings_->setWindowState(saveState());
    settings_->sync();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile()) return;
    event->acceptProposedAction();
    openPath(urls.first().toLocalFile());
}

void MainWindow::openPath(const QString& path) {
    if (path.endsWith(QString::fromLatin1(projectFileSuffix))) {
        project_->openFile(path);
    } else if (path.endsWith(QLatin1String(".skym"))) {
        openModel(path);
    } else {
        showPage(DataPageIndex);
        dataPage_->loadFile(path);
    }
}

}  // namespace skynnet::ui
