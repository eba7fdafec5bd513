// The app's "Run on: hostfile" on a cluster of three simulated hosts (scripts/simulated-hosts.sh),
// offscreen in the main window: Check lists the hosts, Start trains the project with the ranks on
// them (each submodel labelled with its host), and the result is the in-process run's. Needs root
// and `ip netns`: elsewhere the test skips (fails under CI=true), as tst_multihost does.
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "class_groups_setup.h"
#include "cli_support.h"  // SKYNNET_CLI_PATH, EnvScope
#include "simulated_hosts.h"
#include "test_support.h"
#include "ui/core/training_session.h"
#include "ui/widgets/live_chart.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/run_on_panel.h"
#include "ui/widgets/train_page.h"
#include "ui/widgets/training_charts.h"
#include "window_open.h"

using namespace skynnet;
using namespace skynnet::ui;

class TestMultihostUi : public QObject {
    Q_OBJECT

    SimulatedHosts hosts_;
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
#if defined(SKYNNET_TEST_MPI_OFF)
        QSKIP("built without the MPI backend on purpose (SKYNNET_MPI=OFF)");
#elif !defined(SKYNNET_TEST_HAVE_MPI)
        SKIP_UNLESS_CI("this build has no MPI backend (install libopenmpi-dev openmpi-bin and configure again)");
#endif
        START_SIMULATED_HOSTS(hosts_, 3);
    }

    void projectTrainsOnTheHosts() {
        const auto window = shownWindow(dir_.filePath("multihost.ini"));
        MainWindow& w = *window;
        ProjectDocument* doc = w.document();
        configureClassGroups(*doc, "builtin:blobs:samples=1500:classes=6:features=4:noise=0.6", 4);
        doc->setFilePath(dir_.filePath("p.skynnet"));  // the run's copy goes beside it
        w.showPage(MainWindow::TrainPageIndex);
        TrainPage* page = w.trainPage();
        TrainingSession* session = w.session();
        QSignalSpy finished(session, &TrainingSession::finished);

        // The reference: the same project trained in the app's own process.
        page->startTraining();
        QVERIFY(finished.wait(hangGuardMs(120000)));
        QCOMPARE(finished.last().at(0).value<TrainStatus>(), TrainStatus::Completed);
        const auto inProcess = session->results();
        QVERIFY(inProcess);

        const EnvScope cli("SKYNNET_CLI", SKYNNET_CLI_PATH);
        RunOnPanel* panel = page->runOnPanel();
        panel->targetBox()->setCurrentIndex(1);
        panel->hostfileEdit()->setText(hosts_.hostfile());
        emit panel->hostfileEdit()->editingFinished();
        panel->ranksBox()->setValue(4);
        QCOMPARE(doc->trainSettings().runOn, (RunPlace{true, hosts_.hostfile().toStdString(), 4}));

        // Check: rank 0 and a worker on the first host, a worker on each other one.
        QSignalSpy checked(panel, &RunOnPanel::checkFinished);
        QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
        QVERIFY(checked.wait(hangGuardMs(60000)));
        const QString listing = panel->checkResult()->text();
        QVERIFY2(listing.startsWith(hosts_.hosts()[0] + ": ranks 0, 1, ") &&
                     listing.contains("\n" + hosts_.hosts()[1] + ": rank 2, ") &&
                     listing.contains("\n" + hosts_.hosts()[2] + ": rank 3, ") && !listing.contains("warning"),
                 qPrintable(listing));

        QTest::mouseClick(page->startButton(), Qt::LeftButton);
        QVERIFY(session->running());
        QVERIFY(session->runsInAnotherProcess());
        QVERIFY(finished.wait(hangGuardMs(180000)));
        QVERIFY2(finished.last().at(0).value<TrainStatus>() == TrainStatus::Completed,
                 qPrintable(session->lastMessage()));
        QSet<QString> used;
        for (int i = 0; i < 3; ++i) {
            const QString host = session->submodelHost(i);
            used << host;
            QCOMPARE(page->charts()->lossChart()->series(i)->name(), QString("sub %1 on %2").arg(i + 1).arg(host));
        }
        QCOMPARE(used, QSet<QString>(hosts_.hosts().begin(), hosts_.hosts().end()));
        const auto onHosts = session->results();
        QVERIFY(onHosts && onHosts->model);
        QCOMPARE(onHosts->combinedTestOutput, inProcess->combinedTestOutput);
        QCOMPARE(onHosts->combinedMetric, inProcess->combinedMetric);
        QVERIFY(onHosts->model->weights == inProcess->model->weights);
        doc->undoStack()->clear();
        doc->setClean();
    }

    void cleanupTestCase() {
        const QString stopped = hosts_.stop();
        QVERIFY2(stopped.isEmpty(), qPrintable(stopped));
    }
};

QTEST_MAIN(TestMultihostUi)
#include "tst_multihost_ui.moc"
