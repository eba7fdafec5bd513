#pragma once
// The Train page's "Advanced" settings: the loss (only those that fit the data's task, by the
// engine's lossesForTask), weight decay, the learning-rate schedule (constant, step, cosine) with
// its parameters, early stopping (what it watches, patience, keeping the best epoch) and the
// validation fraction it needs. Folded by default; every change is one undoable edit of the
// document (editTrainSettings, and editDataSettings for the validation fraction), so it is saved
// in the project like the basic settings.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QSpinBox;
class QToolButton;

namespace skynnet::ui {

class ProjectDocument;

class TrainSettingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainSettingsPanel(ProjectDocument* document, QWidget* parent = nullptr);

    // Greys every control while a run trains (its settings are fixed for it).
    void setRunning(bool running);
    void setExpanded(bool expanded);
    bool isExpanded() const;

    QComboBox* lossBox() const { return loss_; }
    QDoubleSpinBox* weightDecayBox() const { return weightDecay_; }
    QComboBox* scheduleBox() const { return schedule_; }
    QSpinBox* stepEpochsBox() const { return stepEpochs_; }
    QDoubleSpinBox* gammaBox() const { return gamma_; }
    QDoubleSpinBox* minRateBox() const { return minRate_; }
    QCheckBox* earlyStoppingBox() const { return earlyStopping_; }
    QComboBox* monitorBox() const { return monitor_; }
    QSpinBox* patienceBox() const { return patience_; }
    QCheckBox* restoreBestBox() const { return restoreBest_; }
    QDoubleSpinBox* validationBox() const { return validation_; }  // percent of the rows
    QString problemText() const;                                   // empty when hidden

private:
    void buildUi();
    void buildToggle();  // the "Advanced" button that folds the settings
    void buildFields();  // the controls, not yet laid out
    void buildForm();    // the controls in the folded group
    void connectFields();
    void fromDocument();
    void toDocument();
    void validationToDocument();
    void updateEnabled();
    void updateProblem();  // the refused validation share, or early stopping without validation rows

    ProjectDocument* document_;
    bool updating_ = false;
    bool running_ = false;

    QToolButton* toggle_ = nullptr;
    QGroupBox* group_ = nullptr;
    QComboBox* loss_ = nullptr;
    QDoubleSpinBox* weightDecay_ = nullptr;
    QComboBox* schedule_ = nullptr;
    QSpinBox* stepEpochs_ = nullptr;
    QDoubleSpinBox* gamma_ = nullptr;
    QDoubleSpinBox* minRate_ = nullptr;
    QCheckBox* earlyStopping_ = nullptr;
    QComboBox* monitor_ = nullptr;
    QSpinBox* patience_ = nullptr;
    QCheckBox* restoreBest_ = nullptr;
    QDoubleSpinBox* validation_ = nullptr;
    QLabel* problem_ = nullptr;
    QString validationProblem_;  // why the last validation share typed was not taken
};

}  // namespace skynnet::ui
