#include "ui/core/dataset_table_model.h"

#include <QFont>
#include <QPainter>
#include <QPixmap>

#include "ui/core/formatting.h"

namespace skynnet::ui {

namespace {

// A small round target drawn in the header's text colour family: no style is needed in ui/core.
QPixmap makeTargetMark() {
    QPixmap mark(12, 12);
    mark.fill(Qt::transparent);
    QPainter p(&mark);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(QColor(200, 60, 40), 1.6));
    p.setBrush(Qt::NoBrush);
    p.drawEllipse(QRectF(1, 1, 10, 10));
    p.setBrush(QColor(200, 60, 40));
    p.drawEllipse(QRectF(4, 4, 4, 4));
    return mark;
}

}  // namespace

QPixmap DatasetTableModel::targetMark() {
    static const QPixmap mark = makeTargetMark();
    return mark;
}

DatasetTableModel::DatasetTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void DatasetTableModel::setDataset(std::shared_ptr<const Dataset> data) {
    beginResetModel();
    data_ = std::move(data);
    categoricalOf_.assign(data_ ? std::size_t(data_->features.cols()) : 0, -1);
    if (data_)
        for (std::size_t k = 0; k < data_->categoricals.size(); ++k) {
            const int c = data_->categoricals[k].column;
            if (c >= 0 && c < int(categoricalOf_.size())) categoricalOf_[std::size_t(c)] = int(k);
        }
    endResetModel();
}

bool DatasetTableModel::rawText() const { return data_ && data_->isText() && data_->features.cols() == 0; }

int DatasetTableModel::featureColumns() const {
    if (rawText()) return 1;  // the texts, tokenised only when prepared for training
    return data_ ? int(data_->features.cols()) : 0;
}

int DatasetTableModel::targetColumns() const {
    if (!data_) return 0;
    if (data_->task == Task::Regression) return int(data_->targets.cols());
    return data_->labels.empty() ? 0 : 1;  // prediction data may have no labels
}

int DatasetTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !data_ ? 0 : int(data_->size());
}

int DatasetTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : featureColumns() + targetColumns();
}

QString DatasetTableModel::columnName(int column) const {
    const int features = featureColumns();
    if (column < features) {
        if (rawText())
            return data_->textColumn.empty() ? QStringLiteral("text") : QString::fromStdString(data_->textColumn);
        if (std::size_t(column) < data_->featureNames.size())
            return QString::fromStdString(data_->featureNames[std::size_t(column)]);
        return QStringLiteral("x%1").arg(column + 1);
    }
    const int t = column - features;
    // The target is named as the file names it ("species"); "class" only where the file has no name.
    if (data_->task != Task::Regression)
        return data_->labelColumn.empty() ? QStringLiteral("class") : QString::fromStdString(data_->labelColumn);
    if (std::size_t(t) < data_->targetNames.size()) return QString::fromStdString(data_->targetNames[std::size_t(t)]);
    return QStringLiteral("y%1").arg(t + 1);
}

QString DatasetTableModel::cellText(int row, int column, bool* numeric) const {
    const int features = featureColumns();
    *numeric = true;
    if (column < features && rawText()) {
        *numeric = false;
        return QString::fromStdString(data_->texts[std::size_t(row)]);
    }
    if (column < features) {
        const float v = data_->features(row, column);
        const int k = categoricalOf_[std::size_t(column)];
        if (k >= 0) {
            const auto& categories = data_->categoricals[std::size_t(k)].categories;
            const int code = int(v);
            if (code >= 0 && std::size_t(code) < categories.size()) {
                *numeric = false;
                return QString::fromStdString(categories[std::size_t(code)]);
            }
        }
        return QString::number(double(v), 'g', 6);
    }
    const int t = column - features;
    if (data_->task == Task::Regression) return QString::number(double(data_->targets(row, t)), 'g', 6);
    const int label = data_->labels[std::size_t(row)];
    if (label >= 0 && label < data_->classCount() && !data_->classNames[std::size_t(label)].empty()) {
        *numeric = false;
        return QString::fromStdString(data_->classNames[std::size_t(label)]);
    }
    return QString::number(label);
}

QVariant DatasetTableModel::data(const QModelIndex& index, int role) const {
    if (!data_ || !index.isValid() || !checkIndex(index)) return {};
    const int row = index.row(), column = index.column();
    switch (role) {
    case Qt::DisplayRole: {
        bool numeric = false;
        return cellText(row, column, &numeric);
    }
    case SortRole:
        if (column < featureColumns() && rawText()) return QString::fromStdString(data_->texts[std::size_t(row)]);
        if (column < featureColumns()) return double(data_->features(row, column));
        if (data_->task == Task::Regression) return double(data_->targets(row, column - featureColumns()));
        return data_->labels[std::size_t(row)];
    case Qt::ToolTipRole: {
        bool numeric = false;
        const QString text = cellText(row, column, &numeric);
        QString tip = QStringLiteral("sample %1, %2: %3").arg(row + 1).arg(columnName(column), text);
        if (column >= featureColumns() && data_->task != Task::Regression)
            tip += QStringLiteral(" (class %1)").arg(data_->labels[std::size_t(row)]);
        return tip;
    }
    case Qt::TextAlignmentRole: {
        bool numeric = false;
        cellText(row, column, &numeric);
        return QVariant::fromValue(Qt::Alignment((numeric ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    }
    default: return {};
    }
}

QVariant DatasetTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (!data_ || section < 0) return {};
    if (orientation == Qt::Vertical) {
        if (section >= rowCount()) return {};
        if (role == Qt::DisplayRole) return section + 1;  // samples are numbered from 1, as in messages
        if (role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    }
    if (section >= columnCount()) return {};
    const bool target = section >= featureColumns();
    switch (role) {
    case Qt::DisplayRole: return columnName(section);
    case Qt::ToolTipRole: {
        // The full name first: a narrow header shows it elided.
        const QString name = columnName(section);
        if (!target && rawText())
            return QStringLiteral("%1: the text of each sample, turned into token ids for training").arg(name);
        if (!target) {
            const int k = categoricalOf_[std::size_t(section)];
            if (k >= 0)
                return QStringLiteral("%1: feature %2, categorical (%3 categories, one-hot encoded for training)")
                    .arg(name)
                    .arg(section + 1)
                    .arg(data_->categoricals[std::size_t(k)].categories.size());
            return QStringLiteral("%1: feature %2, numeric (raw values, before scaling)").arg(name).arg(section + 1);
        }
        if (data_->task == Task::Regression) return QStringLiteral("%1: regression target").arg(name);
        return QStringLiteral("%1: target, one of %2 declared classes").arg(name).arg(data_->classCount());
    }
    case Qt::FontRole: {
        if (!target) return {};
        QFont bold;  // the target column stands out from the features
        bold.setBold(true);
        return bold;
    }
    case Qt::DecorationRole: return target ? QVariant(targetMark()) : QVariant();
    case IsTargetRole: return target;
    default: return {};
    }
}

}  // namespace skynnet::ui
