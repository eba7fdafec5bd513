// Runs in another process, as the app starts them for the machines of a hostfile: skynnet-cli's
// --progress json lines read into the session's event path (the same as in-process runs), a run
// of the real tool through QProcess (the thread backend, so it needs no MPI) giving the same
// model as the in-process run, Stop ending the whole process group, a failed run offering Resume,
// the Check button, and the project keeping the choice.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

#include "class_groups_setup.h"
#include "cli_support.h"  // SKYNNET_CLI_PATH, EnvScope
#include "process_support.h"
#include "project/project_file.h"
#include "test_support.h"
#include "ui/core/cli_training.h"
#include "ui/core/epoch_table_model.h"
#include "ui/core/host_run.h"
#include "ui/core/progress_events.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/live_chart.h"
#include "ui/widgets/run_on_panel.h"
#include "ui/widgets/train_page.h"
#include "ui/widgets/training_charts.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

const QString smallBlobs = QStringLiteral("builtin:blobs:samples=1500:classes=6:features=4:noise=0.6");
const QString slowBlobs = QStringLiteral("builtin:blobs:samples=20000:classes=6:features=32:noise=1.0");

void configure(ProjectDocument& doc, const QString& data, int epochs, const char* layers = nullptr) {
    configureClassGroups(doc, data, epochs, layers);
}

QString writeScript(const QTemporaryDir& dir, const QString& name, const QByteArray& body) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write("#!/bin/sh\n" + body);
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    return path;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The processes of group `group` that have not ended (not zombies), as "pid name", from /proc.
QStringList liveGroupMembers(pid_t group) {
    QStringList live;
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        pid.toInt(&number);
        if (!number) continue;
        const QByteArray stat = readAll(QStringLiteral("/proc/%1/stat").arg(pid));
        // "pid (name) state ppid pgrp ...": the name may hold spaces, so split after its ')'.
        const qsizetype close = stat.lastIndexOf(')');
        if (close < 0) continue;
        const QList<QByteArray> f = stat.mid(close + 2).split(' ');
        if (f.size() > 2 && f[2].toInt() == group && f[0] != "Z") live.append(pid + " " + stat.mid(0, close + 1));
    }
    return live;
}

TrainStatus statusOf(const QSignalSpy& finished) { return finished.last().at(0).value<TrainStatus>(); }

// Restores the environment variable when the test ends, however it ends.
#ifdef SKYNNET_TEST_HAVE_MPI
// The document's run started as the app starts it on a hostfile of this machine (2 slots, 3
// ranks), with the real tool: its project copy and hostfile go in `dir`.
void startOnLocalhost(TrainingSession& session, const ProjectDocument& doc, const QTemporaryDir& dir, int threads) {
    const QString copy = dir.filePath("run.skynnet"), hostfile = dir.filePath("hosts");
    writeProjectCopy(copy, doc, session);
    QFile h(hostfile);
    QVERIFY(h.open(QIODevice::WriteOnly));
    h.write("localhost slots=2\n");
    h.close();
    const EnvScope cli("SKYNNET_CLI", SKYNNET_CLI_PATH);
    const RunCommand command = hostRunCommand(copy, RunPlace{true, hostfile.toStdString(), 3}, threads, false);
    session.startCommand(command.program, command.arguments, copy);
}
#endif

}  // namespace

class TestHostRun : public QObject {
    Q_OBJECT

private slots:
    void readerFeedsTheEventBuffer() {
        RunEventBuffer buffer(2);
        ProgressEventReader reader(buffer, 2);
        reader.feed(
            R"({"event":"plan","submodels":2,"roles":["a","b"],"epochs":1,"baseline":true,"baseline_epochs":1})");
        reader.feed(R"({"event":"started","model":"submodel","submodel":2,"rank":3,"host":"node2","threads":4})");
        reader.feed(R"({"event":"batch","model":"submodel","submodel":2,"epoch":1,"batch":5,"batches":9,"loss":0.75})");
        reader.feed(
            R"({"event":"epoch","model":"submodel","submodel":2,"epoch":1,"loss":0.5,"metric":0.8,"hasValidation":true,)"
            R"("validationLoss":0.6,"validationMetric":0.7,"seconds":1.5,"samplesPerSecond":100,"learningRate":0.001})");
        reader.feed(
            R"({"event":"resources","model":"submodel","submodel":2,"rank":3,"host":"node2","elapsedSeconds":2,)"
            R"("cpuSeconds":1.25,"modelBytes":1000,"dataBytes":500,"processResidentBytes":9000})");
        reader.feed(
            R"({"event":"finished","model":"submodel","submodel":2,"status":"completed","error":"","epochs_run":1,)"
            R"("wall_seconds":2.5,"cpu_seconds":2})");
        reader.feed(
            R"({"event":"epoch","model":"baseline","submodel":0,"epoch":1,"loss":0.4,"metric":0.9,"hasValidation":false,)"
            R"("validationLoss":0,"validationMetric":0,"seconds":1,"samplesPerSecond":10,"learningRate":0.001})");
        reader.feed(
            R"({"event":"finished","model":"baseline","submodel":0,"status":"failed","error":"diverged","epochs_run":1,)"
            R"("wall_seconds":1,"cpu_seconds":1})");
        reader.feed(
            R"({"event":"epoch","model":"submodel","submodel":3,"epoch":1,"loss":0.5,"metric":0.8,"hasValidation":false,)"
            R"("validationLoss":0,"validationMetric":0,"seconds":1,"samplesPerSecond":1,"learningRate":0.001})");
        reader.feed("Warning: Permanently added 'node2' to the list of known hosts.\n");
        reader.feed(R"({"event":"batch","model":"submodel"})");
        reader.feed(R"({"event":"error","message":"rank 3 on node2 died"})");
        reader.feed(R"({"event":"result","model":"combined","test_accuracy":0.9})");

        QCOMPARE(reader.events(), 11);  // the text line and the broken batch event are not; the dropped one is
        QCOMPARE(reader.error(), QStringLiteral("rank 3 on node2 died"));
        QVERIFY(reader.result());
        QCOMPARE(reader.result()->model, std::string("combined"));
        QCOMPARE(reader.result()->details.at("test_accuracy").get<double>(), 0.9);

        CollectedEvents c = buffer.take();
        QVERIFY(c.submodels[0].empty());
        const ModelUpdate& s = c.submodels[1];
        QVERIFY(s.place);
        QCOMPARE(s.place->rank, 3);
        QCOMPARE(s.place->host, std::string("node2"));
        QCOMPARE(s.place->kernelThreads, 4);
        QVERIFY(s.lastBatch);
        QCOMPARE(s.lastBatch->batch, 5);
        QCOMPARE(s.lastBatch->loss, 0.75);
        QCOMPARE(int(s.epochs.size()), 1);
        QCOMPARE(s.epochs[0].validationMetric, 0.7);
        QCOMPARE(int(s.resources.size()), 1);
        QCOMPARE(s.resources[0].cpuSeconds, 1.25);
        QCOMPARE(s.resources[0].dataBytes, std::int64_t(500));
        QCOMPARE(s.finished, std::optional<TrainStatus>(TrainStatus::Completed));
        QCOMPARE(int(c.baseline.epochs.size()), 1);
        QCOMPARE(c.baseline.finished, std::optional<TrainStatus>(TrainStatus::Failed));
        const QString log = c.log.join('\n');
        QVERIFY2(log.contains("submodel 2: completed after 1 epoch(s) in 2.50 s"), qPrintable(log));
        QVERIFY2(log.contains("baseline: failed: diverged"), qPrintable(log));
        QVERIFY2(log.contains("dropped a progress event of submodel 3 (the plan has 2)"), qPrintable(log));
        QVERIFY2(log.contains("Permanently added 'node2'"), qPrintable(log));
        QVERIFY2(log.contains("unreadable progress line"), qPrintable(log));
    }

    // The tool trains the project copy in its own process; the session shows it like its own run
    // and ends with the same model the in-process run trains (one build, same seeds).
    void toolRunMatchesTheInProcessRun() {
        ProjectDocument doc;
        configure(doc, smallBlobs, 4);
        TrainingSession session(&doc);
        EpochTableModel epochs(&session);
        QSignalSpy finished(&session, &TrainingSession::finished);
        QSignalSpy progress(&session, &TrainingSession::progress);
        session.start();
        QVERIFY(finished.wait(hangGuardMs(60000)));
        QCOMPARE(statusOf(finished), TrainStatus::Completed);
        QCOMPARE(epochs.data(epochs.index(0, EpochTableModel::Model)).toString(), QStringLiteral("submodel 1"));
        const auto inProcess = session.results();
        QVERIFY(inProcess);
        QVERIFY(!session.runsInAnotherProcess());
        QCOMPARE(session.submodelHost(0), QString());

        QTemporaryDir dir;
        const QString copy = dir.filePath("run.skynnet");
        writeProjectCopy(copy, doc, session);
        QVERIFY(loadProject(copy.toStdString()).runs.empty());
        const int progressBefore = int(progress.count());
        const EnvScope cli("SKYNNET_CLI", SKYNNET_CLI_PATH);
        const RunCommand command = hostRunCommand(copy, RunPlace{}, 2, false);
        QCOMPARE(command.program, QStringLiteral(SKYNNET_CLI_PATH));
        QCOMPARE(command.arguments, (QStringList{"train", "--project", copy, "--progress", "json", "--threads", "2"}));
        session.startCommand(command.program, command.arguments, copy);
        QVERIFY(session.running());
        QVERIFY(session.runsInAnotherProcess());
        QVERIFY(finished.wait(hangGuardMs(120000)));
        QCOMPARE(statusOf(finished), TrainStatus::Completed);
        QVERIFY(progress.count() > progressBefore);

        const auto plan = session.plan();
        for (int i = 0; i < plan->submodelCount(); ++i) {
            const ModelHistory& h = session.submodels()[std::size_t(i)];
            QCOMPARE(int(h.epochs.size()), plan->effectiveEpochs);
            QVERIFY(h.finished);
            QVERIFY(!h.resources.empty());
            QCOMPARE(session.submodelHost(i), QString::fromStdString(localHostName()));
            const int row = i * plan->effectiveEpochs;  // the submodels' epochs first, in plan order
            QCOMPARE(epochs.data(epochs.index(row, EpochTableModel::Model)).toString(),
                     QStringLiteral("submodel %1 on %2").arg(i + 1).arg(QString::fromStdString(localHostName())));
            // The curves the tool reported are the ones the in-process run drew.
            QCOMPARE(h.epochs.back().loss, inProcess->submodels[std::size_t(i)].history.back().loss);
        }
        QCOMPARE(int(session.baseline().epochs.size()), plan->epochs);
        const auto tool = session.results();
        QVERIFY(tool);
        QVERIFY(tool->model);
        QCOMPARE(tool->combinedMetric, inProcess->combinedMetric);
        QCOMPARE(tool->baselineMetric, inProcess->baselineMetric);
        QCOMPARE(tool->combinedTestOutput, inProcess->combinedTestOutput);
        QVERIFY(session.lastMessage().contains("combined accuracy"));
    }

    // Stop ends the whole group: the tool, and a child it left running (as mpirun's would be).
    void stopEndsTheProcessGroup() {
        ProjectDocument doc;
        configure(doc, slowBlobs, 40, "dense:256:relu,dense:256:relu");
        TrainingSession dummy(&doc);
        QTemporaryDir dir;
        const QString copy = dir.filePath("run.skynnet");
        writeProjectCopy(copy, doc, dummy);
        const QString script = writeScript(dir, "launcher.sh", "sleep 300 &\nexec \"$@\"\n");

        RunEventBuffer buffer(doc.plan().submodelCount());
        CliTraining run(buffer, doc.plan().submodelCount());
        QSignalSpy ended(&run, &CliTraining::ended);
        run.start(script, QStringList{SKYNNET_CLI_PATH} + hostRunCommand(copy, RunPlace{}, 2, false).arguments);
        const pid_t group = pid_t(run.processGroup());
        QVERIFY(group > 0);
        QCOMPARE(::getpgid(group), group);  // a group of its own, not the test's
        QVERIFY(::getpgid(group) != ::getpgrp());
        // Wait for the first batch or epoch event, so the tool is training when it is stopped.
        bool training = false;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const CollectedEvents c = buffer.take();
                for (const auto& s : c.submodels) training = training || !s.epochs.empty() || s.lastBatch;
                return training;
            }(),
            hangGuardMs(60000));
        QVERIFY(run.running());
        run.stop();
        QVERIFY(ended.wait(hangGuardMs(10000)));
        QCOMPARE(run.status(), TrainStatus::Cancelled);
        // No process of the group is left running, the sleep included (a zombie is dead: it waits for
        // whoever inherited it to reap it, here the container's init).
        QTRY_COMPARE_WITH_TIMEOUT(liveGroupMembers(group), QStringList(), hangGuardMs(5000));
    }

    // A tool killed by a signal says so, not the last line it printed (the soak's killed child
    // showed a row of the plan's table as the reason).
    void killedToolSaysItWasKilled() {
        QTemporaryDir dir;
        const QString tool = writeScript(dir, "killed-cli.sh", "echo 'submodel 3  2-5 (4)  1820' >&2\nkill -9 $$\n");
        RunEventBuffer buffer(3);
        CliTraining run(buffer, 3);
        QSignalSpy ended(&run, &CliTraining::ended);
        run.start(tool, {});
        QVERIFY(ended.wait(hangGuardMs(10000)));
        QCOMPARE(run.status(), TrainStatus::Failed);
        QCOMPARE(run.message(), tool + QStringLiteral(" was ended by a signal (killed, or it crashed)"));

        // Its own error line, printed before the signal, is kept.
        const QString erring = writeScript(dir, "erring-cli.sh",
                                           "echo 'skynnet-cli: cannot read x.csv' >&2\nkill -9 $$\n");
        CliTraining second(buffer, 3);
        QSignalSpy secondEnded(&second, &CliTraining::ended);
        second.start(erring, {});
        QVERIFY(secondEnded.wait(hangGuardMs(10000)));
        QCOMPARE(second.message(),
                 erring + QStringLiteral(" was ended by a signal (killed, or it crashed) after: cannot "
                                         "read x.csv"));
    }

    // A run on the hosts that fails shows the tool's message and offers Resume, which runs the same
    // copy again with --resume. A stand-in tool plays the launching skynnet-cli's failure (it needs
    // no MPI).
    void failedHostRunOffersResume() {
        QTemporaryDir dir;
        const QString calls = dir.filePath("calls.txt");
        const QString tool = writeScript(dir, "fake-cli.sh",
                                         "echo \"$@\" >> '" + calls.toUtf8() +
                                             "'\n"
                                             "echo "
                                             "'{\"event\":\"plan\",\"submodels\":3,\"roles\":[],\"epochs\":2,"
                                             "\"baseline\":true,\"baseline_epochs\":2}'\n"
                                             "echo "
                                             "'{\"event\":\"started\",\"model\":\"submodel\",\"submodel\":2,\"rank\":2,"
                                             "\"host\":\"node7\",\"threads\":2}'\n"
                                             "echo '{\"event\":\"error\",\"message\":\"rank 2 on node7 died while "
                                             "training submodel 2; run again with --resume\"}'\n"
                                             "echo 'skynnet-cli: rank 2 on node7 died' >&2\n"
                                             "exit 1\n");
        const QString hostfile = dir.filePath("hosts");
        QFile h(hostfile);
        QVERIFY(h.open(QIODevice::WriteOnly));
        h.write("localhost slots=4\n");
        h.close();
        const EnvScope cli("SKYNNET_CLI", tool);

        ProjectDocument doc;
        configure(doc, smallBlobs, 2);
        doc.setFilePath(dir.filePath("p.skynnet"));  // the run's copy goes beside it, where other machines can read it
        TrainingSession session(&doc);
        TrainPage page(&doc, &session, nullptr);
        RunOnPanel* panel = page.runOnPanel();
        QVERIFY(!panel->hostfileEdit()->isEnabled());
        panel->targetBox()->setCurrentIndex(1);
        QVERIFY(panel->hostfileEdit()->isEnabled());
        panel->hostfileEdit()->setText(hostfile);
        emit panel->hostfileEdit()->editingFinished();
        panel->ranksBox()->setValue(4);
        QCOMPARE(doc.trainSettings().runOn, (RunPlace{true, hostfile.toStdString(), 4}));

        QSignalSpy finished(&session, &TrainingSession::finished);
        QTest::mouseClick(page.startButton(), Qt::LeftButton);
        QVERIFY(session.running());
        QVERIFY(!page.pauseButton()->isEnabled());
        QVERIFY(!panel->targetBox()->isEnabled());
        QVERIFY(finished.wait(hangGuardMs(20000)));
        QCOMPARE(statusOf(finished), TrainStatus::Failed);
        QCOMPARE(page.errorText(), QStringLiteral("Training failed: rank 2 on node7 died while training submodel 2; "
                                                  "run again with --resume"));
        QCOMPARE(session.submodelHost(1), QStringLiteral("node7"));
        // The chart names the host the submodel ran on.
        QCOMPARE(page.charts()->lossChart()->series(1)->name(), QStringLiteral("sub 2 on node7"));
        QCOMPARE(page.charts()->memoryChart()->series(1)->name(), QStringLiteral("sub 2 on node7"));
        QCOMPARE(page.charts()->lossChart()->series(0)->name(), QStringLiteral("submodel 1"));  // it never started
        QVERIFY(page.resumeOnHostsButton()->isVisibleTo(&page));

        QTest::mouseClick(page.resumeOnHostsButton(), Qt::LeftButton);
        QVERIFY(finished.wait(hangGuardMs(20000)));
        QVERIFY(page.resumeOnHostsButton()->isVisibleTo(&page));  // it failed again, after submodel 2 started
        const QList<QByteArray> lines = readAll(calls).trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        const QByteArray first = lines[0], second = lines[1];
        // The tool starts mpirun itself, so that it can name the submodel of a rank that dies.
        QVERIFY2(first.startsWith("train --project " + dir.filePath("p.skynnet.run-").toUtf8()) &&
                     first.endsWith(" --progress json --backend mpi --hosts " + hostfile.toUtf8() + " --ranks 4"),
                 first.constData());
        QVERIFY(!first.contains("--threads"));
        QCOMPARE(second, first + " --resume");  // the same project copy, continued
    }

    // A run the tool refuses before anything trains (here: a build without MPI) shows why, and
    // offers Start again rather than Resume.
    void refusedHostRunOffersNoResume() {
        QTemporaryDir dir;
        const QString tool =
            writeScript(dir, "no-mpi.sh",
                        "echo '{\"event\":\"error\",\"message\":\"this build has no MPI backend (Open MPI was not "
                        "found at build time)\"}'\nexit 1\n");
        const QString hostfile = dir.filePath("hosts");
        QFile h(hostfile);
        QVERIFY(h.open(QIODevice::WriteOnly));
        h.write("localhost slots=2\n");
        h.close();
        const EnvScope env("SKYNNET_CLI", tool);
        ProjectDocument doc;
        configure(doc, smallBlobs, 2);
        ProjectTraining t = doc.trainSettings();
        t.runOn = RunPlace{true, hostfile.toStdString(), 3};
        doc.setTrainSettings(t);
        TrainingSession session(&doc);
        TrainPage page(&doc, &session, nullptr);
        QCOMPARE(page.runOnPanel()->place(), t.runOn);  // the page shows the project's choice
        QSignalSpy finished(&session, &TrainingSession::finished);
        page.startTraining();
        QVERIFY(finished.wait(hangGuardMs(20000)));
        QCOMPARE(statusOf(finished), TrainStatus::Failed);
        QCOMPARE(page.errorText(), QStringLiteral("Training failed: this build has no MPI backend (Open MPI was not "
                                                  "found at build time)"));
        QVERIFY(!page.resumeOnHostsButton()->isVisibleTo(&page));
        QVERIFY(page.startButton()->isEnabled());

        // A hostfile that is not there is refused before anything starts.
        t.runOn.hostfile = dir.filePath("gone").toStdString();
        doc.setTrainSettings(t);
        page.startTraining();
        QVERIFY(!session.running());
        QCOMPARE(page.errorText(), QStringLiteral("The hostfile %1 does not exist.").arg(dir.filePath("gone")));
    }

    // The whole way, where this build has the MPI backend: mpirun on this machine (a hostfile of
    // localhost), the ranks' events in the session, and the same model as the in-process run.
    void mpiRunOnLocalhostMatchesTheInProcessRun() {
#ifndef SKYNNET_TEST_HAVE_MPI
        QSKIP("this build has no MPI backend (Open MPI was not found at build time)");
#else
        ProjectDocument doc;
        configure(doc, smallBlobs, 4);
        TrainingSession session(&doc);
        QSignalSpy finished(&session, &TrainingSession::finished);
        session.start();
        QVERIFY(finished.wait(hangGuardMs(60000)));
        const auto inProcess = session.results();
        QVERIFY(inProcess);

        QTemporaryDir dir;
        startOnLocalhost(session, doc, dir, 2);
        QVERIFY(finished.wait(hangGuardMs(120000)));
        QVERIFY2(statusOf(finished) == TrainStatus::Completed, qPrintable(session.lastMessage()));
        for (int i = 0; i < session.plan()->submodelCount(); ++i) {
            QCOMPARE(session.submodelHost(i), QString::fromStdString(localHostName()));
            QCOMPARE(int(session.submodels()[std::size_t(i)].epochs.size()), session.plan()->effectiveEpochs);
        }
        const auto mpi = session.results();
        QVERIFY(mpi);
        QCOMPARE(mpi->combinedTestOutput, inProcess->combinedTestOutput);
        QCOMPARE(mpi->combinedMetric, inProcess->combinedMetric);
#endif
    }

    // A worker rank that dies in a run on the hosts: the tool that started mpirun names the rank,
    // its host and the submodel it was training, and the app shows that message and offers Resume.
    void deadRankOnTheHostsNamesItsSubmodel() {
#ifndef SKYNNET_TEST_HAVE_MPI
        QSKIP("this build has no MPI backend (Open MPI was not found at build time)");
#else
        ProjectDocument doc;
        configure(doc, slowBlobs, 3000);  // minutes if left alone
        TrainingSession session(&doc);
        QTemporaryDir dir;
        QSignalSpy finished(&session, &TrainingSession::finished);
        startOnLocalhost(session, doc, dir, 0);
        // Both workers have their first submodel.
        const auto startedCount = [&session] {
            int n = 0;
            for (int i = 0; i < 3; ++i) n += session.submodelHost(i).isEmpty() ? 0 : 1;
            return n;
        };
        QTRY_VERIFY_WITH_TIMEOUT(startedCount() == 2, hangGuardMs(60000));
        const QList<qint64> job = skynnet::test::descendantsOf(::getpid());  // the tool, mpirun, the ranks
        qint64 victim = -1;
        for (qint64 pid : job)
            if (skynnet::test::mpiRankOf(pid) == 2) victim = pid;
        QVERIFY(victim > 0);
        QVERIFY(::kill(pid_t(victim), SIGKILL) == 0);
        QVERIFY(finished.wait(hangGuardMs(60000)));
        QCOMPARE(statusOf(finished), TrainStatus::Failed);
        const QRegularExpression said(
            R"(MPI rank 2 on host (\S+) was ended by signal 9 \(Killed\) while training submodel (\d); )"
            R"(every rank of the job has ended; the submodels that finished are checkpointed in )");
        const QRegularExpressionMatch m = said.match(session.lastMessage());
        QVERIFY2(m.hasMatch(), qPrintable(session.lastMessage()));
        QCOMPARE(m.captured(1), QString::fromStdString(localHostName()));
        QVERIFY(!session.submodelHost(m.captured(2).toInt() - 1).isEmpty());  // one that had started
        // No process of the job outlives it.
        for (qint64 pid : job) QTRY_VERIFY_WITH_TIMEOUT(skynnet::test::ended(pid), hangGuardMs(10000));
#endif
    }

    void checkListsTheHostsOrShowsTheError() {
        QTemporaryDir dir;
        const QString good =
            writeScript(dir, "check-ok.sh",
                        "echo '{\"rank\":0,\"host\":\"vm\",\"cores\":2,\"version\":\"0.1.0\",\"build\":\"b1\"}'\n"
                        "echo '{\"rank\":1,\"host\":\"vm\",\"cores\":2,\"version\":\"0.1.0\",\"build\":\"b1\"}'\n"
                        "echo '{\"rank\":2,\"host\":\"node2\",\"cores\":8,\"version\":\"0.1.0\",\"build\":\"b1\"}'\n");
        const QString bad =
            writeScript(dir, "check-bad.sh",
                        "echo 'skynnet-cli: this build has no MPI backend (Open MPI was not found at build time)' >&2\n"
                        "exit 1\n");
        RunOnPanel panel;
        panel.setPlace(RunPlace{true, "/some/hosts", 3});
        {
            const EnvScope env("SKYNNET_CLI", good);
            QSignalSpy done(&panel, &RunOnPanel::checkFinished);
            QTest::mouseClick(panel.checkButton(), Qt::LeftButton);
            QVERIFY(done.wait(hangGuardMs(20000)));
            QCOMPARE(panel.checkResult()->text(),
                     QStringLiteral("vm: ranks 0, 1, 2 core(s)\nnode2: rank 2, 8 core(s)"));
        }
        {
            const EnvScope env("SKYNNET_CLI", bad);
            QSignalSpy done(&panel, &RunOnPanel::checkFinished);
            QTest::mouseClick(panel.checkButton(), Qt::LeftButton);
            QVERIFY(done.wait(hangGuardMs(20000)));
            QCOMPARE(panel.checkResult()->text(), QStringLiteral("Check failed: this build has no MPI backend (Open "
                                                                 "MPI was not found at build time)"));
        }
        {
            const EnvScope env("SKYNNET_CLI", dir.filePath("no-such-tool"));
            QSignalSpy done(&panel, &RunOnPanel::checkFinished);
            QTest::mouseClick(panel.checkButton(), Qt::LeftButton);
            QVERIFY(done.wait(hangGuardMs(20000)));
            QVERIFY2(panel.checkResult()->text().startsWith("Cannot run " + dir.filePath("no-such-tool")),
                     qPrintable(panel.checkResult()->text()));
        }
        // Different builds on the ranks are pointed out.
        std::vector<RankInfo> ranks = parseMpiCheck(
            "{\"rank\":0,\"host\":\"a\",\"cores\":1,\"version\":\"0.1.0\",\"build\":\"x\"}\n"
            "{\"rank\":1,\"host\":\"b\",\"cores\":4,\"version\":\"0.1.0\",\"build\":\"y\"}\n");
        QCOMPARE(describeRanks(ranks), QStringLiteral("a: rank 0, 1 core(s)\nb: rank 1, 4 core(s)\n"
                                                      "warning: b runs version 0.1.0 build y, a runs 0.1.0 build x"));
        QCOMPARE(errorText([] {
                     parseMpiCheck("{\"rank\":0,\"host\":\"a\",\"cores\":1}\nMPI_Init failed\n");
                 }).left(24),
                 QStringLiteral("mpi-check output line 2:"));
    }

    void projectKeepsTheChoice() {
        QTemporaryDir dir;
        ProjectData p;
        p.data.train.path = "builtin:spirals";
        p.training.runOn = RunPlace{true, "/cluster/hosts", 9};
        const std::string path = dir.filePath("p.skynnet").toStdString();
        saveProject(path, p);
        QCOMPARE(loadProject(path).training.runOn, p.training.runOn);
        // A project written before the choice existed (the example as first saved) runs on this machine.
        const ProjectData old = loadProject(sourcePath("tests/fixtures/example_v1/wine-class-groups.skynnet"));
        QCOMPARE(old.training.runOn, RunPlace{});
        QVERIFY(!old.training.runOn.onHosts);
    }
};

QTEST_MAIN(TestHostRun)
#include "tst_host_run.moc"
