#pragma once
// The Data page's settings: which column is the target, which holds text, and which task, an
// image folder's size, channels and strictness, text settings (text_data_group.h), then how the
// data is prepared (scaling, validation and test shares, split seed). Preparation changes go straight to
// the document as undoable steps; column, task and image changes need a reload, which the page runs.
#include <QWidget>

#include "ui/core/project_document.h"

class QCheckBox;
class QComboBox;
class QGroupBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace skynnet::ui {

class TextDataGroup;

class DataOptionsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DataOptionsPanel(ProjectDocument* document, QWidget* parent = nullptr);
    void refresh();  // widgets <- document
    QComboBox* targetColumnBox() const { return targetColumn_; }
    QComboBox* textColumnBox() const { return textColumn_; }  // CSV files: none, or the column of texts
    TextDataGroup* textGroup() const { return text_; }
    QComboBox* taskBox() const { return task_; }
    QComboBox* scalingBox() const { return scaling_; }
    QDoubleSpinBox* validationBox() const { return validation_; }  // percent
    QDoubleSpinBox* testBox() const { return test_; }
    QSpinBox* seedBox() const { return seed_; }
    QGroupBox* imageGroup() const { return images_; }          // shown for image folders only
    QSpinBox* imageHeightBox() const { return imageHeight_; }  // 0: the first image's
    QSpinBox* imageWidthBox() const { return imageWidth_; }
    QComboBox* channelsBox() const { return channels_; }
    QCheckBox* strictImagesBox() const { return strictImages_; }

signals:
    void reloadRequested(const skynnet::ProjectDataSource& settings);
    void problem(const QString& message);  // an invalid choice, for the page's error banner
    void problemSolved();

private:
    QGroupBox* buildColumnsAndTask();  // target column and task: a change reloads
    void buildImageOptions();          // images_: a change reloads
    QGroupBox* buildPreparation();     // scaling, shares and seed: edits of the loaded data
    void applyPreparation();
    void requestReload();

    ProjectDocument* document_;
    bool updating_ = false;
    QComboBox* targetColumn_;
    QComboBox* textColumn_;
    TextDataGroup* text_;
    QComboBox* task_;
    QLabel* detected_;
    QComboBox* scaling_;
    QDoubleSpinBox* validation_;
    QDoubleSpinBox* test_;
    QSpinBox* seed_;
    QGroupBox* images_;
    QSpinBox* imageHeight_;
    QSpinBox* imageWidth_;
    QComboBox* channels_;
    QCheckBox* strictImages_;
};

}  // namespace skynnet::ui
