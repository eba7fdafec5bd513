// `--backend mpi --hosts` on a cluster of three simulated hosts (scripts/simulated-hosts.sh: network
// namespaces with their own hostnames, reached by mpirun through the script): the ranks run on
// the three hosts, the model is the thread backend's bit for bit, a worker killed on one host is
// named (rank, host, submodel) and --resume finishes the same model, and a host with other data,
// without the data, or with another build is refused by name. The hosts are removed at the end,
// and so are those of a run that was killed (the harness's own checks).
// Needs root and `ip netns`: elsewhere the test skips (fails under CI=true), as tst_mpi does
// without the MPI backend.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

#include <optional>

#include "cli_support.h"
#include "process_support.h"
#include "simulated_hosts.h"
#include "skynnet_version.h"
#include "split/combined_model_file.h"
#include "test_support.h"

namespace {

using skynnet::test::mpiRankOf;

void writeText(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// Whatever of the hosts with this prefix is left: namespaces, links, /etc/hosts lines.
QStringList leftoversOf(const QString& prefix) {
    QStringList left;
    const QRegularExpression named("^" + prefix + "-(h\\d+|br)\\b");
    for (const QString& line : runProcess("ip", {"netns", "list"}, 30000).out.split('\n', Qt::SkipEmptyParts))
        if (line.contains(named)) left << "namespace " + line;
    for (const QString& line : runProcess("ip", {"-br", "link"}, 30000).out.split('\n', Qt::SkipEmptyParts))
        if (line.contains(named)) left << "link " + line;
    QFile hosts("/etc/hosts");
    if (hosts.open(QIODevice::ReadOnly))
        for (const QString& line : QString::fromUtf8(hosts.readAll()).split('\n'))
            if (line.endsWith("# simhosts " + prefix)) left << "/etc/hosts: " + line;
    return left;
}

// "submodel S/3: started on rank R (HOST, ...": host by submodel, and rank by submodel.
struct Starts {
    QMap<int, QString> host;
    QMap<int, int> rank;
};
Starts startsIn(const QString& err) {
    Starts s;
    const QRegularExpression started(R"(submodel (\d+)/\d+: started on rank (\d+) \(([^,]+), )");
    for (auto it = started.globalMatch(err); it.hasNext();) {
        const auto m = it.next();
        s.host[m.captured(1).toInt()] = m.captured(3);
        s.rank[m.captured(1).toInt()] = m.captured(2).toInt();
    }
    return s;
}

// Waits until `pattern` matches the process's stderr (collected in `err`); the match.
QRegularExpressionMatch waitForMatch(QProcess& p, QString& err, const QRegularExpression& pattern, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    for (;;) {
        const auto m = pattern.match(err);
        if (m.hasMatch() || p.state() != QProcess::Running || t.elapsed() > hangGuardMs(timeoutMs)) return m;
        p.waitForReadyRead(200);
        err += QString::fromUtf8(p.readAllStandardError());
    }
}

// Three submodels of a few seconds each on a worker (long enough to kill one mid-run); the model
// does not depend on the kernel threads.
QStringList blobsRun(const QString& model, int threads = 1) {
    return {"train",
            "--data",
            "builtin:blobs:classes=10:features=8:samples=20000",
            "--layers",
            "dense:64:relu,dense:64:relu",
            "--submodels",
            "3",
            "--epochs",
            "900",
            "--seed",
            "3",
            "--threads",
            QString::number(threads),
            "--save",
            model};
}

}  // namespace

class TestMultihost : public QObject {
    Q_OBJECT

    SimulatedHosts hosts_;
    QTemporaryDir dir_;
    QString reference_;  // blobsRun's model, trained by the thread backend

    QString host(int i) const { return hosts_.hosts().at(i); }
    QStringList onHosts() const { return {"--backend", "mpi", "--hosts", hosts_.hostfile()}; }

    // The thread backend's model of blobsRun, trained once.
    const QString& reference() {
        if (reference_.isEmpty()) {
            const QString path = dir_.filePath("threads.skym");
            const CliRun r = runCli(blobsRun(path, 2), 300000);
            if (r.exitCode != 0) qFatal("%s", qPrintable(r.err));
            reference_ = path;
        }
        return reference_;
    }

private slots:
    void initTestCase() {
#if defined(SKYNNET_MPI_OFF)
        QSKIP("built without the MPI backend on purpose (SKYNNET_MPI=OFF)");
#elif !defined(SKYNNET_HAVE_MPI)
        SKIP_UNLESS_CI("this build has no MPI backend (install libopenmpi-dev openmpi-bin and configure again)");
#endif
        START_SIMULATED_HOSTS(hosts_, 3);
    }

    // Each host has its name and its own address, reaches the others, and nothing beyond: its
    // only route is the hosts' network.
    void hostsSeeOnlyTheirNetwork() {
        const CliRun name = SimulatedHosts::on(host(0), "hostname");
        QCOMPARE(name.out, host(0) + "\n");
        const CliRun routes = SimulatedHosts::on(host(0), "ip -4 route");
        const QStringList lines = routes.out.split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() == 1 && lines[0].contains(" dev eth0 ") && !lines[0].startsWith("default"),
                 qPrintable(routes.out + routes.err));
        const CliRun outside = SimulatedHosts::on(host(0), "ip route get 1.1.1.1");
        QVERIFY2(outside.exitCode != 0 && outside.err.contains("Network is unreachable"), qPrintable(outside.err));
        const CliRun peer = SimulatedHosts::on(host(0), "ip route get $(getent hosts " + host(2) + " | cut -d' ' -f1)");
        QVERIFY2(peer.exitCode == 0 && peer.out.contains(" dev eth0 "), qPrintable(peer.out + peer.err));
    }

    // mpi-check lists a rank per slot on every host, plus rank 0 (on the first), all one build;
    // training places a submodel on each host and gives the thread backend's model bit for bit.
    void trainingOnTheHostsMatchesThreads() {
        const CliRun check = runCli({"mpi-check", "--hosts", hosts_.hostfile(), "--json"});
        QVERIFY2(check.exitCode == 0, qPrintable(check.err));
        QMap<int, QString> hostOfRank;
        QSet<QString> builds;
        for (const QString& line : check.out.split('\n', Qt::SkipEmptyParts)) {
            const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
            hostOfRank[o["rank"].toInt()] = o["host"].toString();
            builds << o["build"].toString();
        }
        QCOMPARE(hostOfRank.size(), 4);
        QCOMPARE(hostOfRank[0], host(0));
        QCOMPARE(QSet<QString>(hostOfRank.begin(), hostOfRank.end()),
                 QSet<QString>(hosts_.hosts().begin(), hosts_.hosts().end()));
        QCOMPARE(builds.size(), 1);

        const QString model = dir_.filePath("hosts.skym");
        const CliRun mpi = runCli(blobsRun(model) + onHosts(), 300000);
        QVERIFY2(mpi.exitCode == 0, qPrintable(mpi.err));
        const Starts starts = startsIn(mpi.err);
        QCOMPARE(starts.host.keys(), (QList<int>{1, 2, 3}));
        QCOMPARE(QSet<QString>(starts.host.begin(), starts.host.end()),
                 QSet<QString>(hosts_.hosts().begin(), hosts_.hosts().end()));
        for (int s : starts.rank.keys()) QCOMPARE(starts.host[s], hostOfRank[starts.rank[s]]);

        const auto a = skynnet::loadCombinedModel(model.toStdString());
        const auto b = skynnet::loadCombinedModel(reference().toStdString());
        QCOMPARE(a.submodelCount(), 3);
        QVERIFY(a.weights == b.weights);
    }

    // The worker on the third host is killed mid-run: the job ends, naming its rank, host and
    // submodel; --resume trains what is missing and ends with the uninterrupted model.
    void workerKilledOnAHostIsNamedAndResumes() {
        const QString model = dir_.filePath("killed.skym");
        const QStringList run = blobsRun(model) + onHosts();
        QProcess launcher;
        launcher.start(SKYNNET_CLI_PATH, run);
        QVERIFY(launcher.waitForStarted());
        // If a check fails, the job is ended as Ctrl-C would (the launcher passes it on to mpirun).
        const auto stop = qScopeGuard([&launcher] {
            if (launcher.state() == QProcess::NotRunning) return;
            launcher.terminate();
            launcher.waitForFinished(hangGuardMs(30000));
        });
        QString err;
        const QRegularExpression onThird("submodel (\\d)/3: started on rank (\\d) \\(" + host(2) + ", ");
        const auto started = waitForMatch(launcher, err, onThird, 120000);
        QVERIFY2(started.hasMatch(), qPrintable(err));
        const QString submodel = started.captured(1);
        const int rank = started.captured(2).toInt();
        // Killed after a few epochs, once its worker has saved an epoch state to continue from.
        const QRegularExpression third("submodel " + submodel + "/3: epoch +3/");
        QVERIFY2(waitForMatch(launcher, err, third, 120000).hasMatch(), qPrintable(err));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(model + ".checkpoint/submodel-" + submodel + ".ckpt"),
                                 hangGuardMs(60000));
        qint64 victim = -1;
        for (qint64 pid : SimulatedHosts::processesOn(host(2)))
            if (mpiRankOf(pid) == rank) victim = pid;
        QVERIFY2(victim > 0, qPrintable(err));
        QVERIFY(::kill(pid_t(victim), SIGKILL) == 0);
        QVERIFY(launcher.waitForFinished(hangGuardMs(60000)));
        err += QString::fromUtf8(launcher.readAllStandardError());
        QCOMPARE(launcher.exitCode(), 1);
        VERIFY_CONTAINS(err.toStdString(), QString("skynnet-cli: MPI rank %1 on host %2 was ended by signal 9 (Killed) "
                                                   "while training submodel %3; every rank of the job has ended")
                                               .arg(rank)
                                               .arg(host(2), submodel)
                                               .toStdString());
        QVERIFY(!QFile::exists(model));
        // Nothing of the job is left on any host (mpirun may exit while the ranks it ended are on their way out).
        for (const QString& h : hosts_.hosts())
            QTRY_VERIFY_WITH_TIMEOUT(SimulatedHosts::processesOn(h).isEmpty(), hangGuardMs(10000));

        const CliRun resumed = runCli(run + QStringList{"--resume"}, 300000);
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        VERIFY_CONTAINS(resumed.err.toStdString(), "resuming from " + model.toStdString() + ".checkpoint: ");
        QVERIFY(skynnet::loadCombinedModel(model.toStdString()).weights ==
                skynnet::loadCombinedModel(reference().toStdString()).weights);
    }

    // The third host sees another file at the data's path (a bind mount in its mount namespace):
    // its rank refuses the job, naming itself and its host. Without the file there it says so;
    // with --ship-data rank 0 sends the rows and the model is the thread backend's.
    void hostWithOtherOrNoDataFile() {
        QVERIFY(QDir(dir_.path()).mkpath("data") && QDir(dir_.path()).mkpath("empty"));
        QByteArray csv = "x,y,z,label\n";
        for (int i = 0; i < 300; ++i)
            csv += QByteArray::number((i * 37) % 101) + "," + QByteArray::number((i * 53) % 89) + "," +
                   QByteArray::number(i % 13) + "," + "abcd"[i % 4] + "\n";
        const QString data = dir_.filePath("data/d.csv"), other = dir_.filePath("other.csv");
        writeText(data, csv);
        writeText(other, csv + "1,2,3,a\n");
        const QStringList train = {"train",       "--data",    data,       "--layers", "dense:16:relu",
                                   "--submodels", "3",         "--epochs", "6",        "--seed",
                                   "2",           "--threads", "1"};
        const QString third = host(2);
        const auto rankOnThird = QString(R"(rank (\d) on host %1: )").arg(QRegularExpression::escape(third));

        CliRun bound = SimulatedHosts::bind(third, other, data);
        QVERIFY2(bound.exitCode == 0, qPrintable(bound.err));
        const CliRun differs = runCli(train + onHosts(), 300000);
        QCOMPARE(differs.exitCode, 1);
        QVERIFY2(differs.err.contains(QRegularExpression(rankOnThird + "the data file " +
                                                         QRegularExpression::escape(data) + " differs from rank 0's")),
                 qPrintable(differs.err));
        QVERIFY(SimulatedHosts::unbind(third).exitCode == 0);

        bound = SimulatedHosts::bind(third, dir_.filePath("empty"), dir_.filePath("data"));
        QVERIFY2(bound.exitCode == 0, qPrintable(bound.err));
        const CliRun missing = runCli(train + onHosts(), 300000);
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QRegularExpression(rankOnThird +
                                                         ".*d\\.csv does not exist \\(every rank reads "
                                                         "the data from the same path; or use --ship-data\\)")),
                 qPrintable(missing.err));
        const QString shipped = dir_.filePath("shipped.skym"), threads = dir_.filePath("csv-threads.skym");
        const CliRun ship = runCli(train + onHosts() + QStringList{"--ship-data", "--save", shipped}, 300000);
        QVERIFY(SimulatedHosts::unbind(third).exitCode == 0);
        QVERIFY2(ship.exitCode == 0, qPrintable(ship.err));
        QVERIFY2(startsIn(ship.err).host.values().contains(third), qPrintable(ship.err));
        const CliRun local = runCli(train + QStringList{"--save", threads});
        QVERIFY2(local.exitCode == 0, qPrintable(local.err));
        QVERIFY(skynnet::loadCombinedModel(shipped.toStdString()).weights ==
                skynnet::loadCombinedModel(threads.toStdString()).weights);
    }

    // The second host runs another build of skynnet-cli at the same path (the program with one
    // byte more, bind-mounted there): mpi-check shows its build apart, and a training is refused
    // by that host's rank, naming it.
    void hostWithAnotherBuildIsRefused() {
        const QString other = dir_.filePath("skynnet-cli-other");
        QVERIFY(writeAnotherBuild(other));
        const QString second = host(1);
        const CliRun bound = SimulatedHosts::bind(second, other, SKYNNET_CLI_PATH);
        QVERIFY2(bound.exitCode == 0, qPrintable(bound.err));

        const CliRun check = runCli({"mpi-check", "--hosts", hosts_.hostfile(), "--json"});
        const CliRun r = runCli(QStringList{"train", "--data", "builtin:blobs:classes=10:features=8", "--submodels",
                                            "3", "--epochs", "2", "--threads", "1"} +
                                onHosts());
        QVERIFY(SimulatedHosts::unbind(second).exitCode == 0);

        QVERIFY2(check.exitCode == 0, qPrintable(check.err));
        QMap<QString, QSet<QString>> buildsOfHost;
        for (const QString& line : check.out.split('\n', Qt::SkipEmptyParts)) {
            const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
            buildsOfHost[o["host"].toString()] << o["build"].toString();
        }
        QCOMPARE(buildsOfHost.size(), 3);
        QCOMPARE(buildsOfHost[second].size(), 1);
        QVERIFY(!buildsOfHost[host(0)].contains(*buildsOfHost[second].begin()));

        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QRegularExpression(QString(R"(rank \d on host %1: runs skynnet %2 build \w+, rank 0 )")
                                                       .arg(QRegularExpression::escape(second),
                                                            QRegularExpression::escape(skynnet::skynnetVersion)))),
                 qPrintable(r.err));
        VERIFY_CONTAINS(r.err.toStdString(), "install the same build on every machine");
    }

    // The harness itself: a command that fails still has its hosts removed, and the hosts of a
    // run killed outright (SIGKILL: no trap runs) are removed by the next one (reap) while hosts
    // whose owner lives (this test's) stay.
    void harnessRemovesHostsAfterFailureAndKill() {
        const CliRun failed = runProcess("bash",
                                         {SimulatedHosts::script(), "run", "2", "--", "sh", "-c",
                                          "echo $SIMHOSTS_PREFIX; exit 3"},
                                         60000);
        QCOMPARE(failed.exitCode, 3);
        const QString prefix = failed.out.trimmed();
        QVERIFY2(prefix.startsWith("sim") && prefix != hosts_.prefix(), qPrintable(failed.out + failed.err));
        QCOMPARE(leftoversOf(prefix), QStringList());

        const CliRun killed = runProcess("bash",
                                         {SimulatedHosts::script(), "run", "2", "--", "sh", "-c",
                                          "echo $SIMHOSTS_PREFIX; kill -9 $PPID"},
                                         60000);
        QCOMPARE(killed.exitCode, -1);  // crashed: SIGKILL
        const QString stale = killed.out.trimmed();
        QVERIFY2(stale.startsWith("sim"), qPrintable(killed.out + killed.err));
        QVERIFY(!leftoversOf(stale).isEmpty());
        const CliRun reaped = runProcess("bash", {SimulatedHosts::script(), "reap"}, 60000);
        QVERIFY2(reaped.exitCode == 0, qPrintable(reaped.err));
        VERIFY_CONTAINS(reaped.err.toStdString(), "removing " + stale.toStdString() + ", left by a run");
        QCOMPARE(leftoversOf(stale), QStringList());
        QCOMPARE(leftoversOf(hosts_.prefix()).size(), 3 + 3 + 1 + 3);  // namespaces, veths, bridge, names
    }

    // Once the harness is told to end, nothing of the hosts is left.
    void cleanupTestCase() {
        if (hosts_.prefix().isEmpty()) return;
        const QString prefix = hosts_.prefix();
        const QString stopped = hosts_.stop();
        QVERIFY2(stopped.isEmpty(), qPrintable(stopped));
        QCOMPARE(leftoversOf(prefix), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestMultihost)
#include "tst_multihost.moc"
