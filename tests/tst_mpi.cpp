// The MPI backend, run as users run it: mpirun starting skynnet-cli on this machine. The combined
// model of `--backend mpi` must equal the thread backend's bit for bit (same build, same options),
// every submodel must have trained on a worker rank, and a job the workers cannot run (another
// build, other data) or a launch without mpirun is refused with a message naming the culprit.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <netdb.h>
#include <unistd.h>

#include <cstring>

#include "cli_support.h"
#include "core/rng.h"
#include "split/combined_model_file.h"
#include "split/worker_pool.h"
#include "test_support.h"

namespace {

const QString blobs10 = "builtin:blobs:classes=10:features=8";
// Class groups N=3 (groups of 4, 3 and 3 classes): three submodels, small enough for a busy machine.
const QStringList splitRun = {"train", "--data", blobs10, "--layers", "dense:32:relu,dense:32:relu", "--submodels",
                              "3", "--epochs", "20", "--batch", "16", "--seed", "5"};

bool hostResolves(const std::string& host) {
    addrinfo* found = nullptr;
    const bool ok = getaddrinfo(host.c_str(), nullptr, nullptr, &found) == 0;
    if (found) freeaddrinfo(found);
    return ok;
}

// mpirun [--allow-run-as-root] --oversubscribe -np K <arguments>, waited for.
CliRun runMpirun(const QStringList& arguments, int timeoutMs = 300000) {
    QStringList args;
    if (geteuid() == 0) args << "--allow-run-as-root";
    args << "--oversubscribe" << arguments;
    QProcess p;
    p.start("mpirun", args);
    CliRun r;
    if (!p.waitForStarted() || !p.waitForFinished(hangGuardMs(timeoutMs))) {
        p.kill();
        p.waitForFinished();
        r.err = "did not finish: mpirun " + args.join(' ');
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

CliRun runMpi(int ranks, const QStringList& cliArgs) {
    return runMpirun(QStringList{"-np", QString::number(ranks), SKYNNET_CLI_PATH} + cliArgs);
}

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

void writeText(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

bool sameBits(const skynnet::Matrix& a, const skynnet::Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0;
}

}  // namespace

class TestMpi : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
#ifndef SKYNNET_HAVE_MPI
        SKIP_UNLESS_CI("this build has no MPI backend (install libopenmpi-dev openmpi-bin and configure again)");
#endif
        if (QStandardPaths::findExecutable("mpirun").isEmpty()) SKIP_UNLESS_CI("mpirun is not installed (openmpi-bin)");
        // Open MPI looks this host up; without an entry MPI_Init stalls for about 10 s per rank.
        const std::string host = skynnet::localHostName();
        if (!hostResolves(host)) {
            if (geteuid() != 0)
                QSKIP(qPrintable(QString("the host name %1 does not resolve: add '127.0.0.1 %1' to /etc/hosts (as root)")
                                     .arg(QString::fromStdString(host))));
            QFile hosts("/etc/hosts");
            QVERIFY(hosts.open(QIODevice::Append));
            hosts.write(("127.0.0.1 " + host + "\n").c_str());
        }
    }

    // Four ranks: rank 0 hands out, three workers train one submodel each. Same model as threads.
    void mpiMatchesThreads() {
        QTemporaryDir dir;
        const QString mpiModel = dir.filePath("mpi.skym"), threadModel = dir.filePath("threads.skym");
        const QString report = dir.filePath("mpi.json");
        const CliRun mpi = runMpi(4, splitRun + QStringList{"--backend", "mpi", "--save", mpiModel, "--report", report});
        QVERIFY2(mpi.exitCode == 0, qPrintable(mpi.err));
        const CliRun threads = runCli(splitRun + QStringList{"--threads", "2", "--save", threadModel});
        QVERIFY2(threads.exitCode == 0, qPrintable(threads.err));

        // Every submodel started on a worker rank, each rank on its own submodel (3 for 3).
        QSet<QString> ranks;
        const QRegularExpression started(R"(submodel (\d)/3: started on rank (\d) \((.+)\) \()");
        for (const QString& line : mpi.errLines()) {
            const auto m = started.match(line);
            if (!m.hasMatch()) continue;
            ranks << m.captured(2);
            QCOMPARE(m.captured(3), QString::fromStdString(skynnet::localHostName()));
        }
        QCOMPARE(ranks, (QSet<QString>{"1", "2", "3"}));
        QVERIFY2(mpi.out.contains("(3 submodels on 3 workers)"), qPrintable(mpi.out));

        const QJsonObject backend = readJson(report)["backend"].toObject();
        QCOMPARE(backend["name"].toString(), QString("mpi"));
        QCOMPARE(backend["ranks"].toInt(), 4);
        const QJsonArray bytes = backend["bytes_sent_per_rank"].toArray();
        QCOMPARE(bytes.size(), 4);
        // Rank 0 sent the job three times; each worker sent at least its weights.
        for (const auto& b : bytes) QVERIFY(b.toDouble() > 0);

        const skynnet::SavedCombinedModel a = skynnet::loadCombinedModel(mpiModel.toStdString());
        const skynnet::SavedCombinedModel b = skynnet::loadCombinedModel(threadModel.toStdString());
        QCOMPARE(a.submodelCount(), 3);
        QCOMPARE(b.submodelCount(), 3);
        for (int i = 0; i < 3; ++i) QVERIFY2(a.weights[std::size_t(i)] == b.weights[std::size_t(i)], qPrintable(QString::number(i)));
        skynnet::Rng rng(7);
        skynnet::Matrix x(64, a.rawColumns());
        for (Eigen::Index k = 0; k < x.size(); ++k) x.data()[k] = float(rng.uniform() * 6 - 3);
        skynnet::CombinedModel ma = skynnet::buildCombinedModel(a), mb = skynnet::buildCombinedModel(b);
        QVERIFY(sameBits(skynnet::predictRaw(ma, a, x), skynnet::predictRaw(mb, b, x)));
    }

    // More submodels than workers: the freed rank takes the next one; the model still matches.
    void fewerWorkersThanSubmodels() {
        QTemporaryDir dir;
        const CliRun mpi = runMpi(2, splitRun + QStringList{"--backend", "mpi", "--save", dir.filePath("a.skym")});
        QVERIFY2(mpi.exitCode == 0, qPrintable(mpi.err));
        QCOMPARE(mpi.err.count(QRegularExpression("started on rank 1 ")), 3);
        const CliRun threads = runCli(splitRun + QStringList{"--threads", "1", "--save", dir.filePath("b.skym")});
        QVERIFY2(threads.exitCode == 0, qPrintable(threads.err));
        const auto a = skynnet::loadCombinedModel(dir.filePath("a.skym").toStdString());
        const auto b = skynnet::loadCombinedModel(dir.filePath("b.skym").toStdString());
        QVERIFY(a.weights == b.weights);
    }

    // A worker whose data file differs from rank 0's refuses the job, naming its rank and host.
    // (MPMD launch: each rank starts in its own folder, so the same relative path holds other data.)
    void workerWithOtherDataRefuses() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("a") && QDir(dir.path()).mkpath("b"));
        QByteArray csv = "x,y,label\n";
        for (int i = 0; i < 60; ++i) csv += QByteArray::number(i % 7) + "," + QByteArray::number(i % 5) + "," + (i % 3 ? "p" : "q") + "\n";
        writeText(dir.filePath("a/d.csv"), csv);
        writeText(dir.filePath("b/d.csv"), csv + "1,1,p\n");
        const QStringList train = {SKYNNET_CLI_PATH, "train", "--data", "d.csv", "--submodels", "2", "--strategy",
                                   "data-shards", "--epochs", "2", "--backend", "mpi", "--save", dir.filePath("m.skym")};
        const CliRun r = runMpirun(QStringList{"-np", "1", "-wdir", dir.filePath("a")} + train +
                                   QStringList{":", "-np", "1", "-wdir", dir.filePath("b")} + train);
        QCOMPARE(r.exitCode, 1);
        VERIFY_CONTAINS(r.err.toStdString(), "rank 1 on host " + skynnet::localHostName() + ": the data file d.csv differs from rank 0's");
        QVERIFY(!QFile::exists(dir.filePath("m.skym")));
    }

    // A worker running another build (here: the same program with one byte appended) refuses.
    void workerWithOtherBuildRefuses() {
        QTemporaryDir dir;
        const QString other = dir.filePath("skynnet-cli-other");
        QVERIFY(QFile::copy(SKYNNET_CLI_PATH, other));
        {
            QFile f(other);
            QVERIFY(f.open(QIODevice::Append));
            f.write("x");
        }
        QVERIFY(QFile::setPermissions(other, QFile::permissions(SKYNNET_CLI_PATH)));
        const QStringList args = splitRun + QStringList{"--backend", "mpi"};
        const CliRun r = runMpirun(QStringList{"-np", "1", SKYNNET_CLI_PATH} + args + QStringList{":", "-np", "1", other} + args);
        QCOMPARE(r.exitCode, 1);
        VERIFY_CONTAINS(r.err.toStdString(), "rank 1 on host " + skynnet::localHostName() + ": runs skynnet 0.1.0 build ");
        VERIFY_CONTAINS(r.err.toStdString(), "install the same build on every machine");
    }

    void refusedWithoutLauncher() {
        const CliRun r = runCli(splitRun + QStringList{"--backend", "mpi"});
        QCOMPARE(r.exitCode, 1);
        VERIFY_CONTAINS(r.err.toStdString(), "--backend mpi must be started by an MPI launcher: mpirun -np K");
    }

    void badOptions() {
        CliRun r = runCli({"train", "--data", blobs10, "--backend", "mpi"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(), "--backend: mpi needs --submodels");
        r = runCli(splitRun + QStringList{"--backend", "cluster"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(), "--backend: expected threads or mpi, got 'cluster'");
        r = runCli(splitRun + QStringList{"--ship-data"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(), "--ship-data: needs --backend mpi");
    }
};

QTEST_GUILESS_MAIN(TestMpi)
#include "tst_mpi.moc"
