// One run request, three ways, one model: the same project trained by the desktop app's session
// (in its process), by `skynnet-cli train --project`, and by rank 0 of `mpirun -np 3 skynnet-cli
// train --project ... --backend mpi` gives the same combined model and baseline, bit for bit (the
// engine's runner is the one path all three take, and the result does not depend on the threads
// or ranks that trained it).
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "class_groups_setup.h"
#include "cli_support.h"
#include "mpi_support.h"
#include "project/project_file.h"
#include "ui/core/project_io.h"
#include "ui/core/training_session.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

// The results of the project's last run, with its model; null when it has none.
const ProjectResults* lastResults(const ProjectData& p) {
    if (p.runs.empty() || !p.runs.back().results || !p.runs.back().results->model) return nullptr;
    return &*p.runs.back().results;
}

void compareModels(const ProjectResults& a, const ProjectResults* b, const char* what) {
    QVERIFY2(b, "the project holds no completed run with its model");
    QVERIFY2(a.model->weights == b->model->weights, what);
    QVERIFY2(a.model->specs == b->model->specs, what);
    QVERIFY2(a.baselineWeights == b->baselineWeights, what);
    QCOMPARE(a.combinedMetric, b->combinedMetric);
    QCOMPARE(a.baselineMetric, b->baselineMetric);
}

}  // namespace

class TestOneRun : public QObject {
    Q_OBJECT

private slots:
    void sameModelInTheAppTheCliAndUnderMpi() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString wine = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/wine.csv");
        ProjectDocument doc;
        configureClassGroups(doc, wine, 6, "dense:24:relu,dense:12:relu");
        TrainingSession session(&doc);
        const QString project = dir.filePath(QStringLiteral("wine.skynnet"));
        saveProject(project.toStdString(), captureProject(doc, session));  // the request, before any run

        QSignalSpy finished(&session, &TrainingSession::finished);
        session.start();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(120000));
        QCOMPARE(finished.at(0).at(0).value<TrainStatus>(), TrainStatus::Completed);
        const std::shared_ptr<const ProjectResults> app = session.results();
        QVERIFY(app && app->model && app->baselineWeights);

        const QString byCli = dir.filePath(QStringLiteral("cli.skynnet"));
        QVERIFY(QFile::copy(project, byCli));
        const CliRun cli = runCli({"train", "--project", byCli, "--quiet", "--threads", "1"});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        const ProjectData cliProject = loadProject(byCli.toStdString());
        compareModels(*app, lastResults(cliProject), "the CLI's run differs from the app's");

#ifndef SKYNNET_TEST_HAVE_MPI
        SKIP_UNLESS_CI("this build has no MPI backend (install libopenmpi-dev openmpi-bin and configure again)");
#else
        if (const QString why = mpiUnavailable(); !why.isEmpty()) SKIP_UNLESS_CI(qPrintable(why));
        const QString byMpi = dir.filePath(QStringLiteral("mpi.skynnet"));
        QVERIFY(QFile::copy(project, byMpi));
        const CliRun mpi = runMpirun(
            {"-np", "3", QStringLiteral(SKYNNET_CLI_PATH), "train", "--project", byMpi, "--quiet", "--backend", "mpi"});
        QVERIFY2(mpi.exitCode == 0, qPrintable(mpi.err));
        compareModels(*app, lastResults(loadProject(byMpi.toStdString())), "the MPI run differs from the app's");
#endif
    }
};

QTEST_GUILESS_MAIN(TestOneRun)
#include "tst_one_run.moc"
