// The desktop application's command-line options, run as a user runs them: the real `skynnet`
// binary, offscreen. A bad option is a message and exit code 2 before any window opens; the
// design options shape what trains, --save-project keeps the run, and a positional FILE opens a
// dataset or a project.
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "project/project_file.h"
#include "spec/network_spec.h"

using namespace skynnet;

namespace {

struct Run {
    int exitCode = -1;
    QString err;
};

Run runApp(const QStringList& args, int timeoutMs = 120000) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SKYNNET_GUI_PATH), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-2, QStringLiteral("timed out")};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3, QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace

class TestAppOptions : public QObject {
    Q_OBJECT

private slots:
    void badOptionsAreRefusedBeforeAnyWindow() {
        const Run layers = runApp({QStringLiteral("--layers"), QStringLiteral("dense:many:relu")});
        QCOMPARE(layers.exitCode, 2);
        QVERIFY2(layers.err.contains(QStringLiteral("skynnet: --layers:")), qPrintable(layers.err));

        const Run epochs = runApp({QStringLiteral("--epochs"), QStringLiteral("zero")});
        QCOMPARE(epochs.exitCode, 2);
        QVERIFY2(epochs.err.contains(QStringLiteral("--epochs must be a whole number of at least 1, not 'zero'")),
                 qPrintable(epochs.err));

        const Run size = runApp({QStringLiteral("--screenshot-size"), QStringLiteral("800by600")});
        QCOMPARE(size.exitCode, 2);
        QVERIFY2(size.err.contains(QStringLiteral("--screenshot-size must be WIDTHxHEIGHT")), qPrintable(size.err));

        // --task: a task's name, for the --data file.
        const Run alone = runApp({QStringLiteral("--task"), QStringLiteral("reconstruction")});
        QCOMPARE(alone.exitCode, 2);
        QVERIFY2(alone.err.contains(QStringLiteral("skynnet: --task needs --data")), qPrintable(alone.err));
        const Run task = runApp({QStringLiteral("--data"), QStringLiteral("builtin:blobs"), QStringLiteral("--task"),
                                 QStringLiteral("autoencode")});
        QCOMPARE(task.exitCode, 2);
        QVERIFY2(task.err.contains(QStringLiteral("skynnet: --task: ")) &&
                     task.err.contains(QStringLiteral("autoencode")),
                 qPrintable(task.err));

        QTemporaryDir dir;
        const Run open = runApp({QStringLiteral("--open"), dir.filePath(QStringLiteral("missing.skynnet"))});
        QCOMPARE(open.exitCode, 2);
        QVERIFY2(open.err.contains(QStringLiteral("--open: no project file at")), qPrintable(open.err));

        // `skynnet FILE`: one file, one that exists, and not together with another thing to open.
        const Run missing = runApp({dir.filePath(QStringLiteral("missing.csv"))});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains(QStringLiteral("skynnet: no such file or folder: ") +
                                      dir.filePath(QStringLiteral("missing.csv"))),
                 qPrintable(missing.err));
        const Run two = runApp({QStringLiteral("builtin:blobs"), QStringLiteral("builtin:spirals")});
        QCOMPARE(two.exitCode, 2);
        QVERIFY2(two.err.contains(QStringLiteral("give one FILE to open, not 2")), qPrintable(two.err));
        const Run both = runApp({QStringLiteral("builtin:blobs"), QStringLiteral("--example"), QStringLiteral("iris")});
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains(QStringLiteral("give only one thing to open")), qPrintable(both.err));
    }

    // `skynnet FILE` opens a dataset, and `skynnet PROJECT.skynnet` that project (not the example):
    // the tour trains what was opened, and the saved projects say so.
    void positionalFileOpensDataOrProject() {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("flowers.csv"));
        QVERIFY(QFile::copy(QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/iris.csv"), csv));
        const QString first = dir.filePath(QStringLiteral("first.skynnet"));
        const Run data = runApp({csv, QStringLiteral("--epochs"), QStringLiteral("2"), QStringLiteral("--screenshots"),
                                 dir.filePath(QStringLiteral("shots1")), QStringLiteral("--save-project"), first});
        QVERIFY2(data.exitCode == 0, qPrintable(data.err));
        const ProjectData one = loadProject(first.toStdString());
        QCOMPARE(QString::fromStdString(one.data.train.path), csv);
        QCOMPARE(one.runs.size(), std::size_t(1));

        const QString second = dir.filePath(QStringLiteral("second.skynnet"));
        const Run project = runApp({first, QStringLiteral("--screenshots"), dir.filePath(QStringLiteral("shots2")),
                                    QStringLiteral("--save-project"), second});
        QVERIFY2(project.exitCode == 0, qPrintable(project.err));
        const ProjectData two = loadProject(second.toStdString());
        QCOMPARE(QString::fromStdString(two.data.train.path), csv);
        QCOMPARE(two.training.config.epochs, 2);  // the first project's settings, not an example's
        QVERIFY(two.runs.size() >= 2);            // its run, and the tour's
        QCOMPARE(two.runs.back().status, TrainStatus::Completed);
    }

    // The tour trains what the options designed, saves PNGs of the asked size and the project.
    void designedRunIsSavedAsAProject() {
        QTemporaryDir dir;
        const QString shots = dir.filePath(QStringLiteral("shots")),
                      project = dir.filePath(QStringLiteral("run.skynnet"));
        const Run run = runApp({QStringLiteral("--data"), QStringLiteral("builtin:blobs"), QStringLiteral("--layers"),
                                QStringLiteral("dense:12:tanh,dense:6:relu"), QStringLiteral("--epochs"),
                                QStringLiteral("3"), QStringLiteral("--screenshots"), shots,
                                QStringLiteral("--screenshot-size"), QStringLiteral("1200x760"),
                                QStringLiteral("--save-project"), project});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));

        const QStringList pngs = QDir(shots).entryList({QStringLiteral("*.png")}, QDir::Files);
        QVERIFY2(pngs.size() >= 3, qPrintable(pngs.join(QLatin1Char(' '))));
        for (const QString& png : pngs) QCOMPARE(QImage(QDir(shots).filePath(png)).size(), QSize(1200, 760));

        const ProjectData saved = loadProject(project.toStdString());
        QCOMPARE(saved.data.train.path, std::string("builtin:blobs"));
        QVERIFY(saved.network.layers == parseLayers("dense:12:tanh,dense:6:relu"));
        QCOMPARE(saved.training.config.epochs, 3);
        QVERIFY(!saved.runs.empty());
        const ProjectRun& last = saved.runs.back();
        QCOMPARE(last.status, TrainStatus::Completed);
        QVERIFY(last.results.has_value());
        // Every submodel trained the plan's epochs (the split may scale the 3 asked for).
        for (const ModelHistory& h : last.submodels) QCOMPARE(int(h.epochs.size()), last.plan.effectiveEpochs);
    }
};

QTEST_GUILESS_MAIN(TestAppOptions)
#include "tst_app_options.moc"
