#include "ui/core/layer_table_model.h"

#include "core/error.h"
#include "ui/core/formatting.h"

namespace skynnet::ui {
namespace {

QString typeName(LayerType t) {
    switch (t) {
    case LayerType::Dense: return QStringLiteral("dense");
    case LayerType::Dropout: return QStringLiteral("dropout");
    case LayerType::Flatten: return QStringLiteral("flatten");
    }
    return {};
}

std::optional<LayerType> parseType(const QString& text) {
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("dense")) return LayerType::Dense;
    if (t == QLatin1String("dropout")) return LayerType::Dropout;
    if (t == QLatin1String("flatten")) return LayerType::Flatten;
    return std::nullopt;
}

// A layer changed to another type keeps what still applies and gets the usual defaults otherwise;
// only dense widths are scalable (method.md §1).
LayerSpec retyped(LayerSpec l, LayerType type) {
    if (type == l.type) return l;
    l.type = type;
    l.scalable = type == LayerType::Dense;
    if (type == LayerType::Dense && l.units < 1) l.units = 64;
    if (type == LayerType::Dropout && !(l.rate > 0)) l.rate = 0.2f;
    return l;
}

bool numericColumn(int column) {
    return column == LayerTableModel::Units || column == LayerTableModel::Rate || column == LayerTableModel::Params ||
           column == LayerTableModel::Flops;
}

}  // namespace

LayerTableModel::LayerTableModel(ProjectDocument* document, QObject* parent) : QAbstractTableModel(parent), document_(document) {
    if (document_) {
        spec_ = document_->network();
        connect(document_, &ProjectDocument::networkChanged, this, &LayerTableModel::onNetworkChanged);
    }
    refreshFigures();
}

void LayerTableModel::refreshFigures() { figures_ = describe(spec_); }

void LayerTableModel::onNetworkChanged() {
    const NetworkSpec& d = document_->network();
    if (d == spec_) return;  // our own edit coming back
    if (d.layers.size() == spec_.layers.size()) {
        spec_ = d;
        refreshFigures();
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    spec_ = d;
    refreshFigures();
    endResetModel();
}

bool LayerTableModel::reject(const QString& reason) {
    emit editRejected(reason);
    return false;
}

bool LayerTableModel::commit(const NetworkSpec& spec) {
    // Widths change the parameter counts and FLOPs of the layer after too: refresh every row.
    refreshFigures();
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    if (document_) document_->editNetwork(spec);  // one undoable step, named from the change
    return true;
}

bool LayerTableModel::addLayer(int row, const LayerSpec& layer) {
    if (row < 0 || row > layerCount()) return reject(QStringLiteral("no layer position %1").arg(row + 1));
    if (layer.type == LayerType::Dense && layer.units < 1) return reject(QStringLiteral("a dense layer needs at least 1 unit"));
    if (layer.type == LayerType::Dropout && !(layer.rate >= 0 && layer.rate < 1))
        return reject(QStringLiteral("a dropout rate must be in [0, 1)"));
    beginInsertRows({}, row, row);
    spec_.layers.insert(spec_.layers.begin() + row, layer);
    refreshFigures();
    endInsertRows();
    return commit(spec_);
}

bool LayerTableModel::removeLayer(int row) {
    if (row < 0 || row >= layerCount()) return reject(QStringLiteral("no hidden layer %1 to remove").arg(row + 1));
    beginRemoveRows({}, row, row);
    spec_.layers.erase(spec_.layers.begin() + row);
    refreshFigures();
    endRemoveRows();
    return commit(spec_);
}

bool LayerTableModel::moveLayer(int from, int to) {
    const int n = layerCount();
    if (from < 0 || from >= n || to < 0 || to >= n) return reject(QStringLiteral("cannot move layer %1 to %2").arg(from + 1).arg(to + 1));
    if (from == to) return true;
    // Qt's destination is the row the moved one goes before, counted before the move.
    beginMoveRows({}, from, from, {}, to > from ? to + 1 : to);
    const LayerSpec l = spec_.layers[std::size_t(from)];
    spec_.layers.erase(spec_.layers.begin() + from);
    spec_.layers.insert(spec_.layers.begin() + to, l);
    refreshFigures();
    endMoveRows();
    return commit(spec_);
}

int LayerTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : layerCount() + 1; }

int LayerTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant LayerTableModel::display(int row, int column) const {
    const LayerFigures& f = figures_[std::size_t(row)];
    switch (column) {
    case OutputShape: return QString::fromStdString(f.output.toString());
    case Params: return qlonglong(f.params);
    case Flops: return qlonglong(f.flopsPerSample);
    default: break;
    }
    if (isOutputRow(row)) {
        switch (column) {
        case Type: return QStringLiteral("output");
        case Units: return spec_.outputs;
        case Activation: return QString::fromStdString(activationName(spec_.outputActivation));
        default: return {};
        }
    }
    const LayerSpec& l = spec_.layers[std::size_t(row)];
    switch (column) {
    case Type: return typeName(l.type);
    case Units: return l.type == LayerType::Dense ? QVariant(l.units) : QVariant();
    case Activation: return l.type == LayerType::Dense ? QVariant(QString::fromStdString(activationName(l.activation))) : QVariant();
    case Rate: return l.type == LayerType::Dropout ? QVariant(double(l.rate)) : QVariant();
    default: return {};
    }
}

QVariant LayerTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !checkIndex(index)) return {};
    const int row = index.row(), column = index.column();
    const bool dense = !isOutputRow(row) && spec_.layers[std::size_t(row)].type == LayerType::Dense;
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
    case SortRole: return display(row, column);
    case Qt::CheckStateRole:
        if (column == Scalable && dense) return spec_.layers[std::size_t(row)].scalable ? Qt::Checked : Qt::Unchecked;
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment((numericColumn(column) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        if (isOutputRow(row)) return QStringLiteral("the output layer follows the data: its units are the classes or target columns");
        if (column == Scalable && dense)
            return QStringLiteral("scalable: each submodel gets ceil(units / F) units; off: the width is kept");
        if (column == Units && dense && spec_.layers[std::size_t(row)].scalable)
            return QStringLiteral("%1 units in the original model, ceil(%1 / F) in each submodel").arg(spec_.layers[std::size_t(row)].units);
        if (column == Params || column == Flops) return QString::fromStdString(figures_[std::size_t(row)].description);
        return {};
    default: return {};
    }
}

Qt::ItemFlags LayerTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid() || !checkIndex(index)) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (isOutputRow(index.row())) return f;
    const LayerType t = spec_.layers[std::size_t(index.row())].type;
    switch (index.column()) {
    case Type: return f | Qt::ItemIsEditable;
    case Units:
    case Activation: return t == LayerType::Dense ? f | Qt::ItemIsEditable : f;
    case Rate: return t == LayerType::Dropout ? f | Qt::ItemIsEditable : f;
    case Scalable: return t == LayerType::Dense ? f | Qt::ItemIsUserCheckable : f;
    default: return f;
    }
}

bool LayerTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || !checkIndex(index) || !(flags(index) & (Qt::ItemIsEditable | Qt::ItemIsUserCheckable)))
        return false;
    const int row = index.row();
    LayerSpec l = spec_.layers[std::size_t(row)];
    const QString where = QStringLiteral("layer %1: ").arg(row + 1);
    if (role == Qt::CheckStateRole && index.column() == Scalable) {
        l.scalable = value.toInt() == Qt::Checked;
    } else if (role != Qt::EditRole) {
        return false;
    } else if (index.column() == Type) {
        const auto t = value.typeId() == QMetaType::Int ? std::optional<LayerType>(LayerType(value.toInt())) : parseType(value.toString());
        if (!t || (*t != LayerType::Dense && *t != LayerType::Dropout && *t != LayerType::Flatten))
            return reject(where + QStringLiteral("unknown layer type '%1' (expected dense, dropout or flatten)").arg(value.toString()));
        l = retyped(l, *t);
    } else if (index.column() == Units) {
        bool ok = false;
        const int units = value.toInt(&ok);
        if (!ok || units < 1) return reject(where + QStringLiteral("units must be a whole number of at least 1"));
        l.units = units;
    } else if (index.column() == Activation) {
        try {
            l.activation = parseActivation(value.toString().trimmed().toLower().toStdString());
        } catch (const Error& e) {
            return reject(where + QString::fromStdString(e.what()));
        }
    } else if (index.column() == Rate) {
        bool ok = false;
        const double rate = value.toDouble(&ok);
        if (!ok || !(rate >= 0 && rate < 1)) return reject(where + QStringLiteral("the dropout rate must be in [0, 1)"));
        l.rate = float(rate);
    } else {
        return false;
    }
    if (l == spec_.layers[std::size_t(row)]) return true;
    spec_.layers[std::size_t(row)] = l;
    return commit(spec_);
}

QVariant LayerTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        if (role != Qt::DisplayRole || section < 0 || section >= rowCount()) return {};
        return isOutputRow(section) ? QStringLiteral("out") : QString::number(section + 1);
    }
    if (section < 0 || section >= ColumnCount) return {};
    static const char* const names[] = {"Type", "Units", "Activation", "Rate", "Scalable", "Output shape", "Params", "FLOPs/sample"};
    static const char* const tips[] = {
        "dense, dropout or flatten",
        "neurons of a dense layer",
        "activation of a dense layer",
        "fraction of inputs a dropout layer zeroes while training",
        "whether the split shrinks this width by the reduction factor F",
        "shape of the layer's output for one sample (channels, height, width)",
        "weights and biases",
        "floating-point operations per sample, forward pass (multiply and add counted apart)",
    };
    if (role == Qt::DisplayRole) return QString::fromLatin1(names[section]);
    if (role == Qt::ToolTipRole) return QString::fromLatin1(tips[section]);
    return {};
}

}  // namespace skynnet::ui
