#include "ui/widgets/study_page.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "ui/core/project_document.h"
#include "ui/core/run_history.h"
#include "ui/core/study_setup.h"
#include "ui/core/study_summary.h"
#include "ui/widgets/chart_util.h"

namespace skynnet::ui {
namespace {

// The epoch choices as the CLI's --scale-epochs lists them, in the combo box's order.
const QList<QStringList>& scaleChoices() {
    static const QList<QStringList> choices = {{QStringLiteral("default")},
                                               {QStringLiteral("on")},
                                               {QStringLiteral("off")},
                                               {QStringLiteral("on"), QStringLiteral("off")},
                                               {QStringLiteral("sqrt")},
                                               {QStringLiteral("on"), QStringLiteral("sqrt"), QStringLiteral("off")}};
    return choices;
}

}  // namespace

StudyPage::StudyPage(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), session_(new StudySession(document, this)) {
    auto* upper = new QWidget;
    auto* top = new QHBoxLayout(upper);
    top->addWidget(makeSetupBox(), 0);
    top->addWidget(makeResultsArea(), 1);
    table_ = new QTableWidget;
    table_->setObjectName(QStringLiteral("studyTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->setMinimumHeight(120);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(upper);
    splitter->addWidget(table_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(startButton_, &QPushButton::clicked, this, [this] { start(); });
    connect(stopButton_, &QPushButton::clicked, this, &StudyPage::stop);
    connect(machines_, &QSpinBox::valueChanged, this, &StudyPage::refreshResults);
    connect(session_, &StudySession::changed, this, &StudyPage::onSessionChanged);
    connect(session_, &StudySession::loaded, this, &StudyPage::showChoice);
    connect(session_, &StudySession::runningChanged, this, [this](bool running) {
        if (running) remainingTimer_.start();
        else remainingTimer_.stop();
        emit runningChanged(running);
        emit progressChanged();
    });
    connect(session_, &StudySession::runProgressChanged, this, &StudyPage::refreshRunProgress);
    for (auto signal :
         {&ProjectDocument::dataChanged, &ProjectDocument::networkChanged, &ProjectDocument::splitOptionsChanged})
        connect(document_, signal, this, &StudyPage::refreshOutOfDate);
    for (auto signal :
         {&ProjectDocument::dataChanged, &ProjectDocument::networkChanged, &ProjectDocument::trainSettingsChanged})
        connect(document_, signal, this, &StudyPage::inputsChanged);
    connect(document_, &ProjectDocument::splitOptionsChanged, this, &StudyPage::scheduleEstimate);
    for (QLineEdit* edit : {submodels_, seeds_, strategies_})
        connect(edit, &QLineEdit::textChanged, this, &StudyPage::scheduleEstimate);
    connect(scaleEpochs_, &QComboBox::currentIndexChanged, this, &StudyPage::scheduleEstimate);
    connect(ensemble_, &QCheckBox::toggled, this, &StudyPage::scheduleEstimate);
    estimateTimer_.setSingleShot(true);
    estimateTimer_.setInterval(250);
    connect(&estimateTimer_, &QTimer::timeout, this, &StudyPage::refreshEstimate);
    remainingTimer_.setInterval(1000);
    connect(&remainingTimer_, &QTimer::timeout, this, &StudyPage::updateRemaining);

    // The session read the document's study before these connections.
    if (session_->hasStudy()) showChoice(session_->record().choice);
    onSessionChanged();
    refreshEstimate();
}

// The choices, Start and Stop, and the study's progress.
QGroupBox* StudyPage::makeSetupBox() {
    submodels_ = new QLineEdit(listText(StudyChoice{}.submodels));
    submodels_->setObjectName(QStringLiteral("studySubmodels"));
    submodels_->setToolTip(
        tr("The numbers of submodels N to compare, e.g. 1,3,6; N=1, the original model, always runs"));
    seeds_ = new QLineEdit(listText(StudyChoice{}.seeds));
    seeds_->setObjectName(QStringLiteral("studySeeds"));
    seeds_->setToolTip(
        tr("Every configuration runs once per seed (as the data split's, the split's and the batch order's seed)"));
    strategies_ = new QLineEdit(QStringLiteral("auto"));
    strategies_->setObjectName(QStringLiteral("studyStrategies"));
    strategies_->setToolTip(tr("auto (the project's strategy), or a list such as class-groups,data-shards"));
    scaleEpochs_ = new QComboBox;
    scaleEpochs_->setObjectName(QStringLiteral("studyScaleEpochs"));
    scaleEpochs_->addItems({tr("as the project"), tr("scaled by F"), tr("not scaled"), tr("by F and not scaled"),
                            tr("scaled by √F"), tr("by F, by √F and not scaled")});
    ensemble_ = new QCheckBox(tr("Also the plain ensemble of each N"));
    ensemble_->setChecked(true);
    ensemble_->setToolTip(
        tr("N thin networks on all the data with the split's parameters in all: the fair alternative"));
    machines_ = new QSpinBox;
    machines_->setObjectName(QStringLiteral("studyMachines"));
    machines_->setRange(1, 1024);
    machines_->setToolTip(tr("The recommendation on K machines: each run's submodels scheduled on them longest first"));

    auto* form = new QFormLayout;
    form->addRow(tr("N list:"), submodels_);
    form->addRow(tr("Seeds:"), seeds_);
    form->addRow(tr("Strategies:"), strategies_);
    form->addRow(tr("Epochs:"), scaleEpochs_);
    form->addRow(QString(), ensemble_);
    form->addRow(tr("Machines K:"), machines_);

    startButton_ = new QPushButton(tr("Start"));
    startButton_->setObjectName(QStringLiteral("studyStart"));
    stopButton_ = new QPushButton(tr("Stop"));
    stopButton_->setObjectName(QStringLiteral("studyStop"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(startButton_);
    buttons->addWidget(stopButton_);
    buttons->addStretch();

    estimate_ = new QLabel;
    estimate_->setObjectName(QStringLiteral("studyEstimate"));
    estimate_->setWordWrap(true);
    estimate_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* setup = new QGroupBox(tr("Split study"));
    auto* setupLayout = new QVBoxLayout(setup);
    auto* intro = new QLabel(tr("What the split costs and gains on this project, over seeds: every run trains the "
                                "project with one N and one seed."));
    intro->setWordWrap(true);
    setupLayout->addWidget(intro);
    setupLayout->addLayout(form);
    setupLayout->addWidget(estimate_);
    setupLayout->addLayout(buttons);
    addProgressWidgets(setupLayout);
    setupLayout->addStretch();
    return setup;
}

void StudyPage::addProgressWidgets(QVBoxLayout* layout) {
    progress_ = new QProgressBar;
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(tr("no study yet"));  // refreshState() counts the runs once there is a study
    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("studyStatus"));
    status_->setWordWrap(true);
    remaining_ = new QLabel;
    remaining_->setObjectName(QStringLiteral("studyRemaining"));
    runProgress_ = new QLabel;
    runProgress_->setObjectName(QStringLiteral("studyRunProgress"));
    runProgress_->setWordWrap(true);
    error_ = new QLabel;
    error_->setObjectName(QStringLiteral("studyError"));
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setStyleSheet(QStringLiteral("QLabel { color: #c62828; }"));
    error_->hide();
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addWidget(runProgress_);
    layout->addWidget(remaining_);
    layout->addWidget(error_);
}

// The out-of-date note, the chart and the recommendation.
QWidget* StudyPage::makeResultsArea() {
    outOfDate_ = new QLabel;
    outOfDate_->setObjectName(QStringLiteral("studyOutOfDate"));
    outOfDate_->setWordWrap(true);
    outOfDate_->setStyleSheet(QStringLiteral("QLabel { background: #fff4d6; color: #6b4a00; border: 1px solid #e0c070;"
                                             " border-radius: 4px; padding: 4px; }"));
    outOfDate_->hide();
    recommendation_ = new QLabel;
    recommendation_->setObjectName(QStringLiteral("studyRecommendation"));
    recommendation_->setWordWrap(true);
    recommendation_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    chart_ = makeChartView(tr("Test metric against time"));
    chart_->setMinimumSize(280, 220);
    xAxis_ = new QValueAxis;
    yAxis_ = new QValueAxis;
    xAxis_->setTitleText(tr("wall time (s)"));
    // Significant digits, not Qt's fixed two decimals ("0.50", "12.00" on a seconds axis).
    xAxis_->setLabelFormat(QStringLiteral("%.4g"));
    yAxis_->setLabelFormat(QStringLiteral("%.4g"));
    chart_->chart()->addAxis(xAxis_, Qt::AlignBottom);
    chart_->chart()->addAxis(yAxis_, Qt::AlignLeft);

    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(outOfDate_);
    rightLayout->addWidget(chart_, 1);
    rightLayout->addWidget(recommendation_);
    return right;
}

void StudyPage::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) refreshChart();
}

void StudyPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    scheduleEstimate();
}

std::optional<StudyChoice> StudyPage::parseChoice(QString* error) const {
    StudyChoice c;
    try {
        c.submodels = parseSubmodelList(submodels_->text());
        c.seeds = parseSeedList(seeds_->text());
        c.strategies.clear();
        for (const QString& s : strategies_->text().split(QLatin1Char(','))) c.strategies << s.trimmed();
        if (c.strategies.contains(QString()))
            throw Error(
                tr("Strategies: expects a comma-separated list, got '%1'").arg(strategies_->text()).toStdString());
    } catch (const Error& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return std::nullopt;
    }
    c.scaleEpochs = scaleChoices().value(scaleEpochs_->currentIndex(), scaleChoices().front());
    c.ensemble = ensemble_->isChecked();
    return c;
}

std::optional<StudyChoice> StudyPage::readChoice() {
    QString error;
    std::optional<StudyChoice> c = parseChoice(&error);
    if (!c) showError(error);
    return c;
}

void StudyPage::showChoice(const StudyChoice& c) {
    submodels_->setText(listText(c.submodels));
    seeds_->setText(listText(c.seeds));
    strategies_->setText(c.strategies.join(QLatin1Char(',')));
    scaleEpochs_->setCurrentIndex(std::max(0, int(scaleChoices().indexOf(c.scaleEpochs))));
    ensemble_->setChecked(c.ensemble);
}

void StudyPage::showError(const QString& message) {
    error_->setText(message);
    error_->setVisible(!message.isEmpty());
}

bool StudyPage::start() {
    if (running()) return false;
    showError(QString());
    if (const QString reason = session_->unavailableReason(); !reason.isEmpty()) {
        showError(reason);
        return false;
    }
    const std::optional<StudyChoice> choice = readChoice();
    if (!choice) return false;
    rememberStartEstimate(*choice);
    return session_->start(*choice);  // its changes reach the page through onSessionChanged
}

void StudyPage::onSessionChanged() {
    status_->setText(session_->status());
    showError(session_->error());
    refreshState();
    refreshResults();
}

void StudyPage::refreshState() {
    const bool busy = running();
    startButton_->setEnabled(!busy);
    stopButton_->setEnabled(busy);
    for (QWidget* w : std::initializer_list<QWidget*>{submodels_, seeds_, strategies_, scaleEpochs_, ensemble_})
        w->setEnabled(!busy);
    refreshRunProgress();
    refreshOutOfDate();
    emit progressChanged();
}

void StudyPage::refreshOutOfDate() {
    const std::optional<ProjectStudy>& study = document_->study();
    const QStringList parts = study && hasStudy() ? studyOutOfDateParts(*study, *document_) : QStringList();
    outOfDate_->setText(parts.isEmpty() ? QString()
                                        : outOfDateText(parts).replace(tr("this run"), tr("this study")) +
                                              tr(" Start runs a new study."));
    outOfDate_->setVisible(!parts.isEmpty());
}

void StudyPage::refreshResults() {
    refreshChart();
    refreshTable();
    recommendation_->setText(hasStudy() && record().summary.is_object()
                                 ? recommendationText(recommendStudy(record(), machines_->value()))
                                 : QString());
}

void StudyPage::refreshTable() {
    const std::vector<QStringList> rows = hasStudy() ? studyTableRows(record(), machines_->value())
                                                     : std::vector<QStringList>{};
    table_->clear();
    table_->setRowCount(rows.empty() ? 0 : int(rows.size()) - 1);
    table_->setColumnCount(rows.empty() ? 0 : int(rows.front().size()));
    if (rows.empty()) return;
    table_->setHorizontalHeaderLabels(rows.front());
    for (std::size_t r = 1; r < rows.size(); ++r)
        for (int c = 0; c < rows[r].size(); ++c) {
            auto* item = new QTableWidgetItem(rows[r][c]);
            item->setTextAlignment(c == 0 || c == 3 ? Qt::AlignLeft | Qt::AlignVCenter
                                                    : Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(int(r) - 1, c, item);
        }
    table_->resizeColumnsToContents();
}

void StudyPage::refreshChart() {
    QChart* chart = chart_->chart();
    chart->removeAllSeries();
    QValueAxis* x = xAxis_;
    QValueAxis* y = yAxis_;
    const std::vector<StudyPoint> points = hasStudy() ? studyPoints(record()) : std::vector<StudyPoint>{};
    if (points.empty()) {
        chart->setTitle(tr("Test metric against time — no finished runs yet"));
        y->setTitleText(QString());
        x->setRange(0, 1);
        y->setRange(0, 1);
        styleChart(chart);
        return;
    }
    const QString metric = QString::fromStdString(record().summary.value("metric_name", std::string("metric")));
    chart->setTitle(tr("Test %1 against mean wall time (± one standard deviation)").arg(metric));
    y->setTitleText(metric);
    double x0 = points.front().seconds, x1 = x0, y0 = points.front().metric, y1 = y0;
    const auto attach = [&](QXYSeries* s) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    };
    const auto hideFromLegend = [&](QAbstractSeries* s) {
        for (QLegendMarker* m : chart->legend()->markers(s)) m->setVisible(false);
    };
    int colour = 0;
    for (const StudyPoint& p : points) {
        const QColor c = p.original ? submodelColor(-1) : submodelColor(colour++);
        auto* bars = new QLineSeries;  // the error bars: one standard deviation each way, both axes
        bars->setPen(QPen(c, 1.5));
        bars->append(p.seconds - p.secondsStdDev, p.metric);
        bars->append(p.seconds + p.secondsStdDev, p.metric);
        attach(bars);
        hideFromLegend(bars);
        auto* vertical = new QLineSeries;
        vertical->setPen(QPen(c, 1.5));
        vertical->append(p.seconds, p.metric - p.metricStdDev);
        vertical->append(p.seconds, p.metric + p.metricStdDev);
        attach(vertical);
        hideFromLegend(vertical);
        auto* point = new QScatterSeries;
        point->setName(p.original ? tr("%1 (the original)").arg(p.config) : p.config);
        point->setColor(c);
        point->setBorderColor(c);
        point->setMarkerShape(p.original ? QScatterSeries::MarkerShapeRectangle : QScatterSeries::MarkerShapeCircle);
        point->setMarkerSize(p.original ? 14 : 10);
        point->append(p.seconds, p.metric);
        attach(point);
        x0 = std::min(x0, p.seconds - p.secondsStdDev);
        x1 = std::max(x1, p.seconds + p.secondsStdDev);
        y0 = std::min(y0, p.metric - p.metricStdDev);
        y1 = std::max(y1, p.metric + p.metricStdDev);
    }
    // The original's seed noise: what the recommendation counts as within it.
    const StudyRecommendation r = recommendStudy(record(), machines_->value());
    if (r.threshold) {
        auto* line = new QLineSeries;
        line->setName(tr("original − 1 sd"));
        QPen pen(submodelColor(-1), 1, Qt::DashLine);
        line->setPen(pen);
        const double pad = std::max((x1 - x0) * 0.1, 1e-3);
        line->append(std::max(0.0, x0 - pad), *r.threshold);
        line->append(x1 + pad, *r.threshold);
        attach(line);
        y0 = std::min(y0, *r.threshold);
    }
    const double xPad = std::max((x1 - x0) * 0.08, 1e-3), yPad = std::max((y1 - y0) * 0.08, 1e-4);
    setNiceRange(x, std::max(0.0, x0 - xPad), x1 + xPad, labelRoom(chart_, Qt::Horizontal));
    // Accuracy and R² never exceed 1: a standard deviation above it is cut at the top, not drawn
    // on an axis that reads 1.02.
    setNiceRange(y, y0 - yPad, y0 < 1 ? std::min(y1 + yPad, 1.0) : y1 + yPad, labelRoom(chart_, Qt::Vertical),
                 Qt::Vertical);
    styleChart(chart);
}

}  // namespace skynnet::ui
