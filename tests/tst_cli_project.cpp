// `skynnet-cli train --project`: the desktop app's project trained on the command line, its run
// saved into the project file as the app saves one (results, combined model, baseline weights),
// and a damaged project or a missing data file leaving the project file untouched.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "cli_support.h"
#include "data/data_source.h"
#include "data/splits.h"
#include "project/project_file.h"
#include "split/combined_model_file.h"
#include "test_support.h"
#include "train/metrics.h"

using namespace skynnet;

namespace {

using Run = CliRun;

QByteArray readBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The project's layout: <dir>/projects/wine-class-groups.skynnet finds ../datasets/wine.csv.
QString copyExample(const QTemporaryDir& dir) {
    QDir(dir.path()).mkpath("projects");
    QDir(dir.path()).mkpath("datasets");
    const QString project = dir.filePath("projects/wine-class-groups.skynnet");
    QFile::copy(QString::fromStdString(sourcePath("resources/projects/wine-class-groups.skynnet")), project);
    QFile::copy(QString::fromStdString(sourcePath("resources/datasets/wine.csv")), dir.filePath("datasets/wine.csv"));
    return project;
}

}  // namespace

class TestCliProject : public QObject {
    Q_OBJECT

private slots:
    void trainsProjectAndSavesRun() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString project = copyExample(dir);
        const ProjectData before = loadProject(project.toStdString());
        const QString report = dir.filePath("run.json");

        const Run r = runCli({"train", "--project", project, "--threads", "2", "--report", report});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("combined accuracy"));
        QVERIFY(r.out.contains("saved to"));
        QVERIFY(r.err.contains("submodel"));  // progress on stderr

        const ProjectData after = loadProject(project.toStdString());
        QCOMPARE(after.runs.size(), before.runs.size() + 1);
        QVERIFY(after.data == before.data);
        const ProjectRun& run = after.runs.back();
        QCOMPARE(run.status, TrainStatus::Completed);
        QCOMPARE(int(run.submodels.size()), run.plan.submodelCount());
        for (const ModelHistory& h : run.submodels) QVERIFY(!h.epochs.empty());
        QCOMPARE(run.baseline.has_value(), before.training.trainBaseline);
        QVERIFY(run.results);
        const ProjectResults& res = *run.results;
        QCOMPARE(QString::fromStdString(res.metricName), QString("accuracy"));
        QCOMPARE(QString::fromStdString(res.evaluatedOn), QString("test"));
        QCOMPARE(int(res.submodelMetrics.size()), run.plan.submodelCount());
        QVERIFY(res.combinedMetric > 0.8);
        QVERIFY(res.model);
        if (before.training.trainBaseline) {
            QVERIFY(res.baseline && res.baselineWeights);
            QCOMPARE(res.baselineTestOutput.rows(), Index(res.evaluatedSamples));
        }

        // The saved combined model, fed the project's test rows raw, gives the recorded figures.
        const Dataset all = loadTrainingData(after.data.trainRequest());
        const SplitIndices idx = splitIndices(all, after.data.validationFraction, after.data.testFraction,
                                              after.data.seed);
        const Dataset test = all.subset(idx.test);
        QCOMPARE(long(test.size()), res.evaluatedSamples);
        CombinedModel model = buildCombinedModel(*res.model);
        const Matrix output = model.predict(res.model->preprocessing.apply(test.features));
        QCOMPARE(output.rows(), res.combinedTestOutput.rows());
        QVERIFY((output - res.combinedTestOutput).cwiseAbs().maxCoeff() < 1e-4);
        QVERIFY(std::abs(headlineMetric(run.plan.task, output, test.targetMatrix()) - res.combinedMetric) < 1e-9);
        QVERIFY((res.testTargets - test.targetMatrix()).cwiseAbs().maxCoeff() == 0);

        QFile f(report);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject j = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(j["mode"].toString(), QString("project"));
        QVERIFY(std::abs(j["combined"].toDouble() - res.combinedMetric) < 1e-9);
    }

    void damagedProjectIsLeftAlone() {
        QTemporaryDir dir;
        const QString project = copyExample(dir);
        QByteArray bytes = readBytes(project);
        bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x5a);
        {
            QFile f(project);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        const Run r = runCli({"train", "--project", project, "--quiet"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.errLines().size(), 1);
        QVERIFY(r.err.contains("wine-class-groups.skynnet"));
        QCOMPARE(readBytes(project), bytes);
    }

    void missingDataFileIsNamed() {
        QTemporaryDir dir;
        const QString project = copyExample(dir);
        // Point the project to data that is neither beside it nor at its absolute path.
        ProjectData p = loadProject(project.toStdString());
        p.data.train.path = dir.filePath("datasets/gone.csv").toStdString();
        saveProject(project.toStdString(), p);
        const QByteArray bytes = readBytes(project);
        const Run r = runCli({"train", "--project", project, "--quiet"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.errLines().size(), 1);
        QVERIFY2(r.err.contains("gone.csv") && r.err.contains("missing"), qPrintable(r.err));
        QCOMPARE(readBytes(project), bytes);
    }

    // A project whose loss does not fit its data's task is refused as the app refuses its run.
    void lossThatDoesNotFitIsRefused() {
        QTemporaryDir dir;
        const QString project = copyExample(dir);
        ProjectData p = loadProject(project.toStdString());
        p.training.config.loss = LossKind::MeanSquaredError;  // wine is a classification task
        saveProject(project.toStdString(), p);
        const QByteArray bytes = readBytes(project);
        const Run r = runCli({"train", "--project", project, "--quiet"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.trimmed(), "skynnet-cli: " + project +
                                      ": training.config.loss: the loss mse does not fit the classification task (use "
                                      "cross_entropy)");
        QCOMPARE(readBytes(project), bytes);
    }

    void trainOptionsDoNotGoWithProject() {
        QTemporaryDir dir;
        const QString project = copyExample(dir);
        const QByteArray bytes = readBytes(project);
        const Run r = runCli({"train", "--project", project, "--layers", "dense:8:relu"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--layers"));
        QCOMPARE(runCli({"train", "--project", dir.filePath("none.skynnet")}).exitCode, 1);
        QCOMPARE(readBytes(project), bytes);
    }
};

QTEST_GUILESS_MAIN(TestCliProject)
#include "tst_cli_project.moc"
