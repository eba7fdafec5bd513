#include "ui/widgets/data_options_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <initializer_list>

#include "core/error.h"
#include "data/training_checks.h"
#include "ui/widgets/dataset_views.h"
#include "ui/widgets/text_data_group.h"

namespace skynnet::ui {

DataOptionsPanel::DataOptionsPanel(ProjectDocument* document, QWidget* parent) : QWidget(parent), document_(document) {
    QGroupBox* roles = buildColumnsAndTask();
    buildImageOptions();
    QGroupBox* prep = buildPreparation();
    text_ = new TextDataGroup(document_);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(roles);
    layout->addWidget(images_);
    layout->addWidget(text_);
    layout->addWidget(prep);
    refresh();
}

QGroupBox* DataOptionsPanel::buildColumnsAndTask() {
    targetColumn_ = new QComboBox;
    targetColumn_->setToolTip(tr("The column the network learns to predict (CSV files); the others are its inputs"));
    textColumn_ = new QComboBox;
    textColumn_->setToolTip(tr("A column of free text (reviews, passages) read as the only input, as token ids; "
                               "the other columns are then not read"));
    task_ = new QComboBox;
    task_->addItem(tr("Detected automatically"));
    task_->addItem(tr("Classification"), int(Task::Classification));
    task_->addItem(tr("Binary classification"), int(Task::Binary));
    task_->addItem(tr("Regression"), int(Task::Regression));
    task_->addItem(tr("Reconstruction (autoencoder)"), int(Task::Reconstruction));
    task_->setToolTip(tr("Override the detected task: classes, two classes, numeric values, or the input itself "
                         "(an autoencoder, its labels left out)"));
    detected_ = new QLabel;
    auto* roles = new QGroupBox(tr("Columns and task"));
    auto* rolesForm = new QFormLayout(roles);
    rolesForm->addRow(tr("Target column:"), targetColumn_);
    rolesForm->addRow(tr("Text column:"), textColumn_);
    rolesForm->addRow(tr("Task:"), task_);
    rolesForm->addRow(QString(), detected_);
    connect(targetColumn_, &QComboBox::activated, this, &DataOptionsPanel::requestReload);
    connect(textColumn_, &QComboBox::activated, this, &DataOptionsPanel::requestReload);
    connect(task_, &QComboBox::activated, this, &DataOptionsPanel::requestReload);
    return roles;
}

void DataOptionsPanel::buildImageOptions() {
    imageHeight_ = new QSpinBox;
    imageWidth_ = new QSpinBox;
    for (QSpinBox* b : {imageHeight_, imageWidth_}) {
        b->setRange(0, 8192);
        b->setSpecialValueText(tr("as images"));
        b->setSuffix(tr(" px"));
        connect(b, &QAbstractSpinBox::editingFinished, this, &DataOptionsPanel::requestReload);
    }
    imageHeight_->setToolTip(tr("Every image is resized to this height (as the first image when unset)"));
    imageWidth_->setToolTip(tr("Every image is resized to this width (as the first image when unset)"));
    channels_ = new QComboBox;
    channels_->addItem(tr("As the images"), 0);
    channels_->addItem(tr("Gray (1 channel)"), 1);
    channels_->addItem(tr("RGB (3 channels)"), 3);
    channels_->setToolTip(tr("Colour images become gray by luminance, gray ones RGB by copying"));
    strictImages_ = new QCheckBox(tr("Refuse the folder if an image cannot be read"));
    strictImages_->setToolTip(tr("Unchecked, unreadable files are skipped and listed"));
    connect(channels_, &QComboBox::activated, this, &DataOptionsPanel::requestReload);
    connect(strictImages_, &QCheckBox::toggled, this, &DataOptionsPanel::requestReload);
    images_ = new QGroupBox(tr("Images"));
    auto* imageForm = new QFormLayout(images_);
    auto* size = new QHBoxLayout;
    size->addWidget(imageHeight_, 1);
    size->addWidget(new QLabel(QStringLiteral("×")));
    size->addWidget(imageWidth_, 1);
    imageForm->addRow(tr("Size (H × W):"), size);
    imageForm->addRow(tr("Channels:"), channels_);
    imageForm->addRow(strictImages_);
}

QGroupBox* DataOptionsPanel::buildPreparation() {
    scaling_ = new QComboBox;
    scaling_->addItem(tr("Standardize (mean 0, sd 1)"), int(Scaling::Standardize));
    scaling_->addItem(tr("Min-max to [0, 1], each column"), int(Scaling::MinMax));
    scaling_->addItem(tr("Pixel range to [0, 1], all columns"), int(Scaling::PixelRange));
    scaling_->addItem(tr("None"), int(Scaling::None));
    scaling_->setToolTip(tr("How numeric features are scaled; fitted on the training rows only"));
    validation_ = new QDoubleSpinBox;
    test_ = new QDoubleSpinBox;
    for (QDoubleSpinBox* s : {validation_, test_}) {
        s->setRange(0, 90);
        s->setDecimals(0);
        s->setSuffix(QStringLiteral(" %"));
    }
    validation_->setToolTip(tr("Share of the rows held out to validate after every epoch"));
    test_->setToolTip(tr("Share of the rows held out to measure the final models (unused with a separate test file)"));
    seed_ = new QSpinBox;
    seed_->setRange(0, 1'000'000);
    seed_->setToolTip(tr("Seed of the stratified train/validation/test split"));
    auto* prep = new QGroupBox(tr("Preparation"));
    auto* prepForm = new QFormLayout(prep);
    prepForm->addRow(tr("Scaling:"), scaling_);
    prepForm->addRow(tr("Validation:"), validation_);
    prepForm->addRow(tr("Test:"), test_);
    prepForm->addRow(tr("Split seed:"), seed_);
    connect(scaling_, &QComboBox::activated, this, &DataOptionsPanel::applyPreparation);
    for (QDoubleSpinBox* s : {validation_, test_})
        connect(s, &QDoubleSpinBox::valueChanged, this, &DataOptionsPanel::applyPreparation);
    connect(seed_, &QSpinBox::valueChanged, this, &DataOptionsPanel::applyPreparation);
    // Typing "25" is one undoable step, ended when the box loses focus or Enter is pressed.
    for (QAbstractSpinBox* box : std::initializer_list<QAbstractSpinBox*>{validation_, test_, seed_})
        connect(box, &QAbstractSpinBox::editingFinished, document_, &ProjectDocument::sealEdits);
    return prep;
}

void DataOptionsPanel::refresh() {
    updating_ = true;
    const ProjectDataSource& s = document_->dataSettings();
    const QString path = QString::fromStdString(s.train.path);
    const auto data = document_->dataset();
    task_->setCurrentIndex(s.task ? task_->findData(int(*s.task)) : 0);
    detected_->setText(data ? tr("In use: %1").arg(QString::fromStdString(taskName(data->task))) : QString());
    scaling_->setCurrentIndex(std::max(0, scaling_->findData(int(s.scaling))));
    const bool text = data && data->isText();
    scaling_->setEnabled(!text);  // token ids reach the network as they are
    scaling_->setToolTip(text ? tr("Token ids are never scaled")
                              : tr("How numeric features are scaled; fitted on the training rows only"));
    text_->refresh();
    validation_->setValue(s.validationFraction * 100);
    test_->setValue(s.testFraction * 100);
    test_->setEnabled(s.test.path.empty());
    seed_->setValue(int(s.seed));
    images_->setVisible(!path.isEmpty() && QFileInfo(path).isDir());
    imageHeight_->setValue(s.image.height);
    imageWidth_->setValue(s.image.width);
    channels_->setCurrentIndex(std::max(0, channels_->findData(s.image.channels)));
    strictImages_->setChecked(s.image.strict);

    targetColumn_->clear();
    textColumn_->clear();
    const bool csv = !path.isEmpty() && isCsvPath(path);
    targetColumn_->setEnabled(csv);
    textColumn_->setEnabled(csv);
    if (!csv) {
        targetColumn_->addItem(path.isEmpty() ? QString() : tr("(labels from the file)"));
        textColumn_->addItem(text ? tr("(one text per file)") : QString());
    } else {
        // Reconstruction reads every column as an input unless one is named, a label left out.
        const bool reconstruction = s.task == Task::Reconstruction;
        targetColumn_->addItem(reconstruction ? tr("None: every column is an input") : tr("Last column"), QString());
        textColumn_->addItem(tr("None (all numeric)"), QString());  // the long form was cut at 1024 pixels
        textColumn_->setItemData(0, tr("None: every column is a numeric feature"), Qt::ToolTipRole);
        for (const QString& c : csvColumns(path)) {
            targetColumn_->addItem(c, c);
            textColumn_->addItem(c, c);
        }
        targetColumn_->setCurrentIndex(std::max(0, targetColumn_->findData(QString::fromStdString(s.targetColumn))));
        textColumn_->setCurrentIndex(std::max(0, textColumn_->findData(QString::fromStdString(s.textColumn))));
    }
    updating_ = false;
}

void DataOptionsPanel::applyPreparation() {
    if (updating_ || !document_->hasData()) return;
    ProjectDataSource s = document_->dataSettings();
    s.scaling = Scaling(scaling_->currentData().toInt());
    s.validationFraction = validation_->value() / 100.0;
    s.testFraction = test_->value() / 100.0;
    s.seed = quint64(seed_->value());
    if (s.validationFraction + s.testFraction >= 0.95) {  // splitIndices needs rows left to train on
        emit problem(tr("Validation and test together must leave rows to train on (at most 95 %)."));
        return;
    }
    try {  // the engine's own refusal, as skynnet-cli words it (a part the data cannot fill)
        checkTrainable(*document_->dataset(), s.validationFraction, s.testFraction, !s.test.path.empty());
    } catch (const Error& e) {
        emit problem(QString::fromUtf8(e.what()));
        return;
    }
    emit problemSolved();
    document_->editDataSettings(s);  // one undoable step
}

void DataOptionsPanel::requestReload() {
    if (updating_ || document_->dataSettings().train.path.empty()) return;
    ProjectDataSource s = document_->dataSettings();
    s.targetColumn = targetColumn_->isEnabled() ? targetColumn_->currentData().toString().toStdString() : std::string();
    s.textColumn = textColumn_->isEnabled() ? textColumn_->currentData().toString().toStdString() : std::string();
    const QVariant task = task_->currentData();
    s.task = task.isValid() ? std::optional<Task>(Task(task.toInt())) : std::nullopt;
    if (s.task == Task::Reconstruction && document_->hasData()) s = reconstructionSettings(s, *document_->dataset());
    if (images_->isVisible() || QFileInfo(QString::fromStdString(s.train.path)).isDir()) {
        // One size set alone keeps the other from the images: both or neither.
        s.image.height = imageHeight_->value();
        s.image.width = imageWidth_->value();
        if ((s.image.height == 0) != (s.image.width == 0)) return;
        s.image.channels = channels_->currentData().toInt();
        s.image.strict = strictImages_->isChecked();
    }
    if (!(s == document_->dataSettings())) emit reloadRequested(s);
}

}  // namespace skynnet::ui
