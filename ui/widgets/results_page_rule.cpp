// The Results page's "Combine by" choice (results_page.h): a class-groups run combined by another
// rule from the submodels' test outputs kept with it, without retraining.
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>

#include "project/recombine.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/results_page.h"

namespace skynnet::ui {

QWidget* ResultsPage::buildRuleChoice() {
    ruleChoice_ = new QComboBox;
    ruleChoice_->setObjectName(QStringLiteral("combineRule"));
    ruleChoice_->addItem(tr("Product (the reference's rule)"), int(ClassCombine::Product));
    ruleChoice_->addItem(tr("Coupling"), int(ClassCombine::Coupling));
    ruleChoice_->addItem(tr("Sum"), int(ClassCombine::Sum));
    ruleChoice_->addItem(tr("Stacked"), int(ClassCombine::Stacked));
    ruleChoice_->setToolTip(
        tr("How the class-group submodels' probabilities become one answer, recomputed at once from their test "
           "outputs, without retraining.\nproduct: each class's probabilities multiplied over the submodels that "
           "own it (the published Skynnet method's rule)\ncoupling: the class probabilities that best explain every "
           "submodel's "
           "(generalised Bradley-Terry)\nsum: each class's mean probability over its owners\nstacked: a small "
           "model learnt on the validation rows after training weighs every submodel's answers (only for runs "
           "trained with validation rows)"));
    auto* label = new QLabel(tr("Combine by:"));
    label->setBuddy(ruleChoice_);
    ruleRow_ = new QWidget;
    auto* row = new QHBoxLayout(ruleRow_);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(label);
    row->addWidget(ruleChoice_);
    ruleRow_->hide();
    connect(ruleChoice_, &QComboBox::activated, this, &ResultsPage::chooseRule);
    connect(session_, &TrainingSession::resultsChanged, this, &ResultsPage::refresh);
    return ruleRow_;
}

void ResultsPage::updateRuleChoice() {
    const bool shown = shownResults_ && shownPlan_ && canRecombine(*shownResults_, *shownPlan_);
    ruleRow_->setVisible(shown);
    if (!shown) return;
    // Stacked only where the run kept its weights (fitted on the validation rows after training).
    if (auto* items = qobject_cast<QStandardItemModel*>(ruleChoice_->model()))
        if (QStandardItem* stacked = items->item(ruleChoice_->findData(int(ClassCombine::Stacked)))) {
            const bool fitted = hasStackedWeights(*shownResults_);
            stacked->setEnabled(fitted);
            stacked->setToolTip(fitted ? QString()
                                       : tr("This run has no stacked weights: they are learnt on the validation rows, "
                                            "and it was trained without any or its weights were not kept."));
        }
    ruleChoice_->setCurrentIndex(ruleChoice_->findData(int(shownResults_->classCombine)));
}

void ResultsPage::chooseRule(int index) {
    const auto how = ClassCombine(ruleChoice_->itemData(index).toInt());
    ProjectDocument* doc = session_->document();
    // The session's own run (kept by the document or not) or a kept run shown from the list.
    const bool sessionRun = shownResults_ && shownResults_ == session_->results();
    ruleProblem_ = sessionRun ? session_->recombineResults(how)
                   : doc      ? doc->recombineRun(shownIndex_, how)
                              : tr("no run to combine");
    refresh();
}

}  // namespace skynnet::ui
