// The desktop app driven like a user, offscreen: load data on the Data page, design a network,
// plan a split, train from the Train page and read the Results page; cancel with Stop; a bad
// file shows an error and keeps the previous data. Small data and few epochs keep it quick.
#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScatterSeries>
#include <QSet>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QValueAxis>
#include <algorithm>

#include "split/combined_model.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/comparison_table_model.h"
#include "ui/core/formatting.h"
#include "ui/core/layer_table_model.h"
#include "ui/core/plan_table_model.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/confusion_matrix_widget.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/format.h"
#include "ui/widgets/live_chart.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/network_page.h"
#include "ui/widgets/results_page.h"
#include "ui/widgets/split_page.h"
#include "ui/widgets/split_totals_text.h"
#include "ui/widgets/train_page.h"
#include "ui/widgets/training_charts.h"

using namespace skynnet;
using namespace skynnet::ui;

class TestWidgets : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<MainWindow> window_;

    std::unique_ptr<MainWindow> makeWindow() {
        auto w = std::make_unique<MainWindow>(
            std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("settings.ini"))));
        w->resize(1280, 860);
        w->show();
        return w;
    }

    // Small, quick training settings: a few epochs, frequent resource samples for the charts.
    static void quickTraining(ProjectDocument* doc, int epochs, int batch = 32) {
        ProjectTraining t = doc->trainSettings();
        t.config.epochs = epochs;
        t.config.batchSize = batch;
        t.config.optimizer.learningRate = 0.01f;
        t.config.resourceReportSeconds = 0.02;
        t.config.batchReportSeconds = 0.01;
        t.threadBudget = 2;
        t.trainBaseline = true;
        doc->setTrainSettings(t);
    }

    static QString writeFile(const QString& path, const QByteArray& text) {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) return {};
        f.write(text);
        return path;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        window_ = makeWindow();
    }

    void cleanupTestCase() { window_.reset(); }

    void dataPageLoadsCsvAndRemembersIt() {
        DataPage* page = window_->dataPage();
        const QString iris = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/iris.csv");
        page->loadFile(iris);
        QVERIFY(page->waitForLoad(30000));
        ProjectDocument* doc = window_->document();
        QCOMPARE(doc->dataset()->size(), Index(150));
        QCOMPARE(doc->dataset()->classCount(), 3);
        QCOMPARE(page->previewView()->model()->rowCount(), 150);
        QCOMPARE(page->previewView()->model()->columnCount(), 5);
        QVERIFY(window_->settings()->recentFiles().contains(QFileInfo(iris).absoluteFilePath()));
        QVERIFY(page->recentMenu()->actions().size() >= 1);
        // The task can be overridden: the same file as regression on its last numeric column.
        ProjectDataSource s = doc->dataSettings();
        s.targetColumn = "petal_width";
        s.task = Task::Regression;
        page->loadSettings(s);
        QVERIFY(page->waitForLoad(30000));
        QCOMPARE(doc->dataset()->task, Task::Regression);
        QVERIFY(page->errorText().isEmpty());
    }

    void dataPageLoadsBuiltinExample() {
        DataPage* page = window_->dataPage();
        QSignalSpy loaded(page, &DataPage::loadFinished);
        QVERIFY(page->loadExample(QStringLiteral("blobs")));
        QVERIFY(page->isLoading());  // in the background
        QVERIFY(page->waitForLoad(30000));
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(loaded.at(0).at(0).toBool(), true);
        ProjectDocument* doc = window_->document();
        QVERIFY(doc->hasData());
        QCOMPARE(doc->dataset()->classCount(), 4);
        QCOMPARE(page->previewView()->model()->rowCount(), int(doc->dataset()->size()));
        QVERIFY(page->previewView()->model()->columnCount() >= 3);  // 2 features + the class
        QCOMPARE(page->classChart()->barCount(), 4);
        QVERIFY(page->errorText().isEmpty());
    }

    void badFileShowsErrorAndKeepsPreviousData() {
        DataPage* page = window_->dataPage();
        ProjectDocument* doc = window_->document();
        const auto before = doc->dataset();
        QVERIFY(before);
        const QString bad = writeFile(dir_.filePath(QStringLiteral("broken.csv")),
                                      "a,b,label\n1,2,x\n3,4,y\n5,oops,x\n7,8,y\n");
        QSignalSpy loaded(page, &DataPage::loadFinished);
        page->loadFile(bad);
        QVERIFY(!page->waitForLoad(30000));
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(loaded.at(0).at(0).toBool(), false);
        const QString error = page->errorText();
        QVERIFY2(error.contains(QStringLiteral("broken.csv")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral(":4")), qPrintable(error));   // the line at fault
        QVERIFY2(error.contains(QStringLiteral("'b'")), qPrintable(error));  // and its column
        QCOMPARE(doc->dataset(), before);                                    // the previous dataset stays loaded

        page->loadFile(dir_.filePath(QStringLiteral("does-not-exist.csv")));
        QVERIFY(!page->waitForLoad(30000));
        QVERIFY(page->errorText().contains(QStringLiteral("does-not-exist.csv")));
        QCOMPARE(doc->dataset(), before);
    }

    void dataThatCannotTrainIsRefusedOnOpening() {
        DataPage* page = window_->dataPage();
        ProjectDocument* doc = window_->document();
        const auto before = doc->dataset();
        QVERIFY(before);
        // The engine's check, worded as skynnet-cli words it, before any training is asked for.
        const QString oneClass = writeFile(dir_.filePath(QStringLiteral("oneclass.csv")),
                                           "a,b,label\n1,2,x\n2,3,x\n3,1,x\n4,5,x\n5,5,x\n");
        page->loadFile(oneClass);
        QVERIFY(!page->waitForLoad(30000));
        const QString error = page->errorText();
        QVERIFY2(error.contains(oneClass +
                                QStringLiteral(": target column 'label' holds one class only ('x' in all 5 rows): "
                                               "classification needs at least 2 classes")),
                 qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("is still loaded")), qPrintable(error));
        QCOMPARE(doc->dataset(), before);

        // A constant regression target loads, with the warning in the page.
        QByteArray constant = "x,y\n";
        for (int i = 0; i < 20; ++i) constant += QByteArray::number(i) + ",2.5\n";
        const QString flat = writeFile(dir_.filePath(QStringLiteral("flat.csv")), constant);
        page->loadFile(flat);
        QVERIFY(page->waitForLoad(30000));
        QCOMPARE(doc->dataset()->source, flat.toStdString());
        QCOMPARE(page->errorText(),
                 QStringLiteral("Warning: ") + flat +
                     QStringLiteral(": target column 'y' holds one value only (2.5 in all 20 rows): the "
                                    "model can only learn that constant"));
        // Six rows fill the default parts; a validation share they cannot fill is refused in the page.
        const QString six = writeFile(dir_.filePath(QStringLiteral("six.csv")), "a,y\n1,p\n2,q\n3,p\n4,q\n5,p\n6,q\n");
        page->loadFile(six);
        QVERIFY(page->waitForLoad(30000));
        QVERIFY(page->errorText().isEmpty());
        QDoubleSpinBox* validation = nullptr;
        for (QDoubleSpinBox* box : page->findChildren<QDoubleSpinBox*>())
            if (box->toolTip().startsWith(QStringLiteral("Share of the rows held out to validate"))) validation = box;
        QVERIFY(validation);
        validation->setValue(5);
        QCOMPARE(page->errorText(),
                 six + QStringLiteral(": 6 rows are too few for training, validation (fraction 0.05) and "
                                      "test (fraction 0.2): at least 10 rows are needed to give each part a row"));
        QCOMPARE(doc->dataSettings().validationFraction, 0.1);  // not applied

        // Back to the example the later tests expect (loaded above), which clears the warning.
        QVERIFY(page->loadExample(QStringLiteral("blobs")));
        QVERIFY(page->waitForLoad(30000));
        QVERIFY(page->errorText().isEmpty());
    }

    void networkPageEditsLayers() {
        NetworkPage* page = window_->networkPage();
        ProjectDocument* doc = window_->document();
        LayerTableModel* model = page->layerModel();
        page->applyPreset(0);  // 64-32
        QCOMPARE(doc->network().layers.size(), std::size_t(2));
        // Design a small network: 24 then 16 units, tanh in the middle.
        QVERIFY(model->setData(model->index(0, LayerTableModel::Units), 24));
        QVERIFY(model->setData(model->index(1, LayerTableModel::Units), 16));
        page->table()->selectRow(1);
        page->addLayer();
        QCOMPARE(doc->network().layers.size(), std::size_t(3));
        QVERIFY(model->setData(model->index(2, LayerTableModel::Activation), QStringLiteral("tanh")));
        page->table()->selectRow(2);
        page->moveLayer(-1);
        QCOMPARE(std::get<DenseSpec>(doc->network().layers[1]).activation, Activation::Tanh);
        page->table()->selectRow(1);
        page->removeLayer();
        QCOMPARE(doc->network().widthsSummary(), std::string("2-24-16-4"));
        QVERIFY(!page->hasErrors());
        // A refused edit leaves the network as it was.
        QVERIFY(!model->setData(model->index(0, LayerTableModel::Units), 0));
        QCOMPARE(std::get<DenseSpec>(doc->network().layers[0]).units, 24);
    }

    void splitPagePlansAndWarns() {
        SplitPage* page = window_->splitPage();
        page->setStrategy(Strategy::ClassGroups);
        page->setSubmodels(3);
        QCOMPARE(window_->document()->splitOptions().strategy, Strategy::ClassGroups);
        QCOMPARE(page->planModel()->rowCount(), 1 + 3);  // the original, then 3 submodels
        QVERIFY(page->errorText().isEmpty());
        QVERIFY(page->planChart()->barCount() > 0);
        page->setSubmodels(4);  // not triangular: still 3 submodels, and the page says so
        QCOMPARE(page->planModel()->rowCount(), 1 + 3);
        QVERIFY2(page->warningsText().contains(QStringLiteral("N=4")), qPrintable(page->warningsText()));
        page->setSubmodels(3);
        for (QWidget* w : page->optionWidgets())
            QVERIFY2(!w->toolTip().isEmpty(), qPrintable(w->metaObject()->className()));

        // A width that would fall below 2 is an error shown in the page, with no plan.
        ProjectDocument* doc = window_->document();
        const NetworkSpec good = doc->network();
        SplitOptions o = doc->splitOptions();
        o.strategy = Strategy::DataShards;
        o.dataShardFactor = 16.0;
        doc->setSplitOptions(o);
        QVERIFY2(!page->errorText().isEmpty(), "no error for a width below 2");
        QCOMPARE(page->planModel()->rowCount(), 0);
        o.strategy = Strategy::ClassGroups;
        o.dataShardFactor.reset();
        doc->setSplitOptions(o);
        QVERIFY(page->errorText().isEmpty());
        QCOMPARE(doc->network(), good);
    }

    void trainFromTrainPageAndSeeResults() {
        ProjectDocument* doc = window_->document();
        TrainingSession* session = window_->session();
        TrainPage* train = window_->trainPage();
        quickTraining(doc, 60, 16);  // long enough (a few tenths of a second) for resource samples
        // The page's own model (the ui/core ones have their own tests) checked through a whole run.
        QAbstractItemModelTester tester(window_->resultsPage()->classMetricsTable()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy started(session, &TrainingSession::started);
        QSignalSpy progress(session, &TrainingSession::progress);
        QSignalSpy finished(session, &TrainingSession::finished);
        window_->showPage(MainWindow::TrainPageIndex);
        QVERIFY(train->startButton()->isEnabled());
        QTest::mouseClick(train->startButton(), Qt::LeftButton);
        QCOMPARE(started.count(), 1);
        QVERIFY(train->stopButton()->isEnabled());
        QVERIFY(!train->startButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(60000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Completed);
        QVERIFY(progress.count() > 0);

        const auto results = session->results();
        QVERIFY(results);
        const SplitPlan& plan = *session->plan();
        QCOMPARE(plan.submodelCount(), 3);
        for (const ModelHistory& s : session->submodels())
            QCOMPARE(int(s.epochs.size()), plan.effectiveEpochs);  // every epoch of every submodel reported
        QCOMPARE(int(session->baseline().epochs.size()), plan.epochs);

        // Charts received points: loss and metric per epoch, resources over time.
        TrainingCharts* charts = train->charts();
        QCOMPARE(charts->lossChart()->seriesCount(), 3 + 1);
        QVERIFY(charts->lossChart()->pointCount() >= 4 * plan.effectiveEpochs);
        QVERIFY(charts->metricChart()->pointCount() >= 3 * plan.effectiveEpochs + plan.epochs);
        QVERIFY(charts->memoryChart()->pointCount() > 0);
        QVERIFY2(charts->cpuChart()->pointCount() > 0, "no CPU sample: the run was too short to sample");
        qInfo("chart points: loss %d, metric %d, cpu %d, memory %d", charts->lossChart()->pointCount(),
              charts->metricChart()->pointCount(), charts->cpuChart()->pointCount(),
              charts->memoryChart()->pointCount());
        charts->logScaleBox()->setChecked(true);
        QVERIFY(charts->lossChart()->logarithmic());
        charts->logScaleBox()->setChecked(false);
        QCOMPARE(train->epochTable()->model()->rowCount(), 3 * plan.effectiveEpochs + plan.epochs);

        // The Results page shows the engine's combined metric, computed again here from the model.
        ResultsPage* page = window_->resultsPage();
        QVERIFY(page->hasResults());
        CombinedModel model = buildCombinedModel(*results->model);
        const CombinedEvaluation e = model.evaluate(doc->prepared()->test);
        QCOMPARE(e.metric, results->combinedMetric);
        QCOMPARE(page->combinedMetricText(), formatMetric(e.metric));
        QVERIFY(page->headline()->text().contains(formatMetric(e.metric)));
        QCOMPARE(page->comparisonTable()->model()->rowCount(), 1 + 3 + 1);  // combined, submodels, baseline
        QCOMPARE(page->confusionMatrix()->classCount(), 4);
        long total = 0;
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) total += page->confusionMatrix()->count(r, c);
        QCOMPARE(total, long(doc->prepared()->test.size()));
        QCOMPARE(page->classMetricsTable()->model()->rowCount(), 4);
        QCOMPARE(page->metricChart()->barCount(), 1 + 3 + 1);
        QVERIFY(train->startButton()->isEnabled());
    }

    // The split told plainly after the run above: the Results page's sentence and the combined
    // row's note and tooltips, and the Split page's totals in seconds now that a run measured them.
    void splitTotalsAfterARun() {
        ResultsPage* results = window_->resultsPage();
        QVERIFY(results->hasResults());
        const QString sentence = results->totalsText();
        QVERIFY2(sentence.startsWith(QStringLiteral("Each machine needed ")), qPrintable(sentence));
        for (const char* part : {" against the original's ", "; on 3 machines training would take ",
                                 "; on this machine it took ", "; the combined model costs "})
            QVERIFY2(sentence.contains(QLatin1String(part)), qPrintable(sentence + QStringLiteral(" lacks ") + part));
        QVERIFY(results->headline()->text().contains(sentence.toHtmlEscaped()));
        QVERIFY(!results->combinedNote()->isHidden());
        VERIFY_CONTAINS(results->combinedNote()->text().toStdString(), "CPU time are the submodels' sums");
        const QAbstractItemModel* table = results->comparisonTable()->model();
        const auto tip = [table](int column) { return table->index(0, column).data(Qt::ToolTipRole).toString(); };
        QVERIFY2(tip(ComparisonTableModel::CpuSeconds).startsWith(QStringLiteral("The sum")),
                 qPrintable(tip(ComparisonTableModel::CpuSeconds)));
        QVERIFY(tip(ComparisonTableModel::Params).startsWith(QStringLiteral("The sum")));
        QVERIFY(tip(ComparisonTableModel::PeakMemory).startsWith(QStringLiteral("The sum")));
        QVERIFY(tip(ComparisonTableModel::WallSeconds).startsWith(QStringLiteral("The process's")));

        SplitPage* split = window_->splitPage();
        const SplitPlan& plan = *split->planModel()->plan();
        QVERIFY(lastMeasuredSpeed(window_->document()->runs()).has_value());
        const QString totals = split->totalsText();
        for (const char* label : {"Parameters, combined", "Memory per machine", "Training on 3 machines",
                                  "Training on this machine", "Total CPU", "Inference per sample"})
            QVERIFY2(totals.contains(QLatin1String(label)), qPrintable(totals + QStringLiteral(" lacks ") + label));
        std::int64_t params = 0;
        for (const SubmodelPlan& s : plan.submodels) params += s.params;
        QVERIFY2(totals.contains(formatCount(params) + QStringLiteral(" (")), qPrintable(totals));
        QVERIFY(totals.contains(formatCount(plan.originalParams)));
        VERIFY_CONTAINS(totals.toStdString(), "the speed<br>the last run measured here");
        QVERIFY(!split->findChild<QLabel*>(QStringLiteral("splitTotals"))->toolTip().isEmpty());
    }

    // The sentence's figures, from a run made up to give round numbers: the largest submodel's
    // measured peak against the baseline's, the largest cost at the run's CPU speed on S machines,
    // the process's wall, the CPU added up, and the FLOPs of inference added up.
    void splitTotalsSentence() {
        SplitPlan plan;
        plan.samples = 300;
        plan.epochs = plan.effectiveEpochs = 10;
        plan.originalParams = 2339;
        plan.originalFlopsPerSample = 4678;
        plan.originalMemoryBytes = 200000000;
        for (int i = 0; i < 3; ++i) {
            SubmodelPlan s;
            s.index = i;
            s.params = 1220;
            s.flopsPerSample = 2200;
            s.memoryBytes = 90000000;
            s.rows = std::vector<int>(i == 1 ? 120 : 100, 0);
            plan.submodels.push_back(s);
        }
        ProjectResults r;
        for (const std::int64_t peak : {100000000, 144000000, 120000000}) {
            TrainResult t;
            t.peakModelBytes = peak;
            r.submodels.push_back(t);
        }
        r.submodelCpuSeconds = {5, 6, 5};
        r.submodelWallSeconds = {5, 6, 5};
        r.splitWallSeconds = 14.5;
        r.splitCpuSeconds = 16;
        r.workers = 2;
        TrainResult base;
        base.peakModelBytes = 222300000;
        base.wallSeconds = 15;
        base.cpuSeconds = 15.2;
        r.baseline = base;
        QCOMPARE(runTotalsSentence(r, plan),
                 QStringLiteral("Each machine needed 144 MB against the original's 222.3 MB; on 3 machines training "
                                "would take 6 s against 15 s; on this machine it took 14.5 s, and 16 s of CPU in all "
                                "against the original's 15.2 s; the combined model costs 1.41x the original at "
                                "inference."));
        // Resumed: this session's wall with this session's CPU, the earlier sessions' told apart.
        r.submodels[0].earlierWallSeconds = 2;
        r.submodels[0].earlierCpuSeconds = 3;
        VERIFY_CONTAINS(runTotalsSentence(r, plan).toStdString(),
                        "; on this machine this session took 14.5 s and 13 s of CPU (the sessions before the resume "
                        "3 s of CPU more); ");
        VERIFY_CONTAINS(combinedRowNote(2, true).toStdString(), "its wall time is this session's");

        // The Split page's table: multiples of the original's training until a run measured a speed.
        const PlanTotals t = planTotals(plan, 2);
        const QString relative = planTotalsHtml(t, std::nullopt);
        VERIFY_CONTAINS(relative.toStdString(), "Times as multiples of the original's");
        const double original = 4678.0 * 300 * 10;
        VERIFY_CONTAINS(relative.toStdString(),
                        QString::number(2200.0 * 120 * 10 / original, 'f', 2).toStdString() + "x");
        MeasuredSpeed speed;
        speed.submodelSeconds = 1e-6;
        speed.originalWallSeconds = 0.5e-6;
        speed.originalCpuSeconds = 1e-6;
        const QString seconds = planTotalsHtml(t, speed);
        VERIFY_CONTAINS(seconds.toStdString(), formatDuration(2200.0 * 120 * 10 * 1e-6).toStdString());  // on 3
        VERIFY_CONTAINS(seconds.toStdString(), formatDuration(original * 0.5e-6).toStdString());         // the original
        VERIFY_CONTAINS(seconds.toStdString(), "3660 (1.56x)");                                          // parameters
        VERIFY_CONTAINS(seconds.toStdString(), "6.6 k FLOP (1.41x)");
    }

    void stopCancelsMidTraining() {
        ProjectDocument* doc = window_->document();
        TrainingSession* session = window_->session();
        TrainPage* train = window_->trainPage();
        const NetworkSpec designed = doc->network();
        NetworkSpec wide = designed;  // far more work than the test waits for
        wide.layers = parseLayers("dense:512:relu,dense:512:relu");
        doc->setNetwork(wide);
        quickTraining(doc, 500);
        // A stopped run leaves the last completed result on show (issue 12), if there is one.
        const auto& kept = doc->runs();
        const bool completedBefore = std::any_of(kept.begin(), kept.end(),
                                                 [](const ProjectRun& r) { return r.results.has_value(); });
        QSignalSpy progress(session, &TrainingSession::progress);
        QSignalSpy finished(session, &TrainingSession::finished);
        QTest::mouseClick(train->startButton(), Qt::LeftButton);
        QVERIFY(session->running());
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, hangGuardMs(30000));
        QVERIFY(train->stopButton()->isEnabled());
        QTest::mouseClick(train->stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(30000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Cancelled);
        QVERIFY(!session->running());
        QVERIFY(!session->results());
        QCOMPARE(window_->resultsPage()->hasResults(), completedBefore);
        const QString headline = window_->resultsPage()->headline()->text();
        QVERIFY2(headline.contains(QStringLiteral("The last run did not complete (cancelled)")), qPrintable(headline));
        QVERIFY(train->startButton()->isEnabled());
        QVERIFY(!train->stopButton()->isEnabled());
        // The stopped run can be continued from its checkpoints, once.
        QVERIFY(!train->resumeRunButton()->isHidden());
        QTest::mouseClick(train->resumeRunButton(), Qt::LeftButton);
        QVERIFY(session->running());
        QVERIFY(train->resumeRunButton()->isHidden());
        QTest::mouseClick(train->stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, hangGuardMs(30000));
        QCOMPARE(finished.at(1).at(0).value<TrainStatus>(), TrainStatus::Cancelled);
        QVERIFY(train->logView()->toPlainText().contains(QStringLiteral("resuming from ")));
        doc->setNetwork(designed);
    }

    void regressionShowsScatter() {
        DataPage* data = window_->dataPage();
        QVERIFY(data->loadExample(QStringLiteral("sine")));
        QVERIFY(data->waitForLoad(30000));
        ProjectDocument* doc = window_->document();
        QCOMPARE(doc->dataset()->task, Task::Regression);
        window_->splitPage()->setStrategy(Strategy::OutputSplit);
        window_->splitPage()->setSubmodels(3);
        QVERIFY2(window_->splitPage()->errorText().isEmpty(), qPrintable(window_->splitPage()->errorText()));
        quickTraining(doc, 2);
        QSignalSpy finished(window_->session(), &TrainingSession::finished);
        QTest::mouseClick(window_->trainPage()->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(60000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Completed);
        ResultsPage* page = window_->resultsPage();
        QVERIFY(page->hasResults());
        QVERIFY(page->scatterSeries());
        QVERIFY(page->scatterSeries()->count() > 0);
        QCOMPARE(page->combinedMetricText(), formatMetric(window_->session()->results()->combinedMetric));

        // The scatter's axes are refitted to every new size of the window: the tick step is the
        // one a fresh fit at that size gives (its labels fitting the room), not the first size's.
        window_->showPage(MainWindow::ResultsPageIndex);
        // Wide enough for the figures and the errors side by side (narrower, they are stacked).
        window_->resize(1600, 1000);
        QTRY_VERIFY(!page->stacked());
        double lo = 1e300, hi = -1e300;
        for (const QPointF& p : page->scatterSeries()->points()) {
            lo = std::min({lo, p.x(), p.y()});
            hi = std::max({hi, p.x(), p.y()});
        }
        QChartView* view = page->scatterView();
        // The splitter between the figures and the errors, moved as a user would.
        QSplitter* columns = nullptr;
        for (QSplitter* s : page->findChildren<QSplitter*>())
            if (s->orientation() == Qt::Horizontal && s->count() == 2 && qobject_cast<QGroupBox*>(s->widget(1)))
                columns = s;
        QVERIFY(columns);
        QSet<int> tickCounts;
        for (const int errorsWidth : {700, 250, 450, 700}) {
            const int total = columns->width();
            columns->setSizes({total - errorsWidth, errorsWidth});
            for (int i = 0; i < 5; ++i) {
                QApplication::processEvents();
                QTest::qWait(20);
            }
            const QString at =
                QStringLiteral("errors %1 of %2 (chart %3 wide): ").arg(errorsWidth).arg(total).arg(view->width());
            const auto* x = qobject_cast<const QValueAxis*>(view->chart()->axes(Qt::Horizontal).value(0));
            const auto* y = qobject_cast<const QValueAxis*>(view->chart()->axes(Qt::Vertical).value(0));
            QVERIFY(x && y);
            QValueAxis fresh;
            fresh.setLabelFormat(x->labelFormat());
            fresh.setLabelsFont(x->labelsFont());
            setNiceRange(&fresh, lo, hi, labelRoom(view, Qt::Horizontal));
            QVERIFY2(x->tickCount() == fresh.tickCount() && x->min() == fresh.min() && x->max() == fresh.max(),
                     qPrintable(at + QStringLiteral("%1 ticks %2..%3, a fresh fit %4 ticks %5..%6")
                                         .arg(x->tickCount())
                                         .arg(x->min())
                                         .arg(x->max())
                                         .arg(fresh.tickCount())
                                         .arg(fresh.min())
                                         .arg(fresh.max())));
            QCOMPARE(y->min(), x->min());  // the same ticks on both axes
            QCOMPARE(y->max(), x->max());
            QCOMPARE(y->tickCount(), x->tickCount());
            tickCounts.insert(x->tickCount());
        }
        QVERIFY2(tickCounts.size() > 1, "every size gave the same ticks: the check saw no refit");
    }

    void invalidNetworkIsFlaggedBeforeTraining() {
        ProjectDocument* doc = window_->document();
        NetworkSpec spec = doc->network();
        spec.layers = {DenseSpec{}};
        std::get<DenseSpec>(spec.layers[0]).units = 0;  // the designer refuses this; a document edit can still make it
        doc->setNetwork(spec);
        QVERIFY(window_->networkPage()->hasErrors());
        QVERIFY(!window_->networkPage()->problemsText().isEmpty());
        QSignalSpy started(window_->session(), &TrainingSession::started);
        QVERIFY(!window_->trainPage()->startButton()->isEnabled());  // and says why
        window_->trainPage()->startTraining();                       // F5 and the Train menu
        QCOMPARE(started.count(), 0);
        QVERIFY(!window_->trainPage()->errorText().isEmpty());
        window_->networkPage()->applyPreset(0);
        QVERIFY(!window_->networkPage()->hasErrors());
    }

    void closingDuringTrainingAsksThenStops() {
        auto w = makeWindow();
        DataPage* data = w->dataPage();
        QVERIFY(data->loadExample(QStringLiteral("spirals")));
        QVERIFY(data->waitForLoad(30000));
        NetworkSpec wide = w->document()->network();
        wide.layers = parseLayers("dense:512:relu,dense:512:relu");
        w->document()->setNetwork(wide);
        quickTraining(w->document(), 500);
        QSignalSpy progress(w->session(), &TrainingSession::progress);
        QTest::mouseClick(w->trainPage()->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, hangGuardMs(30000));
        bool asked = false;
        QTimer::singleShot(200, this, [&asked] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                asked = true;
                box->button(QMessageBox::Discard)->click();  // "Stop Without Saving"
            }
        });
        QVERIFY(w->close());
        QVERIFY(asked);
        QVERIFY(!w->session()->running());
    }
};

QTEST_MAIN(TestWidgets)
#include "tst_widgets.moc"
