// The Split page's "Shard overlap" (issue 28), offscreen: enabled for data shards only, each change
// one named undo step, a strategy without shards drops it in its own step, and a run trained with it
// keeps the overlapping rows in its plan.
#include <QApplication>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "class_groups_setup.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/split_page.h"
#include "ui/widgets/train_page.h"
#include "window_open.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

const QString wine = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/wine.csv");

}  // namespace

class TestShardOverlapUi : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void splitPageSetsTheOverlap() {
        const auto window = shownWindow(dir_.filePath(QStringLiteral("overlap.ini")));
        MainWindow& w = *window;
        ProjectDocument* doc = w.document();
        configureClassGroups(*doc, wine, 4, "dense:16:relu");
        w.showPage(MainWindow::SplitPageIndex);
        SplitPage* page = w.splitPage();
        auto* overlap = page->findChild<QDoubleSpinBox*>(QStringLiteral("shardOverlap"));
        QVERIFY(overlap);
        QCOMPARE(page->optionWidgets().last(), overlap);  // appended: tests address the others by position
        QVERIFY(!overlap->toolTip().isEmpty());
        QVERIFY(!overlap->toolTip().contains(QStringLiteral("reference")));
        // Class groups have no shards: greyed and off.
        QVERIFY(!overlap->isEnabled());
        QCOMPARE(overlap->text(), QStringLiteral("Off"));

        page->setStrategy(Strategy::DataShards);
        QVERIFY(overlap->isEnabled());
        // Its limit is N - 1, where every submodel sees every row: 2 for N=3, 7 for N=8.
        QCOMPARE(overlap->maximum(), 2.0);
        page->setSubmodels(8);
        QCOMPARE(overlap->maximum(), 7.0);
        page->setSubmodels(3);
        doc->undoStack()->clear();
        overlap->setValue(0.5);
        QCOMPARE(doc->splitOptions().shardOverlap, 0.5);
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(doc->undoStack()->text(0), QStringLiteral("Set the shard overlap to 0.5"));
        QVERIFY2(page->errorText().isEmpty(), qPrintable(page->errorText()));
        const SplitPlan plan = doc->plan();
        QCOMPARE(plan.shardOverlap, 0.5);
        for (const SubmodelPlan& s : plan.submodels) {
            QVERIFY(s.overlapRows > 0);
            QCOMPARE(long(s.overlapRows), std::lround(0.5 * double(s.rows.size() - std::size_t(s.overlapRows))));
        }

        // Back to class groups: the overlap goes with the strategy, in one step named for it.
        page->setStrategy(Strategy::ClassGroups);
        QVERIFY(!overlap->isEnabled());
        QCOMPARE(doc->splitOptions().shardOverlap, 0.0);
        QVERIFY2(page->errorText().isEmpty(), qPrintable(page->errorText()));
        QCOMPARE(doc->undoStack()->count(), 2);
        QCOMPARE(doc->undoStack()->text(1), QStringLiteral("Set strategy to class-groups"));
        doc->undoStack()->undo();
        QCOMPARE(doc->splitOptions().strategy, Strategy::DataShards);
        QCOMPARE(doc->splitOptions().shardOverlap, 0.5);
        QVERIFY(overlap->isEnabled());
        QCOMPARE(overlap->value(), 0.5);
        doc->undoStack()->undo();
        QCOMPARE(overlap->text(), QStringLiteral("Off"));
        QCOMPARE(doc->splitOptions().shardOverlap, 0.0);
        doc->undoStack()->redo();
        QCOMPARE(overlap->value(), 0.5);

        // Trained: the run's plan has the overlapping rows the preview showed.
        QSignalSpy finished(w.session(), &TrainingSession::finished);
        w.trainPage()->startTraining();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), hangGuardMs(120000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Completed);
        const ProjectRun* run = doc->shownRunRecord();
        QVERIFY(run);
        QCOMPARE(run->plan.shardOverlap, 0.5);
        for (std::size_t i = 0; i < plan.submodels.size(); ++i)
            QCOMPARE(run->plan.submodels[i].rows, plan.submodels[i].rows);
        doc->undoStack()->clear();
        doc->setClean();
    }

    // The class groups' "other" share the same way: a strategy without class groups drops it in
    // its own step (it used to stay and the plan refused it), and undo brings both back.
    void otherShareGoesWithClassGroups() {
        MainWindow w(std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("other.ini"))));
        failOnErrorDialogs(w);
        w.show();
        ProjectDocument* doc = w.document();
        configureClassGroups(*doc, wine, 4, "dense:16:relu");
        SplitPage* page = w.splitPage();
        auto* other = page->findChild<QDoubleSpinBox*>(QStringLiteral("otherShare"));
        QVERIFY(other && other->isEnabled());
        doc->undoStack()->clear();
        other->setValue(0.5);
        page->setStrategy(Strategy::DataShards);
        QCOMPARE(doc->splitOptions().otherShare, 0.0);
        QVERIFY2(page->errorText().isEmpty(), qPrintable(page->errorText()));
        QCOMPARE(doc->undoStack()->count(), 2);
        QCOMPARE(doc->undoStack()->text(1), QStringLiteral("Set strategy to data-shards"));
        doc->undoStack()->undo();
        QCOMPARE(doc->splitOptions().strategy, Strategy::ClassGroups);
        QCOMPARE(doc->splitOptions().otherShare, 0.5);
        QCOMPARE(other->value(), 0.5);
        doc->undoStack()->clear();
        doc->setClean();
    }
};

QTEST_MAIN(TestShardOverlapUi)
#include "tst_shard_overlap_ui.moc"
