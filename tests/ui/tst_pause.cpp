// Pausing a run, and starting one: the session, the Train page's button and its action (F6, the
// Train menu) always show one pause state; the progress and the time remaining hold still while
// paused; the pause is left out of the run's figures, kept with the run through a project file and
// shaded on its time charts (live and reopened) without a line across it; a lone point shows; and
// Start is enabled only when the run can start, saying why not where it is not.
#include <QAction>
#include <QAreaSeries>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

#include "class_groups_setup.h"
#include "project/project_file.h"
#include "test_shots.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/training_session.h"
#include "ui/widgets/live_chart.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/train_page.h"
#include "ui/widgets/training_charts.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

const QString smallBlobs = QStringLiteral("builtin:blobs:samples=1500:classes=6:features=4:noise=0.6");
// Large and wide enough that a run lasts seconds: for pausing mid-training.
const QString slowBlobs = QStringLiteral("builtin:blobs:samples=20000:classes=6:features=32:noise=1.0");

// Whether a segment of any line of the chart joins two points with a pause between them.
bool aLineCrossesAPause(const LiveChart& chart, const std::vector<PauseInterval>& pauses, int lines) {
    for (int id = -1; id < lines; ++id)
        for (const QLineSeries* s : chart.segments(id))
            for (int i = 1; i < s->count(); ++i)
                for (const PauseInterval& p : pauses)
                    if (p.startSeconds < s->at(i).x() && p.endSeconds > s->at(i - 1).x()) return true;
    return false;
}

int segmentsOf(const LiveChart& chart, int lines) {
    int n = 0;
    for (int id = -1; id < lines; ++id) n += int(chart.segments(id).size());
    return n;
}

// The band's extent on the x axis, from its upper edge.
std::pair<double, double> bandSpan(const LiveChart& chart, int i) {
    const QList<QPointF> edge = chart.pauseBand(i)->upperSeries()->points();
    return {edge.front().x(), edge.back().x()};
}

}  // namespace

class TestPause : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Button, action and session say the same whichever of them (or F6) changed the state.
    void buttonActionAndSessionAgree() {
        ProjectDocument doc;
        configureClassGroups(doc, slowBlobs, 200);  // far longer than the test waits
        TrainingSession session(&doc);
        TrainPage page(&doc, &session, nullptr);
        page.show();
        page.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        QAction* action = page.pauseAction();
        QPushButton* button = page.pauseButton();
        QVERIFY(action->isCheckable());
        QCOMPARE(action->shortcut(), QKeySequence(Qt::Key_F6));
        QVERIFY(!action->isEnabled() && !button->isEnabled());  // nothing to pause yet
        const auto agree = [&](bool paused) {
            return session.paused() == paused && action->isChecked() == paused &&
                   button->text() == (paused ? QStringLiteral("Resume") : QStringLiteral("Pause"));
        };

        page.startTraining();
        QVERIFY(session.running());
        QVERIFY(action->isEnabled() && button->isEnabled());
        QVERIFY(agree(false));
        QTest::keyClick(&page, Qt::Key_F6);
        QVERIFY(agree(true));
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(agree(false));
        session.pause();  // from elsewhere (the screenshot tour does): the controls follow
        QVERIFY(agree(true));
        action->trigger();  // the Train menu's item
        QVERIFY(agree(false));
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(agree(true));
        QTest::keyClick(&page, Qt::Key_F6);
        QVERIFY(agree(false));

        // Stopping a paused run ends its pause; afterwards nothing is paused or can be.
        session.pause();
        QVERIFY(agree(true));
        QSignalSpy finished(&session, &TrainingSession::finished);
        session.stop();
        QVERIFY(agree(false));
        QVERIFY(finished.wait(hangGuardMs(60000)));
        QVERIFY(!action->isEnabled() && !button->isEnabled());
        QTest::keyClick(&page, Qt::Key_F6);
        QVERIFY(agree(false));
    }

    // The window's Train menu holds the page's action itself: there is one F6 and one state.
    void theTrainMenuHoldsThePagesAction() {
        QTemporaryDir dir;
        MainWindow w(std::make_unique<AppSettings>(dir.filePath(QStringLiteral("settings.ini"))));
        QAction* pause = w.trainPage()->pauseAction();
        QMenu* train = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu() && a->text().remove(QLatin1Char('&')) == QStringLiteral("Train")) train = a->menu();
        QVERIFY(train);
        QVERIFY(train->actions().contains(pause));
        int f6 = 0;
        for (const QAction* a : w.findChildren<QAction*>())
            if (a->shortcuts().contains(QKeySequence(Qt::Key_F6))) ++f6;
        QCOMPARE(f6, 1);
    }

    // While paused the bar, the estimate and its label hold still and say "Paused"; on resume the
    // estimate comes at once, extrapolated from the time spent training only.
    void progressAndEstimateHoldWhilePaused() {
        ProjectDocument doc;
        configureClassGroups(doc, slowBlobs, 30, "dense:32:relu");  // stopped long before the end
        TrainingSession session(&doc);
        session.setThrottleMilliseconds(20);
        TrainPage page(&doc, &session, nullptr);
        QSignalSpy overall(&session, &TrainingSession::overallProgress);
        QElapsedTimer clock;
        clock.start();
        page.startTraining();
        QVERIFY(session.running());
        // Far enough in for an estimate (1% of the work), not near the end.
        QTRY_VERIFY_WITH_TIMEOUT(!overall.isEmpty() && overall.last().at(0).toDouble() > 0.02, hangGuardMs(120000));
        QVERIFY(session.running());
        session.pause();
        const int emitted = int(overall.count());
        const int bar = page.progressBar()->value();
        QCOMPARE(page.remainingLabel()->text(), QStringLiteral("Paused"));
        QVERIFY(page.progressBar()->format().contains(QStringLiteral("paused")));
        QTest::qWait(500);  // the batches in flight finish and report: the figures still hold
        QCOMPARE(int(overall.count()), emitted);
        QCOMPARE(page.progressBar()->value(), bar);
        QCOMPARE(page.remainingLabel()->text(), QStringLiteral("Paused"));

        session.resume();
        QCOMPARE(int(overall.count()), emitted + 1);
        const double fraction = overall.last().at(0).toDouble(), remaining = overall.last().at(1).toDouble();
        const double sinceStart = double(clock.elapsed()) / 1000.0;
        const std::vector<PauseInterval> pauses = session.pauses();
        QCOMPARE(int(pauses.size()), 1);
        const double paused = pauses[0].endSeconds - pauses[0].startSeconds;
        QVERIFY(paused >= 0.5);
        QVERIFY(fraction > 0.02 && remaining >= 0);
        // remaining = trained seconds x (1 - f) / f, and the seconds trained are at most those
        // since the start less the pause.
        QVERIFY2(remaining * fraction / (1 - fraction) <= sinceStart - paused + 0.01,
                 qPrintable(QStringLiteral("%1 s left at %2 after %3 s with %4 s paused")
                                .arg(remaining)
                                .arg(fraction)
                                .arg(sinceStart)
                                .arg(paused)));
        QCOMPARE(page.progressBar()->format(), QStringLiteral("%p%"));
        QVERIFY(page.remainingLabel()->text() != QStringLiteral("Paused"));
        QSignalSpy finished(&session, &TrainingSession::finished);
        session.stop();
        QVERIFY(finished.wait(hangGuardMs(60000)));
    }

    // A run paused mid-training: its figures leave the pause out, it keeps the pause, its time
    // charts shade it and break their lines there, and so does the same run reopened from a file.
    void pausedTimeIsLeftOutKeptAndDrawn() {
        ProjectDocument doc;
        // About a second of training on a quiet 2-core machine, so the pause (asked for at the first
        // resource sample, some 0.1 s in) lands mid-training even when other tests load the CPU.
        configureClassGroups(doc, slowBlobs, 80, "dense:32:relu");
        ProjectTraining t = doc.trainSettings();
        t.trainBaseline = false;
        t.config.resourceReportSeconds = 0.05;
        doc.setTrainSettings(t);
        TrainingSession session(&doc);
        session.setThrottleMilliseconds(20);
        TrainPage page(&doc, &session, nullptr);
        page.resize(1400, 900);
        page.show();
        TrainingCharts& charts = *page.charts();
        QSignalSpy finished(&session, &TrainingSession::finished);
        QElapsedTimer clock;
        clock.start();
        session.start();
        // A resource sample drawn before the pause, so a line has points on both sides of it.
        QTRY_VERIFY_WITH_TIMEOUT(charts.memoryChart()->pointCount() > 0, hangGuardMs(60000));
        QVERIFY(session.running());
        session.pause();
        QTest::qWait(600);
        QCOMPARE(charts.memoryChart()->pauseBandCount(), 1);  // shaded while it goes on
        shoot(&page, QStringLiteral("train-paused"));
        session.resume();
        // The run may have ended while paused (had the pause come after its last batch): the
        // signal was then emitted already, and a wait for a new one would never return.
        QTRY_VERIFY2_WITH_TIMEOUT(!finished.isEmpty(),
                                  qPrintable(QStringLiteral("not finished: running %1, paused %2")
                                                 .arg(session.running())
                                                 .arg(session.paused())),
                                  hangGuardMs(120000));
        const double call = double(clock.elapsed()) / 1000.0;
        QCOMPARE(finished.last().at(0).value<TrainStatus>(), TrainStatus::Completed);

        const std::vector<PauseInterval> pauses = session.pauses();
        QCOMPARE(int(pauses.size()), 1);
        const double paused = pauses[0].endSeconds - pauses[0].startSeconds;
        QVERIFY(paused >= 0.6);
        // Every duration lies inside the call, as the pause does: with the pause, it fits in it.
        const auto r = session.results();
        QVERIFY(r);
        QVERIFY2(r->splitWallSeconds + paused <= call + 0.001,
                 qPrintable(
                     QStringLiteral("split %1 s + paused %2 s > %3 s").arg(r->splitWallSeconds).arg(paused).arg(call)));
        QVERIFY2(r->wallSeconds + paused <= call + 0.001, qPrintable(QString::number(r->wallSeconds)));
        for (double wall : r->submodelWallSeconds)
            QVERIFY2(wall + paused <= call + 0.001, qPrintable(QString::number(wall)));
        for (const TrainResult& s : r->submodels) {
            double epochs = 0;
            for (const EpochStats& e : s.history) epochs += e.seconds;
            QVERIFY(epochs <= s.wallSeconds + 1e-6);
        }

        const int lines = session.plan()->submodelCount();
        for (LiveChart* chart : {charts.memoryChart(), charts.cpuChart()}) {
            QCOMPARE(chart->pauseBandCount(), 1);
            const auto [from, to] = bandSpan(*chart, 0);
            QCOMPARE(from, pauses[0].startSeconds);
            QCOMPARE(to, pauses[0].endSeconds);
            QVERIFY(!aLineCrossesAPause(*chart, pauses, lines));
        }
        QVERIFY(segmentsOf(*charts.memoryChart(), lines) > lines);  // a line broke at the pause
        const int memoryPoints = charts.memoryChart()->pointCount();
        shoot(&page, QStringLiteral("train-after-pause"));

        // Kept with the run: through a project file, and drawn the same when reopened.
        const std::optional<ProjectRun> run = session.lastRun();
        QVERIFY(run);
        QCOMPARE(run->pauses, pauses);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("paused.skynnet"));
        saveProjectFile(path, doc, session);
        const ProjectData saved = loadProject(path.toStdString());
        QCOMPARE(saved.runs.back().pauses, pauses);
        ProjectDocument reopenedDoc;
        TrainingSession reopened(&reopenedDoc);
        TrainPage reopenedPage(&reopenedDoc, &reopened, nullptr);
        reopenedPage.resize(1400, 900);
        reopenedPage.show();
        OpenedProject opened = openProjectData(saved, true);
        applyProject(reopenedDoc, reopened, opened, path);
        QCOMPARE(reopened.pauses(), pauses);
        shoot(&reopenedPage, QStringLiteral("train-reopened-paused-run"));
        LiveChart* memory = reopenedPage.charts()->memoryChart();
        QCOMPARE(memory->pauseBandCount(), 1);
        QCOMPARE(bandSpan(*memory, 0), bandSpan(*charts.memoryChart(), 0));
        QCOMPARE(memory->pointCount(), memoryPoints);
        QCOMPARE(segmentsOf(*memory, lines), segmentsOf(*charts.memoryChart(), lines));
        QVERIFY(!aLineCrossesAPause(*memory, pauses, lines));
    }

    // A line of one point shows its marker (the validation metric after epoch 1); a pause starts
    // a new segment of the line, which the legend does not list again; the bands follow the axes.
    void chartsShowLonePointsAndBreakAtPauses() {
        LiveChart chart(QStringLiteral("Memory"), QStringLiteral("seconds"), QStringLiteral("MB"));
        chart.resize(1200, 400);  // room for every legend entry
        chart.show();             // legend markers are visible only on a shown chart, once laid out
        chart.reset(2, false);
        chart.append(0, 0.5, 1.0);
        QVERIFY(chart.series(0)->pointsVisible());
        chart.append(0, 0.8, 2.0);
        QVERIFY(!chart.series(0)->pointsVisible());

        chart.setPauses({{1.0, 2.0}});
        QCOMPARE(chart.pauseBandCount(), 1);
        chart.beginAppending();
        chart.append(0, 2.5, 1.5);
        chart.append(0, 3.0, 1.6);
        chart.append(1, 1.5, 1.0);  // inside the pause (a batch in flight), then after it
        chart.append(1, 2.5, 1.2);
        chart.endAppending();
        const std::vector<QLineSeries*> first = chart.segments(0), second = chart.segments(1);
        QCOMPARE(int(first.size()), 2);
        QCOMPARE(first[0]->points(), (QList<QPointF>{{0.5, 1.0}, {0.8, 2.0}}));
        QCOMPARE(first[1]->points(), (QList<QPointF>{{2.5, 1.5}, {3.0, 1.6}}));
        QCOMPARE(int(second.size()), 2);
        QVERIFY(second[0]->pointsVisible() && second[1]->pointsVisible());  // one point each
        QCOMPARE(chart.pointCount(), 6);
        QCOMPARE(first[1]->pen(), first[0]->pen());
        const auto visibleMarkers = [&](QAbstractSeries* s) {
            int n = 0;
            for (const QLegendMarker* m : chart.chart()->legend()->markers(s)) n += m->isVisible();
            return n;
        };
        QTest::qWait(50);  // the legend lays its markers out
        QCOMPARE(visibleMarkers(first[0]), 1);
        QCOMPARE(visibleMarkers(first[1]), 0);

        const QList<QPointF> upper = chart.pauseBand(0)->upperSeries()->points();
        const QList<QPointF> lower = chart.pauseBand(0)->lowerSeries()->points();
        QCOMPARE(upper.size(), 2);
        QCOMPARE(bandSpan(chart, 0), std::make_pair(1.0, 2.0));
        QVERIFY(upper.front().y() >= 2.0 && lower.front().y() <= 1.0);  // across every point
        chart.setLogarithmic(true);
        QVERIFY(chart.pauseBand(0)->lowerSeries()->at(0).y() > 0);  // the log axis has no 0

        chart.setPauses({{1.0, 2.0}, {3.5, 6.0}});  // a second pause, going on
        QCOMPARE(chart.pauseBandCount(), 2);
        QTest::qWait(50);
        QCOMPARE(visibleMarkers(chart.pauseBand(0)), 1);  // one "paused" in the legend
        QCOMPARE(visibleMarkers(chart.pauseBand(1)), 0);
        const auto* x = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).front());
        QVERIFY(x && x->max() >= 6.0);
        chart.reset(1, false);
        QCOMPARE(chart.pauseBandCount(), 0);
        QCOMPARE(int(chart.segments(0).size()), 1);
    }

    // Start is enabled only when the run can start; otherwise its tooltip and the line under the
    // buttons give the same reason, F5 puts it in the banner, and the banner goes with its cause.
    void startSaysWhyItCannot() {
        ProjectDocument doc;
        TrainingSession session(&doc);
        TrainPage page(&doc, &session, nullptr);
        QPushButton* start = page.startButton();
        const auto blocked = [&](const QString& why) {
            return !start->isEnabled() && start->toolTip() == why && page.startReasonText() == why &&
                   page.startBlocker() == why;
        };
        QVERIFY(blocked(QStringLiteral("No data loaded: open a data file on the Data page first.")));

        configureClassGroups(doc, smallBlobs, 2, "dense:2:relu");
        QVERIFY(start->isEnabled());
        QVERIFY(page.startBlocker().isEmpty() && page.startReasonText().isEmpty());
        QVERIFY(session.startProblem().isEmpty());
        const QString usual = start->toolTip();
        QVERIFY(usual.contains(QStringLiteral("F5")));

        SplitOptions o = doc.splitOptions();
        o.requested = 10;  // 6 classes: g=5 groups, F=2.5, and the width 2 would become 1
        doc.setSplitOptions(o);
        const QString plan = QStringLiteral("Cannot start: ") + session.startProblem();
        QVERIFY2(plan.contains(QStringLiteral("below the minimum width of 2")), qPrintable(plan));
        QVERIFY(blocked(plan));
        page.startTraining();  // F5 and the Train menu reach here with Start disabled
        QVERIFY(!session.running());
        QCOMPARE(page.errorText(), plan);
        o.requested = 3;
        doc.setSplitOptions(o);  // valid again: the banner and the line go
        QVERIFY(page.errorText().isEmpty() && page.startReasonText().isEmpty());
        QVERIFY(start->isEnabled());
        QCOMPARE(start->toolTip(), usual);

        const NetworkSpec good = doc.network();
        NetworkSpec bad = good;
        bad.layers = {DenseSpec{}};
        std::get<DenseSpec>(bad.layers[0]).units = 0;
        doc.setNetwork(bad);
        QVERIFY(page.startBlocker().startsWith(QStringLiteral("The network cannot be trained:\n")));
        QVERIFY(blocked(page.startBlocker()));
        page.startTraining();
        QCOMPARE(page.errorText(), page.startBlocker());
        doc.setNetwork(good);
        QVERIFY(start->isEnabled() && page.errorText().isEmpty());

        ProjectTraining t = doc.trainSettings();
        t.config.epochs = 0;
        doc.setTrainSettings(t);
        QVERIFY(blocked(QStringLiteral("Cannot start: epochs 0: must be at least 1")));
        t.config.epochs = 2;
        doc.setTrainSettings(t);
        QVERIFY(start->isEnabled());
    }
};

QTEST_MAIN(TestPause)
#include "tst_pause.moc"
