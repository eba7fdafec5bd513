#pragma once
// The network designer's table: one editable row per hidden layer of the document's network, then
// a read-only row for the output layer (it follows the data). Every edit, insert, remove and move
// is written back through ProjectDocument::setNetwork, so the document stays the single source of
// truth and other views follow its networkChanged signal. A layer that cannot take its input shape
// (a kernel larger than its input) is shown red in its row, with the engine's message as tooltip,
// and the rows after it have no figures.
#include <QAbstractTableModel>

#include "ui/core/formatting.h"
#include <QPointer>
#include <QStringList>
#include <optional>
#include <vector>

#include "spec/network_spec.h"
#include "ui/core/model_roles.h"
#include "ui/core/network_figures.h"
#include "ui/core/project_document.h"

namespace skynnet::ui {

class LayerTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Summary is every field of the layer in a few words; the field columns from Units to Scalable
    // each hold one field of the kinds that have it (Units: dense units, conv filters, recurrent
    // units, embedding or patch dimensions, an encoder's MLP width; Heads: attention heads; Kernel:
    // the conv kernel "3x3", a pooling window "2" or a patch's size "7"; Rate: dropout's, also an
    // encoder's or attention's; ClassToken: a patch layer's; Causal: attention's mask;
    // Stride: conv and pools, 0 for a pool's own size; Steps: what a sequence layer makes of its
    // steps, stepsChoices()) and are empty for the others. Memory is training memory at the batch
    // size.
    enum Column {
        Type,
        Summary,
        Units,
        Heads,
        Kernel,
        Stride,
        Padding,
        Activation,
        Steps,
        Bias,
        Rate,
        Momentum,
        Epsilon,
        ClassToken,
        Causal,
        Scalable,
        OutputShape,
        Params,
        Flops,
        Memory,
        ColumnCount
    };
    static bool isFieldColumn(int column) { return column >= Units && column <= Scalable; }

    explicit LayerTableModel(ProjectDocument* document, QObject* parent = nullptr);

    int layerCount() const { return int(spec_.layers.size()); }
    bool isOutputRow(int row) const { return row == layerCount(); }
    // Structure edits used by the Network page; false (and editRejected) for an invalid row.
    bool addLayer(int row, const LayerSpec& layer);  // row == layerCount() appends
    bool removeLayer(int row);
    bool moveLayer(int from, int to);  // `to` is the layer's index afterwards
    // A new layer of a kind ("conv") with its usual settings (dense 64 relu, conv 32 3x3 relu, ...).
    static std::optional<LayerSpec> usualLayerOfKind(const QString& kind);
    // The hidden layer of a row, or null (the output row, no such row).
    const LayerSpec* layerAt(int row) const {
        return row >= 0 && row < layerCount() ? &spec_.layers[std::size_t(row)] : nullptr;
    }
    // Whether a column holds a field of this row's layer (false for the output row).
    bool hasField(int row, int column) const;
    // The engine's message when the row's layer cannot take its input shape, else empty.
    QString problem(int row) const;
    // The values the Steps column takes for this row's layer, in menu order (empty for a kind
    // without it): a GRU's or LSTM's "last step" or "every step", seqpool's "mean" or "last step".
    QStringList stepsChoices(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // The memory column's unit, kB or MB: the largest row's, for the whole column and its header.
    MemoryUnit memoryUnit() const;

signals:
    // An edit that was refused (units below 1, unknown activation, ...), with the reason to show.
    void editRejected(const QString& reason);

private:
    void onNetworkChanged();
    void refreshFigures();
    bool reject(const QString& reason);
    bool commit(const NetworkSpec& spec);  // after the rows already show `spec`
    QVariant display(int row, int column, int role) const;
    std::int64_t rowTrainingBytes(const LayerRowFigures& row) const;  // at the document's batch and optimiser
    QVariant checkState(int row, int column) const;
    bool setField(LayerSpec& layer, int column, const QVariant& value, int role, const QString& where);

    QPointer<ProjectDocument> document_;
    NetworkSpec spec_;                      // what the rows show: the document's network
    std::vector<LayerRowFigures> figures_;  // one per hidden layer, then the output layer
};

}  // namespace skynnet::ui
