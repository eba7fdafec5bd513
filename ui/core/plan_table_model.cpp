#include "ui/core/plan_table_model.h"

#include <algorithm>

#include "core/error.h"
#include "ui/core/formatting.h"

namespace skynnet::ui {
namespace {

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

PlanTableModel::PlanTableModel(ProjectDocument* document, QObject* parent)
    : QAbstractTableModel(parent), document_(document) {
    if (!document_) return;
    for (auto signal : {&ProjectDocument::dataChanged, &ProjectDocument::networkChanged,
                        &ProjectDocument::splitOptionsChanged, &ProjectDocument::trainSettingsChanged})
        connect(document_, signal, this, &PlanTableModel::replan);
    replan();
}

void PlanTableModel::replan() {
    if (!document_ || !document_->hasData()) {
        setPlan(std::nullopt, document_ ? QStringLiteral("no data loaded") : QString());
        return;
    }
    try {
        setPlan(document_->plan());
    } catch (const std::exception& e) {
        setPlan(std::nullopt, QString::fromStdString(e.what()));
    }
}

void PlanTableModel::setPlan(std::optional<SplitPlan> plan, const QString& error) {
    beginResetModel();
    plan_ = std::move(plan);
    error_ = error;
    endResetModel();
    emit planChanged(plan_ ? QString::fromStdString(firstLine(planSummary(*plan_))) : QString(), error_);
}

int PlanTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !plan_ ? 0 : plan_->submodelCount() + 1;
}

int PlanTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PlanTableModel::cell(int row, int column, bool sortValue) const {
    const SplitPlan& p = *plan_;
    const bool original = row == 0;
    const SubmodelPlan* s = original ? nullptr : &p.submodels[std::size_t(row - 1)];
    const NetworkSpec& spec = original ? p.original : s->spec;
    const std::int64_t params = original ? p.originalParams : s->params;
    const std::int64_t flops = original ? p.originalFlopsPerSample : s->flopsPerSample;
    const std::int64_t memory = original ? p.originalMemoryBytes : s->memoryBytes;
    switch (column) {
    case Model: return original ? QStringLiteral("original") : QStringLiteral("submodel %1").arg(s->index + 1);
    case Role:
        return original ? QStringLiteral("baseline: the whole problem, every sample") : QString::fromStdString(s->role);
    case Outputs: return spec.outputs;  // a submodel's own output size: its classes or columns
    case Samples: return qlonglong(original ? p.samples : long(s->rows.size()));
    case Widths: return QString::fromStdString(spec.widthsSummary());
    case Params: return qlonglong(params);
    case Flops: return sortValue ? QVariant(qlonglong(flops)) : QVariant(formatFlops(flops));
    case Memory: return sortValue ? QVariant(qlonglong(memory)) : QVariant(memoryUnit().format(memory));
    default: return {};
    }
}

QVariant PlanTableModel::data(const QModelIndex& index, int role) const {
    if (!plan_ || !index.isValid() || !checkIndex(index)) return {};
    const int row = index.row(), column = index.column();
    switch (role) {
    case Qt::DisplayRole: return cell(row, column, false);
    case SortRole: return cell(row, column, true);
    case Qt::TextAlignmentRole: {
        const bool text = column == Model || column == Role || column == Widths;
        return QVariant::fromValue(Qt::Alignment((text ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    }
    case Qt::ToolTipRole: {
        if (row == 0)
            return QStringLiteral("the designed network unsplit, trained as the baseline for %1 epoch(s)")
                .arg(plan_->epochs);
        const SubmodelPlan& s = plan_->submodels[std::size_t(row - 1)];
        QString tip = QStringLiteral("%1, trained for %2 epoch(s)")
                          .arg(QString::fromStdString(s.role))
                          .arg(plan_->effectiveEpochs);
        if (!s.classes.empty()) {
            // The plan holds class indices; their names are the document's dataset's.
            const auto data = document_ ? document_->dataset() : nullptr;
            QStringList names;
            for (int c : s.classes)
                names << (data && c < data->classCount() ? QString::fromStdString(data->classNames[std::size_t(c)])
                                                         : QString::number(c));
            tip += QStringLiteral("\nclasses: ") + names.join(QStringLiteral(", "));
        }
        // The Samples column counts every row it learns from; say which of them are borrowed.
        if (s.otherRows > 0)
            tip += QStringLiteral("\n%1 of its %2 samples are 'other' rows, from classes it does not own")
                       .arg(s.otherRows)
                       .arg(s.rows.size());
        if (s.overlapRows > 0)
            tip += QStringLiteral("\n%1 of its %2 samples come from the other shards (overlap)")
                       .arg(s.overlapRows)
                       .arg(s.rows.size());
        return tip;
    }
    default: return {};
    }
}

MemoryUnit PlanTableModel::memoryUnit() const {
    std::int64_t largest = plan_ ? plan_->originalMemoryBytes : 0;
    if (plan_)
        for (const SubmodelPlan& s : plan_->submodels) largest = std::max(largest, s.memoryBytes);
    return memoryUnitFor(largest);
}

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const names[] = {"Model",  "Role",   "Outputs",     "Samples",
                                        "Widths", "Params", "FLOP/sample", "Memory"};
    static const char* const tips[] = {
        "the original model, then each submodel",
        "the classes, target columns or data shard a submodel owns",
        "output units: classes or target columns",
        "training samples it learns from, its 'other' or overlap rows included (its tooltip says how many)",
        "input-hidden...-output widths",
        "weights and biases",
        "floating-point operations per sample, forward pass (k: thousands, M: millions, G: billions)",
        "training memory estimate (kB: 10^3 bytes, MB: 10^6): weights, gradients, optimiser state, batch buffers",
    };
    if (role == Qt::DisplayRole)
        return section == Memory ? QStringLiteral("Memory (%1)").arg(memoryUnit().name)
                                 : QString::fromLatin1(names[section]);
    if (role == Qt::ToolTipRole) return QString::fromLatin1(tips[section]);
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(
            Qt::Alignment((section == Model || section == Role || section == Widths ? Qt::AlignLeft : Qt::AlignRight) |
                          Qt::AlignVCenter));
    return {};
}

}  // namespace skynnet::ui
