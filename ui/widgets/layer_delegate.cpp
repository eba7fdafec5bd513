#include "ui/widgets/layer_delegate.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

#include "core/error.h"
#include "ui/core/layer_table_model.h"

namespace skynnet::ui {
namespace {

const QStringList& typeNames() {
    static const QStringList names = [] {
        QStringList n;
        for (const auto& kind : layerKindNames()) n << QString::fromStdString(kind);
        return n;
    }();
    return names;
}

}  // namespace

const QStringList& hiddenActivationNames() {
    // Softmax is the output layer's business (it follows the task), so hidden layers do not offer
    // it; names this build's engine does not know are left out.
    static const QStringList names = [] {
        QStringList known;
        for (const char* name :
             {"relu", "leaky_relu", "tanh", "sigmoid", "gelu", "relu6", "elu", "softplus", "linear"}) {
            try {
                (void)parseActivation(name);
                known << QString::fromLatin1(name);
            } catch (const Error&) {
            }
        }
        return known;
    }();
    return names;
}

QWidget* LayerDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                     const QModelIndex& index) const {
    switch (index.column()) {
    case LayerTableModel::Type:
    case LayerTableModel::Activation:
    case LayerTableModel::Steps: {
        auto* combo = new QComboBox(parent);
        const auto* layers = qobject_cast<const LayerTableModel*>(index.model());
        combo->addItems(index.column() == LayerTableModel::Type         ? typeNames()
                        : index.column() == LayerTableModel::Activation ? hiddenActivationNames()
                        : layers                                        ? layers->stepsChoices(index.row())
                                                                        : QStringList());
        // Commit on pick: a combo that waits for focus-out feels broken in a table.
        connect(combo, &QComboBox::activated, this, [this, combo] {
            emit const_cast<LayerDelegate*>(this)->commitData(combo);
            emit const_cast<LayerDelegate*>(this)->closeEditor(combo);
        });
        return combo;
    }
    case LayerTableModel::Units: {
        auto* spin = new QSpinBox(parent);
        spin->setRange(1, 65536);
        spin->setSingleStep(16);
        return spin;
    }
    case LayerTableModel::Rate: {
        auto* spin = new QDoubleSpinBox(parent);
        spin->setRange(0.0, 0.95);
        spin->setSingleStep(0.05);
        spin->setDecimals(2);
        return spin;
    }
    default: return QStyledItemDelegate::createEditor(parent, option, index);
    }
}

void LayerDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    const QVariant v = index.data(Qt::EditRole);
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        const int at = combo->findText(v.toString());
        combo->setCurrentIndex(at >= 0 ? at : 0);
    } else if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
        spin->setValue(v.toInt());
    } else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(editor)) {
        dspin->setValue(v.toDouble());
    } else {
        QStyledItemDelegate::setEditorData(editor, index);
    }
}

void LayerDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const {
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        model->setData(index, combo->currentText(), Qt::EditRole);
    } else if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
        spin->interpretText();
        model->setData(index, spin->value(), Qt::EditRole);
    } else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(editor)) {
        dspin->interpretText();
        model->setData(index, dspin->value(), Qt::EditRole);
    } else {
        QStyledItemDelegate::setModelData(editor, model, index);
    }
}

}  // namespace skynnet::ui
