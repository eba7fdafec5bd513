// The Results page's Errors box: how the combined model (or the baseline) errs, as a confusion
// matrix and per-class precision/recall for classes, or predicted against true for regression
// and reconstruction (for images, the reconstructions themselves: results_page_reconstruction.cpp).
#include <QChart>
#include <QComboBox>
#include <QGroupBox>
#include <QHeaderView>
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
#include "ui/core/training_session.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/class_metrics_model.h"
#include "ui/widgets/confusion_matrix_widget.h"
#include "ui/widgets/results_page.h"
#include "ui/widgets/table_columns.h"

namespace skynnet::ui {
namespace {

// At most this many points in the regression scatter: enough to see the spread, still quick.
constexpr Index maxScatterPoints = 4000;

QStringList classNamesOf(const TrainingSession* session) {
    QStringList names;
    if (const ProjectDocument* doc = session->document())
        if (const auto data = doc->dataset())
            for (const std::string& n : data->classNames) names << QString::fromStdString(n);
    return names;
}

}  // namespace

QGroupBox* ResultsPage::buildErrors() {
    modelChoice_ = new QComboBox;
    modelChoice_->addItem(tr("Combined model"));
    modelChoice_->addItem(tr("Baseline (original model)"));
    modelChoice_->setToolTip(tr("Whose errors to show below"));
    connect(modelChoice_, &QComboBox::currentIndexChanged, this, &ResultsPage::showErrors);

    confusion_ = new ConfusionMatrixWidget;
    classModel_ = new ClassMetricsModel(this);
    classTable_ = new QTableView;
    classTable_->setModel(classModel_);
    classTable_->verticalHeader()->hide();
    classTable_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);  // as the comparison's
    fitColumnsToContents(classTable_);
    matrixScroll_ = new QScrollArea;
    matrixScroll_->setObjectName(QStringLiteral("confusionMatrixScroll"));
    matrixScroll_->setWidget(confusion_);
    matrixScroll_->setWidgetResizable(true);  // the matrix fills the area, and scrolls below its least size
    matrixScroll_->setFrameShape(QFrame::NoFrame);
    auto* classPane = new QSplitter(Qt::Vertical);
    classPane->addWidget(matrixScroll_);
    classPane->addWidget(classTable_);
    classPane->setStretchFactor(0, 1);  // the table as tall as its rows (fitTablesToRows), the matrix the rest
    classPane->setStretchFactor(1, 0);
    classPane->setChildrenCollapsible(false);
    classPane_ = classPane;

    scatterView_ = makeChartView(tr("Predicted against true (test set)"));
    // Refitted at every new size, and again once the chart is laid out at it (a resize comes
    // before the chart's new plot area, which the labels' room is measured on).
    scatterView_->installEventFilter(this);
    refitWhenLaidOut(scatterView_, [this] { fitScatterAxes(); });
    errorsStack_ = new QStackedWidget;
    errorsStack_->addWidget(classPane);
    errorsStack_->addWidget(scatterView_);
    errorsStack_->addWidget(buildReconstructions());
    // The box as narrow as the page on show allows: a stack's least size is its largest page's,
    // and the per-class table's columns held a regression's scatter at 300 pixels or more.
    connect(errorsStack_, &QStackedWidget::currentChanged, this, [this](int shown) {
        for (int i = 0; i < errorsStack_->count(); ++i)
            errorsStack_->widget(i)->setSizePolicy(i == shown ? QSizePolicy::Preferred : QSizePolicy::Ignored,
                                                   i == shown ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    });

    errorsBox_ = new QGroupBox(tr("Errors"));
    auto* errorsLayout = new QVBoxLayout(errorsBox_);
    errorsLayout->addWidget(modelChoice_);
    errorsLayout->addWidget(errorsStack_, 1);
    return errorsBox_;
}

void ResultsPage::showErrors() {
    const auto r = shownResults_;
    const auto plan = shownPlan_;
    if (!r || !plan || !hasResults_) return;
    const bool baseline = modelChoice_->currentIndex() == 1 && r->baseline;
    const Matrix& output = baseline ? r->baselineTestOutput : r->combinedTestOutput;
    if (output.rows() == 0 || output.rows() != r->testTargets.rows()) return;
    // An autoencoder of images shows its pictures, every model's at once: no model to choose.
    const bool pictures = showReconstructions();
    modelChoice_->setVisible(!pictures);
    errorsBox_->setTitle(pictures ? tr("Reconstructions") : tr("Errors"));
    if (pictures) {
        errorsStack_->setCurrentIndex(2);
        return;
    }

    if (!predictsValues(plan->task)) {
        errorsStack_->setCurrentIndex(0);
        QStringList names = classNamesOf(session_);
        const int classes = plan->task == Task::Binary ? 2 : int(output.cols());
        const ClassificationMetrics m = classificationMetrics(trueClasses(r->testTargets), predictedClasses(output),
                                                              classes);
        while (names.size() < classes) names << QString::number(names.size());
        confusion_->setMatrix(m.confusion, names);
        classModel_->setMetrics(m, names);
        reflow();  // more classes may need the whole width
        return;
    }

    errorsStack_->setCurrentIndex(1);
    QChart* chart = scatterView_->chart();
    scatterX_ = scatterY_ = nullptr;
    clearChart(chart);
    scatter_ = new QScatterSeries;
    scatter_->setName(baseline ? tr("baseline") : tr("combined"));
    scatter_->setMarkerSize(5);
    scatter_->setColor(submodelColor(baseline ? -1 : 0));
    scatter_->setBorderColor(Qt::transparent);
    // Regression's first target column; a reconstruction's every value, pooled.
    const bool pooled = plan->task == Task::Reconstruction;
    const Index values = pooled ? output.size() : output.rows(), step = std::max<Index>(1, values / maxScatterPoints);
    double lo = 1e300, hi = -1e300;
    QList<QPointF> points;
    for (Index i = 0; i < values; i += step) {
        const Index row = pooled ? i / output.cols() : i, column = pooled ? i % output.cols() : 0;
        const double t = r->testTargets(row, column), p = output(row, column);
        points.append(QPointF(t, p));
        lo = std::min({lo, t, p});
        hi = std::max({hi, t, p});
    }
    scatter_->append(points);
    diagonal_ = new QLineSeries;
    diagonal_->setName(tr("perfect"));
    diagonal_->append(lo, lo);
    diagonal_->append(hi, hi);
    diagonal_->setPen(QPen(Qt::gray, 1, Qt::DashLine));
    chart->addSeries(scatter_);
    chart->addSeries(diagonal_);
    auto* x = new QValueAxis;
    auto* y = new QValueAxis;
    x->setTitleText(pooled ? tr("true (every output value)") : tr("true (first target column)"));
    y->setTitleText(tr("predicted"));
    x->setLabelFormat(QStringLiteral("%.4g"));
    y->setLabelFormat(QStringLiteral("%.4g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    scatterX_ = x;
    scatterY_ = y;
    scatterLow_ = lo;
    scatterHigh_ = hi;
    fitScatterAxes();
}

void ResultsPage::fitScatterAxes() {
    if (!scatterX_ || !scatterY_) return;
    // Ticks at round values whose labels fit along x (where the room is less), the same on both axes.
    setNiceRange(scatterX_, scatterLow_, scatterHigh_, labelRoom(scatterView_, Qt::Horizontal));
    scatterY_->setRange(scatterX_->min(), scatterX_->max());
    scatterY_->setTickCount(scatterX_->tickCount());
}

bool ResultsPage::eventFilter(QObject* watched, QEvent* event) {
    // The labels' room changed with the chart's size: a step that fitted may no longer, or a finer one may.
    if (watched == scatterView_ && event->type() == QEvent::Resize) fitScatterAxes();
    return QWidget::eventFilter(watched, event);
}

}  // namespace skynnet::ui
