#include "ui/core/comparison_table_model.h"

#include <algorithm>

#include "ui/core/formatting.h"

namespace skynnet::ui {

ComparisonTableModel::ComparisonTableModel(TrainingSession* session, QObject* parent)
    : QAbstractTableModel(parent), session_(session) {
    if (!session_) return;
    // A new run empties the table; a completed one fills it (a failed or stopped one leaves it empty).
    connect(session_, &TrainingSession::started, this, [this] { setResults(nullptr, nullptr); });
    connect(session_, &TrainingSession::finished, this, [this] { setResults(session_->results(), session_->plan()); });
    setResults(session_->results(), session_->plan());
}

void ComparisonTableModel::setResults(std::shared_ptr<const ProjectResults> results,
                                      std::shared_ptr<const SplitPlan> plan) {
    beginResetModel();
    results_ = plan ? std::move(results) : nullptr;
    plan_ = std::move(plan);
    std::int64_t largest = 0;
    for (int row = 0; row < rowCount(); ++row) largest = std::max(largest, figures(row).peakBytes);
    memoryUnit_ = memoryUnitFor(largest);
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !results_) return 0;
    return 1 + int(results_->submodels.size()) + (results_->baseline ? 1 : 0);
}

int ComparisonTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

bool ComparisonTableModel::isBaselineRow(int row) const {
    return results_ && results_->baseline && row == rowCount() - 1;
}

ComparisonTableModel::Figures ComparisonTableModel::figures(int row) const {
    const ProjectResults& r = *results_;
    const SplitPlan& plan = *plan_;
    const QString on = QString::fromStdString(r.evaluatedOn);
    Figures f;
    if (row == 0) {
        f.name = QStringLiteral("combined");
        f.metric = r.combinedMetric;
        f.wall = r.splitWallSeconds;
        f.cpu = r.splitCpuSeconds;
        f.peakBytes = r.peakConcurrentBytes;
        f.params = 0;  // the combined model is its submodels
        for (const SubmodelPlan& s : plan.submodels) f.params += s.params;
        f.note = QStringLiteral(
                     "all %1 submodels combined, on the %2 set; memory: the %3 largest submodel peaks held at once")
                     .arg(r.submodels.size())
                     .arg(on)
                     .arg(r.workers);
        return f;
    }
    if (isBaselineRow(row)) {
        const TrainResult& b = *r.baseline;
        f.name = QStringLiteral("baseline");
        f.metric = r.baselineMetric;
        f.wall = b.wallSeconds;
        f.cpu = b.cpuSeconds;
        f.peakBytes = b.peakBytes();
        f.params = plan.originalParams;
        f.note = QStringLiteral("the original model unsplit, on the %1 set").arg(on);
        return f;
    }
    const std::size_t i = std::size_t(row - 1);
    f.name = QStringLiteral("submodel %1").arg(row);
    f.metric = i < r.submodelMetrics.size() ? r.submodelMetrics[i] : 0.0;
    f.wall = r.submodelWallSeconds[i];
    f.cpu = r.submodelCpuSeconds[i];
    f.peakBytes = r.submodels[i].peakBytes();
    f.params = i < plan.submodels.size() ? plan.submodels[i].params : 0;
    f.note = QStringLiteral("on its own sub-problem of the %1 set (%2)")
                 .arg(on, i < plan.submodels.size() ? QString::fromStdString(plan.submodels[i].role) : QString());
    return f;
}

QString ComparisonTableModel::combinedTip(int column, const QString& note) const {
    // Which of the combined row's figures are its submodels' added up, and which the process's.
    const ProjectResults& r = *results_;
    const bool resumed = r.resumed();
    switch (column) {
    case WallSeconds:
        return resumed ? QStringLiteral("The process's: the split training's wall time in this session (the run was "
                                        "resumed; the earlier sessions' wall time is not known)")
                       : QStringLiteral("The process's: the split training's wall time, every submodel from the first "
                                        "start to the last end");
    case CpuSeconds:
        return resumed ? QStringLiteral("The sum: every submodel's CPU seconds added up, the sessions before the "
                                        "resume included")
                       : QStringLiteral("The sum: every submodel's CPU seconds added up");
    case PeakMemory:
        return QStringLiteral("The sum of the %1 largest submodel peaks: what the submodels training at once "
                              "held together")
            .arg(r.workers);
    case Params: return QStringLiteral("The sum: every submodel's parameters added up");
    default: return note;
    }
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const {
    if (!results_ || !index.isValid() || !checkIndex(index)) return {};
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(
            Qt::Alignment((column == Model ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != SortRole) return {};
    const Figures f = figures(index.row());
    if (role == Qt::ToolTipRole) return index.row() == 0 ? combinedTip(column, f.note) : f.note;
    const bool raw = role == SortRole;
    switch (column) {
    case Model: return f.name;
    case Metric: return raw ? QVariant(f.metric) : QVariant(formatMetric(f.metric));
    case WallSeconds: return raw ? QVariant(f.wall) : QVariant(formatSeconds(f.wall));
    case CpuSeconds: return raw ? QVariant(f.cpu) : QVariant(formatSeconds(f.cpu));
    case PeakMemory: return raw ? QVariant(memoryUnit_.of(f.peakBytes)) : QVariant(memoryUnit_.format(f.peakBytes));
    case Params: return qlonglong(f.params);
    default: return {};
    }
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    const QString metric = results_ ? QString::fromStdString(results_->metricName) : QStringLiteral("metric");
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Model: return QStringLiteral("Model");
        case Metric: return metric.left(1).toUpper() + metric.mid(1);
        case WallSeconds: return QStringLiteral("Wall time (s)");
        case CpuSeconds: return QStringLiteral("CPU time (s)");
        case PeakMemory: return QStringLiteral("Peak memory (%1)").arg(memoryUnit_.name);
        case Params: return QStringLiteral("Params");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        // The full name first: a narrow header shows it elided.
        const QString name = headerData(section, orientation, Qt::DisplayRole).toString();
        const auto tip = [&name](const QString& about) { return name + QStringLiteral(": ") + about; };
        switch (section) {
        case Model: return name;
        case Metric:
            return tip(QStringLiteral("%1 on the held-out set; submodels on their own sub-problems").arg(metric));
        case WallSeconds: return tip(QStringLiteral("elapsed seconds of training"));
        case CpuSeconds: return tip(QStringLiteral("CPU seconds of the training threads"));
        case PeakMemory:
            return tip(
                QStringLiteral("peak memory in %1 (%2 bytes) a model needs on a machine of its own: "
                               "parameters, gradients, optimiser state, buffers and its rows")
                    .arg(memoryUnit_.name, memoryUnit_.bytes == 1e3 ? QStringLiteral("10^3") : QStringLiteral("10^6")));
        case Params: return tip(QStringLiteral("weights and biases (combined: all submodels together)"));
        default: return {};
        }
    }
    return {};
}

}  // namespace skynnet::ui
