// A short run in the window: the wine data's default run ends in a fraction of a second. The window
// stays on the Train page, which says what finished, how well and how long it took; the CPU and
// memory charts give the run's figures as text instead of lines between two samples; a longer run
// keeps its lines. Going to Results after a run is a setting (Train > Show Results After a Run),
// off by default and kept in the settings file. A stopped run says how far it got.
#include <QAction>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

#include "class_groups_setup.h"
#include "project/project_file.h"
#include "test_shots.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/formatting.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/format.h"
#include "ui/widgets/live_chart.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/train_page.h"
#include "ui/widgets/training_charts.h"
#include "window_open.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

const QString wine = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/wine.csv");
// Large enough that a run lasts seconds: for stopping one mid-training.
const QString slowBlobs = QStringLiteral("builtin:blobs:samples=20000:classes=6:features=32:noise=1.0");

// Starts a run from the Train page as F5 does and waits for it to end.
void trainInWindow(MainWindow& w) {
    QSignalSpy finished(w.session(), &TrainingSession::finished);
    w.showPage(MainWindow::TrainPageIndex);
    w.trainPage()->startTraining();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(120000));
    QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Completed);
}

bool linesVisible(const LiveChart& chart) {
    for (int id = -1; id < 3; ++id)
        if (const QLineSeries* s = chart.series(id); s && s->isVisible()) return true;
    return false;
}

// The most points of any one model's CPU line.
int cpuPoints(const LiveChart& chart) {
    int most = 0;
    for (int id = -1; id < 3; ++id) {
        int n = 0;
        for (const QLineSeries* s : chart.segments(id)) n += s->count();
        most = std::max(most, n);
    }
    return most;
}

}  // namespace

class TestShortRun : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void shortRunStaysOnTrainWithItsSummary() {
        QTemporaryDir dir;
        const QString settingsPath = dir.filePath(QStringLiteral("settings.ini"));
        auto w = shownWindow(settingsPath);
        QVERIFY(!w->settings()->showResultsAfterRun());  // the default: stay
        QVERIFY(w->showResultsAction()->isCheckable() && !w->showResultsAction()->isChecked());
        configureClassGroups(*w->document(), wine, 10);
        TrainPage& page = *w->trainPage();
        QCOMPARE(page.summaryText(), QString());  // nothing to say before a run

        trainInWindow(*w);
        QCOMPARE(w->currentPage(), int(MainWindow::TrainPageIndex));
        const auto r = w->session()->results();
        QVERIFY(r);
        const std::string summary = page.summaryText().toStdString();
        VERIFY_CONTAINS(summary, "<b>Finished</b> in " + formatDuration(r->wallSeconds).toStdString());
        VERIFY_CONTAINS(summary, "3 submodels, ");
        VERIFY_CONTAINS(summary, "then the baseline, 10 epochs");
        VERIFY_CONTAINS(summary, "test accuracy " + formatMetric(r->combinedMetric).toStdString());
        VERIFY_CONTAINS(summary, "(the original: " + formatMetric(r->baselineMetric).toStdString() + ")");
        VERIFY_CONTAINS(summary, "last training loss ");

        // The run lasted a fraction of a second: figures, not a line between its first samples
        // (on a loaded machine it may last long enough for a line; the clock is changed below).
        TrainingCharts& charts = *page.charts();
        const bool fewPoints = cpuPoints(*charts.cpuChart()) < TrainingCharts::shortRunPoints;
        QCOMPARE(!charts.cpuChart()->figures().isEmpty(), fewPoints);
        QCOMPARE(!charts.memoryChart()->figures().isEmpty(), fewPoints);
        QCOMPARE(linesVisible(*charts.cpuChart()), !fewPoints);
        // The loss keeps its line: an epoch is a point whatever the run's length.
        QVERIFY(charts.lossChart()->figures().isEmpty() && linesVisible(*charts.lossChart()));
        shoot(w.get(), QStringLiteral("train-after-short-run"));

        // The summary's link goes to Results.
        emit page.summaryLabel()->linkActivated(QStringLiteral("results"));
        QCOMPARE(w->currentPage(), int(MainWindow::ResultsPageIndex));

        // The setting: Results after each run, kept in the settings file.
        w->showResultsAction()->trigger();
        QVERIFY(w->settings()->showResultsAfterRun());
        w->settings()->sync();
        QVERIFY(AppSettings(settingsPath).showResultsAfterRun());
        trainInWindow(*w);
        QCOMPARE(w->currentPage(), int(MainWindow::ResultsPageIndex));
        w->showResultsAction()->trigger();
        QVERIFY(!w->settings()->showResultsAfterRun());

        // A new run takes the figures away until it has ended.
        QSignalSpy started(w->session(), &TrainingSession::started);
        QSignalSpy finished(w->session(), &TrainingSession::finished);
        w->trainPage()->startTraining();
        QCOMPARE(started.count(), 1);
        QVERIFY(charts.cpuChart()->figures().isEmpty());
        QCOMPARE(page.summaryText(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(120000));
        QVERIFY(!page.summaryText().isEmpty());
    }

    // A run's CPU and memory charts by its clock: squeezed a hundredfold, the run's figures
    // (its cores kept busy over its time, each model's, the peak memory); stretched as much, as a
    // run of seconds would be sampled, its lines.
    void figuresOrLinesByTheRunsLength() {
        ProjectDocument doc;
        // Long enough for several samples on a fast, quiet machine too (10 epochs of wine took
        // 10 ms on a Zen 3, fewer than shortRunPoints samples whatever the clock's scale).
        configureClassGroups(doc, wine, 300);
        ProjectTraining t = doc.trainSettings();
        t.config.resourceReportSeconds = 0.002;  // many samples, so that stretched they make a line
        doc.setTrainSettings(t);
        TrainingSession session(&doc);
        TrainPage page(&doc, &session, nullptr);
        QSignalSpy finished(&session, &TrainingSession::finished);
        session.start();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(120000));
        const std::optional<ProjectRun> run = session.lastRun();
        QVERIFY(run && run->baseline);
        const auto scaled = [&run](double factor) {
            ProjectRun r = *run;
            const auto scale = [factor](ModelHistory& m) {
                for (ResourceSample& s : m.resources) {
                    s.elapsedSeconds *= factor;
                    s.cpuSeconds *= factor;
                }
            };
            for (ModelHistory& m : r.submodels) scale(m);
            scale(*r.baseline);
            return r;
        };
        TrainingCharts& charts = *page.charts();

        QVERIFY(session.adoptRun(scaled(0.01)));
        const std::string cpu = charts.cpuChart()->figures().toStdString();
        const std::string memory = charts.memoryChart()->figures().toStdString();
        // Every model's CPU seconds over the run's span: 180% is nearly two cores kept busy.
        double busy = 0, start = 1e300, end = -1e300, peak = 0;
        std::vector<ModelHistory> models = scaled(0.01).submodels;
        models.push_back(*scaled(0.01).baseline);
        for (const ModelHistory& m : models) {
            busy += m.resources.back().cpuSeconds - m.resources.front().cpuSeconds;
            start = std::min(start, m.resources.front().elapsedSeconds);
            end = std::max(end, m.resources.back().elapsedSeconds);
            for (const ResourceSample& s : m.resources) peak = std::max(peak, double(s.modelBytes + s.dataBytes) / 1e6);
        }
        VERIFY_CONTAINS(cpu, "CPU " + std::to_string(qRound(100 * busy / (end - start))) + "% over ");
        VERIFY_CONTAINS(cpu, "\nsub 1: ");
        VERIFY_CONTAINS(cpu, "\nbaseline: ");
        VERIFY_CONTAINS(memory, "largest peak " + formatBytes(std::int64_t(std::llround(peak * 1e6))).toStdString());
        VERIFY_CONTAINS(memory, "\nsub 3: ");
        QVERIFY(!linesVisible(*charts.cpuChart()) && !linesVisible(*charts.memoryChart()));
        QVERIFY(cpuPoints(*charts.cpuChart()) < TrainingCharts::shortRunPoints);
        QVERIFY(charts.lossChart()->figures().isEmpty() && linesVisible(*charts.lossChart()));

        QVERIFY(session.adoptRun(scaled(100)));
        QVERIFY2(charts.cpuChart()->figures().isEmpty(), qPrintable(charts.cpuChart()->figures()));
        QVERIFY(charts.memoryChart()->figures().isEmpty());
        QVERIFY(linesVisible(*charts.cpuChart()) && linesVisible(*charts.memoryChart()));
        QVERIFY(cpuPoints(*charts.cpuChart()) >= TrainingCharts::shortRunPoints);
    }

    void stoppedRunSaysHowFarItGot() {
        ProjectDocument doc;
        configureClassGroups(doc, slowBlobs, 200, "dense:32:relu");
        TrainingSession session(&doc);
        TrainPage page(&doc, &session, nullptr);
        QSignalSpy finished(&session, &TrainingSession::finished);
        session.start();
        QTRY_VERIFY_WITH_TIMEOUT(!session.submodels().empty() && !session.submodels()[0].epochs.empty(),
                                 hangGuardMs(60000));
        session.stop();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(60000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Cancelled);
        const std::string summary = page.summaryText().toStdString();
        VERIFY_CONTAINS(summary, "<b>Stopped</b> after ");
        const int total = 3 * session.plan()->effectiveEpochs + session.plan()->epochs;
        VERIFY_CONTAINS(summary, " of " + std::to_string(total) + " epochs");
        QVERIFY(summary.find("Show the results") == std::string::npos);  // a stopped run has none
    }
};

QTEST_MAIN(TestShortRun)
#include "tst_short_run.moc"
