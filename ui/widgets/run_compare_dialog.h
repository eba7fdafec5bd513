#pragma once
// Two kept runs side by side: their figures (metrics, times, memory, size, how they were made)
// in one table, and their training-loss curves on one chart (the first run solid, the second
// dashed; each run's submodels as their mean, and its baseline), named whole in a legend below.
#include <QDialog>

#include "project/project_file.h"

class QChartView;
class QTableWidget;

namespace skynnet::ui {

class RunCompareDialog : public QDialog {
    Q_OBJECT
public:
    // firstName, secondName: what the table's columns and the chart's legend call the runs.
    RunCompareDialog(const ProjectRun& first, const QString& firstName, const ProjectRun& second,
                     const QString& secondName, QWidget* parent = nullptr);

    QTableWidget* figuresTable() const { return table_; }
    QChartView* curvesView() const { return curves_; }
    QWidget* curvesLegend() const { return legend_; }  // a QLabel "lineLegendName" per curve

private:
    // curves_ and legend_, in the pane beside the table.
    QWidget* buildCurves(const ProjectRun& first, const QString& firstName, const ProjectRun& second,
                         const QString& secondName);

    QTableWidget* table_;
    QChartView* curves_;
    QWidget* legend_;
};

}  // namespace skynnet::ui
