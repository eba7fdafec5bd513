#pragma once
// Page 5, Results: the combined model against each submodel and the baseline (table and bar
// charts of metric, wall time, CPU seconds and peak memory), then how the combined model errs:
// a confusion-matrix heat map and per-class precision/recall for classes, predicted-against-true
// for regression, and for an autoencoder on images its reconstructions of a few test inputs
// (ReconstructionGrid). Below them the project's runs (RunHistoryPanel). A stopped or failed run leaves
// the last completed result on show, and a run that no longer matches the project says so.
#include <QWidget>
#include <memory>

#include "ui/widgets/project_views.h"

class QComboBox;
class QGroupBox;
class QLabel;
class QScrollArea;
class QSplitter;
class QStackedWidget;
class QTableView;
class QChartView;
class QScatterSeries;
class QLineSeries;
class QValueAxis;

namespace skynnet {
struct ProjectResults;
struct SavedCombinedModel;
struct SplitPlan;
}  // namespace skynnet

namespace skynnet::ui {

class BarChart;
class ComparisonTableModel;
class RunHistoryPanel;
class ClassMetricsModel;
class ConfusionMatrixWidget;
class ReconstructionGrid;
class TrainingSession;

class ResultsPage : public QWidget, public ProjectResultsView {
    Q_OBJECT
public:
    explicit ResultsPage(TrainingSession* session, QWidget* parent = nullptr);

    bool hasResults() const { return hasResults_; }
    // The headline as shown: the combined model's metric, formatted like the tables (4 decimals).
    QString combinedMetricText() const;
    QLabel* headline() const { return headline_; }
    // The headline's sentence on what the split saved and cost (runTotalsSentence); empty without results.
    QString totalsText() const { return totalsText_; }
    // The footnote under the comparison table: which of the combined row's figures are sums.
    QLabel* combinedNote() const { return combinedNote_; }
    QTableView* comparisonTable() const { return comparison_; }
    QTableView* classMetricsTable() const { return classTable_; }
    ConfusionMatrixWidget* confusionMatrix() const { return confusion_; }
    // The matrix scrolls in its own area when it needs more room than the Errors box has.
    QScrollArea* matrixScroll() const { return matrixScroll_; }
    // An autoencoder's test inputs and reconstructions (image data only; shown in the Errors box).
    ReconstructionGrid* reconstructionGrid() const { return reconstructions_; }
    QLabel* reconstructionCaption() const { return reconstructionCaption_; }
    bool showsReconstructions() const;
    // Whether the submodels' rows are still being computed (on a worker thread).
    bool reconstructionsPending() const { return reconstructionsPending_; }
    QScatterSeries* scatterSeries() const { return scatter_; }
    QChartView* scatterView() const { return scatterView_; }
    BarChart* metricChart() const { return metricChart_; }
    BarChart* wallChart() const { return wallChart_; }
    BarChart* cpuChart() const { return cpuChart_; }
    BarChart* memoryChart() const { return memoryChart_; }

    void refresh() override;  // from the session's last results; called when a run completes

    // The least height the page needs at this width. The main window's scroll area asks a page
    // with a word-wrapped line (the headline) for its height for its width, which a layout takes
    // from its items' preferred sizes: the page asked for its tables' and charts' whole preferred
    // height and scrolled on any screen. It scrolls only when its least height does not fit.
    int heightForWidth(int width) const override;

    RunHistoryPanel* runHistory() const { return runs_; }
    // The results above the run list, scrolling on their own when the window is short.
    QScrollArea* resultsPane() const { return resultsPane_; }
    // The line above the results saying the run shown is out of date; empty when hidden.
    QString outOfDateText() const;
    // The kept run (index into ProjectDocument::runs()) whose results are shown; -1 when none or
    // a run the document does not keep.
    int shownRunIndex() const { return shownIndex_; }
    // "Combine by": the class-group rule of the run on show (results_page_rule.cpp); hidden for
    // other strategies and runs that kept no submodel outputs. Choosing a rule recombines the run
    // without retraining, and every figure of the page follows.
    QComboBox* ruleChoice() const { return ruleChoice_; }
    // Why the last choice could not be applied, or empty.
    QString ruleProblem() const { return ruleProblem_; }
    // On a narrow page the Errors box goes under the comparison and its charts, with the matrix
    // beside the per-class table (results_page_layout.cpp); side by side on a wide one.
    bool stacked() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void buildHeadline();        // the headline and the out-of-date line
    QWidget* buildRuleChoice();  // results_page_rule.cpp
    void updateRuleChoice();
    void chooseRule(int index);
    QWidget* buildComparison();  // the comparison table over the four bar charts
    // The comparison beside the errors, over the run list.
    QSplitter* buildContent(QWidget* comparison, QGroupBox* errors);
    void connectSession();
    // The run on show: the session's when it completed, else the newest kept run that did.
    void chooseShownRun();
    void updateOutOfDate();
    void clear(const QString& why);
    void fitTablesToRows();  // no taller than their rows, so the charts get the room
    // The Errors box (results_page_errors.cpp).
    QGroupBox* buildErrors();
    void showErrors();      // confusion matrix / scatter for the model chosen in modelChoice_
    void fitScatterAxes();  // the scatter's round range, its labels fitting the chart's size
    // The reconstructions' page (results_page_reconstruction.cpp): false, nothing shown, unless
    // the run on show is a reconstruction of images.
    QWidget* buildReconstructions();
    bool showReconstructions();
    const SavedCombinedModel* shownModel() const;  // the run's trained weights, when kept
    bool eventFilter(QObject* watched, QEvent* event) override;
    void reflow();         // results_page_layout.cpp: side by side or stacked, for the width
    void fitErrorsPane();  // the matrix's area as tall as the matrix needs (within reason), the table's width

    TrainingSession* session_;
    std::shared_ptr<const ProjectResults> shownResults_;
    std::shared_ptr<const SplitPlan> shownPlan_;
    int shownIndex_ = -1;
    QString shownNote_;   // why an earlier run is shown instead of the session's
    QString unfinished_;  // how the session's last run ended when it did not complete
    bool hasResults_ = false;
    QString metricText_;
    QString totalsText_;
    QLabel* combinedNote_ = nullptr;
    QLabel* headline_;
    QLabel* outOfDate_;
    QWidget* ruleRow_;
    QComboBox* ruleChoice_;
    QString ruleProblem_;
    RunHistoryPanel* runs_;
    QScrollArea* resultsPane_;
    ComparisonTableModel* comparisonModel_;
    QTableView* comparison_;
    BarChart* metricChart_;
    BarChart* wallChart_;
    BarChart* cpuChart_;
    BarChart* memoryChart_;
    QGroupBox* errorsBox_;
    QComboBox* modelChoice_;
    QStackedWidget* errorsStack_;
    ConfusionMatrixWidget* confusion_;
    QScrollArea* matrixScroll_;
    QSplitter* classPane_;  // the matrix and the per-class table
    QSplitter* content_;    // the comparison and the Errors box
    QTableView* classTable_;
    ClassMetricsModel* classModel_;
    QChartView* scatterView_;
    QScatterSeries* scatter_ = nullptr;
    QLineSeries* diagonal_ = nullptr;
    QValueAxis* scatterX_ = nullptr;
    QValueAxis* scatterY_ = nullptr;
    double scatterLow_ = 0, scatterHigh_ = 1;
    ReconstructionGrid* reconstructions_;
    QLabel* reconstructionCaption_;
    quint64 reconstructionJob_ = 0;  // a newer request makes an older job's answer stale
    bool reconstructionsPending_ = false;
};

}  // namespace skynnet::ui
