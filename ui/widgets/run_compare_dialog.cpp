#include "ui/widgets/run_compare_dialog.h"

#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QFont>
#include <QHeaderView>
#include <QLineSeries>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "ui/core/run_history.h"
#include "ui/widgets/chart_util.h"

namespace skynnet::ui {
namespace {

// The runs' figures a row each, a run a column; what differs between them in bold.
QTableWidget* makeFiguresTable(const ProjectRun& first, const QString& firstName, const ProjectRun& second,
                               const QString& secondName) {
    const std::vector<RunComparisonRow> rows = compareRuns(first, second);
    auto* table = new QTableWidget(int(rows.size()), 2);
    table->setObjectName(QStringLiteral("runComparison"));
    table->setHorizontalHeaderLabels({firstName, secondName});
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int i = 0; i < int(rows.size()); ++i) {
        const RunComparisonRow& r = rows[std::size_t(i)];
        table->setVerticalHeaderItem(i, new QTableWidgetItem(r.label));
        table->setItem(i, 0, new QTableWidgetItem(r.first));
        table->setItem(i, 1, new QTableWidgetItem(r.second));
        if (r.first != r.second)  // what differs stands out
            for (int c = 0; c < 2; ++c) {
                QFont bold = table->item(i, c)->font();
                bold.setBold(true);
                table->item(i, c)->setFont(bold);
            }
    }
    return table;
}

// What the curves span: the last epoch and the finite losses' range (lo > hi when there are none).
struct CurveExtent {
    double maxEpoch = 1, lo = 1e300, hi = -1e300;
};

// Each run's loss curves on the chart: the first run solid, the second dashed.
CurveExtent addLossCurves(QChart* chart, const ProjectRun& first, const QString& firstName, const ProjectRun& second,
                          const QString& secondName) {
    CurveExtent extent;
    int runNumber = 0;
    for (const auto& [run, name] : {std::pair{&first, firstName}, std::pair{&second, secondName}}) {
        for (const RunCurve& c : runLossCurves(*run, name)) {
            auto* s = new QLineSeries;
            s->setName(c.name);
            for (const QPointF& p : c.points) {
                s->append(p);
                extent.maxEpoch = std::max(extent.maxEpoch, p.x());
                if (std::isfinite(p.y())) {
                    extent.lo = std::min(extent.lo, p.y());
                    extent.hi = std::max(extent.hi, p.y());
                }
            }
            QPen pen(c.baseline ? submodelColor(-1) : submodelColor(runNumber == 0 ? 0 : 1), 2,
                     runNumber == 0 ? Qt::SolidLine : Qt::DashLine);
            s->setPen(pen);
            s->setPointsVisible(c.points.size() < 2);  // a one-point line is invisible otherwise
            chart->addSeries(s);
        }
        ++runNumber;
    }
    return extent;
}

}  // namespace

RunCompareDialog::RunCompareDialog(const ProjectRun& first, const QString& firstName, const ProjectRun& second,
                                   const QString& secondName, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Compare Runs"));
    table_ = makeFiguresTable(first, firstName, second, secondName);
    QWidget* curvesPane = buildCurves(first, firstName, second, secondName);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table_);
    split->addWidget(curvesPane);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({600, 400});
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    resize(1000, 560);
}

QWidget* RunCompareDialog::buildCurves(const ProjectRun& first, const QString& firstName, const ProjectRun& second,
                                       const QString& secondName) {
    curves_ = makeChartView(tr("Training loss per epoch"));
    QChart* chart = curves_->chart();
    auto* x = new QValueAxis;
    auto* y = new QValueAxis;
    x->setTitleText(tr("epoch"));
    y->setTitleText(tr("training loss"));
    x->setLabelFormat(QStringLiteral("%d"));
    const CurveExtent extent = addLossCurves(chart, first, firstName, second, secondName);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    x->setRange(1, std::max(2.0, extent.maxEpoch));
    // Whole epochs only: at most about eight ticks, one epoch apart or a round multiple.
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(1);
    x->setTickInterval(std::max(1.0, std::ceil((extent.maxEpoch - 1) / 8)));
    if (extent.lo <= extent.hi) setNiceRange(y, std::min(0.0, extent.lo), extent.hi);

    // Four names such as "Run 12 submodels (mean)" do not fit in one row under half the dialog:
    // the chart's own legend cut them to "Run 1 su…". A legend of its own, a run a row, keeps them
    // whole and shows which line is dashed.
    chart->legend()->hide();
    legend_ = makeLineLegend(chart, 2);
    auto* curvesPane = new QWidget;
    auto* curvesLayout = new QVBoxLayout(curvesPane);
    curvesLayout->setContentsMargins(0, 0, 0, 0);
    curvesLayout->addWidget(curves_, 1);
    curvesLayout->addWidget(legend_);
    return curvesPane;
}

}  // namespace skynnet::ui
