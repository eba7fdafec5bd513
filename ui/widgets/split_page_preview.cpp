// The Split page's preview of the plan: the summary, warnings and error lines, the plan's table
// fitted to its width, the bar chart against the original and a diagram of every network, the
// diagrams and the chart side by side or one over the other by the room.
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <algorithm>

#include "ui/core/plan_table_model.h"
#include "ui/core/plan_warnings.h"
#include "ui/core/project_document.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/format.h"
#include "ui/widgets/network_check.h"
#include "ui/widgets/network_diagram.h"
#include "ui/widgets/split_page.h"
#include "ui/widgets/split_totals_text.h"
#include "ui/widgets/table_height.h"

namespace skynnet::ui {
namespace {

// What the strategy in use does, in the words of method.md, for the panel under the options.
QString explain(Strategy s, const SplitOptions& o) {
    switch (s) {
    case Strategy::ClassGroups: {
        const QString combined = o.classCombine == ClassCombine::Coupling
                                     ? QObject::tr("combined by coupling: the class probabilities that best explain "
                                                   "every submodel's")
                                 : o.classCombine == ClassCombine::Sum
                                     ? QObject::tr("averaged per class over the submodels that own it")
                                 : o.classCombine == ClassCombine::Stacked
                                     ? QObject::tr("weighed by a small model learnt on the validation rows after "
                                                   "training")
                                     : QObject::tr("multiplied");
        QString text = QObject::tr("<b>Class groups.</b> The classes are cut into g groups; each submodel learns one "
                                   "pair of groups from only those samples. At prediction every submodel sees every "
                                   "sample and their probabilities are %1, so any two classes in different groups are "
                                   "refereed by exactly one submodel.")
                           .arg(combined);
        if (o.otherShare > 0)
            text += QObject::tr(" Each also learns an \"other\" output from %1 times its rows of the other classes, "
                                "so it stops voting on classes it never saw.")
                        .arg(o.otherShare);
        return text;
    }
    case Strategy::BinaryShards:
        return QObject::tr("<b>Binary shards.</b> Each submodel learns both classes from its own shard of the samples; "
                           "their answers are combined by the most confident one or by the mean probability.");
    case Strategy::OutputSplit:
        return QObject::tr(
            "<b>Output split.</b> The target columns are cut into N chunks; each submodel predicts one chunk "
            "from all inputs and samples, and the chunks are put side by side.");
    case Strategy::DataShards: {
        QString text = QObject::tr(
            "<b>Data shards.</b> Each submodel learns the whole task from a 1/N shard of the samples, with "
            "widths divided by F; predictions are averaged, like an ensemble.");
        if (o.shardOverlap > 0)
            text += QObject::tr(" Each also learns from %1 times its shard's rows drawn from the other shards.")
                        .arg(o.shardOverlap);
        return text;
    }
    case Strategy::Auto: break;
    }
    return QObject::tr("<b>Automatic.</b> Class groups for several classes, binary shards for two, output split for "
                       "regression.");
}

}  // namespace

void SplitPage::onPlanChanged(const QString& summary, const QString& error) {
    summary_->setText(summary.isEmpty() ? tr("No plan yet.") : tr("<b>Plan:</b> %1").arg(summary.toHtmlEscaped()));
    error_->setText(error.isEmpty() ? QString() : tr("Cannot split: %1").arg(error));
    error_->setVisible(!error.isEmpty() && document_->hasData());
    const auto& plan = model_->plan();
    explanation_->setText(
        explain(plan ? plan->strategy : document_->splitOptions().strategy, document_->splitOptions()));
    showTotals();
    if (!plan) {
        warnings_->hide();
        fitHeightToRows(table_, 6);
        chart_->setPlaceholder(error.isEmpty() ? tr("no plan") : tr("invalid request"));
        showDiagrams({});
        return;
    }
    std::vector<std::pair<QString, NetworkSpec>> networks{{tr("original"), plan->original}};
    for (const SubmodelPlan& s : plan->submodels) networks.push_back({tr("sub %1").arg(s.index + 1), s.spec});
    showDiagrams(networks);
    QStringList notes;
    for (const std::string& w : plan->warnings) notes << QString::fromStdString(w);
    if (document_->hasData()) notes << planWarnings(*plan, document_->planDataInfo()).lines;  // starved submodels
    const SplitOptions& o = document_->splitOptions();
    if (plan->submodelCount() != o.requested && notes.isEmpty())
        notes << tr("N=%1 gives %2 submodels").arg(o.requested).arg(plan->submodelCount());
    // Memory budget: the submodels that train at once (one per core) must fit together.
    const int budget = document_->coresForRuns();
    std::vector<std::int64_t> mem;
    for (const SubmodelPlan& s : plan->submodels) mem.push_back(s.memoryBytes);
    std::sort(mem.rbegin(), mem.rend());
    std::int64_t concurrent = 0;
    for (std::size_t i = 0; i < mem.size() && int(i) < budget; ++i) concurrent += mem[i];
    const std::int64_t have = availableMemoryBytes();
    if (have > 0 && concurrent > have)
        notes << tr("Memory over budget: the submodels training at once need about %1, more than the %2 available.")
                     .arg(formatBytes(concurrent), formatBytes(have));
    warnings_->setText(notes.join(QLatin1Char('\n')));
    warnings_->setVisible(!notes.isEmpty());
    fitHeightToRows(table_, 6);
    fitPlanColumns();

    QStringList categories{tr("original")};
    std::vector<double> params{100}, flops{100}, memory{100};
    const auto pct = [](std::int64_t v, std::int64_t of) { return of > 0 ? 100.0 * double(v) / double(of) : 0.0; };
    for (const SubmodelPlan& s : plan->submodels) {
        categories << tr("sub %1").arg(s.index + 1);
        params.push_back(pct(s.params, plan->originalParams));
        flops.push_back(pct(s.flopsPerSample, plan->originalFlopsPerSample));
        memory.push_back(pct(s.memoryBytes, plan->originalMemoryBytes));
    }
    chart_->setData(categories,
                    {{tr("params"), params, submodelColor(0)},
                     {tr("FLOPs"), flops, submodelColor(1)},
                     {tr("memory"), memory, submodelColor(2)}},
                    tr("% of original"));
    chart_->setToolTip(tr("Original: %1 parameters, %2 FLOPs per sample, %3 training memory")
                           .arg(formatCount(plan->originalParams), formatFlops(plan->originalFlopsPerSample),
                                formatBytes(plan->originalMemoryBytes)));
}

void SplitPage::showTotals() {
    const auto& plan = model_->plan();
    if (!plan) {
        totals_->clear();
        return;
    }
    const PlanTotals totals = planTotals(*plan, document_->coresForRuns());
    totals_->setText(planTotalsHtml(totals, lastMeasuredSpeed(document_->runs())));
    totals_->setToolTip(planTotalsToolTip(totals));
    QMetaObject::invokeMethod(this, &SplitPage::arrangeChartPane, Qt::QueuedConnection);  // a new width
}

void SplitPage::showDiagrams(const std::vector<std::pair<QString, NetworkSpec>>& networks) {
    auto* layout = static_cast<QHBoxLayout*>(diagrams_->layout());
    while (diagramList_.size() > qsizetype(networks.size())) delete diagramList_.takeLast();
    while (diagramList_.size() < qsizetype(networks.size())) {
        auto* d = new NetworkDiagram;
        d->setMinimumWidth(115);
        layout->insertWidget(int(diagramList_.size()), d, 0, Qt::AlignTop);
        diagramList_ << d;
    }
    for (std::size_t i = 0; i < networks.size(); ++i) {
        diagramList_[qsizetype(i)]->setTitle(networks[i].first);
        diagramList_[qsizetype(i)]->setNetwork(networks[i].second);
    }
    figuresArranged_ = false;  // other diagrams: perhaps another arrangement
    arrangeFigures();
}

bool SplitPage::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_->viewport() && event->type() == QEvent::Resize) fitPlanColumns();
    // After the splitter's own resize handling, which shares the new size out in proportion.
    if (watched == figures_ && event->type() == QEvent::Resize)
        QMetaObject::invokeMethod(this, &SplitPage::arrangeFigures, Qt::QueuedConnection);
    if (watched == chartPane_ && event->type() == QEvent::Resize)
        QMetaObject::invokeMethod(this, &SplitPage::arrangeChartPane, Qt::QueuedConnection);
    return QWidget::eventFilter(watched, event);
}

int SplitPage::diagramsWidth() const { return diagrams_->sizeHint().width() + 2 * diagramScroll_->frameWidth(); }

void SplitPage::arrangeFigures() {
    // Side by side when every diagram has its preferred width beside the chart at its least;
    // otherwise the diagrams across the whole width, which holds them at their least, and the
    // chart under them.
    const int width = figures_->width();
    const bool beside = width >= diagramsWidth() + chartPaneWidth() + figures_->handleWidth();
    const Qt::Orientation wanted = beside ? Qt::Horizontal : Qt::Vertical;
    const bool turned = wanted != figures_->orientation() || !figuresArranged_;
    figuresArranged_ = true;
    figures_->setOrientation(wanted);
    if (beside) {
        if (turned) figures_->setSizes({diagramsWidth(), width - diagramsWidth()});
    } else {
        // The diagrams as tall as they are, the chart the rest, at every height (a splitter shares
        // a new height out in proportion, and the diagrams' last block went out of view).
        const int height = figures_->height();
        const int diagrams = std::min(diagrams_->sizeHint().height() + 2 * diagramScroll_->frameWidth() + 4,
                                      height - chart_->minimumHeight() - figures_->handleWidth());
        figures_->setSizes({diagrams, height - diagrams});
    }
}

int SplitPage::chartPaneWidth() const {
    return chart_->minimumWidth() + chartPane_->layout()->spacing() + totals_->sizeHint().width();
}

void SplitPage::arrangeChartPane() {
    const bool beside = chartPane_->width() >= chartPaneWidth();
    if (chartPaneArranged_ && beside == totalsBeside_) return;
    chartPaneArranged_ = true;
    totalsBeside_ = beside;
    auto* layout = static_cast<QHBoxLayout*>(chartPane_->layout());
    chartTabs_->clear();  // takes the pages out, deleting neither
    if (beside) {
        layout->addWidget(chart_, 1);
        layout->addWidget(totals_, 0, Qt::AlignTop);
        chart_->show();
        totals_->show();
        chartTabs_->hide();
    } else {
        layout->removeWidget(chart_);
        layout->removeWidget(totals_);
        chartTabs_->addTab(chart_, tr("Against the original"));
        chartTabs_->addTab(totals_, tr("Totals"));
        chartTabs_->show();
    }
}

void SplitPage::fitPlanColumns() {
    // Every column as wide as its contents while they fit; when they do not, the role (the one
    // long text, whole in its tooltip) takes what the figures leave and ends in "…".
    QHeaderView* header = table_->horizontalHeader();
    const QAbstractItemView* view = table_;  // QTableView hides the public sizeHintForColumn
    int wanted = 0;
    for (int c = 0; c < PlanTableModel::ColumnCount; ++c)
        wanted += std::max(view->sizeHintForColumn(c), header->sectionSizeHint(c));
    const bool fits = wanted <= table_->viewport()->width();
    header->setSectionResizeMode(PlanTableModel::Role, fits ? QHeaderView::ResizeToContents : QHeaderView::Stretch);
    header->setStretchLastSection(fits);
}

}  // namespace skynnet::ui
