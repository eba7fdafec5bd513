#pragma once
// The Data page's settings: which column is the target and which task, then how the data is
// prepared (scaling, validation and test shares, split seed). Preparation changes go straight to
// the document as undoable steps; column and task changes need a reload, which the page runs.
#include <QWidget>

#include "ui/core/project_document.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace skynnet::ui {

class DataOptionsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DataOptionsPanel(ProjectDocument* document, QWidget* parent = nullptr);
    void refresh();  // widgets <- document
    QComboBox* targetColumnBox() const { return targetColumn_; }
    QComboBox* taskBox() const { return task_; }
    QComboBox* scalingBox() const { return scaling_; }
    QDoubleSpinBox* validationBox() const { return validation_; }  // percent
    QDoubleSpinBox* testBox() const { return test_; }
    QSpinBox* seedBox() const { return seed_; }

signals:
    void reloadRequested(const skynnet::ProjectDataSource& settings);
    void problem(const QString& message);  // an invalid choice, for the page's error banner
    void problemSolved();

private:
    void applyPreparation();
    void requestReload();

    ProjectDocument* document_;
    bool updating_ = false;
    QComboBox* targetColumn_;
    QComboBox* task_;
    QLabel* detected_;
    QComboBox* scaling_;
    QDoubleSpinBox* validation_;
    QDoubleSpinBox* test_;
    QSpinBox* seed_;
};

}  // namespace skynnet::ui
