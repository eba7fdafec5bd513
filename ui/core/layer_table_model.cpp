#include "ui/core/layer_table_model.h"

#include "core/error.h"
#include "ui/core/formatting.h"

namespace skynnet::ui {
namespace {

std::optional<LayerSpec> parseType(const QString& text) {
    try {
        return layerOfKind(text.trimmed().toLower().toStdString());
    } catch (const Error&) {
        return std::nullopt;
    }
}

// A layer changed to another type gets that type's usual defaults; only dense widths are scalable
// (method.md §1).
LayerSpec retyped(const LayerSpec& l, const LayerSpec& type) {
    if (type.index() == l.index()) return l;
    return visitLayer(
        type, [](const DenseSpec&) -> LayerSpec { return DenseSpec{64, skynnet::Activation::ReLU, true}; },
        [](const DropoutSpec&) -> LayerSpec { return DropoutSpec{0.2f}; },
        [](const FlattenSpec&) -> LayerSpec { return FlattenSpec{}; },
        // Image layers are edited by the designer in a later commit; until then only their type.
        [](const auto& other) -> LayerSpec { return other; });
}

// The columns a layer of each kind lets the user edit (Type aside, which every kind has).
bool editable(const LayerSpec& l, int column) {
    return visitLayer(
        l,
        [&](const DenseSpec&) {
            return column == LayerTableModel::Units || column == LayerTableModel::Activation ||
                   column == LayerTableModel::Scalable;
        },
        [&](const DropoutSpec&) { return column == LayerTableModel::Rate; }, [](const FlattenSpec&) { return false; },
        // Image layers are edited by the designer in a later commit; until then only their type.
        [](const auto&) { return false; });
}

// Why a layer cannot go into the network, or empty.
QString problemOf(const LayerSpec& l) {
    return visitLayer(
        l, [](const DenseSpec& d) { return d.units < 1 ? QStringLiteral("a dense layer needs at least 1 unit") : QString(); },
        [](const DropoutSpec& d) {
            return d.rate >= 0 && d.rate < 1 ? QString() : QStringLiteral("a dropout rate must be in [0, 1)");
        },
        [](const FlattenSpec&) { return QString(); },
        // Image layers are edited by the designer in a later commit; until then only their type.
        [](const auto&) { return QString(); });
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
    if (const QString problem = problemOf(layer); !problem.isEmpty()) return reject(problem);
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
    if (column == Type) return QString::fromStdString(kindName(l));
    return visitLayer(
        l,
        [&](const DenseSpec& d) {
            if (column == Units) return QVariant(d.units);
            if (column == Activation) return QVariant(QString::fromStdString(activationName(d.activation)));
            return QVariant();
        },
        [&](const DropoutSpec& d) { return column == Rate ? QVariant(double(d.rate)) : QVariant(); },
        [](const FlattenSpec&) { return QVariant(); },
        // Image layers are edited by the designer in a later commit; until then only their type.
        [](const auto&) { return QVariant(); });
}

QVariant LayerTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !checkIndex(index)) return {};
    const int row = index.row(), column = index.column();
    const DenseSpec* dense = isOutputRow(row) ? nullptr : std::get_if<DenseSpec>(&spec_.layers[std::size_t(row)]);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
    case SortRole: return display(row, column);
    case Qt::CheckStateRole:
        if (column == Scalable && dense) return dense->scalable ? Qt::Checked : Qt::Unchecked;
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment((numericColumn(column) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        if (isOutputRow(row)) return QStringLiteral("the output layer follows the data: its units are the classes or target columns");
        if (column == Scalable && dense)
            return QStringLiteral("scalable: each submodel gets ceil(units / F) units; off: the width is kept");
        if (column == Units && dense && dense->scalable)
            return QStringLiteral("%1 units in the original model, ceil(%1 / F) in each submodel").arg(dense->units);
        if (column == Params || column == Flops) return QString::fromStdString(figures_[std::size_t(row)].description);
        return {};
    default: return {};
    }
}

Qt::ItemFlags LayerTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid() || !checkIndex(index)) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (isOutputRow(index.row())) return f;
    const int column = index.column();
    if (column == Type) return f | Qt::ItemIsEditable;
    if (!editable(spec_.layers[std::size_t(index.row())], column)) return f;
    return f | (column == Scalable ? Qt::ItemIsUserCheckable : Qt::ItemIsEditable);
}

bool LayerTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || !checkIndex(index) || !(flags(index) & (Qt::ItemIsEditable | Qt::ItemIsUserCheckable)))
        return false;
    const int row = index.row();
    LayerSpec l = spec_.layers[std::size_t(row)];
    const QString where = QStringLiteral("layer %1: ").arg(row + 1);
    // flags() let through only the columns of this layer's kind, so the get<> below cannot throw.
    if (role == Qt::CheckStateRole && index.column() == Scalable) {
        std::get<DenseSpec>(l).scalable = value.toInt() == Qt::Checked;
    } else if (role != Qt::EditRole) {
        return false;
    } else if (index.column() == Type) {
        const auto& kinds = layerKindNames();
        const int i = value.toInt();
        const auto t = value.typeId() != QMetaType::Int ? parseType(value.toString())
                       : i >= 0 && i < int(kinds.size()) ? std::optional<LayerSpec>(layerOfKind(kinds[std::size_t(i)]))
                                                         : std::nullopt;
        if (!t)
            return reject(where + QStringLiteral("unknown layer type '%1' (expected %2)")
                                      .arg(value.toString(), QString::fromStdString(layerKindList())));
        l = retyped(l, *t);
    } else if (index.column() == Units) {
        bool ok = false;
        const int units = value.toInt(&ok);
        if (!ok || units < 1) return reject(where + QStringLiteral("units must be a whole number of at least 1"));
        std::get<DenseSpec>(l).units = units;
    } else if (index.column() == Activation) {
        try {
            std::get<DenseSpec>(l).activation = parseActivation(value.toString().trimmed().toLower().toStdString());
        } catch (const Error& e) {
            return reject(where + QString::fromStdString(e.what()));
        }
    } else if (index.column() == Rate) {
        bool ok = false;
        const double rate = value.toDouble(&ok);
        if (!ok || !(rate >= 0 && rate < 1)) return reject(where + QStringLiteral("the dropout rate must be in [0, 1)"));
        std::get<DropoutSpec>(l).rate = float(rate);
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
