#include "ui/widgets/train_page.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/core/app_settings.h"
#include "ui/core/epoch_table_model.h"
#include "ui/core/run_summary.h"
#include "ui/core/training_session.h"
#include "ui/widgets/format.h"
#include "ui/widgets/network_check.h"
#include "ui/widgets/run_on_panel.h"
#include "ui/widgets/table_columns.h"
#include "ui/widgets/train_settings_panel.h"
#include "ui/widgets/training_charts.h"

namespace skynnet::ui {
namespace {

QString startToolTip() { return TrainPage::tr("Train the split plan's submodels in parallel, then the baseline (F5)"); }

}  // namespace

TrainPage::TrainPage(ProjectDocument* document, TrainingSession* session, AppSettings* settings, QWidget* parent)
    : QWidget(parent), document_(document), session_(session), settings_(settings) {
    buildUi();
    connect(document_, &ProjectDocument::trainSettingsChanged, this, &TrainPage::fromDocument);
    for (auto signal : {&ProjectDocument::dataChanged, &ProjectDocument::networkChanged,
                        &ProjectDocument::splitOptionsChanged, &ProjectDocument::trainSettingsChanged}) {
        connect(document_, signal, this, &TrainPage::updatePlanInfo);
        connect(document_, signal, this, &TrainPage::inputsChanged);
    }

    connect(session_, &TrainingSession::started, this, [this](int submodels, bool withBaseline) {
        error_->hide();
        summary_->hide();
        progress_->setValue(0);
        remaining_->setText(tr("starting %n submodel(s)%1…", nullptr, submodels)
                                .arg(withBaseline ? tr(" and the baseline") : QString()));
        updateButtons();
    });
    connect(session_, &TrainingSession::pausedChanged, this, [this](bool paused) {
        showPaused(paused);
        updateButtons();
    });
    connect(session_, &TrainingSession::overallProgress, this, [this](double fraction, double remaining) {
        progress_->setValue(int(fraction * 1000));
        remaining_->setText(remaining >= 0 ? tr("about %1 left").arg(formatDuration(remaining)) : tr("estimating…"));
    });
    connect(session_, &TrainingSession::logMessage, this, &TrainPage::appendLog);
    connect(session_, &TrainingSession::finished, this, &TrainPage::onFinished);
    connect(session_, &TrainingSession::resultsChanged, this, &TrainPage::showSummary);  // another rule's metric
    connect(session_, &TrainingSession::failed, this, [this](const QString& message) {
        showError(tr("Training could not start: %1").arg(message));
        log_->appendPlainText(tr("could not start: %1").arg(message));
        updateButtons();
    });
    fromDocument();
}

TrainPage::~TrainPage() = default;

void TrainPage::buildUi() {
    QHBoxLayout* bar = buildButtonBar();
    buildBanners();
    QGroupBox* settingsBox = buildSettingsBox();
    buildCharts();
    QTabWidget* bottom = buildEpochsAndLog();
    QWidget* top = buildSettingsAndCharts(settingsBox);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({620, 220});

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(startReason_);
    layout->addWidget(error_);
    layout->addWidget(summary_);
    layout->addWidget(buildOutOfDateLine());
    layout->addWidget(split, 1);
    updateButtons();
}

QHBoxLayout* TrainPage::buildButtonBar() {
    start_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Start"));
    start_->setToolTip(startToolTip());
    pause_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPause), tr("Pause"));
    pause_->setToolTip(tr("Pause every worker at its next batch boundary, or resume (F6)"));
    // The session's pause state has this one action; the button and the Train menu show it.
    pauseAction_ = new QAction(style()->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), this);
    pauseAction_->setCheckable(true);
    pauseAction_->setShortcut(QKeySequence(Qt::Key_F6));
    pauseAction_->setToolTip(pause_->toolTip());
    addAction(pauseAction_);  // F6 on the page alone too; the window's menu adds the same action
    stop_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"));
    stop_->setToolTip(tr("Cancel the run: every worker stops at its next batch boundary"));
    connect(start_, &QPushButton::clicked, this, &TrainPage::startTraining);
    connect(pauseAction_, &QAction::triggered, this, [this](bool pause) {
        if (pause) session_->pause();
        else session_->resume();
        updateButtons();  // the session decides: a pause it refused leaves the action unchecked
    });
    connect(pauseAction_, &QAction::changed, this, &TrainPage::syncPauseButton);
    connect(pause_, &QPushButton::clicked, pauseAction_, &QAction::trigger);
    connect(stop_, &QPushButton::clicked, session_, &TrainingSession::stop);

    progress_ = new QProgressBar;
    progress_->setRange(0, 1000);
    progress_->setFormat(QStringLiteral("%p%"));
    remaining_ = new QLabel(tr("press Start (F5) to train"));
    remaining_->setMinimumWidth(160);
    auto* bar = new QHBoxLayout;
    bar->addWidget(start_);
    bar->addWidget(pause_);
    bar->addWidget(stop_);
    bar->addWidget(buildResumeRunButton());
    resumeOnHosts_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaSeekForward), tr("Resume on the hosts"));
    resumeOnHosts_->setToolTip(
        tr("Run again on the hostfile's machines, continuing from the submodels already trained"));
    resumeOnHosts_->hide();
    connect(resumeOnHosts_, &QPushButton::clicked, this, [this] { startOnHosts(true); });
    bar->addWidget(resumeOnHosts_);
    bar->addWidget(progress_, 1);
    bar->addWidget(remaining_);
    return bar;
}

void TrainPage::buildBanners() {
    error_ = new QLabel;
    error_->setObjectName(QStringLiteral("trainError"));
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setStyleSheet(QStringLiteral("QLabel { background: #fde2e1; color: #8a1c1c; border: 1px solid #e0a0a0;"
                                         " border-radius: 4px; padding: 6px; }"));
    error_->hide();
    startReason_ = new QLabel;
    startReason_->setObjectName(QStringLiteral("startReason"));
    startReason_->setWordWrap(true);
    startReason_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    startReason_->hide();
    summary_ = new QLabel;
    summary_->setObjectName(QStringLiteral("runSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    summary_->setTextFormat(Qt::RichText);
    summary_->hide();
    connect(summary_, &QLabel::linkActivated, this, &TrainPage::resultsRequested);
}

QGroupBox* TrainPage::buildSettingsBox() {
    epochs_ = new QSpinBox;
    epochs_->setRange(1, 10000);
    epochs_->setToolTip(tr("Epochs of the original model; submodels may train fewer when the split scales epochs"));
    batch_ = new QSpinBox;
    batch_->setRange(1, 65536);
    batch_->setToolTip(tr("Samples per gradient step"));
    optimizer_ = new QComboBox;
    optimizer_->addItem(QStringLiteral("Adam"), int(OptimizerKind::Adam));
    optimizer_->addItem(QStringLiteral("AdamW"), int(OptimizerKind::AdamW));
    optimizer_->addItem(QStringLiteral("SGD"), int(OptimizerKind::SGD));
    optimizer_->addItem(QStringLiteral("RMSProp"), int(OptimizerKind::RMSProp));
    optimizer_->setToolTip(tr("The optimiser every submodel and the baseline use"));
    learningRate_ = new QDoubleSpinBox;
    learningRate_->setDecimals(5);
    learningRate_->setRange(0.00001, 1.0);
    learningRate_->setSingleStep(0.0005);
    learningRate_->setToolTip(tr("Step size of the optimiser"));
    threads_ = new QSpinBox;
    threads_->setRange(0, std::max(1, QThread::idealThreadCount()) * 4);
    threads_->setSpecialValueText(tr("All cores (%1)").arg(QThread::idealThreadCount()));
    threads_->setToolTip(tr("Threads the run may use: submodels train one per thread, kernels share what is left"));
    baseline_ = new QCheckBox(tr("Also train the original model as a baseline"));
    baseline_->setToolTip(
        tr("After the submodels, train the unsplit network the same way, to compare accuracy and time"));
    for (QSpinBox* s : {epochs_, batch_, threads_}) connect(s, &QSpinBox::valueChanged, this, &TrainPage::toDocument);
    connect(learningRate_, &QDoubleSpinBox::valueChanged, this, &TrainPage::toDocument);
    connect(optimizer_, &QComboBox::currentIndexChanged, this, &TrainPage::toDocument);
    connect(baseline_, &QCheckBox::toggled, this, &TrainPage::toDocument);
    // Typing "512" is one undo step: the spin box's edits merge until it is left or Enter is pressed.
    for (QAbstractSpinBox* box : std::initializer_list<QAbstractSpinBox*>{epochs_, batch_, learningRate_, threads_})
        connect(box, &QAbstractSpinBox::editingFinished, document_, &ProjectDocument::sealEdits);

    auto* settingsBox = new QGroupBox(tr("Training settings"));
    auto* form = new QFormLayout(settingsBox);
    form->addRow(tr("Epochs:"), epochs_);
    form->addRow(tr("Batch size:"), batch_);
    form->addRow(tr("Optimiser:"), optimizer_);
    form->addRow(tr("Learning rate:"), learningRate_);
    form->addRow(tr("Threads:"), threads_);
    form->addRow(baseline_);
    settingsBox->setMaximumWidth(340);
    return settingsBox;
}

void TrainPage::buildCharts() {
    charts_ = new TrainingCharts(session_);
    if (settings_) {
        charts_->logScaleBox()->setChecked(settings_->logScale());
        connect(charts_->logScaleBox(), &QCheckBox::toggled, this, [this](bool on) { settings_->setLogScale(on); });
    }
}

QTabWidget* TrainPage::buildEpochsAndLog() {
    epochTable_ = new QTableView;
    epochTable_->setModel(new EpochTableModel(session_, this));
    epochTable_->verticalHeader()->hide();
    epochTable_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    fitColumnsToContents(epochTable_, {.measuredRows = 200});
    epochTable_->setAlternatingRowColors(true);
    connect(epochTable_->model(), &QAbstractItemModel::rowsInserted, epochTable_, &QTableView::scrollToBottom);
    auto* bottom = new QTabWidget;
    bottom->addTab(epochTable_, tr("Epochs"));
    bottom->addTab(buildLog(), tr("Log"));
    bottom->setCornerWidget(saveLog_, Qt::TopRightCorner);
    return bottom;
}

QWidget* TrainPage::buildSettingsAndCharts(QGroupBox* settingsBox) {
    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    planInfo_ = new QLabel;
    planInfo_->setWordWrap(true);
    planInfo_->setMaximumWidth(340);
    planInfo_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sideLayout->addWidget(settingsBox);
    advanced_ = new TrainSettingsPanel(document_);
    advanced_->setMaximumWidth(340);
    sideLayout->addWidget(advanced_);
    sideLayout->addWidget(buildRunOn());
    sideLayout->addWidget(planInfo_);
    sideLayout->addStretch();
    auto* top = new QWidget;
    auto* topLayout = new QHBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    // The settings scroll rather than squeeze the charts on a short screen.
    auto* sideScroll = new QScrollArea;
    sideScroll->setWidget(side);
    sideScroll->setWidgetResizable(true);
    sideScroll->setFrameShape(QFrame::NoFrame);
    sideScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    sideScroll->setMinimumWidth(side->minimumSizeHint().width() + sideScroll->verticalScrollBar()->sizeHint().width());
    topLayout->addWidget(sideScroll);
    topLayout->addWidget(charts_, 1);
    return top;
}

QString TrainPage::summaryText() const { return summary_->isHidden() ? QString() : summary_->text(); }

void TrainPage::showSummary() {
    QString text = runSummaryText(*session_);
    if (!text.isEmpty() && session_->results())
        text += QStringLiteral(" <a href=\"results\">%1</a>").arg(tr("Show the results (Ctrl+5)"));
    summary_->setText(text);
    summary_->setVisible(!text.isEmpty());
}

QString TrainPage::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

QString TrainPage::startReasonText() const { return startReason_->isHidden() ? QString() : startReason_->text(); }

QString TrainPage::startBlocker() const {
    if (!document_->hasData()) return tr("No data loaded: open a data file on the Data page first.");
    const NetworkCheck check = checkNetwork(*document_);
    if (!check.errors.isEmpty())
        return tr("The network cannot be trained:\n%1").arg(check.errors.join(QLatin1Char('\n')));
    if (const QString problem = session_->startProblem(); !problem.isEmpty())
        return tr("Cannot start: %1").arg(problem);
    return {};
}

void TrainPage::inputsChanged() {
    // A banner spoke of the inputs as they were; what still stops a start is on the reason line.
    error_->hide();
    updateButtons();
}

void TrainPage::showError(const QString& text) {
    error_->setText(text);
    error_->show();
}

void TrainPage::fromDocument() {
    updating_ = true;
    const ProjectTraining& t = document_->trainSettings();
    epochs_->setValue(t.config.epochs);
    batch_->setValue(t.config.batchSize);
    optimizer_->setCurrentIndex(std::max(0, optimizer_->findData(int(t.config.optimizer.kind))));
    learningRate_->setValue(t.config.optimizer.learningRate);
    threads_->setValue(t.threadBudget);
    baseline_->setChecked(t.trainBaseline);
    runOn_->setPlace(t.runOn);
    updating_ = false;
    updateButtons();
    updatePlanInfo();
}

void TrainPage::toDocument() {
    if (updating_) return;
    ProjectTraining t = document_->trainSettings();
    t.config.epochs = epochs_->value();
    t.config.batchSize = batch_->value();
    t.config.optimizer.kind = OptimizerKind(optimizer_->currentData().toInt());
    t.config.optimizer.learningRate = float(learningRate_->value());
    t.threadBudget = threads_->value();
    t.trainBaseline = baseline_->isChecked();
    t.runOn = runOn_->place();
    if (settings_) settings_->setThreadBudget(t.threadBudget);
    document_->editTrainSettings(t);  // one undoable step
}

void TrainPage::updateButtons() {
    const bool running = session_->running();
    const QString why = running ? QString() : startBlocker();
    start_->setEnabled(!running && why.isEmpty());
    start_->setToolTip(why.isEmpty() ? startToolTip() : why);
    startReason_->setText(why);
    startReason_->setVisible(!why.isEmpty());
    // A process group has no batch boundary to pause at.
    pauseAction_->setEnabled(running && !session_->runsInAnotherProcess());
    pauseAction_->setChecked(session_->paused());
    syncPauseButton();
    stop_->setEnabled(running);
    runOn_->setRunning(running);
    advanced_->setRunning(running);
    if (running) resumeOnHosts_->hide();
    updateResumeRunButton();
    for (QWidget* w : std::initializer_list<QWidget*>{epochs_, batch_, optimizer_, learningRate_, threads_, baseline_})
        w->setEnabled(!running);
}

void TrainPage::syncPauseButton() {
    const bool paused = pauseAction_->isChecked();
    pause_->setEnabled(pauseAction_->isEnabled());
    pause_->setText(paused ? tr("Resume") : tr("Pause"));
    pause_->setIcon(style()->standardIcon(paused ? QStyle::SP_MediaPlay : QStyle::SP_MediaPause));
}

void TrainPage::showPaused(bool paused) {
    // The bar and the time remaining hold still while paused (the session sends no estimate then)
    // and say why; on resume the session's next estimate replaces "Paused".
    progress_->setFormat(paused ? tr("%p% (paused)") : QStringLiteral("%p%"));
    if (paused) remaining_->setText(tr("Paused"));
}

void TrainPage::updatePlanInfo() {
    if (!document_->hasData()) {
        planInfo_->setText(tr("Load data on the Data page first."));
        return;
    }
    try {
        const SplitPlan p = document_->plan();
        QString text = tr("<b>Run:</b> %1 submodel(s) by %2, F = %3, %4 epoch(s) each")
                           .arg(p.submodelCount())
                           .arg(QString::fromStdString(strategyName(p.strategy)))
                           .arg(p.factor, 0, 'g', 3)
                           .arg(p.effectiveEpochs);
        if (document_->trainSettings().trainBaseline)
            text += tr("; then the original model for %1 epoch(s).").arg(p.epochs);
        planInfo_->setText(text);
    } catch (const std::exception& e) {
        planInfo_->setText(tr("<b>No valid split:</b> %1").arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
    }
}

void TrainPage::startTraining() {
    if (session_->running()) return;
    // F5 and the menu reach here with Start disabled: say why where it cannot be missed.
    if (const QString why = startBlocker(); !why.isEmpty()) return showError(why);
    error_->hide();
    if (document_->trainSettings().runOn.onHosts) return startOnHosts(false);
    session_->start();  // planning errors come back through `failed`
    updateButtons();
}

QPushButton* TrainPage::buildResumeRunButton() {
    resumeRun_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaSeekForward), tr("Resume run"));
    resumeRun_->setToolTip(tr("Continue the stopped or failed run from its checkpoints: finished submodels are kept, "
                              "the others go on from their last completed epoch"));
    connect(resumeRun_, &QPushButton::clicked, this, &TrainPage::resumeTraining);
    return resumeRun_;
}

void TrainPage::updateResumeRunButton() {
    // Offered only when there is something to continue; it never takes Start's place.
    resumeRun_->setVisible(session_->canResumeRun() && document_->hasData());
}

void TrainPage::resumeTraining() {
    if (session_->running() || !session_->canResumeRun()) return;
    error_->hide();
    session_->startResumed();  // a run that no longer fits its checkpoints comes back as a failure
    updateButtons();
}

void TrainPage::onFinished(TrainStatus status, const QString& message) {
    updateButtons();
    showSummary();
    offerResumeOnHosts(status);
    switch (status) {
    case TrainStatus::Completed:
    case TrainStatus::EarlyStopped:
        progress_->setValue(1000);
        remaining_->setText(tr("done"));
        emit runCompleted();
        break;
    case TrainStatus::Cancelled:
        if (!session_->plan()) {  // no run at all (a new project), rather than a stopped one
            progress_->setValue(0);
            remaining_->setText(tr("press Start (F5) to train"));
            break;
        }
        remaining_->setText(tr("stopped"));
        break;
    case TrainStatus::Failed:
        remaining_->setText(tr("failed"));
        showError(tr("Training failed: %1").arg(message));
        break;
    }
}

}  // namespace skynnet::ui
