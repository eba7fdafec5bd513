#include "ui/widgets/layer_editor.h"
#include "ui/widgets/limit_spin_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/core/layer_table_model.h"
#include "ui/widgets/layer_delegate.h"

namespace skynnet::ui {
namespace {

using C = LayerTableModel::Column;

// Label and editor pairs per grid row: three fit beside the diagram at 1024 pixels wide.
constexpr int fieldsPerRow = 3;

// A spin box that reports its value when stepped, on Enter or when left, not at every typed
// digit: typing "128" is one value, not 1, 12 and 128.
template <class Box>
Box* numberBox(double min, double max, double step) {
    auto* box = new Box;
    box->setRange(typename std::remove_reference_t<decltype(box->value())>(min),
                  typename std::remove_reference_t<decltype(box->value())>(max));
    box->setSingleStep(typename std::remove_reference_t<decltype(box->value())>(step));
    box->setKeyboardTracking(false);
    return box;
}

QStringList itemsOf(const QComboBox* box) {
    QStringList items;
    for (int i = 0; i < box->count(); ++i) items << box->itemText(i);
    return items;
}

}  // namespace

LayerEditor::LayerEditor(LayerTableModel* model, QWidget* parent) : QGroupBox(parent), model_(model) {
    // LimitSpinBox: a number typed beyond a limit becomes the limit, and limitNote_ says so (a
    // plain QSpinBox turns 99 into 9 where the most is 64, without a word).
    units_ = numberBox<LimitSpinBox>(1, 65536, 8);
    heads_ = numberBox<LimitSpinBox>(1, 256, 1);
    kernelH_ = numberBox<LimitSpinBox>(1, 64, 1);
    kernelW_ = numberBox<LimitSpinBox>(1, 64, 1);
    kernelTimes_ = new QLabel(QStringLiteral("×"));
    kernel_ = new QWidget;
    auto* kernelLayout = new QHBoxLayout(kernel_);
    kernelLayout->setContentsMargins(0, 0, 0, 0);
    kernelLayout->addWidget(kernelH_, 1);
    kernelLayout->addWidget(kernelTimes_);
    kernelLayout->addWidget(kernelW_, 1);
    stride_ = numberBox<LimitSpinBox>(0, 64, 1);
    padding_ = new QComboBox;
    padding_->addItems({QStringLiteral("valid"), QStringLiteral("same")});
    activation_ = new QComboBox;
    activation_->addItems(hiddenActivationNames());
    steps_ = new QComboBox;
    bias_ = new QCheckBox(tr("Bias"));
    rate_ = numberBox<QDoubleSpinBox>(0, 0.95, 0.05);
    rate_->setDecimals(2);
    momentum_ = numberBox<QDoubleSpinBox>(0.001, 1, 0.01);
    momentum_->setDecimals(3);
    epsilon_ = new QLineEdit;
    scalable_ = new QCheckBox(tr("Scalable"));
    classToken_ = new QCheckBox(tr("Class token"));
    causal_ = new QCheckBox(tr("Causal"));

    units_->setToolTip(
        tr("Neurons of a dense layer, filters of a conv layer, units of a GRU or LSTM, an embedding's or a patch "
           "layer's dimensions, an encoder's MLP width"));
    heads_->setToolTip(tr("Attention heads: each reads width / heads of a token's features, and the width must "
                          "divide into them (also in every submodel)"));
    kernel_->setToolTip(
        tr("Kernel height × width of a conv layer; the square window of a pooling layer; a patch layer's square "
           "patches, which must tile the image"));
    stride_->setToolTip(tr("Step between windows; a pool's stride 0 (\"window\") is its window size"));
    padding_->setToolTip(
        tr("valid: no padding; same: output size = ceil(input / stride), the larger half of the padding after"));
    activation_->setToolTip(tr("Activation applied to the layer's output"));
    steps_->setToolTip(tr("A GRU or LSTM returns the last step's output (a vector) or every step's (a sequence, e.g. "
                          "for another recurrent layer); seqpool takes the mean of the real steps or the last step"));
    bias_->setToolTip(tr("Add a learned bias per filter"));
    rate_->setToolTip(tr("Fraction of inputs zeroed while training (an encoder's four dropouts, attention's on its "
                         "weights)"));
    momentum_->setToolTip(
        tr("How fast the running mean and variance follow each batch: running = (1 - m) running + m batch"));
    epsilon_->setToolTip(tr("Added to the variance before dividing by its square root, e.g. 1e-5"));
    scalable_->setToolTip(tr("The split shrinks this width (units or filters) to ceil(width / F) in each submodel"));
    classToken_->setToolTip(
        tr("A learned token put before the patches; seqpool's \"first step\" reads it for the classifier"));
    causal_->setToolTip(tr("Each token sees only itself and the tokens before it"));

    grid_ = new QGridLayout;
    grid_->setHorizontalSpacing(8);
    empty_ = new QLabel;
    empty_->setWordWrap(true);
    limitNote_ = new QLabel;
    limitNote_->setObjectName(QStringLiteral("layerLimitNote"));
    limitNote_->setWordWrap(true);
    limitNote_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(empty_);
    layout->addLayout(grid_);
    layout->addWidget(limitNote_);

    addField(C::Units, units_);
    addField(C::Heads, heads_);
    addField(C::Kernel, kernel_);
    addField(C::Stride, stride_);
    addField(C::Padding, padding_);
    addField(C::Activation, activation_);
    addField(C::Steps, steps_);
    addField(C::Rate, rate_);
    addField(C::Momentum, momentum_);
    addField(C::Epsilon, epsilon_);
    addField(C::Bias, bias_);
    addField(C::ClassToken, classToken_);
    addField(C::Causal, causal_);
    addField(C::Scalable, scalable_);

    connectEditors();

    // Whatever changes the network (an undo, the table, a project) shows here too.
    connect(model_, &QAbstractItemModel::dataChanged, this, &LayerEditor::refresh);
    connect(model_, &QAbstractItemModel::modelReset, this, &LayerEditor::refresh);
    connect(model_, &QAbstractItemModel::rowsRemoved, this, &LayerEditor::refresh);
    refresh();
}

// Each editor writes its field into the model as it changes.
void LayerEditor::connectEditors() {
    connect(units_, &QSpinBox::valueChanged, this, [this](int v) { write(C::Units, v, Qt::EditRole); });
    connect(heads_, &QSpinBox::valueChanged, this, [this](int v) { write(C::Heads, v, Qt::EditRole); });
    connect(kernelH_, &QSpinBox::valueChanged, this, &LayerEditor::writeKernel);
    connect(kernelW_, &QSpinBox::valueChanged, this, &LayerEditor::writeKernel);
    connect(stride_, &QSpinBox::valueChanged, this, [this](int v) { write(C::Stride, v, Qt::EditRole); });
    connect(padding_, &QComboBox::activated, this,
            [this] { write(C::Padding, padding_->currentText(), Qt::EditRole); });
    connect(activation_, &QComboBox::activated, this,
            [this] { write(C::Activation, activation_->currentText(), Qt::EditRole); });
    connect(steps_, &QComboBox::activated, this, [this] { write(C::Steps, steps_->currentText(), Qt::EditRole); });
    connect(rate_, &QDoubleSpinBox::valueChanged, this, [this](double v) { write(C::Rate, v, Qt::EditRole); });
    connect(momentum_, &QDoubleSpinBox::valueChanged, this, [this](double v) { write(C::Momentum, v, Qt::EditRole); });
    connect(epsilon_, &QLineEdit::editingFinished, this, [this] {
        write(C::Epsilon, epsilon_->text().trimmed(), Qt::EditRole);
        emit editFinished();
    });
    connect(bias_, &QCheckBox::toggled, this,
            [this](bool on) { write(C::Bias, on ? Qt::Checked : Qt::Unchecked, Qt::CheckStateRole); });
    for (auto [box, column] :
         {std::pair{scalable_, C::Scalable}, std::pair{classToken_, C::ClassToken}, std::pair{causal_, C::Causal}})
        connect(box, &QCheckBox::toggled, this, [this, column = column](bool on) {
            write(column, on ? Qt::Checked : Qt::Unchecked, Qt::CheckStateRole);
        });
    for (QAbstractSpinBox* box :
         std::initializer_list<QAbstractSpinBox*>{units_, heads_, kernelH_, kernelW_, stride_, rate_, momentum_})
        connect(box, &QAbstractSpinBox::editingFinished, this, &LayerEditor::editFinished);
    for (auto [box, column] : {std::pair{units_, C::Units}, std::pair{heads_, C::Heads}, std::pair{kernelH_, C::Kernel},
                               std::pair{kernelW_, C::Kernel}, std::pair{stride_, C::Stride}})
        connect(box, &LimitSpinBox::limitApplied, this, [this, box = box, column = column](int typed, int limit) {
            limitNote_->setText(tr("%1 %2 is outside %3 to %4, so it is %5.")
                                    .arg(model_->headerData(column, Qt::Horizontal).toString())
                                    .arg(typed)
                                    .arg(box->minimum())
                                    .arg(box->maximum())
                                    .arg(limit));
            limitNote_->show();
        });
}

void LayerEditor::addField(int column, QWidget* editor) {
    const bool check = column == C::Bias || column == C::Scalable || column == C::ClassToken || column == C::Causal;
    auto* label = new QLabel(check ? QString()
                                   : model_->headerData(column, Qt::Horizontal).toString() + QLatin1Char(':'));
    label->setBuddy(editor);
    label->setToolTip(editor->toolTip());
    label->hide();
    editor->hide();
    fields_[column] = {label, editor};
}

QWidget* LayerEditor::fieldEditor(int column) const {
    if (std::find(placed_.begin(), placed_.end(), column) == placed_.end()) return nullptr;
    return fields_.at(column).editor;
}

QString LayerEditor::limitNoteText() const { return limitNote_->isHidden() ? QString() : limitNote_->text(); }

void LayerEditor::setRow(int row) {
    if (row != row_) limitNote_->hide();  // it was about the other layer
    row_ = row >= 0 && row < model_->layerCount() ? row : -1;
    refresh();
}

// Lays the fields of the layer's kind out in reading order, a few pairs per grid row.
void LayerEditor::place(const std::vector<int>& columns) {
    if (columns == placed_) return;
    for (auto& [column, f] : fields_) {
        grid_->removeWidget(f.label);
        grid_->removeWidget(f.editor);
        f.label->hide();
        f.editor->hide();
    }
    for (std::size_t k = 0; k < columns.size(); ++k) {
        const Field& f = fields_.at(columns[k]);
        const int r = int(k) / fieldsPerRow, c = 2 * (int(k) % fieldsPerRow);
        grid_->addWidget(f.label, r, c, Qt::AlignRight);
        grid_->addWidget(f.editor, r, c + 1);
        f.label->show();
        f.editor->show();
    }
    for (int c = 0; c < 2 * fieldsPerRow; ++c) grid_->setColumnStretch(c, c % 2);
    placed_ = columns;
}

void LayerEditor::refresh() {
    if (row_ >= model_->layerCount()) row_ = -1;
    updating_ = true;
    std::vector<int> columns;
    if (row_ >= 0)
        for (const auto& [column, f] : fields_)
            if (model_->hasField(row_, column)) columns.push_back(column);
    // In the model's column order (the map's keys): numbers, then picks, then check boxes.
    place(columns);
    const QString kind = row_ >= 0 ? model_->index(row_, C::Type).data().toString() : QString();
    setTitle(row_ >= 0 ? tr("Layer %1: %2").arg(row_ + 1).arg(kind) : tr("Layer settings"));
    empty_->setText(row_ < 0          ? tr("Select a layer in the table to edit its settings.")
                    : columns.empty() ? tr("A %1 layer has no settings.").arg(kind)
                                      : QString());
    empty_->setVisible(!empty_->text().isEmpty());
    if (row_ >= 0 && !columns.empty()) {
        const auto value = [&](int column) { return model_->index(row_, column).data(Qt::EditRole); };
        const LayerSpec& layer = *model_->layerAt(row_);
        const bool conv = std::holds_alternative<ConvSpec>(layer);
        labelFields(layer);
        units_->setValue(value(C::Units).toInt());
        heads_->setValue(value(C::Heads).toInt());
        const QString k = value(C::Kernel).toString();
        kernelH_->setValue(k.section(QLatin1Char('x'), 0, 0).toInt());
        kernelW_->setValue(conv ? k.section(QLatin1Char('x'), 1, 1).toInt() : kernelH_->value());
        kernelTimes_->setVisible(conv);
        kernelW_->setVisible(conv);
        convKernel_ = conv;
        stride_->setMinimum(conv ? 1 : 0);
        stride_->setSpecialValueText(conv ? QString() : tr("window"));
        stride_->setValue(value(C::Stride).toInt());
        padding_->setCurrentText(value(C::Padding).toString());
        activation_->setCurrentText(value(C::Activation).toString());
        if (const QStringList steps = model_->stepsChoices(row_); steps != itemsOf(steps_)) {
            steps_->clear();
            steps_->addItems(steps);
        }
        steps_->setCurrentText(value(C::Steps).toString());
        rate_->setValue(value(C::Rate).toDouble());
        momentum_->setValue(value(C::Momentum).toDouble());
        epsilon_->setText(QString::number(value(C::Epsilon).toDouble(), 'g', 6));
        for (auto [box, column] : {std::pair{bias_, C::Bias}, std::pair{scalable_, C::Scalable},
                                   std::pair{classToken_, C::ClassToken}, std::pair{causal_, C::Causal}})
            box->setChecked(model_->index(row_, column).data(Qt::CheckStateRole).toInt() == Qt::Checked);
    }
    updating_ = false;
}

// The labels that name a field differently by kind: a conv's filters, a patch's dimensions.
void LayerEditor::labelFields(const LayerSpec& layer) {
    const bool conv = std::holds_alternative<ConvSpec>(layer);
    const bool patch = std::holds_alternative<PatchSpec>(layer);
    const bool transformer = std::holds_alternative<EncoderSpec>(layer) || std::holds_alternative<AttentionSpec>(layer);
    fields_.at(C::Units).label->setText(conv                                                    ? tr("Filters:")
                                        : patch || std::holds_alternative<EmbeddingSpec>(layer) ? tr("Dimensions:")
                                        : std::holds_alternative<EncoderSpec>(layer)            ? tr("MLP width:")
                                                                                                : tr("Units:"));
    fields_.at(C::Kernel).label->setText(conv ? tr("Kernel:") : patch ? tr("Patch:") : tr("Window:"));
    fields_.at(C::Rate).label->setText(transformer ? tr("Dropout:") : tr("Rate:"));
}

void LayerEditor::write(int column, const QVariant& value, int role) {
    if (updating_ || row_ < 0) return;
    // A refused value (e.g. an epsilon of 0) leaves the layer as it was: show that again.
    if (!model_->setData(model_->index(row_, column), value, role)) refresh();
}

void LayerEditor::writeKernel() {
    if (convKernel_)
        write(C::Kernel, QStringLiteral("%1x%2").arg(kernelH_->value()).arg(kernelW_->value()), Qt::EditRole);
    else write(C::Kernel, kernelH_->value(), Qt::EditRole);
}

}  // namespace skynnet::ui
