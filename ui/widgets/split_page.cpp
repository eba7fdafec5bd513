#include "ui/widgets/split_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "ui/core/plan_table_model.h"
#include "ui/core/project_document.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/eliding_header_view.h"
#include "ui/widgets/limit_spin_box.h"

namespace skynnet::ui {
namespace {

const char* const warningStyle =
    "QLabel { background: #fff4d6; color: #6b4e00; border: 1px solid #e6cf8a; border-radius: 4px; padding: 6px; }";
const char* const errorStyle =
    "QLabel { background: #fde2e1; color: #8a1c1c; border: 1px solid #e0a0a0; border-radius: 4px; padding: 6px; }";

QLabel* banner(const char* style, const char* name) {
    auto* l = new QLabel;
    l->setObjectName(QString::fromLatin1(name));
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setStyleSheet(QString::fromLatin1(style));
    l->hide();
    return l;
}

// Whether the planner will cut this task's rows into data shards (output split may fall back to them).
bool sharding(const SplitOptions& o, Task task) {
    const Strategy s = resolveStrategy(o.strategy, task);
    return s == Strategy::DataShards || (s == Strategy::OutputSplit && o.regressionFallbackToShards);
}

// A share of rows (the "other" share, the shard overlap): 0 shows "Off", typing merges into one step.
QDoubleSpinBox* shareBox(const char* name) {
    auto* box = new QDoubleSpinBox;
    box->setObjectName(QString::fromLatin1(name));
    box->setRange(0.0, 5.0);
    box->setSingleStep(0.1);
    box->setDecimals(2);
    box->setSpecialValueText(QObject::tr("Off"));
    box->setKeyboardTracking(false);
    return box;
}

// A form row whose label carries the same one-sentence tooltip as its widget.
void addRow(QFormLayout* form, const QString& label, QWidget* w, const QString& tip) {
    w->setToolTip(tip);
    auto* l = new QLabel(label);
    l->setToolTip(tip);
    l->setBuddy(w);
    form->addRow(l, w);
}

// Why a strategy cannot split this task, for the disabled item's tooltip; empty when it can.
QString notApplicable(Strategy s, Task task) {
    const QString taskText = QString::fromStdString(taskName(task));
    switch (s) {
    case Strategy::ClassGroups:
        if (task != Task::Classification)
            return QObject::tr("Needs a classification task with three or more classes; this data's task is %1.")
                .arg(taskText);
        break;
    case Strategy::BinaryShards:
        if (task != Task::Binary)
            return QObject::tr("Needs a task of two classes; this data's task is %1.").arg(taskText);
        break;
    case Strategy::OutputSplit:
        if (!predictsValues(task))
            return QObject::tr("Needs a regression task (target columns); this data's task is %1.").arg(taskText);
        break;
    case Strategy::DataShards:
    case Strategy::Auto: break;  // any task
    }
    return {};
}

}  // namespace

SplitPage::SplitPage(ProjectDocument* document, QWidget* parent) : QWidget(parent), document_(document) {
    model_ = new PlanTableModel(document_, this);
    buildUi();
    connect(model_, &PlanTableModel::planChanged, this, &SplitPage::onPlanChanged);
    connect(document_, &ProjectDocument::splitOptionsChanged, this, &SplitPage::fromDocument);
    connect(document_, &ProjectDocument::dataChanged, this, &SplitPage::fromDocument);
    // A completed run measures this machine's speed: the totals' times follow it.
    connect(document_, &ProjectDocument::runsChanged, this, &SplitPage::showTotals);
    fromDocument();
    onPlanChanged(model_->plan() ? summaryText() : QString(), model_->error());
}

void SplitPage::buildUi() {
    QGroupBox* options = buildOptions();
    connectOptions();
    buildPlanViews();

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    explanation_ = new QLabel;
    explanation_->setWordWrap(true);
    explanation_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    leftLayout->addWidget(options);
    leftLayout->addWidget(explanation_);
    leftLayout->addStretch();
    buildFigures();

    // The options beside the figures; the plan's table below them across the whole page, where its
    // eight columns fit on a 1024-pixel screen (beside the options they did not).
    auto* upper = new QSplitter(Qt::Horizontal);
    upper->addWidget(left);
    upper->addWidget(figures_);
    upper->setStretchFactor(0, 0);
    upper->setStretchFactor(1, 1);
    upper->setSizes({340, 900});

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(upper, 1);
    layout->addWidget(summary_);
    layout->addWidget(error_);
    layout->addWidget(warnings_);
    layout->addWidget(table_);  // as tall as its rows (fitHeightToRows), the rest above
}

QGroupBox* SplitPage::buildOptions() {
    strategy_ = new QComboBox;
    strategy_->addItem(tr("Automatic (by task)"), int(Strategy::Auto));
    strategy_->addItem(tr("Class groups (multiclass)"), int(Strategy::ClassGroups));
    strategy_->addItem(tr("Binary shards (two classes)"), int(Strategy::BinaryShards));
    strategy_->addItem(tr("Output split (regression)"), int(Strategy::OutputSplit));
    strategy_->addItem(tr("Data shards (ensemble, any task)"), int(Strategy::DataShards));
    QWidget* requestedRow = buildRequestedRow();
    scaleEpochs_ = new QComboBox;
    scaleEpochs_->addItem(tr("Automatic"));
    scaleEpochs_->addItem(tr("On: epochs / F"), int(EpochScaling::On));
    scaleEpochs_->addItem(tr("Halfway: epochs / √F"), int(EpochScaling::Sqrt));
    scaleEpochs_->addItem(tr("Off: same epochs"), int(EpochScaling::Off));
    QWidget* factorRow = buildFactorRow();
    classCombine_ = new QComboBox;
    classCombine_->setObjectName(QStringLiteral("classCombine"));
    classCombine_->addItem(tr("Product (the reference's rule)"), int(ClassCombine::Product));
    classCombine_->addItem(tr("Coupling"), int(ClassCombine::Coupling));
    classCombine_->addItem(tr("Sum"), int(ClassCombine::Sum));
    classCombine_->addItem(tr("Stacked"), int(ClassCombine::Stacked));
    otherShare_ = shareBox("otherShare");
    shardOverlap_ = shareBox("shardOverlap");
    binaryCombine_ = new QComboBox;
    binaryCombine_->addItem(tr("Most confident submodel"), int(BinaryCombine::MostConfident));
    binaryCombine_->addItem(tr("Average probability"), int(BinaryCombine::Average));
    shuffle_ = new QCheckBox(tr("Shuffle before sharding"));
    fallback_ = new QCheckBox(tr("Fall back to data shards"));
    seed_ = new QSpinBox;
    seed_->setRange(0, 1'000'000);
    referenceMethod_ = new QPushButton(tr("Use the reference's exact method"));
    referenceMethod_->setObjectName(QStringLiteral("referenceMethod"));

    auto* options = new QGroupBox(tr("Split options"));
    auto* form = new QFormLayout(options);
    addRow(form, tr("Strategy:"), strategy_,
           tr("How the problem is divided: automatic picks class groups for several classes, binary shards for two, "
              "output split for regression and reconstruction."));
    addRow(form, tr("Submodels N:"), requestedRow,
           tr("How many submodels you ask for (1 to %1); class groups use the largest g with g(g-1)/2 ≤ N, so the plan "
              "may "
              "train fewer.")
               .arg(maxSubmodels));
    requested_->setToolTip(requestedRow->toolTip());
    form->addRow(limitNote_);
    addRow(form, tr("Scale epochs:"), scaleEpochs_,
           tr("Train each submodel for the epochs divided by its reduction factor F, or by √F (halfway between time "
              "and accuracy), to save time. Automatic divides by √F for several classes with dense layers only, "
              "which measured best, and keeps the epochs otherwise."));
    addRow(form, tr("Data-shard F:"), factorRow,
           tr("Reduction factor for data shards: every scalable width becomes ceil(width / F); √N by default."));
    factor_->setToolTip(factorRow->toolTip());
    autoFactor_->setToolTip(tr("Use F = √N, the default for data shards."));
    addRow(form, tr("Shard overlap:"), shardOverlap_,
           tr("Data shards: every submodel also learns from this many times its shard's rows, drawn from the other "
              "shards, so that small data is not cut too thin. Off (0) keeps the shards apart; at N - 1 every "
              "submodel sees every row."));
    addRow(form, tr("Combine by:"), classCombine_,
           tr("How class groups answer together: product multiplies each class's probabilities over the submodels "
              "that own it (the published method's rule); coupling finds the class probabilities that best explain "
              "every submodel; sum averages each class's probabilities over its owners; stacked learns from the "
              "validation rows how much to trust each submodel's answers (it needs a validation share above 0, and new "
              "projects start with it: it measured best). The Results page can switch a trained run's rule without "
              "retraining."));
    addRow(form, tr("Other share:"), otherShare_,
           tr("Class groups: every submodel gets one more output, \"other\", and also learns from this many times "
              "its own rows drawn from the classes it does not own, so that it stops voting on classes it never "
              "saw. New projects start at 0.3, which measured best; Off (0) trains as the published method does."));
    addRow(form, tr("Binary combine:"), binaryCombine_,
           tr("How binary shards answer together: the answer of the submodel most sure of it, or the mean of their "
              "probabilities."));
    addRow(form, QString(), shuffle_,
           tr("Shuffle the training rows (with the seed below) before cutting them into shards; off cuts them in file "
              "order."));
    addRow(form, QString(), fallback_,
           tr("Regression with fewer target columns than N: train data shards with averaged predictions instead of "
              "failing."));
    addRow(form, tr("Seed:"), seed_, tr("Seed of the shard shuffle and of every submodel's initial weights."));
    addRow(form, QString(), referenceMethod_,
           tr("Set the published method's exact choices in one step: the product rule without an \"other\" "
              "output, epochs divided by F, shards in file order, the most confident binary answer."));
    return options;
}

QWidget* SplitPage::buildRequestedRow() {
    auto* requested = new LimitSpinBox;
    requested_ = requested;
    requested_->setRange(1, maxSubmodels);
    limits_ = new QLabel(tr("1 to %1").arg(maxSubmodels));
    limits_->setObjectName(QStringLiteral("submodelLimits"));
    limits_->setToolTip(
        tr("The page plans from 1 to %1 submodels; a larger number typed is set to %1.").arg(maxSubmodels));
    auto* requestedRow = new QWidget;
    auto* requestedLayout = new QHBoxLayout(requestedRow);
    requestedLayout->setContentsMargins(0, 0, 0, 0);
    requestedLayout->addWidget(requested_, 1);
    requestedLayout->addWidget(limits_);
    limitNote_ = new QLabel;
    limitNote_->setObjectName(QStringLiteral("submodelLimitNote"));
    limitNote_->setWordWrap(true);
    limitNote_->hide();
    connect(requested, &LimitSpinBox::limitApplied, this, [this](int typed, int limit) {
        limitNote_->setText(tr("N = %1 is outside 1 to %2: N is set to %3.").arg(typed).arg(maxSubmodels).arg(limit));
        limitNote_->show();
    });
    return requestedRow;
}

QWidget* SplitPage::buildFactorRow() {
    autoFactor_ = new QCheckBox(tr("√N"));
    factor_ = new QDoubleSpinBox;
    factor_->setRange(1.0, 64.0);
    factor_->setDecimals(2);
    factor_->setSingleStep(0.25);
    auto* factorRow = new QWidget;
    auto* factorLayout = new QHBoxLayout(factorRow);
    factorLayout->setContentsMargins(0, 0, 0, 0);
    factorLayout->addWidget(autoFactor_);
    factorLayout->addWidget(factor_, 1);
    return factorRow;
}

void SplitPage::connectOptions() {
    for (QComboBox* c : {strategy_, scaleEpochs_, classCombine_, binaryCombine_})
        connect(c, &QComboBox::currentIndexChanged, this, &SplitPage::toDocument);
    for (QCheckBox* c : {autoFactor_, shuffle_, fallback_})
        connect(c, &QCheckBox::toggled, this, &SplitPage::toDocument);
    connect(requested_, &QSpinBox::valueChanged, this, [this] {
        limitNote_->hide();  // the note is about the last number typed, not this one
        toDocument();
    });
    connect(seed_, &QSpinBox::valueChanged, this, &SplitPage::toDocument);
    connect(referenceMethod_, &QPushButton::clicked, this, [this] {
        document_->editSplitOptions(withReferenceChoices(document_->splitOptions()));  // one undoable step
        fromDocument();
    });
    connect(factor_, &QDoubleSpinBox::valueChanged, this, &SplitPage::toDocument);
    connect(otherShare_, &QDoubleSpinBox::valueChanged, this, &SplitPage::toDocument);
    connect(shardOverlap_, &QDoubleSpinBox::valueChanged, this, &SplitPage::toDocument);
    // Typing "12" is one undo step: the spin box's edits merge until it is left or Enter is pressed.
    for (QAbstractSpinBox* box :
         std::initializer_list<QAbstractSpinBox*>{requested_, seed_, factor_, otherShare_, shardOverlap_})
        connect(box, &QAbstractSpinBox::editingFinished, document_, &ProjectDocument::sealEdits);
}

void SplitPage::buildPlanViews() {
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    warnings_ = banner(warningStyle, "splitWarnings");
    error_ = banner(errorStyle, "splitError");

    table_ = new QTableView;
    table_->setHorizontalHeader(new ElidingHeaderView(Qt::Horizontal, table_));  // whole names in tooltips
    table_->setModel(model_);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->viewport()->installEventFilter(this);  // fitPlanColumns() on every resize, at the new width
    // Short names: the chart shares the page's upper half with the diagrams, and its tooltip has the figures.
    chart_ = new BarChart(tr("Against the original (%)"));
    chart_->setHorizontal(true);  // "sub 12" stays whole down the side
    // What the bars never told: the split's totals and per-machine figures against the original.
    totals_ = new QLabel;
    totals_->setObjectName(QStringLiteral("splitTotals"));
    totals_->setTextFormat(Qt::RichText);
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    totals_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
}

void SplitPage::buildFigures() {
    // One drawn network per model, side by side: the original, then each submodel as the plan shrank it.
    diagrams_ = new QWidget;
    auto* diagramsLayout = new QHBoxLayout(diagrams_);
    diagramsLayout->setContentsMargins(0, 0, 0, 0);
    diagramsLayout->setSpacing(4);
    diagramsLayout->addStretch();
    diagramScroll_ = new QScrollArea;
    diagramScroll_->setWidget(diagrams_);
    diagramScroll_->setWidgetResizable(true);
    diagramScroll_->setToolTip(tr("The original network and every submodel's, with each layer's output shape"));
    // The diagrams and the chart side by side where the diagrams fit beside the chart, else the
    // chart under them (arrangeFigures): on a 1024-pixel screen the diagrams of three submodels
    // scrolled sideways beside it.
    figures_ = new QSplitter(Qt::Horizontal);
    figures_->addWidget(diagramScroll_);
    // The totals beside the bars where both fit, else the two as tabs (arrangeChartPane): on a
    // 1024-pixel screen the totals beside the bars cut the chart's names, and under them the bars.
    chartPane_ = new QWidget;
    auto* chartLayout = new QHBoxLayout(chartPane_);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartTabs_ = new QTabWidget;
    chartTabs_->setDocumentMode(true);
    chartLayout->addWidget(chartTabs_);
    chartPane_->setMinimumSize(chart_->minimumSize());  // the tabs' least, not the two side by side
    chartPane_->installEventFilter(this);               // arrangeChartPane() at every new size
    figures_->addWidget(chartPane_);
    arrangeChartPane();
    figures_->setChildrenCollapsible(false);
    figures_->installEventFilter(this);  // arrangeFigures() at every new size
}

int SplitPage::heightForWidth(int width) const { return layout()->totalMinimumHeightForWidth(width); }

QList<QWidget*> SplitPage::optionWidgets() const {
    // The class-group rule, the "other" share, the reference button and the shard overlap last:
    // tests address the others by position.
    return {strategy_, requested_, scaleEpochs_,  autoFactor_, factor_,          binaryCombine_, shuffle_,
            fallback_, seed_,      classCombine_, otherShare_, referenceMethod_, shardOverlap_};
}

void SplitPage::setStrategy(Strategy strategy) { strategy_->setCurrentIndex(strategy_->findData(int(strategy))); }

void SplitPage::setSubmodels(int n) { requested_->setValue(n); }

QString SplitPage::summaryText() const { return summary_->text(); }
QString SplitPage::totalsText() const { return totals_->text(); }  // cleared without a plan
QString SplitPage::warningsText() const { return warnings_->isHidden() ? QString() : warnings_->text(); }
QString SplitPage::limitsText() const { return limits_->text(); }
QString SplitPage::limitNoteText() const { return limitNote_->isHidden() ? QString() : limitNote_->text(); }
QString SplitPage::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

void SplitPage::fromDocument() {
    updating_ = true;
    const SplitOptions& o = document_->splitOptions();
    const auto data = document_->dataset();
    // Strategies that cannot split this data's task stay listed, greyed, with the reason.
    if (auto* items = qobject_cast<QStandardItemModel*>(strategy_->model()))
        for (int i = 0; i < strategy_->count(); ++i) {
            const QString why = data ? notApplicable(Strategy(strategy_->itemData(i).toInt()), data->task) : QString();
            if (QStandardItem* item = items->item(i)) {
                item->setEnabled(why.isEmpty());
                item->setToolTip(why);
            }
        }
    strategy_->setCurrentIndex(std::max(0, strategy_->findData(int(o.strategy))));
    requested_->setValue(o.requested);
    scaleEpochs_->setCurrentIndex(o.scaleEpochs ? scaleEpochs_->findData(int(*o.scaleEpochs)) : 0);
    seed_->setValue(int(o.seed));
    // Options that cannot matter for this data and strategy are greyed out, not hidden, and show
    // nothing rather than a value the plan does not use.
    // Regression and reconstruction have output columns to split (and to fall back from).
    const bool regression = data && predictsValues(data->task);
    const Strategy s = data ? resolveStrategy(o.strategy, data->task) : o.strategy;  // what the planner will use
    const bool shards = s == Strategy::DataShards || (s == Strategy::OutputSplit && o.regressionFallbackToShards);
    autoFactor_->setEnabled(shards);
    autoFactor_->setChecked(shards && !o.dataShardFactor);
    factor_->setEnabled(shards && o.dataShardFactor.has_value());
    if (shards) factor_->setValue(o.dataShardFactor ? *o.dataShardFactor : std::sqrt(double(std::max(1, o.requested))));
    else factor_->clear();
    // The plain ensemble (a study's) already sees every row.
    shardOverlap_->setEnabled(shards && !o.ensemble);
    // Up to N - 1, where every submodel sees every row (the planner's limit too).
    shardOverlap_->setMaximum(std::max(1, o.requested - 1));
    shardOverlap_->setValue(shardOverlap_->isEnabled() ? o.shardOverlap : 0.0);
    const bool classGroups = s == Strategy::ClassGroups;
    classCombine_->setEnabled(classGroups);
    classCombine_->setCurrentIndex(classGroups ? std::max(0, classCombine_->findData(int(o.classCombine))) : -1);
    otherShare_->setEnabled(classGroups);
    otherShare_->setValue(classGroups ? o.otherShare : 0.0);
    const bool binary = s == Strategy::BinaryShards;
    binaryCombine_->setEnabled(binary);
    binaryCombine_->setCurrentIndex(binary ? std::max(0, binaryCombine_->findData(int(o.binaryCombine))) : -1);
    shuffle_->setEnabled(binary || shards);
    shuffle_->setChecked((binary || shards) && o.shuffleShards);
    fallback_->setEnabled(!data || regression);
    fallback_->setChecked((!data || regression) && o.regressionFallbackToShards);
    updating_ = false;
}

void SplitPage::toDocument() {
    if (updating_) return;
    SplitOptions o = document_->splitOptions();
    o.strategy = Strategy(strategy_->currentData().toInt());
    o.requested = requested_->value();
    const QVariant scale = scaleEpochs_->currentData();
    o.scaleEpochs = scale.isValid() ? std::optional<EpochScaling>(EpochScaling(scale.toInt())) : std::nullopt;
    // A greyed control shows nothing or a value in force: it never overwrites the saved option.
    if (autoFactor_->isEnabled())
        o.dataShardFactor = autoFactor_->isChecked() ? std::nullopt : std::optional<double>(factor_->value());
    if (classCombine_->isEnabled() && classCombine_->currentIndex() >= 0)
        o.classCombine = ClassCombine(classCombine_->currentData().toInt());
    if (otherShare_->isEnabled()) o.otherShare = otherShare_->value();
    if (shardOverlap_->isEnabled()) o.shardOverlap = shardOverlap_->value();
    // A strategy that cannot use the overlap or the "other" output would refuse them: they go, in
    // the same undo step.
    if (const auto data = document_->dataset()) {
        if (!sharding(o, data->task)) o.shardOverlap = 0;
        if (resolveStrategy(o.strategy, data->task) != Strategy::ClassGroups) o.otherShare = 0;
    }
    if (binaryCombine_->isEnabled() && binaryCombine_->currentIndex() >= 0)
        o.binaryCombine = BinaryCombine(binaryCombine_->currentData().toInt());
    if (shuffle_->isEnabled()) o.shuffleShards = shuffle_->isChecked();
    if (fallback_->isEnabled()) o.regressionFallbackToShards = fallback_->isChecked();
    o.seed = std::uint64_t(seed_->value());
    document_->editSplitOptions(o);  // one undoable step
    fromDocument();                  // the enabled states follow the new strategy
}

}  // namespace skynnet::ui
