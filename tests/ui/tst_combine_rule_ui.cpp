// The Results page's "Combine by" choice (issue 28), offscreen: a class-groups run on wine combined
// by coupling, stacked and sum without retraining (stacked only where the run has validation rows), every figure
// following, the rule kept in the run's model and in the project file, and the same outputs as the engine's combination
// of the saved submodels under that rule.
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "class_groups_setup.h"
#include "matrix_support.h"
#include "split/combined_model_file.h"
#include "test_shots.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/formatting.h"
#include "ui/core/plan_table_model.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/results_page.h"
#include "ui/widgets/split_page.h"
#include "ui/widgets/train_page.h"
#include "window_open.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

const QString wine = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/wine.csv");

int ruleIndex(QComboBox* box, ClassCombine how) { return box->findData(int(how)); }

}  // namespace

class TestCombineRuleUi : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // The Split page sets the rule and the "other" output before training, one named undo step
    // each; the run then trains submodels with one more output and shows its rule on Results.
    void splitPageSetsRuleAndOtherOutput() {
        const auto window = shownWindow(dir_.filePath(QStringLiteral("split.ini")));
        MainWindow& w = *window;
        ProjectDocument* doc = w.document();
        configureClassGroups(*doc, wine, 20, "dense:16:relu");
        doc->undoStack()->clear();
        w.showPage(MainWindow::SplitPageIndex);
        auto* combine = w.splitPage()->findChild<QComboBox*>(QStringLiteral("classCombine"));
        auto* other = w.splitPage()->findChild<QDoubleSpinBox*>(QStringLiteral("otherShare"));
        QVERIFY(combine && other && combine->isEnabled() && other->isEnabled());
        combine->setCurrentIndex(combine->findData(int(ClassCombine::Coupling)));
        other->setValue(0.5);
        QCOMPARE(doc->splitOptions().classCombine, ClassCombine::Coupling);
        QCOMPARE(doc->splitOptions().otherShare, 0.5);
        QCOMPARE(doc->undoStack()->text(0), QStringLiteral("Combine class groups by coupling"));
        QCOMPARE(doc->undoStack()->text(1), QStringLiteral("Set the 'other' share to 0.5"));
        QCOMPARE(doc->plan().submodels[0].spec.outputs, 3);  // two classes and "other"
        // The plan table's samples count the "other" rows, and its tooltip says how many they are.
        const SubmodelPlan& first = doc->plan().submodels[0];
        QVERIFY(first.otherRows > 0);
        const QModelIndex samples = w.splitPage()->planModel()->index(1, PlanTableModel::Samples);
        QCOMPARE(samples.data().toLongLong(), qlonglong(first.rows.size()));
        VERIFY_CONTAINS(samples.data(Qt::ToolTipRole).toString().toStdString(),
                        std::to_string(first.otherRows) + " of its " + std::to_string(first.rows.size()) +
                            " samples are 'other' rows");
        shoot(&w, QStringLiteral("split-combine-other"));
        doc->undoStack()->undo();
        QCOMPARE(other->value(), measuredOtherShare);  // a new project's share
        other->setValue(0.0);
        QCOMPARE(other->text(), QStringLiteral("Off"));
        QCOMPARE(doc->plan().submodels[0].spec.outputs, 2);
        other->setValue(0.5);

        QSignalSpy finished(w.session(), &TrainingSession::finished);
        w.trainPage()->startTraining();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), hangGuardMs(120000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Completed);
        const auto results = w.session()->results();
        QCOMPARE(results->classCombine, ClassCombine::Coupling);
        QVERIFY(results->model->rule.otherOutput);
        QCOMPARE(results->submodelTestOutputs[0].cols(), Index(3));
        w.showPage(MainWindow::ResultsPageIndex);
        QCOMPARE(w.resultsPage()->ruleChoice()->currentData().toInt(), int(ClassCombine::Coupling));
        doc->undoStack()->clear();
        doc->setClean();
    }

    // The halfway epoch scaling, and the reference's exact method one click away: one named undo
    // step that undoes every choice it changed.
    void sqrtEpochsAndReferenceMethod() {
        const auto window = shownWindow(dir_.filePath(QStringLiteral("reference.ini")));
        MainWindow& w = *window;
        ProjectDocument* doc = w.document();
        configureClassGroups(*doc, wine, 20, "dense:16:relu");
        w.showPage(MainWindow::SplitPageIndex);
        auto* scale = w.splitPage()->optionWidgets()[2];
        auto* scaleBox = qobject_cast<QComboBox*>(scale);
        QVERIFY(scaleBox);
        scaleBox->setCurrentIndex(scaleBox->findData(int(EpochScaling::Sqrt)));
        QCOMPARE(doc->splitOptions().scaleEpochs, std::optional(EpochScaling::Sqrt));
        QCOMPARE(doc->plan().effectiveEpochs, 17);  // ceil(20 / sqrt(1.5))
        QCOMPARE(doc->undoStack()->undoText(), QStringLiteral("Set epoch scaling to epochs / √F"));
        auto* combine = w.splitPage()->findChild<QComboBox*>(QStringLiteral("classCombine"));
        combine->setCurrentIndex(combine->findData(int(ClassCombine::Sum)));
        w.splitPage()->findChild<QDoubleSpinBox*>(QStringLiteral("otherShare"))->setValue(0.5);
        const SplitOptions before = doc->splitOptions();

        auto* reference = w.splitPage()->findChild<QPushButton*>(QStringLiteral("referenceMethod"));
        QVERIFY(reference && !reference->toolTip().isEmpty());
        QTest::mouseClick(reference, Qt::LeftButton);
        const SplitOptions& o = doc->splitOptions();
        QCOMPARE(o.classCombine, ClassCombine::Product);
        QCOMPARE(o.otherShare, 0.0);
        QCOMPARE(o.scaleEpochs, std::optional(EpochScaling::On));
        QCOMPARE(o.requested, before.requested);
        QCOMPARE(doc->plan().effectiveEpochs, 14);  // ceil(20 / 1.5)
        QCOMPARE(scaleBox->currentData().toInt(), int(EpochScaling::On));
        QCOMPARE(combine->currentData().toInt(), int(ClassCombine::Product));
        QCOMPARE(doc->undoStack()->undoText(), QStringLiteral("Use the reference's exact method"));
        doc->undoStack()->undo();
        QVERIFY(doc->splitOptions() == before);
        QCOMPARE(scaleBox->currentData().toInt(), int(EpochScaling::Sqrt));
        shoot(&w, QStringLiteral("split-reference-method"));
        doc->setClean();
    }

    void resultsSwitchRulesWithoutRetraining() {
        const auto window = shownWindow(dir_.filePath(QStringLiteral("settings.ini")));
        MainWindow& w = *window;
        ProjectDocument* doc = w.document();
        configureClassGroups(*doc, wine, 20, "dense:16:relu");  // 3 classes, 3 groups: 3 pairwise submodels
        // A new project combines by the stacked rule; this run trains by the product and switches.
        QCOMPARE(doc->splitOptions().classCombine, ClassCombine::Stacked);
        SplitOptions byProduct = doc->splitOptions();
        byProduct.classCombine = ClassCombine::Product;
        doc->setSplitOptions(byProduct);
        QSignalSpy finished(w.session(), &TrainingSession::finished);
        w.trainPage()->startTraining();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), hangGuardMs(120000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Completed);
        w.showPage(MainWindow::ResultsPageIndex);
        ResultsPage* page = w.resultsPage();
        QComboBox* rule = page->ruleChoice();
        QVERIFY(rule->isVisible());
        QCOMPARE(rule->currentData().toInt(), int(ClassCombine::Product));
        const auto trained = w.session()->results();
        QCOMPARE(trained->submodelTestOutputs.size(), std::size_t(3));
        const Matrix productOutput = trained->combinedTestOutput;

        // Coupling: the page's figures are the engine's combination of the trained submodels by
        // coupling on the same test rows, and the document's run records the rule.
        rule->setCurrentIndex(ruleIndex(rule, ClassCombine::Coupling));
        emit rule->activated(rule->currentIndex());
        QVERIFY2(page->ruleProblem().isEmpty(), qPrintable(page->ruleProblem()));
        const auto coupled = w.session()->results();
        QCOMPARE(coupled->classCombine, ClassCombine::Coupling);
        QVERIFY(!sameBits(coupled->combinedTestOutput, productOutput));
        CombinedModel model = buildCombinedModel(*coupled->model);
        QCOMPARE(model.rule().classCombine, ClassCombine::Coupling);
        const Matrix expected = model.predict(doc->prepared()->test.features);
        QVERIFY(sameBits(coupled->combinedTestOutput, expected));
        QCOMPARE(page->combinedMetricText(), formatMetric(coupled->combinedMetric));
        QVERIFY(doc->isModified());
        QCOMPARE(doc->shownRunRecord()->results->classCombine, ClassCombine::Coupling);
        QCOMPARE(doc->shownRunRecord()->results->model->rule.classCombine, ClassCombine::Coupling);
        shoot(&w, QStringLiteral("results-combine-coupling"));

        // Stacked: the run kept the weights fitted on its validation rows, so the rule is offered,
        // and the figures are the engine's combination of the saved submodels by those weights.
        auto* items = qobject_cast<QStandardItemModel*>(rule->model());
        QVERIFY(items && items->item(ruleIndex(rule, ClassCombine::Stacked))->isEnabled());
        rule->setCurrentIndex(ruleIndex(rule, ClassCombine::Stacked));
        emit rule->activated(rule->currentIndex());
        QVERIFY2(page->ruleProblem().isEmpty(), qPrintable(page->ruleProblem()));
        const auto stacked = w.session()->results();
        QCOMPARE(stacked->classCombine, ClassCombine::Stacked);
        QVERIFY(stacked->model->rule.stacked.has_value());
        CombinedModel stackedModel = buildCombinedModel(*stacked->model);
        QVERIFY(sameBits(stacked->combinedTestOutput, stackedModel.predict(doc->prepared()->test.features)));
        QCOMPARE(page->combinedMetricText(), formatMetric(stacked->combinedMetric));
        QCOMPARE(doc->shownRunRecord()->results->classCombine, ClassCombine::Stacked);

        // Sum, then saved and reopened: the run comes back combined by the sum, with its figures.
        rule->setCurrentIndex(ruleIndex(rule, ClassCombine::Sum));
        emit rule->activated(rule->currentIndex());
        const double sumMetric = w.session()->results()->combinedMetric;
        const QString project = dir_.filePath(QStringLiteral("wine.skynnet"));
        QVERIFY(w.projectController()->saveTo(project));
        MainWindow other(std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("other.ini"))));
        other.show();
        QVERIFY(openAndWait(&other, project));
        const ProjectRun* reopened = other.document()->shownRunRecord();
        QVERIFY(reopened && reopened->results);
        QCOMPARE(reopened->results->classCombine, ClassCombine::Sum);
        QCOMPARE(reopened->results->model->rule.classCombine, ClassCombine::Sum);
        QCOMPARE(reopened->results->combinedMetric, sumMetric);
        QCOMPARE(reopened->results->submodelTestOutputs.size(), std::size_t(3));
        other.showPage(MainWindow::ResultsPageIndex);
        QCOMPARE(other.resultsPage()->ruleChoice()->currentData().toInt(), int(ClassCombine::Sum));
        QVERIFY(reopened->results->model->rule.stacked.has_value());  // the weights are kept in the project
        // And back to the reference's rule on the reopened run: the product's outputs again.
        QComboBox* otherRule = other.resultsPage()->ruleChoice();
        otherRule->setCurrentIndex(ruleIndex(otherRule, ClassCombine::Product));
        emit otherRule->activated(otherRule->currentIndex());
        QVERIFY2(other.resultsPage()->ruleProblem().isEmpty(), qPrintable(other.resultsPage()->ruleProblem()));
        const ProjectRun* back = other.document()->shownRunRecord();
        QVERIFY(sameBits(back->results->combinedTestOutput, productOutput));
        for (MainWindow* window : {&w, &other}) {
            window->document()->undoStack()->clear();
            window->document()->setClean();
        }
    }

    // Without validation rows: a run told to combine by stacked trains and combines by the product,
    // saying why in the Train log, and its Results page does not offer stacked.
    void stackedNeedsValidationRows() {
        MainWindow w(std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("novalidation.ini"))));
        w.resize(1024, 680);
        w.show();
        ProjectDocument* doc = w.document();
        configureClassGroups(*doc, wine, 5, "dense:16:relu");
        ProjectDataSource data = doc->dataSettings();
        data.validationFraction = 0;
        doc->setDataSettings(data);
        SplitOptions o = doc->splitOptions();
        o.classCombine = ClassCombine::Stacked;
        doc->setSplitOptions(o);
        QVERIFY2(w.session()->startProblem().isEmpty(), qPrintable(w.session()->startProblem()));
        QSignalSpy finished(w.session(), &TrainingSession::finished);
        w.trainPage()->startTraining();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), hangGuardMs(120000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Completed);
        QVERIFY(!w.session()->results()->model->rule.stacked);
        QCOMPARE(w.session()->results()->classCombine, ClassCombine::Product);
        QCOMPARE(w.session()->results()->model->rule.classCombine, ClassCombine::Product);
        VERIFY_CONTAINS(w.trainPage()->logView()->toPlainText().toStdString(),
                        "no validation rows to fit it on, so the class groups are combined by the product");
        w.showPage(MainWindow::ResultsPageIndex);
        QComboBox* rule = w.resultsPage()->ruleChoice();
        auto* items = qobject_cast<QStandardItemModel*>(rule->model());
        QStandardItem* stacked = items->item(ruleIndex(rule, ClassCombine::Stacked));
        QVERIFY(!stacked->isEnabled());
        QVERIFY(stacked->toolTip().contains("validation rows"));
        QVERIFY(!stacked->toolTip().contains("reference"));
        doc->undoStack()->clear();
        doc->setClean();
    }
};

QTEST_MAIN(TestCombineRuleUi)
#include "tst_combine_rule_ui.moc"
