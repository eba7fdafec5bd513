#pragma once
// A line chart fed while training runs: one line per submodel (and the baseline), points only
// ever appended (never the whole history redrawn), axes grown to fit, optional log-scale y.
// A time-axis chart also shades the run's pauses, and its lines break across them rather than
// draw a straight segment through time when nothing trained.
#include <QChartView>
#include <QList>
#include <QPointF>
#include <limits>
#include <map>
#include <vector>

#include "core/cancel.h"

class QAreaSeries;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QLogValueAxis;
class QPen;
class QValueAxis;

namespace skynnet::ui {

class LiveChart : public QChartView {
    Q_OBJECT
public:
    LiveChart(const QString& title, const QString& xTitle, const QString& yTitle, QWidget* parent = nullptr);

    // Drops every point and pause and creates one empty line per submodel, plus the baseline's.
    void reset(int submodels, bool withBaseline);
    // Appends (x, y) to the line of `id` (-1: baseline) when x is past its last point; values
    // that a log axis cannot show (y <= 0) or that are not finite are skipped. A pause between
    // the line's last point and x starts a new segment of the line.
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
    // The run's pauses on this chart's x axis (seconds of the run's clock), each shaded across the
    // plot; the x axis reaches the last one's end. Replaces the previous list (a pause going on
    // grows); set them before appending the points that follow them.
    void setPauses(const std::vector<PauseInterval>& pauses);
    int pauseBandCount() const { return int(bands_.size()); }
    // The band of pause i (its upper edge's two points), for tests.
    QAreaSeries* pauseBand(int i) const { return bands_[std::size_t(i)]; }

    // A run too short for a line (a few samples over a fraction of a second): its figures as text
    // in place of the lines and axes, e.g. "CPU 180%", rather than a diagonal between two points.
    // Empty shows the lines again; reset() clears it.
    void setFigures(const QString& text);
    QString figures() const { return figuresText_; }

    // The first segment of the line of `id`: the one named in the legend.
    QLineSeries* series(int id) const;
    // Every segment of the line of `id`, oldest first (more than one after a pause).
    std::vector<QLineSeries*> segments(int id) const;
    int seriesCount() const { return int(lines_.size()); }  // lines, not segments
    int pointCount() const;                                 // over every line

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;  // the figures' text follows the theme

private:
    struct Line {
        std::vector<QLineSeries*> segments;
        bool hasPoints = false;
        double lastX = 0;
    };
    QLineSeries* addSegment(int id, const QString& name, const QPen& pen);
    void flushPending();
    bool pauseBetween(double from, double to) const;
    QAbstractAxis* yAxis() const;
    void fitAxes();
    void fitAxesOrDefer();
    void fitBands();
    void placeFigures();

    QValueAxis* x_ = nullptr;
    QValueAxis* yLinear_ = nullptr;
    QLogValueAxis* yLog_ = nullptr;
    bool log_ = false;
    std::map<int, Line> lines_;
    std::vector<PauseInterval> pauses_;
    std::vector<QAreaSeries*> bands_;  // one per pause
    double minX_ = 0, maxX_ = 1, minY_ = 0, maxY_ = 1, minPositiveY_ = 1;
    bool empty_ = true;
    bool includeZero_ = false;
    double upperLimit_ = std::numeric_limits<double>::infinity();
    int appending_ = 0;                               // beginAppending depth
    std::map<QLineSeries*, QList<QPointF>> pending_;  // collected while appending_, per segment
    QString figuresText_;
    QGraphicsSimpleTextItem* figures_ = nullptr;  // over the plot area while figuresText_ is set
};

}  // namespace skynnet::ui
