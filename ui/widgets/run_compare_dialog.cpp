#include "ui/widgets/run_compare_dialog.h"

#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLineSeries>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QFont>
#include <algorithm>
#include <cmath>

#include "ui/core/run_history.h"
#include "ui/widgets/chart_util.h"

namespace skynnet::ui {

RunCompareDialog::RunCompareDialog(const ProjectRun& first, const QString& firstName, const ProjectRun& second,
                                   const QString& secondName, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Compare Runs"));
    const std::vector<RunComparisonRow> rows = compareRuns(first, second);
    table_ = new QTableWidget(int(rows.size()), 2);
    table_->setObjectName(QStringLiteral("runComparison"));
    table_->setHorizontalHeaderLabels({firstName, secondName});
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int i = 0; i < int(rows.size()); ++i) {
        const RunComparisonRow& r = rows[std::size_t(i)];
        table_->setVerticalHeaderItem(i, new QTableWidgetItem(r.label));
        table_->setItem(i, 0, new QTableWidgetItem(r.first));
        table_->setItem(i, 1, new QTableWidgetItem(r.second));
        if (r.first != r.second)  // what differs stands out
            for (int c = 0; c < 2; ++c) {
                QFont bold = table_->item(i, c)->font();
                bold.setBold(true);
                table_->item(i, c)->setFont(bold);
            }
    }

    curves_ = makeChartView(tr("Training loss per epoch"));
    QChart* chart = curves_->chart();
    auto* x = new QValueAxis;
    auto* y = new QValueAxis;
    x->setTitleText(tr("epoch"));
    y->setTitleText(tr("training loss"));
    x->setLabelFormat(QStringLiteral("%d"));
    double maxEpoch = 1, lo = 1e300, hi = -1e300;
    int runNumber = 0;
    for (const auto& [run, name] : {std::pair{&first, firstName}, std::pair{&second, secondName}}) {
        for (const RunCurve& c : runLossCurves(*run, name)) {
            auto* s = new QLineSeries;
            s->setName(c.name);
            for (const QPointF& p : c.points) {
                s->append(p);
                maxEpoch = std::max(maxEpoch, p.x());
                if (std::isfinite(p.y())) {
                    lo = std::min(lo, p.y());
                    hi = std::max(hi, p.y());
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
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    x->setRange(1, std::max(2.0, maxEpoch));
    // Whole epochs only: at most about eight ticks, one epoch apart or a round multiple.
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(1);
    x->setTickInterval(std::max(1.0, std::ceil((maxEpoch - 1) / 8)));
    if (lo <= hi) setNiceRange(y, std::min(0.0, lo), hi);

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

}  // namespace skynnet::ui
