#include "ui/widgets/results_page.h"

#include <QChart>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "train/metrics.h"
#include "ui/core/comparison_table_model.h"
#include "ui/core/formatting.h"
#include "ui/core/run_history.h"
#include "ui/core/training_session.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/class_metrics_model.h"
#include "ui/widgets/confusion_matrix_widget.h"
#include "ui/widgets/format.h"
#include "ui/widgets/reconstruction_grid.h"
#include "ui/widgets/run_history_panel.h"
#include "ui/widgets/split_totals_text.h"
#include "ui/widgets/table_columns.h"
#include "ui/widgets/table_height.h"

namespace skynnet::ui {
namespace {

// Rows a table keeps in view however short the page: below that the page scrolls instead.
constexpr int rowsAlwaysShown = 6;

}  // namespace

ResultsPage::ResultsPage(TrainingSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    buildHeadline();
    QWidget* left = buildComparison();
    QGroupBox* errors = buildErrors();
    QSplitter* content = buildContent(left, errors);

    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(headline_, 1);
    top->addWidget(buildRuleChoice(), 0, Qt::AlignTop);
    layout->addLayout(top);
    layout->addWidget(outOfDate_);
    layout->addWidget(content, 1);

    connectSession();
    clear(tr("No results yet: train on the Train page, then compare the combined model with its submodels and the "
             "baseline here."));
}

void ResultsPage::connectSession() {
    connect(session_, &TrainingSession::started, this, [this] {
        unfinished_.clear();
        shownResults_.reset();
        shownPlan_.reset();
        shownIndex_ = -1;
        comparisonModel_->setResults(nullptr, nullptr);
        clear(tr("Training… results appear when the run completes."));
        updateOutOfDate();
    });
    connect(session_, &TrainingSession::finished, this, [this](TrainStatus status, const QString& message) {
        const bool completed = status == TrainStatus::Completed || status == TrainStatus::EarlyStopped;
        unfinished_ =
            completed || !session_->plan()
                ? QString()
                : tr("The last run did not complete (%1): %2").arg(QString::fromStdString(statusName(status)), message);
        refresh();
    });
    if (ProjectDocument* doc = session_->document()) {
        for (auto signal :
             {&ProjectDocument::dataChanged, &ProjectDocument::networkChanged, &ProjectDocument::splitOptionsChanged})
            connect(doc, signal, this, &ResultsPage::updateOutOfDate);
        // A run is kept, or a kept one shown, after the session said finished: its record decides
        // which run this is and the out-of-date line.
        for (auto signal : {&ProjectDocument::runsChanged, &ProjectDocument::shownRunChanged})
            connect(doc, signal, this, [this] {
                if (!session_->running()) refresh();
            });
    }
}

void ResultsPage::buildHeadline() {
    headline_ = new QLabel;
    headline_->setObjectName(QStringLiteral("resultsHeadline"));
    headline_->setWordWrap(true);
    headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    outOfDate_ = new QLabel;
    outOfDate_->setObjectName(QStringLiteral("resultsOutOfDate"));
    outOfDate_->setWordWrap(true);
    outOfDate_->setStyleSheet(QStringLiteral("QLabel { background: #fff4d6; color: #6b4a00; border: 1px solid #e0c070;"
                                             " border-radius: 4px; padding: 4px; }"));
    outOfDate_->hide();
}

QWidget* ResultsPage::buildComparison() {
    comparison_ = new QTableView;
    comparisonModel_ = new ComparisonTableModel(nullptr, this);  // fed by refresh(): the run on show
    comparison_->setModel(comparisonModel_);
    comparison_->setAlternatingRowColors(true);
    comparison_->verticalHeader()->hide();
    fitColumnsToContents(comparison_);  // every figure and name whole, "Peak memory" over its unit when narrow
    comparison_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    // Rows of one text line and a little air, as the data's preview: the style's default left the
    // charts below their least height at 1600 x 1000 once the split's sentence took two lines.
    comparison_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);

    metricChart_ = new BarChart(tr("Metric (test set)"));
    wallChart_ = new BarChart(tr("Wall time (s)"));
    cpuChart_ = new BarChart(tr("CPU time (s)"));
    memoryChart_ = new BarChart(tr("Peak memory (MB)"));
    memoryChart_->setToolTip(
        tr("What each model needs on a machine of its own: parameters, gradients, optimiser state, "
           "buffers and its rows"));
    for (BarChart* c : {metricChart_, wallChart_, cpuChart_, memoryChart_}) c->setHorizontal(true);  // names stay whole
    auto* charts = new QGridLayout;
    charts->setSpacing(4);
    charts->addWidget(metricChart_, 0, 0);
    charts->addWidget(wallChart_, 0, 1);
    charts->addWidget(cpuChart_, 1, 0);
    charts->addWidget(memoryChart_, 1, 1);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(comparison_);  // as tall as its rows (fitTablesToRows), the charts the rest
    combinedNote_ = new QLabel;
    combinedNote_->setObjectName(QStringLiteral("combinedRowNote"));
    combinedNote_->setWordWrap(true);
    combinedNote_->hide();
    leftLayout->addWidget(combinedNote_);
    leftLayout->addLayout(charts, 1);
    return left;
}

QSplitter* ResultsPage::buildContent(QWidget* comparison, QGroupBox* errors) {
    auto* split = new QSplitter(Qt::Horizontal);  // turned for the width by reflow()
    split->addWidget(comparison);
    split->addWidget(errors);
    split->setChildrenCollapsible(false);
    content_ = split;
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({880, 440});  // scaled to the real width on first show

    // The results over the run list, with a splitter between them. On a short screen the results
    // scroll in their own pane, so the run list is in view without scrolling the page (it was
    // below the window at 1024 x 680).
    resultsPane_ = new QScrollArea;
    QScrollArea* resultsPane = resultsPane_;
    resultsPane->setObjectName(QStringLiteral("resultsPane"));
    resultsPane->setWidget(split);
    resultsPane->setWidgetResizable(true);
    resultsPane->setFrameShape(QFrame::NoFrame);
    resultsPane->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the page's width is the window's
    resultsPane->setMinimumHeight(160);
    runs_ = new RunHistoryPanel(session_->document(), session_);
    auto* content = new QSplitter(Qt::Vertical);
    content->addWidget(resultsPane);
    content->addWidget(runs_);
    content->setStretchFactor(0, 4);
    content->setStretchFactor(1, 1);
    content->setChildrenCollapsible(false);
    content->setSizes({720, 160});  // the run list a few rows tall; scaled to the real height on first show
    return content;
}

QString ResultsPage::outOfDateText() const { return outOfDate_->isHidden() ? QString() : outOfDate_->text(); }

void ResultsPage::chooseShownRun() {
    shownResults_ = session_->results();
    shownPlan_ = session_->plan();
    shownIndex_ = -1;
    shownNote_.clear();
    const ProjectDocument* doc = session_->document();
    if (!doc || session_->running()) {
        if (session_->running()) shownResults_.reset();
        return;
    }
    if (shownResults_ && shownPlan_) {
        if (doc->showsSessionRun(shownPlan_)) shownIndex_ = doc->shownRun();
        return;
    }
    const auto& runs = doc->runs();
    for (int i = int(runs.size()) - 1; i >= 0; --i) {
        const ProjectRun& run = runs[std::size_t(i)];
        if (!run.results) continue;
        ProjectResults figures = *run.results;
        figures.model.reset();  // the page shows figures, never the weights
        figures.baselineWeights.reset();
        shownResults_ = std::make_shared<const ProjectResults>(std::move(figures));
        shownPlan_ = std::make_shared<const SplitPlan>(run.plan);
        shownIndex_ = i;
        shownNote_ = tr("Showing the last completed run, started %1.").arg(runStartText(run));
        return;
    }
    shownResults_.reset();
    shownPlan_.reset();
}

void ResultsPage::updateOutOfDate() {
    const ProjectDocument* doc = session_->document();
    const bool known = doc && !session_->running() && shownIndex_ >= 0 && std::size_t(shownIndex_) < doc->runs().size();
    const QString text = known ? ui::outOfDateText(outOfDateParts(doc->runs()[std::size_t(shownIndex_)], *doc))
                               : QString();
    outOfDate_->setText(text);
    outOfDate_->setVisible(!text.isEmpty());
}

QString ResultsPage::combinedMetricText() const { return hasResults_ ? metricText_ : QString(); }

int ResultsPage::heightForWidth(int width) const { return layout()->totalMinimumHeightForWidth(width); }

void ResultsPage::fitTablesToRows() {
    fitHeightToRows(comparison_, rowsAlwaysShown);
    fitHeightToRows(classTable_, rowsAlwaysShown);
}

void ResultsPage::clear(const QString& why) {
    hasResults_ = false;
    metricText_.clear();
    totalsText_.clear();
    combinedNote_->hide();
    headline_->setText(why);
    for (BarChart* c : {metricChart_, wallChart_, cpuChart_, memoryChart_}) c->setPlaceholder(tr("no run yet"));
    confusion_->setMatrix({}, {});
    classModel_->clear();
    fitTablesToRows();
    clearChart(scatterView_->chart());
    ++reconstructionJob_;  // a job still computing answers no one
    reconstructionsPending_ = false;
    reconstructions_->clear();
    modelChoice_->show();
    ruleRow_->hide();
    errorsBox_->setTitle(tr("Errors"));
    scatter_ = nullptr;
    diagonal_ = nullptr;
    scatterX_ = scatterY_ = nullptr;
}

void ResultsPage::refresh() {
    chooseShownRun();
    comparisonModel_->setResults(shownResults_, shownPlan_);
    updateOutOfDate();
    const auto r = shownResults_;
    const auto plan = shownPlan_;
    if (!r || !plan) {
        if (session_->running()) clear(tr("Training… results appear when the run completes."));
        else clear(unfinished_.isEmpty() ? tr("No results yet.") : unfinished_);
        return;
    }
    hasResults_ = true;
    const QString metric = QString::fromStdString(r->metricName);
    metricText_ = formatMetric(r->combinedMetric);
    QString figures = metric + QLatin1Char(' ') + metricText_;
    // A reconstruction is also judged by its error, as skynnet-cli's test_mse.
    if (plan->task == Task::Reconstruction && r->combinedTestOutput.size() > 0 &&
        r->combinedTestOutput.rows() == r->testTargets.rows() && r->combinedTestOutput.cols() == r->testTargets.cols())
        figures += tr(", MSE %1").arg(formatMetric(reconstructionMetrics(r->combinedTestOutput, r->testTargets).mse));
    QString text = tr("<b>Combined model: %1</b> on %2 %3 samples (%4 submodels, %5)")
                       .arg(figures)
                       .arg(r->evaluatedSamples)
                       .arg(QString::fromStdString(r->evaluatedOn))
                       .arg(plan->submodelCount())
                       .arg(QString::fromStdString(strategyName(plan->strategy)));
    if (r->baseline) {
        const double wallBase = r->baseline->wallSeconds;
        text += tr(" — baseline %1 %2. Split run %3 against the baseline's %4")
                    .arg(metric, formatMetric(r->baselineMetric), formatDuration(r->splitWallSeconds),
                         formatDuration(wallBase));
        if (const QString ratio = speedRatioText(wallBase, r->splitWallSeconds); !ratio.isEmpty())
            text += tr(" (%1)").arg(ratio);
        text += QLatin1Char('.');
    }
    if (!shownNote_.isEmpty()) {  // an earlier run stands in for one that did not complete
        QString why = unfinished_.toHtmlEscaped();
        if (!why.isEmpty()) why += why.endsWith(QLatin1Char('.')) ? QStringLiteral(" ") : QStringLiteral(". ");
        text = why + shownNote_ + QStringLiteral("<br>") + text;
    }
    // What the split saved and cost, in one sentence (split_totals_text.h).
    totalsText_ = runTotalsSentence(*r, *plan);
    text += QStringLiteral("<br>") + totalsText_.toHtmlEscaped();
    headline_->setText(text);
    combinedNote_->setText(combinedRowNote(r->workers, r->resumed()));
    combinedNote_->show();

    // Bar charts: combined, each submodel, baseline.
    const int n = plan->submodelCount();
    QStringList categories{tr("combined")};
    for (int i = 0; i < n; ++i) categories << tr("sub %1").arg(i + 1);
    if (r->baseline) categories << tr("baseline");
    std::vector<double> metricV{r->combinedMetric}, wallV{r->splitWallSeconds}, cpuV{r->splitCpuSeconds},
        memV{double(r->peakConcurrentBytes)};  // bytes until the unit is chosen below
    for (int i = 0; i < n; ++i) {
        const auto k = std::size_t(i);
        metricV.push_back(k < r->submodelMetrics.size() ? r->submodelMetrics[k] : 0.0);
        wallV.push_back(k < r->submodelWallSeconds.size() ? r->submodelWallSeconds[k] : 0.0);
        cpuV.push_back(k < r->submodelCpuSeconds.size() ? r->submodelCpuSeconds[k] : 0.0);
        memV.push_back(k < r->submodels.size() ? double(r->submodels[k].peakBytes()) : 0.0);
    }
    if (r->baseline) {
        metricV.push_back(r->baselineMetric);
        wallV.push_back(r->baseline->wallSeconds);
        cpuV.push_back(r->baseline->cpuSeconds);
        memV.push_back(double(r->baseline->peakBytes()));
    }
    metricChart_->setTitle(tr("%1 (%2 set)").arg(metric, QString::fromStdString(r->evaluatedOn)));
    metricChart_->setToolTip(
        tr("The combined model and the baseline on the %1 set; each submodel on its own sub-problem")
            .arg(QString::fromStdString(r->evaluatedOn)));
    metricChart_->setUpperBound(1.0);  // accuracy and R² never exceed 1
    metricChart_->setData(categories, {{metric, metricV, submodelColor(0)}});
    wallChart_->setData(categories, {{tr("wall s"), wallV, submodelColor(1)}});
    cpuChart_->setData(categories, {{tr("CPU s"), cpuV, submodelColor(2)}});
    // The comparison table's unit (memoryUnitFor): small models in kB, so the axis reads 25, 50,
    // 75 rather than 0.025 cut to "0.0…".
    const MemoryUnit unit = memoryUnitFor(std::int64_t(*std::max_element(memV.begin(), memV.end())));
    for (double& v : memV) v /= unit.bytes;
    memoryChart_->setTitle(tr("Peak memory (%1)").arg(unit.name));
    memoryChart_->setData(categories, {{unit.name, memV, submodelColor(4)}});

    modelChoice_->setEnabled(r->baseline.has_value());
    if (!r->baseline) modelChoice_->setCurrentIndex(0);
    updateRuleChoice();
    showErrors();
    fitTablesToRows();
}

}  // namespace skynnet::ui
