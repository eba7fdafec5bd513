#pragma once
// Page 3, Split: the Skynnet strategy, the number of submodels N and the strategy's options, with
// a live preview of the plan (a table of the original and every submodel, a chart of their
// parameters, FLOPs and memory against the original, and a drawn diagram of each one's network),
// its warnings and its errors.
#include <QList>
#include <QWidget>
#include <utility>
#include <vector>

#include "spec/network_spec.h"

#include "split/strategy.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTableView;

namespace skynnet::ui {

class BarChart;
class NetworkDiagram;
class PlanTableModel;
class ProjectDocument;

class SplitPage : public QWidget {
    Q_OBJECT
public:
    static constexpr int maxSubmodels = 64;  // the N control's limit

    explicit SplitPage(ProjectDocument* document, QWidget* parent = nullptr);

    // Like a user changing the controls; the plan preview follows at once.
    void setStrategy(Strategy strategy);
    void setSubmodels(int n);

    PlanTableModel* planModel() const { return model_; }
    QTableView* planTable() const { return table_; }
    BarChart* planChart() const { return chart_; }
    // The original's diagram, then one per submodel; none without a plan.
    const QList<NetworkDiagram*>& diagrams() const { return diagramList_; }
    QScrollArea* diagramScroll() const { return diagramScroll_; }
    // The diagrams and the chart: side by side, or the chart under the diagrams on a narrow page.
    QSplitter* figures() const { return figures_; }
    QString summaryText() const;
    // The split's totals against the original beside the plan's table (split_totals_text.h), as HTML;
    // empty without a plan.
    QString totalsText() const;
    // Whether the totals stand beside the bars (else they share a tab widget with them).
    bool totalsBesideChart() const { return totalsBeside_; }
    QTabWidget* chartTabs() const { return chartTabs_; }
    QString warningsText() const;  // empty when hidden
    QString errorText() const;     // empty when hidden
    // Every option widget, for the tooltip check of the tests.
    QList<QWidget*> optionWidgets() const;
    QString limitsText() const;     // the N control's limits, as shown beside it
    QString limitNoteText() const;  // "N = 100 is outside ...", empty when hidden

    // The least height for the width: a page scrolls on the height for width of its layout, which
    // a layout takes from its items' preferred sizes (a chart's is its last size), and so this page
    // scrolled at 1024 x 680. It scrolls only when its least height does not fit (as ResultsPage).
    int heightForWidth(int width) const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildUi();
    QGroupBox* buildOptions();     // the options' controls in their form
    QWidget* buildRequestedRow();  // N, its limits, and the note when a typed N was outside them
    QWidget* buildFactorRow();     // √N, or a data-shard F of one's own
    void connectOptions();
    void buildPlanViews();  // summary, banners, the plan's table and chart
    void buildFigures();    // the diagrams beside the chart, in figures_
    void fromDocument();    // controls <- document
    void toDocument();      // controls -> document
    // The plan's preview (split_page_preview.cpp).
    void onPlanChanged(const QString& summary, const QString& error);
    void fitPlanColumns();  // the table's columns to its width
    void showDiagrams(const std::vector<std::pair<QString, NetworkSpec>>& networks);  // title, network
    void arrangeFigures();       // side by side or one over the other, by the room
    void arrangeChartPane();     // the totals beside the bars, or the two as tabs, by the room
    void showTotals();           // the totals beside the plan table, at the last run's measured speed
    int diagramsWidth() const;   // all diagrams at their preferred width
    int chartPaneWidth() const;  // the bars at their least beside the totals

    ProjectDocument* document_;
    PlanTableModel* model_;
    bool updating_ = false;

    QComboBox* strategy_ = nullptr;
    QSpinBox* requested_ = nullptr;
    QLabel* limits_ = nullptr;
    QLabel* limitNote_ = nullptr;
    QComboBox* scaleEpochs_ = nullptr;
    QPushButton* referenceMethod_ = nullptr;
    QCheckBox* autoFactor_ = nullptr;
    QDoubleSpinBox* factor_ = nullptr;
    QComboBox* binaryCombine_ = nullptr;
    QComboBox* classCombine_ = nullptr;
    QDoubleSpinBox* otherShare_ = nullptr;
    QDoubleSpinBox* shardOverlap_ = nullptr;
    QCheckBox* shuffle_ = nullptr;
    QCheckBox* fallback_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QLabel* explanation_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* warnings_ = nullptr;
    QLabel* error_ = nullptr;
    QTableView* table_ = nullptr;
    BarChart* chart_ = nullptr;
    QLabel* totals_ = nullptr;
    QWidget* chartPane_ = nullptr;     // the bars and the totals, side by side or as chartTabs_
    QTabWidget* chartTabs_ = nullptr;  // the bars and the totals as tabs, where both do not fit
    bool totalsBeside_ = false;
    bool chartPaneArranged_ = false;
    QWidget* diagrams_ = nullptr;
    QScrollArea* diagramScroll_ = nullptr;
    QSplitter* figures_ = nullptr;
    bool figuresArranged_ = false;
    QList<NetworkDiagram*> diagramList_;
};

}  // namespace skynnet::ui
