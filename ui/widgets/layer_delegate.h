#pragma once
// Editors for the layer table: combo boxes for the layer type, activation and a sequence layer's
// steps, spin boxes for units and dropout rate, so a user can only pick values the model accepts.
#include <QStringList>
#include <QStyledItemDelegate>

namespace skynnet::ui {

// The activations a hidden layer offers, in menu order.
const QStringList& hiddenActivationNames();

class LayerDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

}  // namespace skynnet::ui
