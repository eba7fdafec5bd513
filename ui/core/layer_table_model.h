#pragma once
// The network designer's table: one editable row per hidden layer of the document's network, then
// a read-only row for the output layer (it follows the data). Every edit, insert, remove and move
// is written back through ProjectDocument::setNetwork, so the document stays the single source of
// truth and other views follow its networkChanged signal.
#include <QAbstractTableModel>
#include <QPointer>
#include <vector>

#include "spec/network_spec.h"
#include "ui/core/project_document.h"
#include "ui/core/model_roles.h"

namespace skynnet::ui {

class LayerTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Type, Units, Activation, Rate, Scalable, OutputShape, Params, Flops, ColumnCount };

    explicit LayerTableModel(ProjectDocument* document, QObject* parent = nullptr);

    int layerCount() const { return int(spec_.layers.size()); }
    bool isOutputRow(int row) const { return row == layerCount(); }
    // Structure edits used by the Network page; false (and editRejected) for an invalid row.
    bool addLayer(int row, const LayerSpec& layer);  // row == layerCount() appends
    bool removeLayer(int row);
    bool moveLayer(int from, int to);                // `to` is the layer's index afterwards

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    // An edit that was refused (units below 1, unknown activation, ...), with the reason to show.
    void editRejected(const QString& reason);

private:
    void onNetworkChanged();
    void refreshFigures();
    bool reject(const QString& reason);
    bool commit(const NetworkSpec& spec);  // after the rows already show `spec`
    QVariant display(int row, int column) const;

    QPointer<ProjectDocument> document_;
    NetworkSpec spec_;                  // what the rows show: the document's network
    std::vector<LayerFigures> figures_; // one per hidden layer, then the output layer
};

}  // namespace skynnet::ui
