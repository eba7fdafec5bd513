#include "ui/core/layer_table_model.h"

#include <QColor>
#include <algorithm>

#include "core/error.h"
#include "ui/core/formatting.h"
#include "ui/core/layer_field_edits.h"
#include "ui/core/layer_kind_rules.h"

namespace skynnet::ui {
namespace {

std::optional<LayerSpec> parseType(const QString& text) {
    try {
        return layerOfKind(text.trimmed().toLower().toStdString());
    } catch (const Error&) {
        return std::nullopt;
    }
}

// A layer changed to another type gets that type's usual settings.
LayerSpec retyped(const LayerSpec& l, const LayerSpec& type) {
    return type.index() == l.index() ? l : usualLayer(type);
}

using C = LayerTableModel::Column;

// The field columns a layer of each kind has (Type aside, which every kind has).
bool kindHasField(const LayerSpec& l, int column) {
    const auto any = [column](std::initializer_list<int> columns) {
        return std::find(columns.begin(), columns.end(), column) != columns.end();
    };
    const auto pool = [&](const auto&) { return any({C::Kernel, C::Stride}); };
    return visitLayer(
        l,
        [&](const DenseSpec&) {
            return any({C::Units, C::Activation, C::Scalable});
        },
        [&](const DropoutSpec&) { return column == C::Rate; }, [](const FlattenSpec&) { return false; },
        [&](const ConvSpec&) {
            return any({C::Units, C::Kernel, C::Stride, C::Padding, C::Activation, C::Bias, C::Scalable});
        },
        [&](const MaxPoolSpec& p) { return pool(p); }, [&](const AvgPoolSpec& p) { return pool(p); },
        [](const GlobalAvgPoolSpec&) { return false; },
        [&](const BatchNormSpec&) {
            return any({C::Momentum, C::Epsilon});
        },
        [&](const ActivationSpec&) { return column == C::Activation; },
        [&](const EmbeddingSpec&) {
            return any({C::Units, C::Scalable});
        },
        [&](const GruSpec&) {
            return any({C::Units, C::Steps, C::Scalable});
        },
        [&](const LstmSpec&) {
            return any({C::Units, C::Steps, C::Scalable});
        },
        [&](const SeqPoolSpec&) { return column == C::Steps; },
        [&](const PatchSpec&) {
            return any({C::Units, C::Kernel, C::ClassToken, C::Scalable});
        },
        [&](const EncoderSpec&) {
            return any({C::Units, C::Heads, C::Rate, C::Scalable});
        },
        [](const LayerNormSpec&) { return false; },
        [&](const AttentionSpec&) {
            return any({C::Heads, C::Rate, C::Causal});
        });
}

bool numericColumn(int column) {
    return column == C::Units || column == C::Heads || column == C::Stride || column == C::Rate ||
           column == C::Momentum || column == C::Epsilon || column == C::Params || column == C::Flops ||
           column == C::Memory;
}

bool checkColumn(int column) {
    return column == C::Scalable || column == C::Bias || column == C::ClassToken || column == C::Causal;
}

}  // namespace

LayerTableModel::LayerTableModel(ProjectDocument* document, QObject* parent)
    : QAbstractTableModel(parent), document_(document) {
    if (document_) {
        spec_ = document_->network();
        connect(document_, &ProjectDocument::networkChanged, this, &LayerTableModel::onNetworkChanged);
        // The memory column is at the training batch size.
        connect(document_, &ProjectDocument::trainSettingsChanged, this, [this] {
            emit dataChanged(index(0, Memory), index(rowCount() - 1, Memory));
            emit headerDataChanged(Qt::Horizontal, Memory, Memory);  // its unit may change
        });
    }
    refreshFigures();
}

void LayerTableModel::refreshFigures() { figures_ = layerRowFigures(spec_); }

void LayerTableModel::onNetworkChanged() {
    const NetworkSpec& d = document_->network();
    if (d == spec_) return;  // our own edit coming back
    if (d.layers.size() == spec_.layers.size()) {
        spec_ = d;
        refreshFigures();
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        emit headerDataChanged(Qt::Horizontal, Memory, Memory);
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
    if (const QString problem = layerProblem(layer); !problem.isEmpty()) return reject(problem);
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
    if (from < 0 || from >= n || to < 0 || to >= n)
        return reject(QStringLiteral("cannot move layer %1 to %2").arg(from + 1).arg(to + 1));
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

std::optional<LayerSpec> LayerTableModel::usualLayerOfKind(const QString& kind) {
    const std::optional<LayerSpec> type = parseType(kind);
    return type ? std::optional<LayerSpec>(usualLayer(*type)) : std::nullopt;
}

bool LayerTableModel::hasField(int row, int column) const {
    return row >= 0 && row < layerCount() && kindHasField(spec_.layers[std::size_t(row)], column);
}

QString LayerTableModel::problem(int row) const {
    return row >= 0 && row < rowCount() ? figures_[std::size_t(row)].problem : QString();
}

QStringList LayerTableModel::stepsChoices(int row) const {
    const LayerSpec* layer = layerAt(row);
    return layer ? skynnet::ui::stepsChoices(*layer) : QStringList();
}

int LayerTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : layerCount() + 1; }

int LayerTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

std::int64_t LayerTableModel::rowTrainingBytes(const LayerRowFigures& r) const {
    if (!r.figures) return 0;
    const TrainConfig t = document_ ? document_->trainSettings().config : TrainConfig{};
    return layerTrainingBytes(*r.figures, t.batchSize, slotsPerParam(t.optimizer.kind, t.optimizer.momentum));
}

MemoryUnit LayerTableModel::memoryUnit() const {
    std::int64_t largest = 0;
    for (const LayerRowFigures& r : figures_) largest = std::max(largest, rowTrainingBytes(r));
    return memoryUnitFor(largest);
}

QVariant LayerTableModel::display(int row, int column, int role) const {
    const LayerRowFigures& r = figures_[std::size_t(row)];
    const bool edit = role == Qt::EditRole;
    switch (column) {
    case OutputShape:
        return r.figures             ? shapeText(r.figures->output)
               : r.problem.isEmpty() ? QStringLiteral("?")
                                     : QStringLiteral("impossible");
    case Params: return r.figures ? QVariant(qlonglong(r.figures->params)) : QVariant();
    case Flops:
        if (!r.figures) return {};
        return role == SortRole || edit ? QVariant(qlonglong(r.figures->flopsPerSample))
                                        : QVariant(formatFlops(r.figures->flopsPerSample));
    case Memory: {
        if (!r.figures) return {};
        const std::int64_t bytes = rowTrainingBytes(r);
        return role == SortRole ? QVariant(qlonglong(bytes)) : QVariant(memoryUnit().format(bytes));
    }
    default: break;
    }
    if (isOutputRow(row)) {
        switch (column) {
        case Type: return QStringLiteral("output");
        case Summary:
            return QStringLiteral("%1 units · %2").arg(spec_.outputs).arg(activationText(spec_.outputActivation));
        case Units: return spec_.outputs;
        case Activation: return activationText(spec_.outputActivation);
        default: return {};
        }
    }
    const LayerSpec& l = spec_.layers[std::size_t(row)];
    if (column == Type) return QString::fromStdString(kindName(l));
    if (column == Summary) return layerSummary(l);
    const auto pool = [&](int size, int stride, int effective) {
        if (column == Kernel) return edit ? QVariant(size) : QVariant(windowText(size, size));
        if (column == Stride) return edit ? QVariant(stride) : QVariant(effective);
        return QVariant();
    };
    return visitLayer(
        l,
        [&](const DenseSpec& d) {
            if (column == Units) return QVariant(d.units);
            if (column == Activation) return QVariant(activationText(d.activation));
            return QVariant();
        },
        [&](const DropoutSpec& d) { return column == Rate ? QVariant(double(d.rate)) : QVariant(); },
        [](const FlattenSpec&) { return QVariant(); },
        [&](const ConvSpec& c) {
            switch (column) {
            case Units: return QVariant(c.filters);
            case Kernel:
                return QVariant(edit ? QStringLiteral("%1x%2").arg(c.kernelH).arg(c.kernelW)
                                     : windowText(c.kernelH, c.kernelW));
            case Stride: return QVariant(c.stride);
            case Padding: return QVariant(QString::fromStdString(paddingName(c.padding)));
            case Activation: return QVariant(activationText(c.activation));
            default: return QVariant();
            }
        },
        [&](const MaxPoolSpec& p) { return pool(p.size, p.stride, p.effectiveStride()); },
        [&](const AvgPoolSpec& p) { return pool(p.size, p.stride, p.effectiveStride()); },
        [](const GlobalAvgPoolSpec&) { return QVariant(); },
        [&](const BatchNormSpec& b) {
            if (column == Momentum) return QVariant(double(b.momentum));
            if (column == Epsilon) return QVariant(double(b.epsilon));
            return QVariant();
        },
        [&](const ActivationSpec& a) {
            return column == Activation ? QVariant(activationText(a.activation)) : QVariant();
        },
        [&](const EmbeddingSpec& e) { return column == Units ? QVariant(e.dim) : QVariant(); },
        [&](const GruSpec& g) {
            return column == Units ? QVariant(g.units) : column == Steps ? QVariant(stepsText(l)) : QVariant();
        },
        [&](const LstmSpec& r) {
            return column == Units ? QVariant(r.units) : column == Steps ? QVariant(stepsText(l)) : QVariant();
        },
        [&](const SeqPoolSpec&) { return column == Steps ? QVariant(stepsText(l)) : QVariant(); },
        [&](const PatchSpec& p) {
            if (column == Kernel) return edit ? QVariant(p.patch) : QVariant(windowText(p.patch, p.patch));
            return column == Units ? QVariant(p.dim) : QVariant();
        },
        [&](const EncoderSpec& e) {
            return column == Units   ? QVariant(e.mlp)
                   : column == Heads ? QVariant(e.heads)
                   : column == Rate  ? QVariant(double(e.dropout))
                                     : QVariant();
        },
        [](const LayerNormSpec&) { return QVariant(); },
        [&](const AttentionSpec& a) {
            return column == Heads ? QVariant(a.heads) : column == Rate ? QVariant(double(a.dropout)) : QVariant();
        });
}

QVariant LayerTableModel::checkState(int row, int column) const {
    if (isOutputRow(row) || !checkColumn(column)) return {};
    const auto state = [](bool on) { return QVariant(on ? Qt::Checked : Qt::Unchecked); };
    return visitLayer(
        spec_.layers[std::size_t(row)],
        [&](const DenseSpec& d) { return column == Scalable ? state(d.scalable) : QVariant(); },
        [](const DropoutSpec&) { return QVariant(); }, [](const FlattenSpec&) { return QVariant(); },
        [&](const ConvSpec& c) { return state(column == Scalable ? c.scalable : c.bias); },
        [](const MaxPoolSpec&) { return QVariant(); }, [](const AvgPoolSpec&) { return QVariant(); },
        [](const GlobalAvgPoolSpec&) { return QVariant(); }, [](const BatchNormSpec&) { return QVariant(); },
        [](const ActivationSpec&) { return QVariant(); },
        [&](const EmbeddingSpec& e) { return column == Scalable ? state(e.scalable) : QVariant(); },
        [&](const GruSpec& g) { return column == Scalable ? state(g.scalable) : QVariant(); },
        [&](const LstmSpec& r) { return column == Scalable ? state(r.scalable) : QVariant(); },
        [](const SeqPoolSpec&) { return QVariant(); },
        [&](const PatchSpec& p) {
            return column == Scalable ? state(p.scalable) : column == ClassToken ? state(p.classToken) : QVariant();
        },
        [&](const EncoderSpec& e) { return column == Scalable ? state(e.scalable) : QVariant(); },
        [](const LayerNormSpec&) { return QVariant(); },
        [&](const AttentionSpec& a) { return column == Causal ? state(a.causal) : QVariant(); });
}

QVariant LayerTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !checkIndex(index)) return {};
    const int row = index.row(), column = index.column();
    const LayerRowFigures& figures = figures_[std::size_t(row)];
    const LayerSpec* layer = isOutputRow(row) ? nullptr : &spec_.layers[std::size_t(row)];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
    case SortRole: return display(row, column, role);
    case Qt::CheckStateRole: return checkState(row, column);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            Qt::Alignment((numericColumn(column) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    case Qt::ForegroundRole:
        if (!figures.problem.isEmpty()) return QColor(0x8a, 0x1c, 0x1c);
        if (!figures.known()) return QColor(Qt::gray);
        return {};
    case Qt::BackgroundRole:
        if (!figures.problem.isEmpty()) return QColor(0xfd, 0xe2, 0xe1);
        return {};
    case Qt::ToolTipRole:
        if (!figures.problem.isEmpty()) return figures.problem;
        if (!figures.known()) return QStringLiteral("unknown: an earlier layer cannot take its input shape");
        if (isOutputRow(row))
            return QStringLiteral("the output layer follows the data: its units are the classes or target columns");
        if (column == Scalable && kindHasField(*layer, Scalable))
            return QStringLiteral(
                "scalable: each submodel gets ceil(width / F) units or filters; off: the width is kept");
        if (column == Units && scalableOf(const_cast<LayerSpec&>(*layer)) &&
            *scalableOf(const_cast<LayerSpec&>(*layer)))
            return QStringLiteral("%1 %2 in the original model, ceil(%1 / F) in each submodel")
                .arg(*widthOf(*layer))
                .arg(std::holds_alternative<ConvSpec>(*layer) ? QStringLiteral("filters")
                     : std::holds_alternative<EmbeddingSpec>(*layer) || std::holds_alternative<PatchSpec>(*layer)
                         ? QStringLiteral("dimensions")
                     : std::holds_alternative<EncoderSpec>(*layer) ? QStringLiteral("MLP units")
                                                                   : QStringLiteral("units"));
        if (column == Params || column == Flops || column == Memory || column == Summary)
            return QString::fromStdString(figures.figures->description);
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
    if (!kindHasField(spec_.layers[std::size_t(index.row())], column)) return f;
    return f | (checkColumn(column) ? Qt::ItemIsUserCheckable : Qt::ItemIsEditable);
}

// One field of `layer` from an edit; false (after editRejected) when the value is refused.
bool LayerTableModel::setField(LayerSpec& layer, int column, const QVariant& value, int role, const QString& where) {
    if (checkColumn(column)) {
        if (role != Qt::CheckStateRole) return false;
        const bool on = value.toInt() == Qt::Checked;
        if (auto* c = std::get_if<ConvSpec>(&layer); c && column == Bias) c->bias = on;
        else if (auto* p = std::get_if<PatchSpec>(&layer); p && column == ClassToken) p->classToken = on;
        else if (auto* a = std::get_if<AttentionSpec>(&layer); a && column == Causal) a->causal = on;
        else if (bool* scalable = scalableOf(layer)) *scalable = on;
        return true;
    }
    if (role != Qt::EditRole) return false;
    std::optional<QString> refused;
    switch (column) {
    case Units: refused = editUnits(layer, value); break;
    case Heads: refused = editHeads(layer, value); break;
    case Kernel: refused = editWindow(layer, value); break;
    case Stride: refused = editStride(layer, value); break;
    case Padding: refused = editPadding(layer, value); break;
    case Activation: refused = editActivation(layer, value); break;
    case Rate: refused = editDropoutRate(layer, value); break;
    case Momentum: refused = editBatchNormMomentum(layer, value); break;
    case Epsilon: refused = editBatchNormEpsilon(layer, value); break;
    case Steps: refused = editSteps(layer, value); break;
    default: return false;
    }
    return refused ? reject(where + *refused) : true;
}

bool LayerTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || !checkIndex(index) || !(flags(index) & (Qt::ItemIsEditable | Qt::ItemIsUserCheckable)))
        return false;
    const int row = index.row();
    LayerSpec l = spec_.layers[std::size_t(row)];
    const QString where = QStringLiteral("layer %1: ").arg(row + 1);
    // flags() let through only the columns of this layer's kind, so the get<> in setField cannot throw.
    if (index.column() == Type) {
        if (role != Qt::EditRole) return false;
        const auto& kinds = layerKindNames();
        const int i = value.toInt();
        const auto t = value.typeId() != QMetaType::Int  ? parseType(value.toString())
                       : i >= 0 && i < int(kinds.size()) ? std::optional<LayerSpec>(layerOfKind(kinds[std::size_t(i)]))
                                                         : std::nullopt;
        if (!t)
            return reject(where + QStringLiteral("unknown layer type '%1' (expected %2)")
                                      .arg(value.toString(), QString::fromStdString(layerKindList())));
        l = retyped(l, *t);
    } else if (!setField(l, index.column(), value, role, where)) {
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
    static const char* const names[] = {"Type",     "Settings",     "Units",      "Heads",        "Kernel",
                                        "Stride",   "Padding",      "Activation", "Steps",        "Bias",
                                        "Rate",     "Momentum",     "Epsilon",    "Class token",  "Causal",
                                        "Scalable", "Output shape", "Params",     "FLOPs/sample", "Memory"};
    static const char* const tips[] = {
        "dense, dropout, flatten, conv, maxpool, avgpool, gap (global average pool), bn (batch norm), activation, "
        "embedding (token ids to vectors), gru, lstm, seqpool (a sequence to one vector), patch (an image to "
        "tokens), layernorm, attention or encoder (a transformer block)",
        "every setting of the layer",
        "neurons of a dense layer, filters of a conv layer, units of a GRU or LSTM, an embedding's or a patch "
        "layer's dimensions, an encoder's MLP width",
        "attention heads; each reads width / heads of a token's features",
        "kernel of a conv layer (height x width), window of a pooling layer, a patch layer's patch size",
        "step between windows; a pool's stride 0 is its window size",
        "valid: no padding; same: output size = ceil(input / stride)",
        "activation of a dense or conv layer, or an activation layer",
        "what a sequence layer makes of its steps: a GRU or LSTM returns the last step's output (a vector) or "
        "every step's (a sequence, e.g. for another recurrent layer); seqpool takes the mean of the real steps, "
        "the last step or the first (a class token)",
        "whether a conv layer adds a bias per filter",
        "fraction of inputs a dropout layer zeroes while training; an encoder's dropout; attention's dropout on "
        "its weights",
        "how fast batch norm's running mean and variance follow each batch",
        "added to the variance before batch norm divides by its square root",
        "whether a patch layer puts a learned class token before the patches (read by seqpool's first step)",
        "whether attention lets each token see only itself and the tokens before it",
        "whether the split shrinks this width (units, filters, dimensions or MLP width) by the reduction factor F",
        "shape of the layer's output for one sample: channels × height × width, steps × features for a sequence, "
        "or a flat width",
        "weights and biases (batch norm: scale and shift)",
        "floating-point operations per sample, forward pass (multiply and add counted apart)",
        "memory to train the layer at the batch size: weights, gradients, optimiser state and buffers",
    };
    static_assert(std::size(names) == ColumnCount && std::size(tips) == ColumnCount);
    if (role == Qt::DisplayRole)
        return section == Memory ? QStringLiteral("Memory (%1)").arg(memoryUnit().name)
                                 : QString::fromLatin1(names[section]);
    if (role == Qt::ToolTipRole) return QString::fromUtf8(tips[section]);
    return {};
}

}  // namespace skynnet::ui
