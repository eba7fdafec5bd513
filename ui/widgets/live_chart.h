#pragma once
// A line chart fed while training runs: one series per submodel (and the baseline), points only
// ever appended (never the whole history redrawn), axes grown to fit, optional log-scale y.
#include <QChartView>
#include <QList>
#include <QPointF>
#include <limits>
#include <map>

class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace skynnet::ui {

class LiveChart : public QChartView {
    Q_OBJECT
public:
    LiveChart(const QString& title, const QString& xTitle, const QString& yTitle, QWidget* parent = nullptr);

    // Drops every point and creates one empty series per submodel, plus the baseline's.
    void reset(int submodels, bool withBaseline);
    // Appends (x, y) to the series of `id` (-1: baseline) when x is past its last point; values
    // that a log axis cannot show (y <= 0) or that are not finite are skipped.
    void append(int id, double x, double y);
    // Between these, appends are collected and handed to each series at once, and the axes fitted
    // once: a series and its axes redo their geometry on every change, which made a saved run's
    // hundreds of points (or ten updates a second of four charts) stall the GUI.
    void beginAppending();
    void endAppending();
    double lastX(int id) const;
    void setLogarithmic(bool on);
    // Keep 0 on the linear y axis (CPU, memory), so small wobbles do not look like big swings.
    void setIncludeZero(bool on) { includeZero_ = on; }
    // Values that cannot exceed this (accuracy, R²: 1): the linear y axis stops there, not at 1.1.
    void setUpperLimit(double limit) { upperLimit_ = limit; }
    bool logarithmic() const { return log_; }

    QLineSeries* series(int id) const;
    int seriesCount() const { return int(series_.size()); }
    int pointCount() const;  // over every series

private:
    void fitAxes();
    void fitAxesOrDefer();

    QValueAxis* x_ = nullptr;
    QValueAxis* yLinear_ = nullptr;
    QLogValueAxis* yLog_ = nullptr;
    bool log_ = false;
    std::map<int, QLineSeries*> series_;
    double minX_ = 0, maxX_ = 1, minY_ = 0, maxY_ = 1, minPositiveY_ = 1;
    bool empty_ = true;
    bool includeZero_ = false;
    double upperLimit_ = std::numeric_limits<double>::infinity();
    int appending_ = 0;                        // beginAppending depth
    std::map<int, QList<QPointF>> pending_;    // collected while appending_
};

}  // namespace skynnet::ui
