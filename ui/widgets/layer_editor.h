#pragma once
// The settings of the layer selected in the Network page's table, as a small form with the fields
// of its kind only (a conv layer's filters, kernel, stride, padding, activation, bias and scalable
// flag; a pool's window and stride; batch norm's momentum and epsilon; a GRU's units and steps; an
// encoder's MLP width, heads and dropout; a patch layer's size, dimensions and class token). Every change is
// written through the layer table's model, so it is checked, refused with a reason, and one undo step; the form follows
// the model when the network changes elsewhere (undo, a table edit, a project).
#include <QGroupBox>

#include "spec/network_spec.h"
#include "ui/widgets/limit_spin_box.h"
#include <map>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace skynnet::ui {

class LayerTableModel;

class LayerEditor : public QGroupBox {
    Q_OBJECT
public:
    explicit LayerEditor(LayerTableModel* model, QWidget* parent = nullptr);

    void setRow(int row);  // a hidden layer's row, or -1 for none
    int row() const { return row_; }
    // The editor of a field column (LayerTableModel::Units, ...) while the layer has that field,
    // else null; the kernel's is a box holding its height and width spin boxes.
    QWidget* fieldEditor(int column) const;
    // What the last number typed beyond a box's limit became; empty when none since the layer
    // was chosen.
    QString limitNoteText() const;
    QSpinBox* kernelHeightBox() const { return kernelH_; }  // a pool's window size
    QSpinBox* kernelWidthBox() const { return kernelW_; }

signals:
    // A spin box or text field was left or Enter pressed: the edits typed so far are one step.
    void editFinished();

private:
    struct Field {
        QLabel* label;
        QWidget* editor;
    };
    void connectEditors();
    void addField(int column, QWidget* editor);
    void refresh();
    void place(const std::vector<int>& columns);
    void labelFields(const LayerSpec& layer);
    void write(int column, const QVariant& value, int role);
    void writeKernel();

    LayerTableModel* model_;
    int row_ = -1;
    bool updating_ = false;
    bool convKernel_ = false;  // height x width; a pool's window is one size
    std::vector<int> placed_;
    std::map<int, Field> fields_;
    QGridLayout* grid_;
    QLabel* empty_;
    QLabel* limitNote_;  // what a number typed beyond its box's limit became
    LimitSpinBox* units_;
    LimitSpinBox* heads_;
    QWidget* kernel_;
    LimitSpinBox* kernelH_;
    QLabel* kernelTimes_;
    LimitSpinBox* kernelW_;
    LimitSpinBox* stride_;
    QComboBox* padding_;
    QComboBox* activation_;
    QComboBox* steps_;  // its items are the selected kind's (LayerTableModel::stepsChoices)
    QCheckBox* bias_;
    QDoubleSpinBox* rate_;
    QDoubleSpinBox* momentum_;
    QLineEdit* epsilon_;
    QCheckBox* scalable_;
    QCheckBox* classToken_;
    QCheckBox* causal_;
};

}  // namespace skynnet::ui
