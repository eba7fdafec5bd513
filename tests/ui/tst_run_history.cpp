// Run history in the desktop app, offscreen: every run is kept in the project with what it was
// made from, its log and its trained weights, through save and reopen; dropping a run's weights
// shrinks the file and keeps its curves; Stop keeps the earlier runs and the last completed
// result; runs that no longer match the project's data, network or split are marked; two runs
// compare side by side; the log is saved as a text file and comes back with a reopened project;
// the run shown is saved and shown again; runs of `skynnet-cli train --project` and runs the app
// has the tool train (as for a hostfile) are kept with their settings and log like the app's own.
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTime>
#include <QUndoStack>
#include <algorithm>
#include <cstring>
#include <functional>

#include "cli_support.h"
#include "io/container.h"
#include "project/data_reference.h"
#include "split/combined_model.h"
#include "test_shots.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/autosave.h"
#include "ui/core/formatting.h"
#include "ui/core/host_run.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/run_history.h"
#include "ui/core/run_list_model.h"
#include "ui/core/training_session.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/live_chart.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/results_page.h"
#include "ui/widgets/run_compare_dialog.h"
#include "ui/widgets/run_history_panel.h"
#include "ui/widgets/split_page.h"
#include "ui/widgets/train_page.h"
#include "ui/widgets/training_charts.h"
#include "window_open.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

bool sameBits(const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0;
}

QString cell(const QAbstractItemModel* m, int row, int column) { return m->index(row, column).data().toString(); }

// Log lines without their "HH:mm:ss  " stamps.
QString withoutTimes(const QString& log) {
    QStringList lines = log.split(QLatin1Char('\n'));
    for (QString& line : lines)
        if (line.size() >= 10 && line[2] == QLatin1Char(':') && line[5] == QLatin1Char(':')) line = line.mid(10);
    return lines.join(QLatin1Char('\n'));
}

// Every line of a run's log is stamped "HH:mm:ss  ".
bool allLinesStamped(const std::string& log) {
    const QStringList lines = QString::fromStdString(log).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString& line : lines)
        if (!QTime::fromString(line.left(8), QStringLiteral("HH:mm:ss")).isValid() ||
            line.mid(8, 2) != QStringLiteral("  "))
            return false;
    return !lines.isEmpty();
}

// The shown run's headline numbers are what the Results page and a comparison read.
Matrix predictionsOf(const ProjectRun& run, const PreparedData& prepared) {
    return buildCombinedModel(*run.results->model).predict(prepared.test.features);
}

}  // namespace

class TestRunHistory : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString csv_, wine_, project_;
    // Of the two runs trainAndSave() makes, before saving.
    std::vector<ProjectRun> runsBefore_;
    Matrix firstRunPredictions_;

    std::unique_ptr<MainWindow> makeWindow() {
        auto w = std::make_unique<MainWindow>(
            std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("settings.ini"))));
        ProjectController::Prompts& p = w->projectController()->prompts();
        p.unsavedChanges = [](const QString&) { return QMessageBox::Discard; };
        p.locateData = [](const QString&, const QString&) { return QString(); };
        p.chooseProjectFile = [](bool, const QString&) { return QString(); };
        p.restoreRecovery = [](const QString&, const QString&) { return false; };
        p.showError = [](const QString& title, const QString& message) {
            QFAIL(qPrintable(title + QStringLiteral(": ") + message));
        };
        w->projectController()->autosave()->setDirectory(dir_.filePath(QStringLiteral("recovery")));
        w->resize(1280, 860);
        w->show();
        return w;
    }

    static void loadCsv(MainWindow* w, const QString& path) {
        w->dataPage()->loadFile(path);
        QVERIFY(w->dataPage()->waitForLoad(30000));
        QVERIFY(w->document()->hasData());
    }

    static void quickSettings(ProjectDocument* doc, int epochs = 4) {
        ProjectTraining t = doc->trainSettings();
        t.config.epochs = epochs;
        t.config.batchSize = 16;
        t.config.optimizer.learningRate = 0.01f;
        t.config.resourceReportSeconds = 0.01;
        t.config.batchReportSeconds = 0.01;
        t.threadBudget = 2;
        t.trainBaseline = true;
        doc->setTrainSettings(t);
    }

    // Starts a run from the Train page and waits for it to end with `expected`.
    static void train(MainWindow* w, TrainStatus expected = TrainStatus::Completed) {
        QSignalSpy finished(w->session(), &TrainingSession::finished);
        w->trainPage()->startTraining();
        QVERIFY(w->session()->running());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(60000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), expected);
    }

    // An iris project of two runs (class groups N=3, then data shards N=2), saved as project_.
    void trainAndSave() {
        auto w = makeWindow();
        loadCsv(w.get(), csv_);
        ProjectDocument* doc = w->document();
        NetworkSpec net = doc->network();
        net.layers = parseLayers("dense:16:relu");
        doc->editNetwork(net);
        w->splitPage()->setStrategy(Strategy::ClassGroups);
        w->splitPage()->setSubmodels(3);
        quickSettings(doc);
        const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
        train(w.get());
        w->splitPage()->setStrategy(Strategy::DataShards);
        w->splitPage()->setSubmodels(2);
        train(w.get());
        const QDateTime after = QDateTime::currentDateTimeUtc().addSecs(1);

        const std::vector<ProjectRun>& runs = doc->runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(doc->shownRun(), 1);
        QVERIFY(!runs[0].id.empty() && !runs[1].id.empty() && runs[0].id != runs[1].id);
        for (const ProjectRun& r : runs) {
            const QDateTime at = QDateTime::fromString(QString::fromStdString(r.startedAt), Qt::ISODate);
            QVERIFY2(at.isValid() && at.timeSpec() == Qt::UTC, r.startedAt.c_str());
            QVERIFY(at >= before && at <= after);
            QVERIFY(r.settings);
            QCOMPARE(r.settings->network, doc->network());
            QCOMPARE(r.settings->training, doc->trainSettings());
            QCOMPARE(r.settings->data.train.path, QFileInfo(csv_).absoluteFilePath().toStdString());
            QVERIFY(hasWeights(r));
            QVERIFY(r.results && r.results->model && r.results->baselineWeights);
            VERIFY_CONTAINS(r.log, "training " + std::to_string(r.plan.submodelCount()) +
                                       " submodel(s): " + strategyName(r.plan.strategy));
            VERIFY_CONTAINS(r.log, "finished: ");
        }
        QCOMPARE(runs[0].settings->split.requested, 3);
        QCOMPARE(runs[1].settings->split.requested, 2);
        QCOMPARE(runs[0].plan.submodelCount(), 3);
        QCOMPARE(runs[1].plan.submodelCount(), 2);
        // The log view shows the lines the last run recorded (each stamped when it came, by the
        // view and the record alike; compared without the stamps, which may straddle a second).
        const QString view = withoutTimes(w->trainPage()->logView()->toPlainText());
        QVERIFY2(view.contains(withoutTimes(QString::fromStdString(runs[1].log).trimmed())), qPrintable(view));

        // The run list shows both, newest first.
        RunHistoryPanel* panel = w->resultsPage()->runHistory();
        QCOMPARE(panel->model()->rowCount(), 2);
        QCOMPARE(cell(panel->model(), 0, RunListModel::Strategy), QStringLiteral("data-shards, N=2"));
        QCOMPARE(cell(panel->model(), 1, RunListModel::Strategy), QStringLiteral("class-groups, N=3"));
        QCOMPARE(cell(panel->model(), 0, RunListModel::Status), QStringLiteral("completed"));
        QCOMPARE(cell(panel->model(), 1, RunListModel::Metric), runMetricText(runs[0]));
        QVERIFY(cell(panel->model(), 1, RunListModel::Size).endsWith(QStringLiteral(" with weights")));
        QCOMPARE(cell(panel->model(), 0, RunListModel::Matches), QStringLiteral("up to date"));

        runsBefore_ = runs;
        firstRunPredictions_ = predictionsOf(runs[0], *doc->prepared());
        QVERIFY(w->projectController()->saveTo(project_));
        QVERIFY(w->close());
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        csv_ = dir_.filePath(QStringLiteral("iris.csv"));
        wine_ = dir_.filePath(QStringLiteral("wine.csv"));
        QVERIFY(QFile::copy(QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/iris.csv"), csv_));
        QVERIFY(QFile::copy(QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/wine.csv"), wine_));
        project_ = dir_.filePath(QStringLiteral("iris.skynnet"));
        trainAndSave();
    }

    void runsKeepSettingsAndWeightsThroughSave() {
        const ProjectData saved = loadProject(project_.toStdString());
        QCOMPARE(saved.runs.size(), std::size_t(2));
        const FileFingerprint csvPrint = fileFingerprint(csv_.toStdString());
        for (std::size_t i = 0; i < 2; ++i) {
            const ProjectRun &a = runsBefore_[i], &b = saved.runs[i];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.startedAt, a.startedAt);
            QCOMPARE(b.log, a.log);
            QVERIFY(b.settings);
            QCOMPARE(b.settings->network, a.settings->network);
            QCOMPARE(b.settings->split, a.settings->split);
            QCOMPARE(b.settings->training, a.settings->training);
            QCOMPARE(b.settings->data.train.path, a.settings->data.train.path);
            // Fingerprinted at the save: the content the run trained on.
            QVERIFY(b.settings->data.train.fingerprint && *b.settings->data.train.fingerprint == csvPrint);
            QCOMPARE(b.settings->data.targetColumn, a.settings->data.targetColumn);
            QCOMPARE(b.settings->data.seed, a.settings->data.seed);
            QVERIFY(b.results && b.results->model && b.results->baselineWeights);
            QCOMPARE(*b.results->baselineWeights, *a.results->baselineWeights);
            QCOMPARE(b.results->model->weights, a.results->model->weights);
            QCOMPARE(b.submodels.size(), a.submodels.size());
            QCOMPARE(b.submodels[0].epochs.size(), a.submodels[0].epochs.size());
        }
    }

    void reopenedProjectShowsItsRunsAndLog() {
        auto w = makeWindow();
        QVERIFY(openAndWait(w.get(), project_));
        ProjectDocument* doc = w->document();
        QCOMPARE(doc->runs().size(), std::size_t(2));
        QCOMPARE(doc->shownRun(), 1);
        QVERIFY(!doc->isModified());
        QCOMPARE(w->resultsPage()->runHistory()->model()->rowCount(), 2);
        QCOMPARE(w->resultsPage()->shownRunIndex(), 1);
        // The shown run's log is back in the log view, line for line, with its times.
        const QString log = w->trainPage()->logView()->toPlainText();
        for (const QString& line :
             QString::fromStdString(runsBefore_[1].log).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            QVERIFY2(log.contains(line), qPrintable(line));
        QVERIFY(!log.contains(QStringLiteral("N=3")));  // not the first run's
        QVERIFY(w->resultsPage()->outOfDateText().isEmpty());
        QVERIFY(w->trainPage()->outOfDateText().isEmpty());

        // Open the first run: Results, Train's curves and the log are that run's, and it predicts
        // as it did before the save, bit for bit.
        RunHistoryPanel* panel = w->resultsPage()->runHistory();
        panel->selectRuns({0});
        QVERIFY(panel->openButton()->isEnabled());
        QVERIFY(panel->openSelected());
        QCOMPARE(doc->shownRun(), 0);
        QVERIFY(!doc->isModified());  // showing another run is no change
        QCOMPARE(w->session()->plan()->submodelCount(), 3);
        QCOMPARE(w->trainPage()->charts()->lossChart()->seriesCount(), 3 + 1);
        QVERIFY(w->resultsPage()->hasResults());
        QCOMPARE(w->resultsPage()->combinedMetricText(), formatMetric(runsBefore_[0].results->combinedMetric));
        QCOMPARE(w->resultsPage()->comparisonTable()->model()->rowCount(), 1 + 3 + 1);
        QVERIFY(sameBits(predictionsOf(doc->runs()[0], *doc->prepared()), firstRunPredictions_));
        QVERIFY(sameBits(buildCombinedModel(*w->session()->results()->model).predict(doc->prepared()->test.features),
                         firstRunPredictions_));
        const QString firstLog = w->trainPage()->logView()->toPlainText();
        VERIFY_CONTAINS(firstLog.toStdString(), "training 3 submodel(s): class-groups, N=3");
        QVERIFY(!firstLog.contains(QStringLiteral("N=2")));
        // But the first run was made with N=3, and the project's split says N=2 now.
        QCOMPARE(w->resultsPage()->outOfDateText(), QStringLiteral("Out of date: the split changed since this run."));
        QCOMPARE(w->trainPage()->outOfDateText(), w->resultsPage()->outOfDateText());
        w->showPage(MainWindow::TrainPageIndex);
        shoot(w.get(), QStringLiteral("train-earlier-run-out-of-date"));
        w->showPage(MainWindow::ResultsPageIndex);
        shoot(w.get(), QStringLiteral("results-earlier-run-out-of-date"));
        QVERIFY(w->close());
    }

    void droppingWeightsShrinksTheFileAndKeepsTheCurves() {
        auto w = makeWindow();
        QVERIFY(openAndWait(w.get(), project_));
        ProjectDocument* doc = w->document();
        RunHistoryPanel* panel = w->resultsPage()->runHistory();
        panel->selectRuns({0});
        QVERIFY(panel->dropWeightsButton()->isEnabled());
        QVERIFY(panel->dropSelectedWeights());
        QVERIFY(doc->isModified());
        QVERIFY(!hasWeights(doc->runs()[0]));
        QVERIFY(hasWeights(doc->runs()[1]));
        QVERIFY(!panel->dropWeightsButton()->isEnabled());  // nothing left to drop in the selection
        QVERIFY(!cell(panel->model(), 1, RunListModel::Size).contains(QStringLiteral("weights")));
        const QString smaller = dir_.filePath(QStringLiteral("dropped.skynnet"));
        QVERIFY(w->projectController()->saveTo(smaller));
        const std::int64_t weightBytes = std::int64_t(sizeof(float)) *
                                         (std::int64_t(runsBefore_[0].results->baselineWeights->size()) + [&] {
                                             std::int64_t n = 0;
                                             for (const auto& v : runsBefore_[0].results->model->weights)
                                                 n += std::int64_t(v.size());
                                             return n;
                                         }());
        QVERIFY(QFileInfo(smaller).size() <= QFileInfo(project_).size() - weightBytes);

        const ProjectData p = loadProject(smaller.toStdString());
        QCOMPARE(p.runs.size(), std::size_t(2));
        QVERIFY(p.runs[0].results && !p.runs[0].results->model && !p.runs[0].results->baselineWeights);
        QCOMPARE(p.runs[0].results->combinedMetric, runsBefore_[0].results->combinedMetric);
        QCOMPARE(p.runs[0].submodels[1].epochs.size(), runsBefore_[0].submodels[1].epochs.size());
        QVERIFY(p.runs[1].results->model);
        QCOMPARE(p.runs[0].log, runsBefore_[0].log);

        // The run without weights still opens with its curves and figures; nothing to export.
        panel->selectRuns({0});
        QVERIFY(panel->openSelected());
        QVERIFY(w->resultsPage()->hasResults());
        QCOMPARE(w->resultsPage()->combinedMetricText(), formatMetric(runsBefore_[0].results->combinedMetric));
        QVERIFY(w->trainPage()->charts()->lossChart()->pointCount() >=
                3 * int(runsBefore_[0].submodels[0].epochs.size()));
        QVERIFY(!w->projectController()->exportAction()->isEnabled());
        QVERIFY(w->close());
    }

    void stopKeepsEarlierRunsAndTheLastResult() {
        auto w = makeWindow();
        QVERIFY(openAndWait(w.get(), project_));
        ProjectDocument* doc = w->document();
        NetworkSpec wide = doc->network();  // far more work than the test waits for
        wide.layers = parseLayers("dense:512:relu,dense:512:relu");
        doc->editNetwork(wide);
        quickSettings(doc, 500);
        QSignalSpy progress(w->session(), &TrainingSession::progress);
        QSignalSpy finished(w->session(), &TrainingSession::finished);
        w->trainPage()->startTraining();
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, hangGuardMs(30000));
        w->session()->stop();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(30000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Cancelled);

        // The stopped run is kept too, after the two earlier ones, which keep their weights.
        const auto& runs = doc->runs();
        QCOMPARE(runs.size(), std::size_t(3));
        QCOMPARE(runs[2].status, TrainStatus::Cancelled);
        QVERIFY(!runs[2].results);
        QVERIFY(runs[2].settings && runs[2].settings->network == doc->network());
        VERIFY_CONTAINS(runs[2].log, "stopping at the next batch boundary");
        QVERIFY(hasWeights(runs[0]) && hasWeights(runs[1]));
        QCOMPARE(cell(w->resultsPage()->runHistory()->model(), 0, RunListModel::Status), QStringLiteral("cancelled"));

        // Results still shows the last completed run, and says why.
        ResultsPage* results = w->resultsPage();
        QVERIFY(results->hasResults());
        QCOMPARE(results->shownRunIndex(), 1);
        QCOMPARE(results->combinedMetricText(), formatMetric(runsBefore_[1].results->combinedMetric));
        const QString headline = results->headline()->text();
        QVERIFY2(headline.contains(QStringLiteral("The last run did not complete (cancelled)")), qPrintable(headline));
        QVERIFY2(headline.contains(QStringLiteral("Showing the last completed run")), qPrintable(headline));
        QCOMPARE(results->comparisonTable()->model()->rowCount(), 1 + 2 + 1);
        // Made with the small network: out of date against the wide one now.
        QCOMPARE(results->outOfDateText(), QStringLiteral("Out of date: the network changed since this run."));
        w->showPage(MainWindow::ResultsPageIndex);
        shoot(w.get(), QStringLiteral("results-after-stop"));

        // Saved and read again, all three are there.
        const QString path = dir_.filePath(QStringLiteral("stopped.skynnet"));
        QVERIFY(w->projectController()->saveTo(path));
        const ProjectData p = loadProject(path.toStdString());
        QCOMPARE(p.runs.size(), std::size_t(3));
        QCOMPARE(p.runs[2].status, TrainStatus::Cancelled);
        QVERIFY(p.runs[0].results->model && p.runs[1].results->model);
        QVERIFY(w->close());
    }

    void runsNoLongerMatchingAreMarked() {
        auto w = makeWindow();
        QVERIFY(openAndWait(w.get(), project_));
        ProjectDocument* doc = w->document();
        ResultsPage* results = w->resultsPage();
        TrainPage* trainPage = w->trainPage();
        const QAbstractItemModel* list = results->runHistory()->model();
        QCOMPARE(results->shownRunIndex(), 1);
        QVERIFY(results->outOfDateText().isEmpty());
        QCOMPARE(cell(list, 0, RunListModel::Matches), QStringLiteral("up to date"));
        QCOMPARE(cell(list, 1, RunListModel::Matches), QStringLiteral("out of date: split"));

        NetworkSpec net = doc->network();
        net.layers = parseLayers("dense:20:relu");
        doc->editNetwork(net);
        QCOMPARE(results->outOfDateText(), QStringLiteral("Out of date: the network changed since this run."));
        QCOMPARE(trainPage->outOfDateText(), results->outOfDateText());
        QCOMPARE(cell(list, 0, RunListModel::Matches), QStringLiteral("out of date: network"));
        QCOMPARE(cell(list, 1, RunListModel::Matches), QStringLiteral("out of date: network, split"));
        doc->undoStack()->undo();
        QVERIFY(results->outOfDateText().isEmpty());
        QVERIFY(trainPage->outOfDateText().isEmpty());
        QCOMPARE(cell(list, 0, RunListModel::Matches), QStringLiteral("up to date"));

        // A data setting the preparation depends on.
        ProjectDataSource settings = doc->dataSettings();
        settings.validationFraction = 0.25;
        doc->editDataSettings(settings);
        QCOMPARE(results->outOfDateText(), QStringLiteral("Out of date: the data changed since this run."));
        doc->undoStack()->undo();
        QVERIFY(results->outOfDateText().isEmpty());

        // Other data altogether: the network's input and output follow it, so both changed.
        loadCsv(w.get(), wine_);
        QCOMPARE(results->outOfDateText(),
                 QStringLiteral("Out of date: the data and the network changed since this run."));
        QCOMPARE(trainPage->outOfDateText(), results->outOfDateText());
        QCOMPARE(cell(list, 0, RunListModel::Matches), QStringLiteral("out of date: data, network"));
        // The same file again: up to date again (its network input and output fit iris again).
        loadCsv(w.get(), csv_);
        QVERIFY2(results->outOfDateText().isEmpty(), qPrintable(results->outOfDateText()));
        QVERIFY(w->close());
    }

    void compareShowsBothRunsFigures() {
        auto w = makeWindow();
        QVERIFY(openAndWait(w.get(), project_));
        RunHistoryPanel* panel = w->resultsPage()->runHistory();
        panel->selectRuns({0});
        QVERIFY(!panel->compareButton()->isEnabled());
        QVERIFY(!panel->compareSelected());
        panel->selectRuns({1, 0});
        QVERIFY(panel->compareButton()->isEnabled());
        RunCompareDialog* dialog = panel->compareSelected();
        QVERIFY(dialog);
        QTableWidget* t = dialog->figuresTable();
        QCOMPARE(t->columnCount(), 2);
        QCOMPARE(t->horizontalHeaderItem(0)->text(), QStringLiteral("Run 1"));
        QCOMPARE(t->horizontalHeaderItem(1)->text(), QStringLiteral("Run 2"));
        const auto row = [t](const QString& label) {
            for (int r = 0; r < t->rowCount(); ++r)
                if (t->verticalHeaderItem(r)->text() == label) return r;
            return -1;
        };
        const ProjectRun &a = runsBefore_[0], &b = runsBefore_[1];
        const auto expect = [&](const QString& label, const QString& first, const QString& second) {
            const int r = row(label);
            QVERIFY2(r >= 0, qPrintable(label));
            QCOMPARE(t->item(r, 0)->text(), first);
            QCOMPARE(t->item(r, 1)->text(), second);
        };
        expect(QStringLiteral("Strategy"), QStringLiteral("class-groups, N=3"), QStringLiteral("data-shards, N=2"));
        expect(QStringLiteral("Submodels"), QStringLiteral("3"), QStringLiteral("2"));
        expect(QStringLiteral("Started"), runStartText(a), runStartText(b));
        expect(QStringLiteral("Combined model"), QStringLiteral("accuracy ") + formatMetric(a.results->combinedMetric),
               QStringLiteral("accuracy ") + formatMetric(b.results->combinedMetric));
        expect(QStringLiteral("Baseline"), QStringLiteral("accuracy ") + formatMetric(a.results->baselineMetric),
               QStringLiteral("accuracy ") + formatMetric(b.results->baselineMetric));
        expect(QStringLiteral("Split wall time"), formatSeconds(a.results->splitWallSeconds) + QStringLiteral(" s"),
               formatSeconds(b.results->splitWallSeconds) + QStringLiteral(" s"));
        expect(QStringLiteral("Split CPU time"), formatSeconds(a.results->splitCpuSeconds) + QStringLiteral(" s"),
               formatSeconds(b.results->splitCpuSeconds) + QStringLiteral(" s"));
        expect(QStringLiteral("Peak memory, submodels at once"),
               formatMegabytes(a.results->peakConcurrentBytes) + QStringLiteral(" MB"),
               formatMegabytes(b.results->peakConcurrentBytes) + QStringLiteral(" MB"));
        expect(QStringLiteral("Trained weights"), QStringLiteral("kept"), QStringLiteral("kept"));

        // The curves of both on one chart: each run's submodels (mean) and its baseline, one point an epoch.
        const QList<QAbstractSeries*> series = dialog->curvesView()->chart()->series();
        QCOMPARE(series.size(), 4);
        const int expectedPoints[] = {int(a.submodels[0].epochs.size()), int(a.baseline->epochs.size()),
                                      int(b.submodels[0].epochs.size()), int(b.baseline->epochs.size())};
        QCOMPARE(expectedPoints[1], 4);  // quickSettings' epochs
        QStringList names;
        for (int i = 0; i < 4; ++i) {
            names << series[i]->name();
            QCOMPARE(qobject_cast<QLineSeries*>(series[i])->count(), expectedPoints[i]);
        }
        QVERIFY(names.contains(t->horizontalHeaderItem(0)->text() + QStringLiteral(" submodels (mean)")));
        QVERIFY(names.contains(t->horizontalHeaderItem(1)->text() + QStringLiteral(" baseline")));
        // The first run's mean is the mean of its submodels' losses.
        auto* mean = qobject_cast<QLineSeries*>(series[0]);
        double sum = 0;
        for (const ModelHistory& h : a.submodels) sum += h.epochs[0].loss;
        QCOMPARE(mean->at(0).y(), sum / 3);
        shoot(dialog, QStringLiteral("compare-runs"));
        dialog->close();
        QVERIFY(w->close());
    }

    void savedLogHasTheLines() {
        auto w = makeWindow();
        QVERIFY(openAndWait(w.get(), project_));
        const QString path = dir_.filePath(QStringLiteral("run.log.txt"));
        QString error;
        QVERIFY2(w->trainPage()->saveLogTo(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const QString text = QString::fromUtf8(file.readAll());
        QCOMPARE(text, w->trainPage()->logView()->toPlainText() + QLatin1Char('\n'));
        for (const QString& line :
             QString::fromStdString(runsBefore_[1].log).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            QVERIFY2(text.contains(line + QLatin1Char('\n')), qPrintable(line));

        const QString nowhere = dir_.filePath(QStringLiteral("no-such-folder/run.log.txt"));
        QVERIFY(!w->trainPage()->saveLogTo(nowhere, &error));
        QVERIFY2(error.contains(QDir::toNativeSeparators(nowhere)), qPrintable(error));
        QVERIFY(!QFileInfo::exists(nowhere));
        QVERIFY(w->close());
    }

    void badRecordFieldsAreNamed() {
        const ModelFileContents good = loadModelFile(project_.toStdString());
        const QString bad = dir_.filePath(QStringLiteral("bad-record.skynnet"));
        const auto errorWith = [&](const std::function<void(Json & run)>& spoil) {
            ModelFileContents c = good;
            Json runs = c.header.at("runs");
            spoil(runs[1]);
            c.header["runs"] = runs;
            saveModelFile(bad.toStdString(), c);
            return errorOf([&] { loadProject(bad.toStdString()); });
        };
        const std::string where = bad.toStdString() + ": runs[1].";
        const std::string split = errorWith([](Json& run) { run["settings"]["split"]["requested"] = 0; });
        VERIFY_CONTAINS(split, where + "settings.split.requested must be at least 1");
        const std::string log = errorWith([](Json& run) { run["log"] = 5; });
        VERIFY_CONTAINS(log, where + "log");
        const std::string data = errorWith([](Json& run) { run["settings"]["data"]["scaling"] = "sideways"; });
        VERIFY_CONTAINS(data, where + "settings.data.scaling");
    }

    void olderProjectsOpenWithSettingsNotRecorded() {
        ProjectData p = loadProject(project_.toStdString());
        for (ProjectRun& r : p.runs) {  // as projects written before runs kept their record
            r.id.clear();
            r.startedAt.clear();
            r.settings.reset();
            r.log.clear();
        }
        const QString old = dir_.filePath(QStringLiteral("older.skynnet"));
        saveProject(old.toStdString(), p);
        const ProjectData reread = loadProject(old.toStdString());
        QVERIFY(reread.runs.size() == 2 && !reread.runs[1].settings && reread.runs[1].log.empty() &&
                reread.runs[1].id.empty());

        auto w = makeWindow();
        QVERIFY(openAndWait(w.get(), old));
        const QAbstractItemModel* list = w->resultsPage()->runHistory()->model();
        QCOMPARE(list->rowCount(), 2);
        QCOMPARE(cell(list, 0, RunListModel::Started), QStringLiteral("not recorded"));
        QCOMPARE(cell(list, 0, RunListModel::Matches), QStringLiteral("settings not recorded"));
        VERIFY_CONTAINS(w->trainPage()->logView()->toPlainText().toStdString(), "(no log was recorded for this run)");
        QVERIFY(w->resultsPage()->hasResults());
        // Without settings, the network alone tells.
        NetworkSpec net = w->document()->network();
        net.layers = parseLayers("dense:20:relu");
        w->document()->editNetwork(net);
        QCOMPARE(cell(list, 0, RunListModel::Matches), QStringLiteral("out of date (settings not recorded)"));
        QCOMPARE(w->resultsPage()->outOfDateText(), QStringLiteral("Out of date: the network changed since this run."));

        // A new run in it gets an id of its own and its record.
        w->document()->undoStack()->undo();
        quickSettings(w->document(), 2);
        train(w.get());
        QCOMPARE(w->document()->runs().size(), std::size_t(3));
        const ProjectRun& added = w->document()->runs()[2];
        QVERIFY(!added.id.empty() && added.settings && !added.log.empty());
        QVERIFY(w->close());
    }

    // The run picked in the list is saved with the project and shown again when it is reopened;
    // a project without that field, or with a value that is no run's, shows its last run.
    void shownRunIsSavedAndShownAgain() {
        const QString path = dir_.filePath(QStringLiteral("shown-first.skynnet"));
        {
            auto w = makeWindow();
            QVERIFY(openAndWait(w.get(), project_));
            RunHistoryPanel* panel = w->resultsPage()->runHistory();
            panel->selectRuns({0});
            QVERIFY(panel->openSelected());
            QCOMPARE(w->document()->shownRun(), 0);
            QVERIFY(w->projectController()->saveTo(path));
            QVERIFY(w->close());
        }
        ProjectData p = loadProject(path.toStdString());
        QCOMPARE(JsonField(p.extra).at(shownRunKey).asInt(), 0);
        QCOMPARE(shownRunOf(p), 0);
        {
            auto w = makeWindow();
            QVERIFY(openAndWait(w.get(), path));
            QCOMPARE(w->document()->shownRun(), 0);
            QVERIFY(!w->document()->isModified());
            QCOMPARE(w->resultsPage()->shownRunIndex(), 0);
            QCOMPARE(w->session()->plan()->submodelCount(), 3);
            QCOMPARE(w->resultsPage()->combinedMetricText(), formatMetric(runsBefore_[0].results->combinedMetric));
            const QString log = w->trainPage()->logView()->toPlainText();
            for (const QString& line :
                 QString::fromStdString(runsBefore_[0].log).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                QVERIFY2(log.contains(line), qPrintable(line));
            QVERIFY(!log.contains(QStringLiteral("N=2")));
            QVERIFY(w->close());
        }
        // Older projects (no field) and values that are no run's index: the last run.
        for (const Json& value : {Json(), Json(7), Json(-1), Json("0")}) {
            ProjectData q = p;
            if (value.is_null()) q.extra.erase(shownRunKey);
            else q.extra[shownRunKey] = value;
            QCOMPARE(shownRunOf(q), 1);
        }
        p.extra.erase(shownRunKey);
        const QString older = dir_.filePath(QStringLiteral("shown-unrecorded.skynnet"));
        saveProject(older.toStdString(), p);
        auto w = makeWindow();
        QVERIFY(openAndWait(w.get(), older));
        QCOMPARE(w->document()->shownRun(), 1);
        QCOMPARE(w->session()->plan()->submodelCount(), 2);
        QVERIFY(w->close());
    }

    // `skynnet-cli train --project` keeps its run as the app keeps one: an id, the start time, the
    // settings it was made from (the data fingerprinted) and its log, whose lines are the app's;
    // the app opens the project on that run, up to date, with its log.
    void cliRunIsRecordedWithSettingsAndLog() {
        const QString path = dir_.filePath(QStringLiteral("cli-trained.skynnet"));
        QVERIFY(QFile::copy(project_, path));
        const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
        const CliRun cli = runCli({"train", "--project", path, "--quiet"});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        const QDateTime after = QDateTime::currentDateTimeUtc().addSecs(1);

        const ProjectData p = loadProject(path.toStdString());
        QCOMPARE(p.runs.size(), std::size_t(3));
        const ProjectRun& r = p.runs[2];
        QCOMPARE(r.id, std::string("run-3"));  // after the app's run-1 and run-2
        const QDateTime at = QDateTime::fromString(QString::fromStdString(r.startedAt), Qt::ISODate);
        QVERIFY2(at.isValid() && at.timeSpec() == Qt::UTC && at >= before && at <= after, r.startedAt.c_str());
        QVERIFY(r.settings);
        QCOMPARE(r.settings->network, p.network);
        QCOMPARE(r.settings->split, p.split);
        QCOMPARE(r.settings->training, p.training);
        QCOMPARE(r.settings->data.train.path, QFileInfo(csv_).absoluteFilePath().toStdString());
        QVERIFY(r.settings->data.train.fingerprint &&
                *r.settings->data.train.fingerprint == fileFingerprint(csv_.toStdString()));
        QVERIFY(allLinesStamped(r.log));
        const QString log = withoutTimes(QString::fromStdString(r.log));
        // The same first line as the app's run of the same settings (runs[1]: data shards, N=2).
        const QString appStart =
            withoutTimes(QString::fromStdString(runsBefore_[1].log)).section(QLatin1Char('\n'), 0, 0);
        QVERIFY2(appStart.startsWith(QStringLiteral("training 2 submodel(s): data-shards, N=2")), qPrintable(appStart));
        QVERIFY2(log.contains(QLatin1Char('\n') + appStart + QLatin1Char('\n')), qPrintable(log));
        VERIFY_CONTAINS(log.toStdString(), "skynnet-cli ");
        VERIFY_CONTAINS(log.toStdString(), " train --project " + path.toStdString());
        const std::string epochs = std::to_string(r.plan.effectiveEpochs) +
                                   " epoch(s) in ";  // data shards: fewer than 4
        VERIFY_CONTAINS(log.toStdString(), "\nsubmodel 1: completed after " + epochs);
        VERIFY_CONTAINS(log.toStdString(), "\nsubmodel 2: completed after " + epochs);
        VERIFY_CONTAINS(log.toStdString(), "\nsplit run: 2 submodel(s) in ");
        VERIFY_CONTAINS(log.toStdString(), "\nbaseline: training the original model ");
        VERIFY_CONTAINS(log.toStdString(), "\nbaseline: completed after 4 epoch(s) in ");
        VERIFY_CONTAINS(log.toStdString(), "\nfinished: " + r.message + "\n");
        QCOMPARE(JsonField(p.extra).at(shownRunKey).asInt(), 2);

        auto w = makeWindow();
        QVERIFY(openAndWait(w.get(), path));
        ProjectDocument* doc = w->document();
        QCOMPARE(doc->runs().size(), std::size_t(3));
        QCOMPARE(doc->shownRun(), 2);
        QCOMPARE(w->resultsPage()->shownRunIndex(), 2);
        const QAbstractItemModel* list = w->resultsPage()->runHistory()->model();
        QCOMPARE(cell(list, 0, RunListModel::Started), runStartText(r));
        QCOMPARE(cell(list, 0, RunListModel::Matches), QStringLiteral("up to date"));
        QVERIFY(w->resultsPage()->outOfDateText().isEmpty());
        const QString view = w->trainPage()->logView()->toPlainText();
        for (const QString& line : QString::fromStdString(r.log).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            QVERIFY2(view.contains(line), qPrintable(line));
        QCOMPARE(w->resultsPage()->combinedMetricText(), formatMetric(r.results->combinedMetric));
        QVERIFY(w->close());
    }

    // A run the app has skynnet-cli train in another process, as it does on the machines of a
    // hostfile (here the tool's thread backend, which needs no MPI): kept with the app's record,
    // and its log is back when the project is reopened.
    void toolRunFromTheAppKeepsItsLog() {
        const QString path = dir_.filePath(QStringLiteral("tool-run.skynnet"));
        QTemporaryDir runDir;
        QVERIFY(runDir.isValid());
        {
            auto w = makeWindow();
            QVERIFY(openAndWait(w.get(), project_));
            const QString copy = runDir.filePath(QStringLiteral("run.skynnet"));
            writeProjectCopy(copy, *w->document(), *w->session());
            qputenv("SKYNNET_CLI", QByteArrayLiteral(SKYNNET_CLI_PATH));
            const RunCommand command = hostRunCommand(copy, RunPlace{}, 2, false);
            qunsetenv("SKYNNET_CLI");
            QSignalSpy finished(w->session(), &TrainingSession::finished);
            w->session()->startCommand(command.program, command.arguments, copy);
            QVERIFY(w->session()->runsInAnotherProcess());
            QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(120000));
            QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Completed);
            QCOMPARE(w->document()->runs().size(), std::size_t(3));
            const ProjectRun& r = w->document()->runs()[2];
            QVERIFY(r.settings && r.settings->network == w->document()->network());
            VERIFY_CONTAINS(r.log,
                            "running: " + command.program.toStdString() + " train --project " + copy.toStdString());
            VERIFY_CONTAINS(r.log,
                            "submodel 1: completed after " + std::to_string(r.plan.effectiveEpochs) + " epoch(s)");
            VERIFY_CONTAINS(r.log, "finished: combined accuracy ");
            QVERIFY(allLinesStamped(r.log));
            QVERIFY(w->projectController()->saveTo(path));
            QVERIFY(w->close());
        }
        const ProjectData saved = loadProject(path.toStdString());
        QCOMPARE(saved.runs.size(), std::size_t(3));
        auto w = makeWindow();
        QVERIFY(openAndWait(w.get(), path));
        QCOMPARE(w->document()->shownRun(), 2);
        const QString view = w->trainPage()->logView()->toPlainText();
        for (const QString& line :
             QString::fromStdString(saved.runs[2].log).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            QVERIFY2(view.contains(line), qPrintable(line));
        QVERIFY(w->close());
    }
};

QTEST_MAIN(TestRunHistory)
#include "tst_run_history.moc"
