#include "ui/core/epoch_table_model.h"

#include "train/metrics.h"
#include "ui/core/formatting.h"

namespace skynnet::ui {
namespace {

// Header labels start with a capital like the other columns ("Loss", "Accuracy").
QString capitalised(const QString& s) { return s.isEmpty() ? s : s.left(1).toUpper() + s.mid(1); }

}  // namespace

EpochTableModel::EpochTableModel(TrainingSession* session, QObject* parent)
    : QAbstractTableModel(parent), session_(session) {
    if (!session_) return;
    connect(session_, &TrainingSession::started, this, &EpochTableModel::onStarted);
    connect(session_, &TrainingSession::progress, this, &EpochTableModel::onProgress);
    // Show what an earlier run left, if any.
    if (session_->plan()) {
        onStarted(int(session_->submodels().size()), !session_->baseline().epochs.empty());
        QList<int> all;
        for (int i = 0; i < int(session_->submodels().size()); ++i) all << i;
        onProgress(all, true);
    }
}

void EpochTableModel::onStarted(int submodels, bool withBaseline) {
    beginResetModel();
    blocks_.clear();
    for (int i = 0; i < submodels; ++i) blocks_.push_back({i, {}});
    if (withBaseline) blocks_.push_back({-1, {}});
    const auto plan = session_ ? session_->plan() : nullptr;
    metricName_ = plan ? QString::fromStdString(headlineMetricName(plan->task)) : QStringLiteral("metric");
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void EpochTableModel::append(std::size_t block, const ModelHistory& snapshot) {
    Block& b = blocks_[block];
    if (snapshot.epochs.size() <= b.epochs.size()) return;
    int first = 0;
    for (std::size_t k = 0; k < block; ++k) first += int(blocks_[k].epochs.size());
    first += int(b.epochs.size());
    const int added = int(snapshot.epochs.size() - b.epochs.size());
    beginInsertRows({}, first, first + added - 1);
    b.epochs.insert(b.epochs.end(), snapshot.epochs.begin() + std::ptrdiff_t(b.epochs.size()), snapshot.epochs.end());
    endInsertRows();
}

void EpochTableModel::onProgress(const QList<int>& changed, bool baselineChanged) {
    if (!session_) return;
    const auto& snapshots = session_->submodels();
    for (int i : changed)
        if (i >= 0 && std::size_t(i) < snapshots.size() && std::size_t(i) < blocks_.size() &&
            blocks_[std::size_t(i)].submodel == i)
            append(std::size_t(i), snapshots[std::size_t(i)]);
    if (baselineChanged && !blocks_.empty() && blocks_.back().submodel == -1)
        append(blocks_.size() - 1, session_->baseline());
}

bool EpochTableModel::locate(int row, std::size_t& block, std::size_t& epoch) const {
    if (row < 0) return false;
    for (block = 0; block < blocks_.size(); ++block) {
        if (std::size_t(row) < blocks_[block].epochs.size()) {
            epoch = std::size_t(row);
            return true;
        }
        row -= int(blocks_[block].epochs.size());
    }
    return false;
}

int EpochTableModel::submodelAt(int row) const {
    std::size_t b = 0, e = 0;
    return locate(row, b, e) ? blocks_[b].submodel : -2;
}

const EpochStats* EpochTableModel::epochAt(int row) const {
    std::size_t b = 0, e = 0;
    return locate(row, b, e) ? &blocks_[b].epochs[e] : nullptr;
}

int EpochTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid()) return 0;
    int n = 0;
    for (const auto& b : blocks_) n += int(b.epochs.size());
    return n;
}

int EpochTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant EpochTableModel::data(const QModelIndex& index, int role) const {
    std::size_t b = 0, e = 0;
    if (!index.isValid() || !checkIndex(index) || !locate(index.row(), b, e)) return {};
    const EpochStats& s = blocks_[b].epochs[e];
    const int submodel = blocks_[b].submodel;
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(
            Qt::Alignment((column == Model ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole) {
        if (column == Metric && submodel >= 0)
            return QStringLiteral("on the submodel's own sub-problem (its classes or columns)");
        if ((column == ValidationLoss || column == ValidationMetric) && !s.hasValidation)
            return QStringLiteral("no validation data");
        return QStringLiteral("learning rate %1").arg(s.learningRate, 0, 'g', 4);
    }
    if (role != Qt::DisplayRole && role != SortRole) return {};
    const bool raw = role == SortRole;
    switch (column) {
    case Model:
        if (raw) return submodel;
        if (submodel < 0) return QStringLiteral("baseline");
        if (const QString host = session_->submodelHost(submodel); !host.isEmpty())  // a run on other machines
            return QStringLiteral("submodel %1 on %2").arg(submodel + 1).arg(host);
        return QStringLiteral("submodel %1").arg(submodel + 1);
    case Epoch: return s.epoch;
    case Loss: return raw ? QVariant(s.loss) : QVariant(formatLoss(s.loss));
    case Metric: return raw ? QVariant(s.metric) : QVariant(formatMetric(s.metric));
    case ValidationLoss:
        if (!s.hasValidation) return {};
        return raw ? QVariant(s.validationLoss) : QVariant(formatLoss(s.validationLoss));
    case ValidationMetric:
        if (!s.hasValidation) return {};
        return raw ? QVariant(s.validationMetric) : QVariant(formatMetric(s.validationMetric));
    case Seconds: return raw ? QVariant(s.seconds) : QVariant(formatSeconds(s.seconds));
    case SamplesPerSecond:
        return raw ? QVariant(s.samplesPerSecond) : QVariant(QString::number(s.samplesPerSecond, 'f', 0));
    default: return {};
    }
}

QVariant EpochTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Model: return QStringLiteral("Model");
        case Epoch: return QStringLiteral("Epoch");
        case Loss: return QStringLiteral("Loss");
        case Metric: return capitalised(metricName_);
        case ValidationLoss: return QStringLiteral("Val loss");
        case ValidationMetric: return QStringLiteral("Val ") + metricName_;
        case Seconds: return QStringLiteral("Time (s)");
        case SamplesPerSecond: return QStringLiteral("Samples/s");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Loss: return QStringLiteral("mean training loss over the epoch");
        case Metric: return QStringLiteral("training %1 over the epoch").arg(metricName_);
        case ValidationLoss: return QStringLiteral("loss on the validation rows after the epoch");
        case ValidationMetric: return QStringLiteral("%1 on the validation rows after the epoch").arg(metricName_);
        case Seconds: return QStringLiteral("wall seconds of the epoch");
        case SamplesPerSecond: return QStringLiteral("training samples per wall second");
        default: return {};
        }
    }
    return {};
}

}  // namespace skynnet::ui
