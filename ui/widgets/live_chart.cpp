#include "ui/widgets/live_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "ui/widgets/chart_util.h"

namespace skynnet::ui {

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
    fitAxes();
}

void LiveChart::reset(int submodels, bool withBaseline) {
    chart()->removeAllSeries();  // deletes the series
    series_.clear();
    pending_.clear();
    empty_ = true;
    auto add = [this](int id) {
        auto* s = new QLineSeries;
        s->setName(submodelName(id));
        QPen pen(submodelColor(id));
        pen.setWidthF(1.8);
        if (id < 0) pen.setStyle(Qt::DashLine);
        s->setPen(pen);
        chart()->addSeries(s);
        s->attachAxis(x_);
        s->attachAxis(log_ ? static_cast<QAbstractAxis*>(yLog_) : yLinear_);
        series_[id] = s;
    };
    for (int i = 0; i < submodels; ++i) add(i);
    if (withBaseline) add(-1);
    fitAxes();
}

QLineSeries* LiveChart::series(int id) const {
    const auto it = series_.find(id);
    return it == series_.end() ? nullptr : it->second;
}

double LiveChart::lastX(int id) const {
    if (const auto p = pending_.find(id); p != pending_.end() && !p->second.isEmpty()) return p->second.last().x();
    const QLineSeries* s = series(id);
    return s && s->count() > 0 ? s->at(s->count() - 1).x() : -1e300;
}

int LiveChart::pointCount() const {
    int n = 0;
    for (const auto& [id, s] : series_) n += s->count();
    for (const auto& [id, points] : pending_) n += int(points.size());
    return n;
}

void LiveChart::beginAppending() { ++appending_; }

void LiveChart::endAppending() {
    if (appending_ == 0 || --appending_ > 0) return;
    for (auto& [id, points] : pending_) {
        if (points.isEmpty()) continue;
        QLineSeries* s = series(id);
        if (points.size() == 1) s->append(points.front());
        else s->replace(s->points() + points);  // one geometry update for the whole batch
    }
    pending_.clear();
    fitAxes();
}

void LiveChart::fitAxesOrDefer() {
    if (appending_ == 0) fitAxes();
}

void LiveChart::append(int id, double x, double y) {
    QLineSeries* s = series(id);
    if (!s || !std::isfinite(x) || !std::isfinite(y) || x <= lastX(id)) return;
    if (log_ && y <= 0) return;
    if (appending_ > 0) pending_[id].append(QPointF(x, y));
    else s->append(x, y);
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

void LiveChart::setLogarithmic(bool on) {
    if (on == log_) return;
    QAbstractAxis* from = log_ ? static_cast<QAbstractAxis*>(yLog_) : yLinear_;
    QAbstractAxis* to = on ? static_cast<QAbstractAxis*>(yLog_) : yLinear_;
    for (const auto& [id, s] : series_) s->detachAxis(from);
    chart()->removeAxis(from);
    from->setParent(this);  // the chart releases ownership on removal; keep it for the next toggle
    chart()->addAxis(to, Qt::AlignLeft);
    log_ = on;
    for (const auto& [id, s] : series_) s->attachAxis(to);
    fitAxes();
}

void LiveChart::fitAxes() {
    if (empty_) {
        x_->setRange(0, 1);
        yLinear_->setRange(0, 1);
        yLog_->setRange(0.01, 1);
        return;
    }
    setNiceRange(x_, std::min(0.0, minX_), maxX_ > minX_ ? maxX_ : minX_ + 1);
    const double span = maxY_ - minY_;
    const double pad = span > 0 ? span * 0.04 : std::max(std::abs(maxY_) * 0.1, 0.05);
    double low = includeZero_ ? std::min(0.0, minY_) : minY_ - pad;
    if (minY_ >= 0 && low < 0) low = 0;  // never below zero for values that cannot be negative
    setNiceRange(yLinear_, low, maxY_ <= upperLimit_ ? std::min(maxY_ + pad, upperLimit_) : maxY_ + pad);
    yLog_->setRange(minPositiveY_ / 1.3, std::max(maxY_, minPositiveY_) * 1.3);
}

}  // namespace skynnet::ui
