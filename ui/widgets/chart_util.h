#pragma once
// Small helpers shared by every chart of the app: one look (antialiased, compact, legend below),
// one colour per submodel across all charts, and a bar chart that is rebuilt from plain values.
#include <QChartView>
#include <QColor>
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

class QValueAxis;

namespace skynnet::ui {

// Submodel i (0-based) keeps its colour on every chart; -1 is the baseline (dark grey, or light
// grey on a dark palette).
QColor submodelColor(int submodel);
QString submodelName(int submodel);  // "submodel 1", "baseline"

// Sets the axis to a range covering [lo, hi] with round tick steps (1, 2, 2.5 or 5 x 10^k), from
// the last round tick at or below lo to the first at or above hi (pad the data before, not here). Qt
// Charts gives each tick label the axis' length over the tick count and cuts a label longer (along
// x) or taller (along y) than its share to "0.0..." or "...", and hides a label too near the one
// before: with labelRoom (> 0, the plot area's length along the axis in pixels, see labelRoom())
// the step grows until every label, in the axis' label format and font, fits and stays apart.
void setNiceRange(QValueAxis* axis, double lo, double hi, double labelRoom = 0, Qt::Orientation along = Qt::Horizontal);
// The length of the view's plot area along `along`, for setNiceRange: as laid out, or an estimate
// from the view's size before the chart was laid out at this size.
double labelRoom(const QChartView* view, Qt::Orientation along);

// Calls `refit` once the view's chart is laid out at a new size of the view: a resize comes before
// the chart's new plot area, on which labelRoom() measures. Queued, and once per size, so a refit
// that moves the plot area again (wider tick labels) starts no other: refitting from within the
// chart's layout recursed until the stack ran out.
void refitWhenLaidOut(QChartView* view, std::function<void()> refit);

// Gives the chart the light or dark chart theme that matches the application's palette, keeping
// the colours its series were given (the submodels' colours mean the same on every chart).
void styleChart(QChart* chart);
// One line naming every line series of the chart in its colour ("■ submodel 1  ■ baseline"),
// for a legend shared by several charts of the same series.
QString legendHtml(const QChart* chart);
// A legend of whole names for a chart whose lines differ by dash as well as colour: for each named
// line series a sample of its pen and its name, `columns` entries a row (the chart's own legend
// puts every entry in one row and cuts the names to fit it; hide it). Made from the series as they
// are now.
QWidget* makeLineLegend(const QChart* chart, int columns, QWidget* parent = nullptr);
// styleChart() for every chart view of the application, after the palette changed.
void restyleAllCharts();

// Removes (and deletes) every series and axis.
void clearChart(QChart* chart);

// A chart view with the app's common settings; the view owns its chart.
QChartView* makeChartView(const QString& title, QWidget* parent = nullptr);
// Gives a view a new chart with the house style: title, tight margins, legend below, no animation.
void setUpChartView(QChartView* view, const QString& title, QSize minimum);

// A grouped bar chart: categories along x, one bar set per named series.
class BarChart : public QChartView {
    Q_OBJECT
public:
    struct Set {
        QString name;
        std::vector<double> values;  // one per category
        QColor color;                // invalid: chart theme default
    };
    explicit BarChart(const QString& title, QWidget* parent = nullptr);
    // Replaces everything shown; an empty category list shows the placeholder text instead.
    void setData(const QStringList& categories, const std::vector<Set>& sets, const QString& valueTitle = {});
    void setPlaceholder(const QString& text);
    void setTitle(const QString& title);  // kept across setData()
    // Caps the value axis (e.g. 1 for accuracies) when no value exceeds it; <= 0: no cap.
    void setUpperBound(double bound) { upperBound_ = bound; }
    // Bars along x with the categories down the side: long category names stay readable.
    void setHorizontal(bool on) { horizontal_ = on; }
    int barCount() const { return bars_; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitValueAxis();  // the value axis' round range, its labels fitting the chart's width

    QString title_;
    int bars_ = 0;
    QValueAxis* valueAxis_ = nullptr;  // when its range is fitted to the values (not capped)
    double valueLow_ = 0, valueHigh_ = 1;
    double upperBound_ = 0;
    bool horizontal_ = false;
};

}  // namespace skynnet::ui
