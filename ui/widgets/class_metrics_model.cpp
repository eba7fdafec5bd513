#include "ui/widgets/class_metrics_model.h"

namespace skynnet::ui {

void ClassMetricsModel::setMetrics(const ClassificationMetrics& metrics, const QStringList& classNames) {
    beginResetModel();
    rows_.clear();
    for (std::size_t k = 0; k < metrics.precision.size(); ++k) {
        Row r;
        r.name = int(k) < classNames.size() ? classNames[int(k)] : QString::number(k);
        r.precision = metrics.precision[k];
        r.recall = k < metrics.recall.size() ? metrics.recall[k] : 0.0;
        r.f1 = r.precision + r.recall > 0 ? 2 * r.precision * r.recall / (r.precision + r.recall) : 0.0;
        if (k < metrics.confusion.size())
            for (long v : metrics.confusion[k]) r.support += v;
        rows_.push_back(r);
    }
    endResetModel();
}

void ClassMetricsModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

int ClassMetricsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int ClassMetricsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ClassMetricsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(rows_.size())) return {};
    const Row& r = rows_[std::size_t(index.row())];
    if (role == Qt::TextAlignmentRole && index.column() != ClassName) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case ClassName: return r.name;
    case Precision: return QString::number(r.precision, 'f', 3);
    case Recall: return QString::number(r.recall, 'f', 3);
    case F1: return QString::number(r.f1, 'f', 3);
    case Support: return qlonglong(r.support);
    default: return {};
    }
}

QVariant ClassMetricsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    // The tooltip is the whole name, for a header too narrow to show it.
    if ((role != Qt::DisplayRole && role != Qt::ToolTipRole) || orientation != Qt::Horizontal) return {};
    static const char* names[] = {"Class", "Precision", "Recall", "F1", "Support"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

}  // namespace skynnet::ui
