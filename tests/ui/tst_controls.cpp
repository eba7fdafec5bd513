// The controls of issue 12's part D, on a 1024 x 680 offscreen screen: the split plan's warnings
// for starved submodels (worked examples, exact text), the Split page's N limits, inapplicable
// strategies and greyed fields, the Train page's advanced settings (undoable, saved in the
// project), number and ratio texts, the data preview's headers, the window on a small screen,
// and the theme the charts follow.
#include <QAbstractBarSeries>
#include <QAbstractItemModelTester>
#include <QActionGroup>
#include <QApplication>
#include <QBarSet>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFont>
#include <QHeaderView>
#include <QLineEdit>
#include <QScreen>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <cmath>

#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/autosave.h"
#include "ui/core/dataset_table_model.h"
#include "ui/core/formatting.h"
#include "ui/core/plan_table_model.h"
#include "ui/core/plan_warnings.h"
#include "ui/core/project_document.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/eliding_header_view.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/split_page.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/train_page.h"
#include "ui/widgets/train_settings_panel.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

const QString wineCsv = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/wine.csv");
const QString irisCsv = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/iris.csv");

NetworkSpec mlp(int inputs) {
    NetworkSpec s;
    s.input = Shape::flat(inputs);
    s.layers = parseLayers("dense:32:relu");
    return s;
}

// Labels given row by row, class names "a", "b", "c", ...
DataInfo classInfo(const std::vector<int>& labels, int classes) {
    DataInfo d;
    d.task = Task::Classification;
    d.classCount = classes;
    for (int c = 0; c < classes; ++c) d.classNames.push_back(std::string(1, char('a' + c)));
    d.labels = labels;
    d.samples = long(labels.size());
    return d;
}

SplitOptions shards(int n) {
    SplitOptions o;
    o.strategy = Strategy::DataShards;
    o.requested = n;
    o.shuffleShards = false;  // contiguous blocks in file order: the shards' rows are known
    return o;
}

}  // namespace

class TestControls : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    std::unique_ptr<MainWindow> makeWindow(const QString& settingsName = QStringLiteral("settings.ini")) {
        auto w = std::make_unique<MainWindow>(std::make_unique<AppSettings>(dir_.filePath(settingsName)));
        w->projectController()->autosave()->setDirectory(dir_.filePath(QStringLiteral("recovery")));
        w->show();
        return w;
    }

    static void loadCsv(MainWindow* w, const QString& path) {
        w->dataPage()->loadFile(path);
        QVERIFY(w->dataPage()->waitForLoad(30000));
        QVERIFY(w->document()->hasData());
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
    }

    // The issue's example, made exact: data shards N=40 on 178 rows of 3 classes dealt in turn
    // (a, b, c, a, ...), cut in file order: 18 shards of 5 rows, 22 of 4, each with every class.
    void planWarningsOnFortyShards() {
        std::vector<int> labels;
        for (int r = 0; r < 178; ++r) labels.push_back(r % 3);
        const DataInfo data = classInfo(labels, 3);
        const SplitPlan plan = makePlan(mlp(13), data, shards(40));
        QCOMPARE(plan.submodelCount(), 40);
        const PlanWarnings w = planWarnings(plan, data);
        QCOMPARE(w.starved.size(), std::size_t(40));
        QCOMPARE(w.starved[0].rows, 5L);
        QCOMPARE(w.starved[39].rows, 4L);
        QVERIFY(w.starved[0].missingClasses.empty());
        // Shard 1 holds rows 0-4: classes a, b, c, a, b.
        QCOMPARE(w.starved[0].thinClasses, (std::vector<std::pair<int, long>>{{0, 2}, {1, 2}, {2, 1}}));
        const QStringList expected{QStringLiteral("40 of 40 submodels learn from fewer than 10 training rows (the "
                                                  "fewest 4): ask for a smaller N."),
                                   QStringLiteral("Class 'a' has fewer than 10 training rows in submodels 1, 2, 3, "
                                                  "4, 5 and 35 more."),
                                   QStringLiteral("Class 'b' has fewer than 10 training rows in submodels 1, 2, 3, "
                                                  "4, 5 and 35 more."),
                                   QStringLiteral("Class 'c' has fewer than 10 training rows in submodels 1, 2, 3, "
                                                  "4, 5 and 35 more.")};
        QCOMPARE(w.lines, expected);
    }

    // 12 rows in 3 shards of 4: shard 1 (a b a b) lacks c; shards 2 (c a b c) and 3 (a b c c) have all.
    void planWarningsNameAMissingClass() {
        const DataInfo data = classInfo({0, 1, 0, 1, 2, 0, 1, 2, 0, 1, 2, 2}, 3);
        const SplitPlan plan = makePlan(mlp(4), data, shards(3));
        const PlanWarnings w = planWarnings(plan, data);
        QCOMPARE(w.starved.size(), std::size_t(3));
        QCOMPARE(w.starved[0].missingClasses, std::vector<int>{2});
        QVERIFY(w.starved[1].missingClasses.empty());
        QCOMPARE(w.starved[2].thinClasses, (std::vector<std::pair<int, long>>{{0, 1}, {1, 1}, {2, 2}}));
        const QStringList expected{QStringLiteral("3 of 3 submodels learn from fewer than 10 training rows (the fewest "
                                                  "4): ask for a "
                                                  "smaller N."),
                                   QStringLiteral(
                                       "Class 'c' has no training row in submodel 1, which cannot learn it."),
                                   QStringLiteral("Class 'a' has fewer than 10 training rows in submodels 1, 2, 3."),
                                   QStringLiteral("Class 'b' has fewer than 10 training rows in submodels 1, 2, 3."),
                                   QStringLiteral("Class 'c' has fewer than 10 training rows in submodels 2, 3.")};
        QCOMPARE(w.lines, expected);

        // The limit is a parameter: at 2 rows, what is left is the missing class and the single
        // rows of a and b in shards 2 and 3.
        const PlanWarnings two = planWarnings(plan, data, 2);
        QCOMPARE(two.lines.first(),
                 QStringLiteral("Class 'c' has no training row in submodel 1, which cannot learn it."));
        QCOMPARE(two.starved.size(), std::size_t(3));
    }

    void planWarningsOneSubmodelAndHealthyPlans() {
        // 19 rows in 2 shards: 10 and 9; only the second is short of rows.
        std::vector<int> labels;
        for (int r = 0; r < 19; ++r) labels.push_back(r % 2);
        const DataInfo data = classInfo(labels, 2);
        const PlanWarnings w = planWarnings(makePlan(mlp(4), data, shards(2)), data, 3);
        QCOMPARE(w.lines, QStringList());  // 5 of each class in each shard: nothing at a limit of 3
        const PlanWarnings ten = planWarnings(makePlan(mlp(4), data, shards(2)), data);
        QCOMPARE(ten.lines.first(), QStringLiteral("Submodel 2 learns from only 9 training rows; fewer than 10 leave "
                                                   "it little to learn from."));

        // Plenty of rows: no warning at all.
        std::vector<int> many;
        for (int r = 0; r < 300; ++r) many.push_back(r % 3);
        const DataInfo big = classInfo(many, 3);
        QVERIFY(planWarnings(makePlan(mlp(4), big, shards(3)), big).starved.empty());

        // Class groups: a class absent from the data is the planner's own warning, not repeated.
        // 8 classes in 4 groups of 2; class h (7) has no row, so the 3 submodels of group 4 lack it.
        std::vector<int> noH;
        for (int r = 0; r < 280; ++r) noH.push_back(r % 7);
        const DataInfo four = classInfo(noH, 8);
        SplitOptions groups;
        groups.strategy = Strategy::ClassGroups;
        groups.requested = 6;
        const SplitPlan plan = makePlan(mlp(4), four, groups);
        const PlanWarnings g = planWarnings(plan, four);
        QCOMPARE(plan.groups, 4);
        QCOMPARE(g.starved.size(), std::size_t(3));  // the three submodels that own class h
        for (const SubmodelStarvation& s : g.starved) {
            QCOMPARE(s.missingClasses, std::vector<int>{7});
            QVERIFY(s.thinClasses.empty());
            const auto& owned = plan.submodels[std::size_t(s.submodel)].classes;
            QVERIFY(std::find(owned.begin(), owned.end(), 7) != owned.end());
        }
        QCOMPARE(g.lines, QStringList());
        QVERIFY(!plan.warnings.empty());
    }

    void formattingOfSecondsAndRatios() {
        QCOMPARE(formatSeconds(0), QStringLiteral("0"));
        QCOMPARE(formatSeconds(0.000423), QStringLiteral("0.000423"));
        QCOMPARE(formatSeconds(0.0123), QStringLiteral("0.0123"));
        QCOMPARE(formatSeconds(4.2), QStringLiteral("4.20"));
        QCOMPARE(formatSeconds(12.34), QStringLiteral("12.3"));
        QCOMPARE(formatSeconds(1234.4), QStringLiteral("1234"));
        QCOMPARE(formatSeconds(2e-8), QStringLiteral("< 0.000001"));
        // The issue's run: baseline 14 s, split 29 s.
        QCOMPARE(speedRatioText(14, 29), QStringLiteral("2.07x slower"));
        QCOMPARE(speedRatioText(20.9, 10), QStringLiteral("2.09x faster"));
        QCOMPARE(speedRatioText(150, 10), QStringLiteral("15.0x faster"));
        QCOMPARE(speedRatioText(10, 10.01), QStringLiteral("as fast"));
        QCOMPARE(speedRatioText(0, 10), QString());
        QCOMPARE(speedRatioText(10, 0), QString());
        // Operation counts: three significant digits under an automatic prefix (wine's 5952 FLOP
        // read "0.005952" in an MFLOP column).
        QCOMPARE(formatFlops(42), QStringLiteral("42"));
        QCOMPARE(formatFlops(5952), QStringLiteral("5.95 k"));
        QCOMPARE(formatFlops(1430000), QStringLiteral("1.43 M"));
        QCOMPARE(formatFlops(999600), QStringLiteral("1 M"));
        QCOMPARE(formatFlops(12345678901), QStringLiteral("12.3 G"));
        // Memory: one unit for a table, by its largest figure.
        QCOMPARE(memoryUnitFor(999999).name, QStringLiteral("kB"));
        QCOMPARE(memoryUnitFor(1000000).name, QStringLiteral("MB"));
        QCOMPARE(memoryUnitFor(12000000000).name, QStringLiteral("GB"));
        QCOMPARE(memoryUnitFor(12000000000).format(12000000000), QStringLiteral("12"));
    }

    void previewHeadersNameAndMarkTheTarget() {
        ProjectDataSource s;
        s.train.path = irisCsv.toStdString();
        const LoadedData loaded = loadData(s);
        DatasetTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDataset(loaded.train);
        QCOMPARE(model.columnCount(), 5);
        QCOMPARE(model.headerData(4, Qt::Horizontal).toString(), QStringLiteral("species"));  // as the file says
        QCOMPARE(model.headerData(4, Qt::Horizontal, Qt::ToolTipRole).toString(),
                 QStringLiteral("species: target, one of 3 declared classes"));
        QVERIFY(model.headerData(4, Qt::Horizontal, DatasetTableModel::IsTargetRole).toBool());
        QVERIFY(model.headerData(4, Qt::Horizontal, Qt::FontRole).value<QFont>().bold());
        QVERIFY(!model.headerData(4, Qt::Horizontal, Qt::DecorationRole).isNull());
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("sepal_length"));
        QCOMPARE(model.headerData(0, Qt::Horizontal, Qt::ToolTipRole).toString(),
                 QStringLiteral("sepal_length: feature 1, numeric (raw values, before scaling)"));
        QVERIFY(!model.headerData(0, Qt::Horizontal, DatasetTableModel::IsTargetRole).toBool());
        QVERIFY(model.headerData(0, Qt::Horizontal, Qt::FontRole).isNull());

        // The page's header ends a long name in "…" instead of clipping both ends.
        auto w = makeWindow();
        loadCsv(w.get(), wineCsv);
        auto* header = qobject_cast<ElidingHeaderView*>(w->dataPage()->previewView()->horizontalHeader());
        QVERIFY(header);
        QCOMPARE(header->textElideMode(), Qt::ElideRight);
        const QString shown = header->shownText(QStringLiteral("alcalinity_of_ash"), header->font(), 60, false);
        QVERIFY2(shown.startsWith(QStringLiteral("alcal")) && shown.endsWith(QChar(0x2026)), qPrintable(shown));
        QCOMPARE(header->shownText(QStringLiteral("ash"), header->font(), 60, false), QStringLiteral("ash"));
        const int ash = 3;
        QCOMPARE(header->model()->headerData(ash, Qt::Horizontal).toString(), QStringLiteral("alcalinity_of_ash"));
        QVERIFY(header->model()
                    ->headerData(ash, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("alcalinity_of_ash:")));
    }

    void splitPageStatesAndAppliesNLimits() {
        auto w = makeWindow();
        loadCsv(w.get(), wineCsv);
        SplitPage* page = w->splitPage();
        w->showPage(MainWindow::SplitPageIndex);
        page->setStrategy(Strategy::ClassGroups);
        page->setSubmodels(3);
        QCOMPARE(page->limitsText(), QStringLiteral("1 to 64"));
        auto* n = qobject_cast<QSpinBox*>(page->optionWidgets()[1]);
        QVERIFY(n);
        QCOMPARE(n->maximum(), SplitPage::maxSubmodels);
        QVERIFY(n->toolTip().contains(QStringLiteral("1 to 64")));
        QCOMPARE(page->limitNoteText(), QString());
        // Typing 100 is not silently cut to 10: the box takes the limit and the page says so.
        n->setFocus();
        n->selectAll();
        QTest::keyClicks(n, QStringLiteral("100"));
        QTest::keyClick(n, Qt::Key_Return);
        QCOMPARE(n->value(), 64);
        QCOMPARE(w->document()->splitOptions().requested, 64);
        QCOMPARE(page->limitNoteText(), QStringLiteral("N = 100 is outside 1 to 64: N is set to 64."));
        // The next number in range clears the note.
        n->selectAll();
        QTest::keyClicks(n, QStringLiteral("3"));
        QTest::keyClick(n, Qt::Key_Return);
        QCOMPARE(w->document()->splitOptions().requested, 3);
        QCOMPARE(page->limitNoteText(), QString());
    }

    void splitPageDisablesStrategiesThatDoNotApply() {
        auto w = makeWindow();
        loadCsv(w.get(), wineCsv);  // 3 classes: classification
        auto* box = qobject_cast<QComboBox*>(w->splitPage()->optionWidgets()[0]);
        auto* items = qobject_cast<QStandardItemModel*>(box->model());
        QVERIFY(items);
        const auto item = [&](Strategy s) { return items->item(box->findData(int(s))); };
        for (Strategy s : {Strategy::Auto, Strategy::ClassGroups, Strategy::DataShards}) {
            QVERIFY(item(s)->isEnabled());
            QCOMPARE(item(s)->toolTip(), QString());
        }
        QVERIFY(!item(Strategy::BinaryShards)->isEnabled());
        QCOMPARE(item(Strategy::BinaryShards)->toolTip(),
                 QStringLiteral("Needs a task of two classes; this data's task is classification."));
        QVERIFY(!item(Strategy::OutputSplit)->isEnabled());
        QCOMPARE(item(Strategy::OutputSplit)->toolTip(),
                 QStringLiteral("Needs a regression task (target columns); this data's task is classification."));

        // Regression data: the other way round.
        QVERIFY(w->dataPage()->loadExample(QStringLiteral("sine")));
        QVERIFY(w->dataPage()->waitForLoad(30000));
        QVERIFY(item(Strategy::OutputSplit)->isEnabled());
        QVERIFY(!item(Strategy::ClassGroups)->isEnabled());
        QVERIFY(!item(Strategy::BinaryShards)->isEnabled());
        VERIFY_CONTAINS(item(Strategy::ClassGroups)->toolTip().toStdString(), "this data's task is regression");
    }

    void splitPageGreyedFieldsShowWhatIsInForce() {
        auto w = makeWindow();
        loadCsv(w.get(), wineCsv);
        SplitPage* page = w->splitPage();
        ProjectDocument* doc = w->document();
        SplitOptions o = doc->splitOptions();
        o.binaryCombine = BinaryCombine::Average;  // kept through every edit below
        o.shuffleShards = true;
        doc->setSplitOptions(o);
        page->setStrategy(Strategy::ClassGroups);
        page->setSubmodels(3);
        const QList<QWidget*> options = page->optionWidgets();
        auto* autoFactor = qobject_cast<QCheckBox*>(options[3]);
        auto* factor = qobject_cast<QDoubleSpinBox*>(options[4]);
        auto* combine = qobject_cast<QComboBox*>(options[5]);
        auto* shuffle = qobject_cast<QCheckBox*>(options[6]);
        // Class groups use no F, no combination rule and no shuffle: greyed and empty.
        QVERIFY(!factor->isEnabled());
        QCOMPARE(factor->text(), QString());
        QVERIFY(!autoFactor->isEnabled());
        QVERIFY(!autoFactor->isChecked());
        QVERIFY(!combine->isEnabled());
        QCOMPARE(combine->currentIndex(), -1);
        QVERIFY(!shuffle->isEnabled());
        QVERIFY(!shuffle->isChecked());
        // Data shards with F = √N: the value in force, greyed because √N decides it.
        page->setStrategy(Strategy::DataShards);
        QVERIFY(autoFactor->isEnabled());
        QVERIFY(autoFactor->isChecked());
        QVERIFY(!factor->isEnabled());
        QCOMPARE(factor->text(), QLocale().toString(std::sqrt(3.0), 'f', 2));
        QVERIFY(shuffle->isEnabled());
        QVERIFY(shuffle->isChecked());
        QCOMPARE(doc->plan().factor, std::sqrt(3.0));
        // Greyed controls never wrote their blank state into the options.
        QCOMPARE(doc->splitOptions().binaryCombine, BinaryCombine::Average);
        QVERIFY(doc->splitOptions().shuffleShards);
        QVERIFY(!doc->splitOptions().dataShardFactor.has_value());
        autoFactor->setChecked(false);
        QVERIFY(factor->isEnabled());
        QCOMPARE(doc->splitOptions().dataShardFactor, std::optional<double>(factor->value()));
    }

    void splitPageWarnsOfStarvedSubmodels() {
        auto w = makeWindow();
        loadCsv(w.get(), wineCsv);
        SplitPage* page = w->splitPage();
        page->setStrategy(Strategy::DataShards);
        page->setSubmodels(12);  // about 10 training rows per shard, 3 or 4 of each class
        QVERIFY2(page->errorText().isEmpty(), qPrintable(page->errorText()));
        ProjectDocument* doc = w->document();
        const PlanWarnings expected = planWarnings(doc->plan(), doc->planDataInfo());
        QVERIFY(!expected.lines.isEmpty());
        for (const QString& line : expected.lines)
            QVERIFY2(page->warningsText().contains(line), qPrintable(page->warningsText()));
        VERIFY_CONTAINS(page->warningsText().toStdString(), "has fewer than 10 training rows in submodels");
        // Back to a sound plan: the starvation lines go.
        page->setSubmodels(2);
        QVERIFY2(!page->warningsText().contains(QStringLiteral("fewer than 10")), qPrintable(page->warningsText()));
    }

    // Ctrl+Z with the cursor still in a number box: digits typed since its last Enter are the
    // box's own to undo; after Enter (or with nothing typed) the project's undo takes it.
    void undoFromInsideANumberBox() {
        auto w = makeWindow();
        loadCsv(w.get(), wineCsv);
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        ProjectDocument* doc = w->document();
        w->showPage(MainWindow::TrainPageIndex);
        QSpinBox* batch = w->trainPage()->batchBox();
        const int before = doc->trainSettings().config.batchSize;
        const int typed = before == 64 ? 48 : 64;
        batch->setFocus();
        QTRY_VERIFY(batch->hasFocus());
        batch->selectAll();
        QTest::keyClicks(batch, QString::number(typed));
        QTest::keySequence(batch, QKeySequence::Undo);  // typing pending: the box's own undo
        QCOMPARE(batch->text(), QString::number(before));
        QCOMPARE(doc->trainSettings().config.batchSize, before);
        batch->selectAll();
        QTest::keyClicks(batch, QString::number(typed));
        QTest::keyClick(batch, Qt::Key_Return);
        QCOMPARE(doc->trainSettings().config.batchSize, typed);
        QVERIFY(batch->hasFocus());
        QTest::keySequence(batch, QKeySequence::Undo);  // committed: the project's undo
        QCOMPARE(doc->trainSettings().config.batchSize, before);
        QCOMPARE(batch->value(), before);
        QTest::keySequence(batch, QKeySequence::Redo);  // and redo
        QCOMPARE(doc->trainSettings().config.batchSize, typed);
        doc->setClean();
    }

    void advancedSettingsAreUndoableAndSaved() {
        const QString project = dir_.filePath(QStringLiteral("advanced.skynnet"));
        {
            auto w = makeWindow();
            loadCsv(w.get(), wineCsv);
            ProjectDocument* doc = w->document();
            QUndoStack* stack = doc->undoStack();
            TrainSettingsPanel* panel = w->trainPage()->advancedSettings();
            QVERIFY(panel);
            QVERIFY(!panel->isExpanded());  // nothing advanced in force yet
            panel->setExpanded(true);
            // Classification has one fitting loss: shown, not a choice.
            QCOMPARE(panel->lossBox()->count(), 1);
            QCOMPARE(panel->lossBox()->currentText(), QStringLiteral("Cross-entropy"));
            QVERIFY(!panel->lossBox()->isEnabled());

            panel->weightDecayBox()->setValue(0.001);
            doc->sealEdits();
            QCOMPARE(doc->trainSettings().config.optimizer.weightDecay, 0.001f);
            QVERIFY2(stack->undoText().startsWith(QStringLiteral("Set weight decay to 0.001")),
                     qPrintable(stack->undoText()));
            stack->undo();
            QCOMPARE(doc->trainSettings().config.optimizer.weightDecay, 0.0f);
            QCOMPARE(panel->weightDecayBox()->value(), 0.0);
            stack->redo();
            QCOMPARE(panel->weightDecayBox()->value(), 0.001);

            // Step schedule: its parameters come alive, the cosine's stays blank.
            QVERIFY(!panel->stepEpochsBox()->isEnabled());
            panel->scheduleBox()->setCurrentIndex(panel->scheduleBox()->findData(int(Schedule::Kind::Step)));
            QCOMPARE(doc->trainSettings().config.optimizer.schedule.kind, Schedule::Kind::Step);
            QVERIFY(panel->stepEpochsBox()->isEnabled());
            QVERIFY(!panel->minRateBox()->isEnabled());
            QCOMPARE(panel->minRateBox()->text(), QString());
            panel->stepEpochsBox()->setValue(3);
            doc->sealEdits();
            panel->gammaBox()->setValue(0.5);
            doc->sealEdits();
            QCOMPARE(doc->trainSettings().config.optimizer.schedule.stepEpochs, 3);
            QCOMPARE(doc->trainSettings().config.optimizer.schedule.gamma, 0.5f);
            stack->undo();
            QCOMPARE(doc->trainSettings().config.optimizer.schedule.gamma, Schedule{}.gamma);
            stack->redo();

            // Early stopping and its options.
            QVERIFY(!panel->patienceBox()->isEnabled());
            panel->earlyStoppingBox()->setChecked(true);
            QCOMPARE(stack->undoText(), QStringLiteral("Stop early"));
            QVERIFY(panel->patienceBox()->isEnabled());
            panel->monitorBox()->setCurrentIndex(
                panel->monitorBox()->findData(int(EarlyStopping::Monitor::ValidationMetric)));
            panel->patienceBox()->setValue(7);
            doc->sealEdits();
            panel->restoreBestBox()->setChecked(false);
            const EarlyStopping& e = doc->trainSettings().config.earlyStopping;
            QVERIFY(e.enabled);
            QCOMPARE(e.monitor, EarlyStopping::Monitor::ValidationMetric);
            QCOMPARE(e.patience, 7);
            QVERIFY(!e.restoreBest);

            // The validation share is the data's setting: one undoable data edit.
            panel->validationBox()->setValue(20);
            doc->sealEdits();
            QCOMPARE(doc->dataSettings().validationFraction, 0.2);
            QCOMPARE(stack->undoText(), QStringLiteral("Set validation fraction to 0.2"));
            // A share that leaves nothing to train on is refused with the reason, and not taken.
            panel->validationBox()->setValue(80);
            QCOMPARE(doc->dataSettings().validationFraction, 0.2);
            VERIFY_CONTAINS(panel->problemText().toStdString(), "at most 95 %");
            panel->validationBox()->setValue(20);
            QCOMPARE(panel->problemText(), QString());
            // Early stopping without validation rows is said, not hidden.
            panel->validationBox()->setValue(0);
            QCOMPARE(doc->dataSettings().validationFraction, 0.0);
            VERIFY_CONTAINS(panel->problemText().toStdString(), "Early stopping watches the validation rows");
            panel->validationBox()->setValue(20);
            doc->sealEdits();

            // While training, the settings are fixed.
            panel->setRunning(true);
            QVERIFY(!panel->weightDecayBox()->isEnabled());
            QVERIFY(!panel->earlyStoppingBox()->isEnabled());
            panel->setRunning(false);
            QVERIFY(panel->weightDecayBox()->isEnabled());

            QVERIFY(w->projectController()->saveTo(project));
        }
        // Reopened: the document and the panel show every setting again.
        auto w = makeWindow(QStringLiteral("settings2.ini"));
        QSignalSpy finished(w->projectController(), &ProjectController::openFinished);
        QVERIFY(w->projectController()->openFile(project));
        QVERIFY(finished.count() == 1 || finished.wait(60000));
        QVERIFY(finished.at(0).at(0).toBool());
        const TrainConfig& c = w->document()->trainSettings().config;
        QCOMPARE(c.optimizer.weightDecay, 0.001f);
        QCOMPARE(c.optimizer.schedule.kind, Schedule::Kind::Step);
        QCOMPARE(c.optimizer.schedule.stepEpochs, 3);
        QCOMPARE(c.optimizer.schedule.gamma, 0.5f);
        QVERIFY(c.earlyStopping.enabled);
        QCOMPARE(c.earlyStopping.monitor, EarlyStopping::Monitor::ValidationMetric);
        QCOMPARE(c.earlyStopping.patience, 7);
        QVERIFY(!c.earlyStopping.restoreBest);
        QCOMPARE(w->document()->dataSettings().validationFraction, 0.2);
        TrainSettingsPanel* panel = w->trainPage()->advancedSettings();
        QVERIFY(panel->isExpanded());  // settings in force are never folded away
        QCOMPARE(panel->weightDecayBox()->value(), 0.001);
        QCOMPARE(panel->stepEpochsBox()->value(), 3);
        QCOMPARE(panel->patienceBox()->value(), 7);
        QVERIFY(!panel->restoreBestBox()->isChecked());
        QCOMPARE(panel->validationBox()->value(), 20.0);
    }

    void lossChoiceFollowsTheTask() {
        auto w = makeWindow();
        QVERIFY(w->dataPage()->loadExample(QStringLiteral("sine")));
        QVERIFY(w->dataPage()->waitForLoad(30000));
        TrainSettingsPanel* panel = w->trainPage()->advancedSettings();
        QComboBox* loss = panel->lossBox();
        // lossesForTask(regression): MSE first, then MAE.
        QCOMPARE(loss->count(), 2);
        QCOMPARE(LossKind(loss->itemData(0).toInt()), LossKind::MeanSquaredError);
        QCOMPARE(LossKind(loss->itemData(1).toInt()), LossKind::MeanAbsoluteError);
        QVERIFY(loss->isEnabled());
        loss->setCurrentIndex(1);
        QCOMPARE(w->document()->trainSettings().config.loss, LossKind::MeanAbsoluteError);
        QCOMPARE(w->document()->undoStack()->undoText(), QStringLiteral("Set loss to mae"));
        w->document()->undoStack()->undo();
        QCOMPARE(w->document()->trainSettings().config.loss, LossKind::MeanSquaredError);
        QCOMPARE(loss->currentIndex(), 0);
    }

    void windowFitsASmallScreen() {
        const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
        QCOMPARE(room.size(), QSize(1024, 680));  // the screen this test binary configures
        auto w = makeWindow();
        loadCsv(w.get(), wineCsv);
        QVERIFY2(w->width() <= room.width() && w->height() <= room.height(),
                 qPrintable(QStringLiteral("%1x%2").arg(w->width()).arg(w->height())));
        for (int p = 0; p < MainWindow::PageCount; ++p) {
            w->showPage(p);
            QApplication::processEvents();
            const QSize least = w->minimumSizeHint().expandedTo(w->minimumSize());
            QVERIFY2(least.width() <= room.width() && least.height() <= room.height() - 40,
                     qPrintable(QStringLiteral("%1 page needs %2x%3")
                                    .arg(MainWindow::pageName(p))
                                    .arg(least.width())
                                    .arg(least.height())));
        }
    }

    void themeReachesPaletteChartsAndSettings() {
        auto w = makeWindow(QStringLiteral("theme.ini"));
        loadCsv(w.get(), wineCsv);
        w->splitPage()->setStrategy(Strategy::ClassGroups);
        w->splitPage()->setSubmodels(3);
        QChart* chart = w->splitPage()->planChart()->chart();
        const auto firstSetColour = [chart] {
            const auto bars = qobject_cast<QAbstractBarSeries*>(chart->series().value(0));
            return bars && !bars->barSets().isEmpty() ? bars->barSets().first()->color() : QColor();
        };
        QCOMPARE(firstSetColour(), submodelColor(0));
        QVERIFY(!darkPalette());

        w->setTheme(Theme::Dark);
        QVERIFY(darkPalette());
        QCOMPARE(appliedTheme(), Theme::Dark);
        QCOMPARE(chart->theme(), QChart::ChartThemeDark);
        QCOMPARE(firstSetColour(), submodelColor(0));  // the submodel colours survive the theme
        QCOMPARE(w->settings()->theme(), Theme::Dark);
        for (QAction* a : w->themeActions()->actions())
            QCOMPARE(a->isChecked(), Theme(a->data().toInt()) == Theme::Dark);
        // A chart made now starts dark too.
        w->splitPage()->setSubmodels(2);
        QCOMPARE(chart->theme(), QChart::ChartThemeDark);

        w->setTheme(Theme::Light);
        QVERIFY(!darkPalette());
        QCOMPARE(chart->theme(), QChart::ChartThemeLight);
        QCOMPARE(AppSettings(dir_.filePath(QStringLiteral("theme.ini"))).theme(), Theme::Light);
        w->setTheme(Theme::System);
        QCOMPARE(appliedTheme(), Theme::System);
        QCOMPARE(w->settings()->theme(), Theme::System);

        // Theme names read back; anything else leaves the value alone.
        Theme t = Theme::Light;
        QVERIFY(parseTheme(QStringLiteral("dark"), &t));
        QCOMPARE(t, Theme::Dark);
        QVERIFY(!parseTheme(QStringLiteral("purple"), &t));
        QCOMPARE(t, Theme::Dark);
    }
};

// A 1024 x 680 offscreen screen for every test here (the issue's smallest), instead of the
// offscreen platform's default 800 x 600.
int main(int argc, char** argv) {
    QTemporaryDir config;
    const QString path = config.filePath(QStringLiteral("screen.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return 3;
    f.write(R"({"screens": [{"name": "small", "x": 0, "y": 0, "width": 1024, "height": 680, "logicalDpi": 96}]})");
    f.close();
    qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + path).toUtf8());
    QApplication app(argc, argv);
    TestControls test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_controls.moc"
