#include "ui/core/run_list_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include "ui/core/formatting.h"
#include "ui/core/project_document.h"
#include "ui/core/run_history.h"

namespace skynnet::ui {

RunListModel::RunListModel(ProjectDocument* document, QObject* parent)
    : QAbstractTableModel(parent), document_(document) {
    if (!document_) return;
    connect(document_, &ProjectDocument::runsChanged, this, &RunListModel::reset);
    connect(document_, &ProjectDocument::shownRunChanged, this, &RunListModel::reset);  // the shown run is bold
    for (auto signal :
         {&ProjectDocument::dataChanged, &ProjectDocument::networkChanged, &ProjectDocument::splitOptionsChanged})
        connect(document_, signal, this, &RunListModel::refreshMatches);
}

void RunListModel::reset() {
    beginResetModel();
    endResetModel();
}

void RunListModel::refreshMatches() {
    if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int RunListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !document_ ? 0 : int(document_->runs().size());
}

int RunListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

int RunListModel::runIndex(int row) const { return row >= 0 && row < rowCount() ? rowCount() - 1 - row : -1; }

int RunListModel::rowOf(int run) const { return run >= 0 && run < rowCount() ? rowCount() - 1 - run : -1; }

QVariant RunListModel::data(const QModelIndex& index, int role) const {
    const int i = runIndex(index.row());
    if (!index.isValid() || i < 0) return {};
    const ProjectRun& run = document_->runs()[std::size_t(i)];
    if (role == RunIndexRole) return i;
    const QStringList stale = outOfDateParts(run, *document_);
    if (role == Qt::FontRole && i == document_->shownRun()) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ForegroundRole && index.column() == Matches && !stale.isEmpty())
        return QBrush(QColor(0xa0, 0x50, 0x00));
    if (role == Qt::ToolTipRole) {
        if (index.column() == Matches) return stale.isEmpty() ? QVariant() : outOfDateText(stale);
        if (index.column() == Status && !run.message.empty()) return QString::fromStdString(run.message);
        if (index.column() == Size)
            return hasWeights(run) ? tr("Curves, figures, test outputs and trained weights")
                                   : tr("Curves, figures and test outputs; the weights were dropped");
        return {};
    }
    if (role != Qt::DisplayRole && role != SortRole) return {};
    switch (Column(index.column())) {
    case Started: return runStartText(run);
    case Status: return QString::fromStdString(statusName(run.status));
    case Strategy: return runStrategyText(run);
    case Metric: return runMetricText(run);
    case WallTime:
        if (!run.results) return tr("none");
        return role == SortRole ? QVariant(run.results->wallSeconds)
                                : QVariant(formatSeconds(run.results->wallSeconds) + tr(" s"));
    case Size: {
        const std::int64_t bytes = runBytes(run);
        if (role == SortRole) return qlonglong(bytes);
        return formatSize(bytes) + (hasWeights(run) ? tr(" with weights") : QString());
    }
    case Matches:
        if (!run.settings)
            return stale.isEmpty() ? tr("settings not recorded") : tr("out of date (settings not recorded)");
        return stale.isEmpty() ? tr("up to date") : tr("out of date: %1").arg(stale.join(QStringLiteral(", ")));
    case ColumnCount: break;
    }
    return {};
}

QVariant RunListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && Column(section) == WallTime)
        return tr("The whole run's wall time: the split's training and, when it was trained, the baseline's, with "
                  "the data preparation and the evaluation (pauses not counted)");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Started: return tr("Started");
    case Status: return tr("Status");
    case Strategy: return tr("Strategy");
    case Metric: return tr("Metric");
    // Not the split's wall time of the table above: the run's, the baseline's included.
    case WallTime: return tr("Run time");
    case Size: return tr("Size");
    case Matches: return tr("Project");
    case ColumnCount: break;
    }
    return {};
}

}  // namespace skynnet::ui
