#include "ui/widgets/chart_util.h"

#include <QApplication>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QValueAxis>
#include <QXYSeries>
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "ui/widgets/palette_colours.h"

namespace skynnet::ui {

QColor submodelColor(int submodel) {
    if (submodel < 0) return darkPalette() ? QColor(200, 200, 200) : QColor(60, 60, 60);
    // Tableau 10: distinct and readable on white, repeated beyond ten submodels.
    static const QColor palette[] = {{31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
                                     {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    return palette[submodel % 10];
}

QString submodelName(int submodel) {
    return submodel < 0 ? QStringLiteral("baseline") : QStringLiteral("submodel %1").arg(submodel + 1);
}

namespace {

// The tick labels Qt Charts draws for a range and step, in the axis' printf-style label format.
QString tickLabel(const QValueAxis* axis, double value) {
    const QByteArray format = axis->labelFormat().toLatin1();
    if (format.isEmpty()) return QString::number(value);
    if (format.contains('d') || format.contains('i'))
        return QString::asprintf(format.constData(), qint64(std::llround(value)));
    return QString::asprintf(format.constData(), value);
}

// Whether every label of ticks from..to by step fits the share of `room` Qt Charts gives it.
bool labelsFit(const QValueAxis* axis, double from, double to, double step, double room, Qt::Orientation along) {
    const int ticks = int(std::lround((to - from) / step)) + 1;
    // Qt Charts: room / ticks less 4 pixels padding each side, for the text and half a pixel of
    // margin each side; one pixel more for rounding.
    const double share = room / ticks - 2 * 4.0 - 2;
    const QFontMetricsF metrics(axis->labelsFont());
    if (along == Qt::Vertical) {
        // One line whatever the digits. `room` is the plot's height: Qt Charts hides a label nearer
        // the one below than its height and cuts one taller than its share of the axis (the plot
        // and the time axis under it, some 60 pixels more). Measured on an empty 250 x 180 chart:
        // ticks 18 pixels apart read, 16 apart lost labels; a fifth of a line between them reads well.
        const double lineHeight = metrics.height();
        const double apart = room / std::max(1, ticks - 1);
        return apart >= 1.2 * lineHeight + 2 && (room + 60) / ticks - 2 * 4.0 - 2 >= lineHeight + 1;
    }
    for (int i = 0; i < ticks; ++i) {
        const double v = from + i * step;
        if (metrics.horizontalAdvance(tickLabel(axis, std::abs(v) < step * 1e-9 ? 0.0 : v)) + 1.0 > share) return false;
    }
    return true;
}

}  // namespace

void setNiceRange(QValueAxis* axis, double lo, double hi, double labelRoom, Qt::Orientation along) {
    if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::abs(lo) * 0.1);
    const double raw = (hi - lo) / 5;
    double power = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * power;
    for (double m : {1.0, 2.0, 2.5, 5.0})
        if (m * power >= raw) {
            step = m * power;
            break;
        }
    const auto from = [&] { return std::floor(lo / step + 1e-9) * step; };
    const auto to = [&] { return std::ceil(hi / step - 1e-9) * step; };
    // The next round step (1, 2, 2.5, 5, 10, ...) until the labels fit; two ticks, the range's ends,
    // at the most. 2.5 is tried too: its labels are longer along x (labelsFit says whether they
    // fit), and on an empty 0..1 chart it is the difference between five ticks and three.
    for (int tries = 0; labelRoom > 0 && tries < 16 && std::lround((to() - from()) / step) > 1 &&
                        !labelsFit(axis, from(), to(), step, labelRoom, along);
         ++tries) {
        const double m = step / power;
        if (m < 1.5) step = 2 * power;
        else if (m < 2.2) step = 2.5 * power;
        else if (m < 4) step = 5 * power;
        else {
            power *= 10;
            step = power;
        }
    }
    axis->setRange(from(), to());
    axis->setTickCount(int(std::lround((to() - from()) / step)) + 1);
}

double labelRoom(const QChartView* view, Qt::Orientation along) {
    // The plot area's width along x (less than the chart's width Qt Charts shares out, so labels
    // that fit it are never cut), its height along y (see labelsFit). The plot area is of the last
    // layout, larger than it will be while the view shrinks: the smaller of it and an estimate from
    // the view's size (title and time axis take some 90 pixels of the height).
    const QRectF plot = view->chart()->plotArea();
    const bool x = along == Qt::Horizontal;
    const double estimate = x ? view->width() - 70 : view->height() - 90;
    const double laidOut = x ? plot.width() : plot.height();
    return std::max(30.0, plot.isEmpty() ? estimate : std::min(laidOut, estimate));
}

void refitWhenLaidOut(QChartView* view, std::function<void()> refit) {
    auto lastSize = std::make_shared<QSize>();
    QObject::connect(
        view->chart(), &QChart::plotAreaChanged, view,
        [view, lastSize, refit = std::move(refit)] {
            if (view->size() == *lastSize) return;
            *lastSize = view->size();
            refit();
        },
        Qt::QueuedConnection);
}

namespace {

// A little smaller than the text around the chart, so names stay whole under narrow charts.
void setLegendFont(QChart* chart) {
    QFont small = QApplication::font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    chart->legend()->setFont(small);
}

}  // namespace

void styleChart(QChart* chart) {
    const QChart::ChartTheme theme = darkPalette() ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart->theme() == theme) return;
    // A theme recolours every series; the colours set on purpose are put back.
    std::vector<std::function<void()>> restore;
    for (QAbstractSeries* series : chart->series()) {
        if (auto* xy = qobject_cast<QXYSeries*>(series)) {
            restore.push_back([xy, pen = xy->pen(), brush = xy->brush()] {
                xy->setPen(pen);
                xy->setBrush(brush);
            });
        } else if (auto* area = qobject_cast<QAreaSeries*>(series)) {
            restore.push_back([area, pen = area->pen(), brush = area->brush()] {
                area->setPen(pen);
                area->setBrush(brush);
            });
        } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
            for (QBarSet* set : bars->barSets())
                restore.push_back([set, pen = set->pen(), brush = set->brush()] {
                    set->setPen(pen);
                    set->setBrush(brush);
                });
        }
    }
    chart->setTheme(theme);
    for (const auto& r : restore) r();
    setLegendFont(chart);  // the theme set its own
}

QString legendHtml(const QChart* chart) {
    QStringList entries;
    for (const QAbstractSeries* series : chart->series()) {
        const auto* xy = qobject_cast<const QXYSeries*>(series);
        if (!xy || series->name().isEmpty()) continue;
        entries << QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
                       .arg(xy->color().name(), series->name().toHtmlEscaped());
    }
    return entries.join(QStringLiteral(" &nbsp; "));
}

QWidget* makeLineLegend(const QChart* chart, int columns, QWidget* parent) {
    auto* legend = new QWidget(parent);
    legend->setObjectName(QStringLiteral("lineLegend"));
    auto* grid = new QGridLayout(legend);
    grid->setContentsMargins(4, 0, 4, 0);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(2);
    const qreal ratio = legend->devicePixelRatioF();
    const int lineHeight = legend->fontMetrics().height();
    int entry = 0;
    for (const QAbstractSeries* series : chart->series()) {
        const auto* xy = qobject_cast<const QXYSeries*>(series);
        if (!xy || series->name().isEmpty()) continue;
        // Long enough to show two dashes of a dashed pen.
        QPixmap sample(QSize(lineHeight * 2, lineHeight) * ratio);
        sample.setDevicePixelRatio(ratio);
        sample.fill(Qt::transparent);
        QPainter p(&sample);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(xy->pen());
        p.drawLine(QPointF(1, lineHeight / 2.0), QPointF(lineHeight * 2 - 1, lineHeight / 2.0));
        p.end();
        auto* swatch = new QLabel;
        swatch->setPixmap(sample);
        auto* name = new QLabel(series->name());
        name->setObjectName(QStringLiteral("lineLegendName"));
        const int row = entry / columns, column = 2 * (entry % columns);
        grid->addWidget(swatch, row, column);
        grid->addWidget(name, row, column + 1);
        ++entry;
    }
    for (int c = 0; c < columns; ++c) grid->setColumnStretch(2 * c + 1, 1);
    return legend;
}

void restyleAllCharts() {
    for (QWidget* w : QApplication::allWidgets())
        if (auto* view = qobject_cast<QChartView*>(w)) styleChart(view->chart());
}

void clearChart(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

void setUpChartView(QChartView* view, const QString& title, QSize minimum) {
    auto* chart = new QChart;
    styleChart(chart);  // before the rest: a theme sets fonts and margins of its own
    chart->setTitle(title);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    setLegendFont(chart);
    chart->legend()->setShowToolTips(true);           // the whole name of an entry that is still cut
    chart->setAnimationOptions(QChart::NoAnimation);  // live data: animations lag behind
    // A QChartView starts with a chart of its own, which setChart only releases: without the
    // delete every chart view leaked one (LeakSanitizer).
    QChart* initial = view->chart();
    view->setChart(chart);
    delete initial;
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(minimum);
}

QChartView* makeChartView(const QString& title, QWidget* parent) {
    auto* view = new QChartView(parent);
    setUpChartView(view, title, QSize(240, 180));
    return view;
}

BarChart::BarChart(const QString& title, QWidget* parent) : QChartView(parent), title_(title) {
    setUpChartView(this, title, QSize(240, 180));
    refitWhenLaidOut(this, [this] { fitValueAxis(); });
}

void BarChart::setTitle(const QString& title) {
    title_ = title;
    chart()->setTitle(title);
}

void BarChart::fitValueAxis() {
    const Qt::Orientation along = horizontal_ ? Qt::Horizontal : Qt::Vertical;
    if (valueAxis_) setNiceRange(valueAxis_, valueLow_, valueHigh_, labelRoom(this, along), along);
}

void BarChart::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    fitValueAxis();  // the labels' room changed with the size
}

void BarChart::setPlaceholder(const QString& text) {
    valueAxis_ = nullptr;
    clearChart(chart());
    chart()->setTitle(title_ + QStringLiteral(" — ") + text);
    bars_ = 0;
}

void BarChart::setData(const QStringList& categoriesIn, const std::vector<Set>& setsIn, const QString& valueTitle) {
    if (categoriesIn.isEmpty() || setsIn.empty()) {
        setPlaceholder(tr("no data"));
        return;
    }
    // Horizontal bars are drawn bottom-up: reversed, the first category reads at the top.
    QStringList categories = categoriesIn;
    std::vector<Set> sets = setsIn;
    if (horizontal_) {
        std::reverse(categories.begin(), categories.end());
        for (Set& s : sets) std::reverse(s.values.begin(), s.values.end());
    }
    QChart* c = chart();
    valueAxis_ = nullptr;
    clearChart(c);
    c->setTitle(title_);
    QAbstractBarSeries* series = horizontal_ ? static_cast<QAbstractBarSeries*>(new QHorizontalBarSeries)
                                             : new QBarSeries;
    double top = 0, bottom = 0;
    bars_ = 0;
    for (const Set& s : sets) {
        auto* set = new QBarSet(s.name);
        for (double v : s.values) {
            *set << v;
            top = std::max(top, v);
            bottom = std::min(bottom, v);
            ++bars_;
        }
        if (s.color.isValid()) {
            set->setColor(s.color);
            set->setBorderColor(s.color);  // the dark theme's light border made thin bars look white
        }
        series->append(set);
    }
    c->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    QFont small = x->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.8);  // category names stay whole on narrow charts
    x->setLabelsFont(small);
    auto* y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%.6g"));
    valueAxis_ = nullptr;
    if (upperBound_ > 0 && top <= upperBound_ && top > upperBound_ / 2) {
        y->setRange(bottom, upperBound_);
        y->setTickCount(6);
    } else {
        valueAxis_ = y;
        valueLow_ = bottom;
        valueHigh_ = top > 0 ? top : 1;  // the axis ends at the first round tick at or above the longest bar
        fitValueAxis();
    }
    if (!valueTitle.isEmpty()) y->setTitleText(valueTitle);
    c->addAxis(x, horizontal_ ? Qt::AlignLeft : Qt::AlignBottom);
    c->addAxis(y, horizontal_ ? Qt::AlignBottom : Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    c->legend()->setVisible(sets.size() > 1);
}

}  // namespace skynnet::ui
