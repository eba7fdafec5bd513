#include "ui/widgets/train_settings_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "data/training_checks.h"
#include "losses/task_losses.h"
#include "ui/core/project_document.h"

namespace skynnet::ui {
namespace {

QString lossText(LossKind k) {
    switch (k) {
    case LossKind::SoftmaxCrossEntropy: return QObject::tr("Cross-entropy");
    case LossKind::BinaryCrossEntropy: return QObject::tr("Binary cross-entropy");
    case LossKind::MeanSquaredError: return QObject::tr("Mean squared error");
    case LossKind::MeanAbsoluteError: return QObject::tr("Mean absolute error");
    }
    return QString::fromStdString(lossName(k));
}

// A form row whose label carries the same tooltip as its widget.
void addRow(QFormLayout* form, const QString& label, QWidget* w, const QString& tip) {
    w->setToolTip(tip);
    auto* l = new QLabel(label);
    l->setToolTip(tip);
    l->setBuddy(w);
    form->addRow(l, w);
}

}  // namespace

TrainSettingsPanel::TrainSettingsPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
    buildUi();
    connect(document_, &ProjectDocument::trainSettingsChanged, this, &TrainSettingsPanel::fromDocument);
    connect(document_, &ProjectDocument::dataChanged, this, &TrainSettingsPanel::fromDocument);
    fromDocument();
}

void TrainSettingsPanel::buildUi() {
    buildToggle();
    buildFields();
    buildForm();
    connectFields();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toggle_);
    layout->addWidget(group_);
}

void TrainSettingsPanel::buildToggle() {
    toggle_ = new QToolButton;
    toggle_->setText(tr("Advanced"));
    toggle_->setCheckable(true);
    toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle_->setArrowType(Qt::RightArrow);
    toggle_->setAutoRaise(true);
    toggle_->setToolTip(tr("Show or hide the loss, schedule, weight decay and early stopping"));
    connect(toggle_, &QToolButton::toggled, this, &TrainSettingsPanel::setExpanded);
}

void TrainSettingsPanel::buildFields() {
    loss_ = new QComboBox;
    weightDecay_ = new QDoubleSpinBox;
    weightDecay_->setDecimals(5);
    weightDecay_->setRange(0, 1);
    weightDecay_->setSingleStep(0.0001);
    schedule_ = new QComboBox;
    schedule_->addItem(tr("Constant"), int(Schedule::Kind::Constant));
    schedule_->addItem(tr("Step"), int(Schedule::Kind::Step));
    schedule_->addItem(tr("Cosine"), int(Schedule::Kind::Cosine));
    stepEpochs_ = new QSpinBox;
    stepEpochs_->setRange(1, 10000);
    stepEpochs_->setSuffix(tr(" epochs"));
    gamma_ = new QDoubleSpinBox;
    gamma_->setDecimals(3);
    gamma_->setRange(0.001, 1);
    gamma_->setSingleStep(0.05);
    minRate_ = new QDoubleSpinBox;
    minRate_->setDecimals(6);
    minRate_->setRange(0, 1);
    minRate_->setSingleStep(0.00001);
    earlyStopping_ = new QCheckBox(tr("Stop when validation stops improving"));
    monitor_ = new QComboBox;
    monitor_->addItem(tr("Validation loss"), int(EarlyStopping::Monitor::ValidationLoss));
    monitor_->addItem(tr("Validation metric"), int(EarlyStopping::Monitor::ValidationMetric));
    patience_ = new QSpinBox;
    patience_->setRange(0, 10000);
    patience_->setSuffix(tr(" epochs"));
    restoreBest_ = new QCheckBox(tr("Keep the best epoch's weights"));
    validation_ = new QDoubleSpinBox;
    validation_->setRange(0, 90);
    validation_->setDecimals(0);
    validation_->setSuffix(QStringLiteral(" %"));
    problem_ = new QLabel;
    problem_->setObjectName(QStringLiteral("advancedProblem"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("QLabel { color: #b3261e; }"));
    problem_->hide();
}

void TrainSettingsPanel::buildForm() {
    group_ = new QGroupBox;
    auto* form = new QFormLayout(group_);
    addRow(form, tr("Loss:"), loss_,
           tr("What training minimises; only the losses that fit the data's task are offered"));
    addRow(form, tr("Weight decay:"), weightDecay_,
           tr("Pulls every weight towards zero a little at each step, against overfitting; 0 turns it off"));
    addRow(form, tr("LR schedule:"), schedule_,
           tr("How the learning rate changes over the epochs: constant, cut by a factor every few epochs (step), "
              "or falling along a half cosine to the minimum rate at the last epoch"));
    addRow(form, tr("Step every:"), stepEpochs_,
           tr("Step schedule: the learning rate is multiplied by the factor this often"));
    addRow(form, tr("Step factor:"), gamma_, tr("Step schedule: what the learning rate is multiplied by at each step"));
    addRow(form, tr("Minimum rate:"), minRate_, tr("Cosine schedule: the learning rate reached at the last epoch"));
    form->addRow(earlyStopping_);
    earlyStopping_->setToolTip(
        tr("End a model's training when its validation score has not improved for the patience"));
    addRow(form, tr("Watch:"), monitor_, tr("Early stopping: the validation figure that must improve"));
    addRow(form, tr("Patience:"), patience_, tr("Early stopping: epochs without improvement before training ends"));
    form->addRow(restoreBest_);
    restoreBest_->setToolTip(tr("Early stopping: end with the weights of the best epoch rather than the last"));
    addRow(form, tr("Validation:"), validation_,
           tr("Share of the rows held out to validate after every epoch (the same setting as on the Data page)"));
    form->addRow(problem_);
    group_->hide();
}

void TrainSettingsPanel::connectFields() {
    for (QComboBox* c : {loss_, schedule_, monitor_})
        connect(c, &QComboBox::currentIndexChanged, this, &TrainSettingsPanel::toDocument);
    for (QCheckBox* c : {earlyStopping_, restoreBest_})
        connect(c, &QCheckBox::toggled, this, &TrainSettingsPanel::toDocument);
    for (QDoubleSpinBox* b : {weightDecay_, gamma_, minRate_})
        connect(b, &QDoubleSpinBox::valueChanged, this, &TrainSettingsPanel::toDocument);
    for (QSpinBox* b : {stepEpochs_, patience_})
        connect(b, &QSpinBox::valueChanged, this, &TrainSettingsPanel::toDocument);
    connect(validation_, &QDoubleSpinBox::valueChanged, this, &TrainSettingsPanel::validationToDocument);
    // Typing "0.001" is one undo step: a spin box's edits merge until it is left or Enter is pressed.
    for (QAbstractSpinBox* box :
         std::initializer_list<QAbstractSpinBox*>{weightDecay_, stepEpochs_, gamma_, minRate_, patience_, validation_})
        connect(box, &QAbstractSpinBox::editingFinished, document_, &ProjectDocument::sealEdits);
}

void TrainSettingsPanel::setExpanded(bool expanded) {
    toggle_->setChecked(expanded);
    toggle_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    group_->setVisible(expanded);
}

bool TrainSettingsPanel::isExpanded() const { return toggle_->isChecked(); }

QString TrainSettingsPanel::problemText() const { return problem_->isHidden() ? QString() : problem_->text(); }

void TrainSettingsPanel::setRunning(bool running) {
    running_ = running;
    updateEnabled();
}

void TrainSettingsPanel::fromDocument() {
    updating_ = true;
    const TrainConfig& c = document_->trainSettings().config;
    const auto data = document_->dataset();
    // The engine's one rule decides the choice; without data only the loss in force is shown.
    const std::vector<LossKind> losses = data ? lossesForTask(data->task) : std::vector<LossKind>{c.loss};
    bool sameList = loss_->count() == int(losses.size());
    for (int i = 0; sameList && i < loss_->count(); ++i)
        sameList = LossKind(loss_->itemData(i).toInt()) == losses[std::size_t(i)];
    if (!sameList) {  // rebuilt only when the task changed, not under the box's own signal
        loss_->clear();
        for (LossKind k : losses) loss_->addItem(lossText(k), int(k));
    }
    loss_->setCurrentIndex(loss_->findData(int(c.loss)));
    weightDecay_->setValue(double(c.optimizer.weightDecay));
    const Schedule& s = c.optimizer.schedule;
    schedule_->setCurrentIndex(std::max(0, schedule_->findData(int(s.kind))));
    // A parameter of another schedule shows nothing, rather than a value not in force.
    if (s.kind == Schedule::Kind::Step) {
        stepEpochs_->setValue(s.stepEpochs);
        gamma_->setValue(double(s.gamma));
    } else {
        stepEpochs_->clear();
        gamma_->clear();
    }
    if (s.kind == Schedule::Kind::Cosine) minRate_->setValue(double(s.minRate));
    else minRate_->clear();
    const EarlyStopping& e = c.earlyStopping;
    earlyStopping_->setChecked(e.enabled);
    if (e.enabled) {
        monitor_->setCurrentIndex(std::max(0, monitor_->findData(int(e.monitor))));
        patience_->setValue(e.patience);
    } else {
        monitor_->setCurrentIndex(-1);
        patience_->clear();
    }
    restoreBest_->setChecked(e.enabled && e.restoreBest);
    validation_->setValue(document_->dataSettings().validationFraction * 100);
    const bool advanced = !(c.loss == losses.front()) || c.optimizer.weightDecay != 0 ||
                          s.kind != Schedule::Kind::Constant || e.enabled;
    if (advanced && !isExpanded()) setExpanded(true);  // settings in force are never hidden
    updateProblem();
    updating_ = false;
    updateEnabled();
}

void TrainSettingsPanel::updateProblem() {
    QString text = validationProblem_;
    if (text.isEmpty() && document_->trainSettings().config.earlyStopping.enabled &&
        document_->dataSettings().validationFraction <= 0)
        text = tr("Early stopping watches the validation rows: set a validation share above 0 %.");
    problem_->setText(text);
    problem_->setVisible(!text.isEmpty());
}

void TrainSettingsPanel::updateEnabled() {
    const bool on = !running_;
    const auto kind = Schedule::Kind(schedule_->currentData().toInt());
    const bool stopping = earlyStopping_->isChecked();
    loss_->setEnabled(on && loss_->count() > 1);
    weightDecay_->setEnabled(on);
    schedule_->setEnabled(on);
    stepEpochs_->setEnabled(on && kind == Schedule::Kind::Step);
    gamma_->setEnabled(on && kind == Schedule::Kind::Step);
    minRate_->setEnabled(on && kind == Schedule::Kind::Cosine);
    earlyStopping_->setEnabled(on);
    monitor_->setEnabled(on && stopping);
    patience_->setEnabled(on && stopping);
    restoreBest_->setEnabled(on && stopping);
    validation_->setEnabled(on && document_->hasData());
}

void TrainSettingsPanel::toDocument() {
    if (updating_) return;
    ProjectTraining t = document_->trainSettings();
    TrainConfig& c = t.config;
    if (loss_->currentIndex() >= 0) c.loss = LossKind(loss_->currentData().toInt());
    c.optimizer.weightDecay = float(weightDecay_->value());
    Schedule& s = c.optimizer.schedule;
    const auto kind = Schedule::Kind(schedule_->currentData().toInt());
    // Only the controls in force are read: a greyed one is blank and keeps the saved value.
    if (kind == s.kind && kind == Schedule::Kind::Step) {
        s.stepEpochs = stepEpochs_->value();
        s.gamma = float(gamma_->value());
    }
    if (kind == s.kind && kind == Schedule::Kind::Cosine) s.minRate = float(minRate_->value());
    s.kind = kind;
    EarlyStopping& e = c.earlyStopping;
    if (e.enabled && earlyStopping_->isChecked()) {
        if (monitor_->currentIndex() >= 0) e.monitor = EarlyStopping::Monitor(monitor_->currentData().toInt());
        e.patience = patience_->value();
        e.restoreBest = restoreBest_->isChecked();
    }
    e.enabled = earlyStopping_->isChecked();
    document_->editTrainSettings(t);  // one undoable step
}

void TrainSettingsPanel::validationToDocument() {
    if (updating_ || !document_->hasData()) return;
    ProjectDataSource s = document_->dataSettings();
    s.validationFraction = validation_->value() / 100.0;
    QString problem;
    if (s.validationFraction + s.testFraction >= 0.95) {  // splitIndices needs rows left to train on
        problem = tr("Validation and test together must leave rows to train on (at most 95 %).");
    } else {
        try {  // the engine's own refusal, as on the Data page
            checkTrainable(*document_->dataset(), s.validationFraction, s.testFraction, !s.test.path.empty());
        } catch (const std::exception& e) {
            problem = tr("Validation %1 %: %2").arg(validation_->value()).arg(QString::fromUtf8(e.what()));
        }
    }
    validationProblem_ = problem;
    updateProblem();
    if (!problem.isEmpty()) return;
    document_->editDataSettings(s);  // one undoable step
}

}  // namespace skynnet::ui
