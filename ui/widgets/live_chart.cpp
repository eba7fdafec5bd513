#include "ui/widgets/live_chart.h"

#include <QAreaSeries>
#include <QBrush>
#include <QChart>
#include <QEvent>
#include <QFont>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "ui/widgets/chart_util.h"

namespace skynnet::ui {
namespace {

// A line of one point draws nothing: its marker shows it until a second point makes a segment
// (the validation metric after the first epoch, a line's first point after a pause).
void showPointsIfAlone(QLineSeries* s) { s->setPointsVisible(s->count() < 2); }

void hideFromLegend(QChart* chart, QAbstractSeries* s) {
    for (QLegendMarker* m : chart->legend()->markers(s)) m->setVisible(false);
}

}  // namespace

LiveChart::LiveChart(const QString& title, const QString& xTitle, const QString& yTitle, QWidget* parent)
    : QChartView(parent) {
    setUpChartView(this, title, QSize(220, 170));  // four fit beside the settings on a 1024 x 680 screen
    QChart* c = chart();

    x_ = new QValueAxis(this);
    x_->setTitleText(xTitle);
    x_->setLabelFormat(QStringLiteral("%.4g"));
    yLinear_ = new QValueAxis(this);
    yLinear_->setTitleText(yTitle);
    yLinear_->setLabelFormat(QStringLiteral("%.4g"));
    yLog_ = new QLogValueAxis(this);
    yLog_->setTitleText(yTitle + tr(" (log)"));
    yLog_->setLabelFormat(QStringLiteral("%.3g"));
    yLog_->setMinorTickCount(-1);
    c->addAxis(x_, Qt::AlignBottom);
    c->addAxis(yLinear_, Qt::AlignLeft);
    refitWhenLaidOut(this, [this] { fitAxesOrDefer(); });
    fitAxes();
    figures_ = new QGraphicsSimpleTextItem(c);
    figures_->setZValue(10);
    figures_->hide();
    connect(c, &QChart::plotAreaChanged, this, [this] { placeFigures(); });
}

void LiveChart::setFigures(const QString& text) {
    figuresText_ = text;
    const bool lines = text.isEmpty();
    for (QAbstractSeries* s : chart()->series()) s->setVisible(lines);
    x_->setVisible(lines);
    yAxis()->setVisible(lines);
    figures_->setText(text);
    figures_->setVisible(!lines);
    placeFigures();
}

void LiveChart::placeFigures() {
    if (figuresText_.isEmpty()) return;
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 1.15);
    figures_->setFont(font);
    figures_->setBrush(chart()->titleBrush());  // the theme's text colour (styleChart)
    const QRectF area = chart()->plotArea();
    const QRectF box = figures_->boundingRect();
    figures_->setPos(area.center().x() - box.width() / 2, area.center().y() - box.height() / 2);
}

void LiveChart::changeEvent(QEvent* event) {
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) placeFigures();
}

QAbstractAxis* LiveChart::yAxis() const { return log_ ? static_cast<QAbstractAxis*>(yLog_) : yLinear_; }

QLineSeries* LiveChart::addSegment(int id, const QString& name, const QPen& pen) {
    auto* s = new QLineSeries;
    s->setName(name);
    s->setPen(pen);
    chart()->addSeries(s);
    s->attachAxis(x_);
    s->attachAxis(yAxis());
    Line& line = lines_[id];
    // A line's later segments are the same line: one legend entry, the first segment's.
    if (!line.segments.empty()) hideFromLegend(chart(), s);
    line.segments.push_back(s);
    showPointsIfAlone(s);
    return s;
}

void LiveChart::reset(int submodels, bool withBaseline) {
    chart()->removeAllSeries();  // deletes the series, the pause bands' too
    lines_.clear();
    bands_.clear();
    pauses_.clear();
    pending_.clear();
    empty_ = true;
    setFigures(QString());
    auto add = [this](int id) {
        QPen pen(submodelColor(id));
        pen.setWidthF(1.8);
        if (id < 0) pen.setStyle(Qt::DashLine);
        addSegment(id, submodelName(id), pen);
    };
    for (int i = 0; i < submodels; ++i) add(i);
    if (withBaseline) add(-1);
    fitAxes();
}

QLineSeries* LiveChart::series(int id) const {
    const auto it = lines_.find(id);
    return it == lines_.end() ? nullptr : it->second.segments.front();
}

std::vector<QLineSeries*> LiveChart::segments(int id) const {
    const auto it = lines_.find(id);
    return it == lines_.end() ? std::vector<QLineSeries*>() : it->second.segments;
}

double LiveChart::lastX(int id) const {
    const auto it = lines_.find(id);
    return it != lines_.end() && it->second.hasPoints ? it->second.lastX : -1e300;
}

int LiveChart::pointCount() const {
    int n = 0;
    for (const auto& [id, line] : lines_)
        for (const QLineSeries* s : line.segments) n += s->count();
    for (const auto& [s, points] : pending_) n += int(points.size());
    return n;
}

void LiveChart::beginAppending() { ++appending_; }

void LiveChart::flushPending() {
    for (auto& [s, points] : pending_) {
        if (points.isEmpty()) continue;
        if (points.size() == 1) s->append(points.front());
        else s->replace(s->points() + points);  // one geometry update for the whole batch
        showPointsIfAlone(s);
    }
    pending_.clear();
}

void LiveChart::endAppending() {
    if (appending_ == 0 || --appending_ > 0) return;
    flushPending();
    fitAxes();
}

void LiveChart::fitAxesOrDefer() {
    if (appending_ == 0) fitAxes();
}

bool LiveChart::pauseBetween(double from, double to) const {
    return std::any_of(pauses_.begin(), pauses_.end(),
                       [&](const PauseInterval& p) { return p.startSeconds < to && p.endSeconds > from; });
}

void LiveChart::append(int id, double x, double y) {
    const auto it = lines_.find(id);
    if (it == lines_.end() || !std::isfinite(x) || !std::isfinite(y) || x <= lastX(id)) return;
    if (log_ && y <= 0) return;
    Line& line = it->second;
    QLineSeries* s = line.segments.back();
    if (line.hasPoints && pauseBetween(line.lastX, x)) s = addSegment(id, s->name(), s->pen());
    line.hasPoints = true;
    line.lastX = x;
    if (appending_ > 0) pending_[s].append(QPointF(x, y));
    else {
        s->append(x, y);
        showPointsIfAlone(s);
    }
    if (empty_) {
        minX_ = maxX_ = x;
        minY_ = maxY_ = y;
        minPositiveY_ = y > 0 ? y : 1;
        empty_ = false;
    } else {
        minX_ = std::min(minX_, x);
        maxX_ = std::max(maxX_, x);
        minY_ = std::min(minY_, y);
        maxY_ = std::max(maxY_, y);
    }
    if (y > 0) minPositiveY_ = std::min(minPositiveY_, y);
    fitAxesOrDefer();
}

void LiveChart::setPauses(const std::vector<PauseInterval>& pauses) {
    if (pauses == pauses_) return;
    pauses_ = pauses;
    while (bands_.size() > pauses_.size()) {
        chart()->removeSeries(bands_.back());
        delete bands_.back();
        bands_.pop_back();
    }
    while (bands_.size() < pauses_.size()) {
        auto* band = new QAreaSeries;
        band->setUpperSeries(new QLineSeries(band));
        band->setLowerSeries(new QLineSeries(band));
        band->setName(tr("paused"));
        band->setPen(Qt::NoPen);
        band->setBrush(QColor(128, 128, 128, 60));  // grey and see-through: readable on light and dark
        chart()->addSeries(band);
        band->attachAxis(x_);
        band->attachAxis(yAxis());
        if (!bands_.empty()) hideFromLegend(chart(), band);  // one "paused" entry says what grey means
        bands_.push_back(band);
    }
    fitAxes();
}

void LiveChart::fitBands() {
    const double low = log_ ? yLog_->min() : yLinear_->min(), high = log_ ? yLog_->max() : yLinear_->max();
    for (std::size_t i = 0; i < bands_.size(); ++i) {
        const PauseInterval& p = pauses_[i];
        bands_[i]->upperSeries()->replace(QList<QPointF>{{p.startSeconds, high}, {p.endSeconds, high}});
        bands_[i]->lowerSeries()->replace(QList<QPointF>{{p.startSeconds, low}, {p.endSeconds, low}});
    }
}

void LiveChart::setLogarithmic(bool on) {
    if (on == log_) return;
    QAbstractAxis* from = yAxis();
    QAbstractAxis* to = on ? static_cast<QAbstractAxis*>(yLog_) : yLinear_;
    for (QAbstractSeries* s : chart()->series()) s->detachAxis(from);
    chart()->removeAxis(from);
    from->setParent(this);  // the chart releases ownership on removal; keep it for the next toggle
    chart()->addAxis(to, Qt::AlignLeft);
    log_ = on;
    for (QAbstractSeries* s : chart()->series()) s->attachAxis(to);
    fitAxes();
}

void LiveChart::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    fitAxes();  // the time axis' labels have another room
    placeFigures();
}

void LiveChart::fitAxes() {
    if (empty_) {
        setNiceRange(x_, 0, pauses_.empty() ? 1.0 : std::max(1.0, pauses_.back().endSeconds),
                     labelRoom(this, Qt::Horizontal));
        setNiceRange(yLinear_, 0, 1, labelRoom(this, Qt::Vertical), Qt::Vertical);
        yLog_->setRange(0.01, 1);
        fitBands();
        return;
    }
    const double maxX = pauses_.empty() ? maxX_ : std::max(maxX_, pauses_.back().endSeconds);
    setNiceRange(x_, std::min(0.0, minX_), maxX > minX_ ? maxX : minX_ + 1, labelRoom(this, Qt::Horizontal));
    // The axis ends at the round ticks around the data: a pad on top of that (the line off the
    // plot's edge) made 0.98 reach 1.2. A flat line gets a span around its value.
    const double pad = maxY_ > minY_ ? 0.0 : std::max(std::abs(maxY_) * 0.1, 0.05);
    double low = includeZero_ ? std::min(0.0, minY_) : minY_ - pad;
    if (minY_ >= 0 && low < 0) low = 0;  // never below zero for values that cannot be negative
    setNiceRange(yLinear_, low, maxY_ <= upperLimit_ ? std::min(maxY_ + pad, upperLimit_) : maxY_ + pad,
                 labelRoom(this, Qt::Vertical), Qt::Vertical);
    yLog_->setRange(minPositiveY_ / 1.3, std::max(maxY_, minPositiveY_) * 1.3);
    fitBands();
}

}  // namespace skynnet::ui
