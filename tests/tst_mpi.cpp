// The MPI backend, run as users run it: mpirun starting skynnet-cli on this machine. The combined
// model of `--backend mpi` must equal the thread backend's bit for bit (same build, same options),
// every submodel must have trained on a worker rank, and a job the workers cannot run (another
// build, other data) or a launch without mpirun is refused with a message naming the culprit.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTime>
#include <QtTest>

#include <netdb.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "cli_support.h"
#include "core/parallel.h"
#include "core/rng.h"
#include "mpi_support.h"
#include "process_support.h"
#include "skynnet_version.h"
#include "split/combined_model_file.h"
#include "split/worker_pool.h"
#include "test_support.h"

namespace {

using skynnet::test::childrenOf;
using skynnet::test::ended;
using skynnet::test::mpiRankOf;

const QString blobs10 = "builtin:blobs:classes=10:features=8";
// Class groups N=3 (groups of 4, 3 and 3 classes): three submodels, small enough for a busy machine.
const QStringList splitRun = {"train",       "--data", blobs10,    "--layers", "dense:32:relu,dense:32:relu",
                              "--submodels", "3",      "--epochs", "20",       "--batch",
                              "16",          "--seed", "5"};

CliRun runMpi(int ranks, const QStringList& cliArgs, const QStringList& environment = {}) {
    return runMpirun(QStringList{"-np", QString::number(ranks), SKYNNET_CLI_PATH} + cliArgs, 300000, environment);
}

// With SKYNNET_MPI_TRACE=1: the ranks that read their rows from rank `leader`'s shared block.
QSet<QString> ranksReadingFrom(const CliRun& r, int leader) {
    QSet<QString> ranks;
    const QRegularExpression read(
        QString(R"(mpi-trace \S+ rank (\d+) \(cpu [^)]*\): rows read from rank %1's shared block)").arg(leader));
    for (auto it = read.globalMatch(r.err); it.hasNext();) ranks << it.next().captured(1);
    return ranks;
}

// With SKYNNET_MPI_TRACE=1: the worker ranks that prepared rows of their own.
QSet<QString> ranksPreparing(const CliRun& r) {
    QSet<QString> ranks;
    const QRegularExpression prepared(R"(mpi-trace \S+ rank ([1-9]\d*) \(cpu [^)]*\): data prepared)");
    for (auto it = prepared.globalMatch(r.err); it.hasNext();) ranks << it.next().captured(1);
    return ranks;
}

void writeText(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// Waits until the process's stderr (collected in `err`) holds `text`.
bool waitForText(QProcess& p, QString& err, const QString& text, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (!err.contains(text)) {
        if (p.state() != QProcess::Running || t.elapsed() > hangGuardMs(timeoutMs)) return false;
        p.waitForReadyRead(200);
        err += QString::fromUtf8(p.readAllStandardError());
    }
    return true;
}

// Waits until `pattern` occurs `count` times in the process's stderr.
bool waitForMatches(QProcess& p, QString& err, const QRegularExpression& pattern, int count, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (err.count(pattern) < count) {
        if (p.state() != QProcess::Running || t.elapsed() > hangGuardMs(timeoutMs)) return false;
        p.waitForReadyRead(200);
        err += QString::fromUtf8(p.readAllStandardError());
    }
    return true;
}

// A run long enough to be interrupted: minutes if left alone.
const QStringList longRun = {"train",
                             "--data",
                             "builtin:blobs:classes=10:features=8:samples=20000",
                             "--layers",
                             "dense:64:relu,dense:64:relu",
                             "--submodels",
                             "3",
                             "--epochs",
                             "3000",
                             "--seed",
                             "3",
                             "--backend",
                             "mpi"};

bool sameBits(const skynnet::Matrix& a, const skynnet::Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0;
}

}  // namespace

class TestMpi : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
#if defined(SKYNNET_MPI_OFF)
        return;  // built without the backend on purpose: only backendAbsentSaysSo runs (init())
#elif !defined(SKYNNET_HAVE_MPI)
        SKIP_UNLESS_CI("this build has no MPI backend (install libopenmpi-dev openmpi-bin and configure again)");
#endif
        if (QStandardPaths::findExecutable("mpirun").isEmpty()) SKIP_UNLESS_CI("mpirun is not installed (openmpi-bin)");
        // Open MPI looks this host up; without an entry MPI_Init stalls for about 10 s per rank.
        const std::string host = skynnet::localHostName();
        if (!hostResolves(host)) {
            if (geteuid() != 0)
                QSKIP(
                    qPrintable(QString("the host name %1 does not resolve: add '127.0.0.1 %1' to /etc/hosts (as root)")
                                   .arg(QString::fromStdString(host))));
            QFile hosts("/etc/hosts");
            QVERIFY(hosts.open(QIODevice::Append));
            hosts.write(("127.0.0.1 " + host + "\n").c_str());
        }
    }

    void init() {
#ifndef SKYNNET_HAVE_MPI
        if (QByteArray(QTest::currentTestFunction()) != "backendAbsentSaysSo") QSKIP("this build has no MPI backend");
#else
        if (QByteArray(QTest::currentTestFunction()) == "backendAbsentSaysSo") QSKIP("this build has the MPI backend");
#endif
    }

    // A build without MPI (SKYNNET_MPI=OFF, or MPI not found) has no backend, and says so when it
    // is asked for: by --backend mpi, by --hosts and by mpi-check.
    void backendAbsentSaysSo() {
        const char* absent = "skynnet-cli: this build has no MPI backend (Open MPI was not found at build time)";
        CliRun r = runCli(splitRun + QStringList{"--backend", "mpi"});
        QCOMPARE(r.exitCode, 1);
        VERIFY_CONTAINS(r.err.toStdString(), absent);
        QTemporaryDir dir;
        const QString hosts = dir.filePath("hosts");
        writeText(hosts, "localhost slots=2\n");
        r = runCli(splitRun + QStringList{"--backend", "mpi", "--hosts", hosts});
        QCOMPARE(r.exitCode, 1);
        VERIFY_CONTAINS(r.err.toStdString(), absent);
        r = runCli({"mpi-check"});
        QCOMPARE(r.exitCode, 1);
        VERIFY_CONTAINS(r.err.toStdString(), absent);
        // The thread backend is all there is, and works.
        r = runCli(splitRun);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    // Four ranks: rank 0 hands out, three workers train one submodel each. Same model as threads.
    // The workers prepared no data: they read the copy rank 0 prepared, in memory they share.
    void mpiMatchesThreads() {
        QTemporaryDir dir;
        const QString mpiModel = dir.filePath("mpi.skym"), threadModel = dir.filePath("threads.skym");
        const QString report = dir.filePath("mpi.json");
        const CliRun mpi = runMpi(4, splitRun + QStringList{"--backend", "mpi", "--save", mpiModel, "--report", report},
                                  {"SKYNNET_MPI_TRACE=1"});
        QVERIFY2(mpi.exitCode == 0, qPrintable(mpi.err));
        QCOMPARE(ranksReadingFrom(mpi, 0), (QSet<QString>{"1", "2", "3"}));
        QCOMPARE(ranksPreparing(mpi), QSet<QString>());
        const CliRun threads = runCli(splitRun + QStringList{"--threads", "2", "--save", threadModel});
        QVERIFY2(threads.exitCode == 0, qPrintable(threads.err));

        // Every submodel started on a worker rank, each rank on its own submodel (3 for 3).
        QSet<QString> ranks;
        // Three workers share this host's cores.
        const int threadsEach = std::max(1, skynnet::hardwareThreads() / 3);
        const QRegularExpression started(
            QString(R"(submodel (\d)/3: started on rank (\d) \((.+), %1 threads?\) \()").arg(threadsEach));
        for (const QString& line : mpi.errLines()) {
            const auto m = started.match(line);
            if (!m.hasMatch()) continue;
            ranks << m.captured(2);
            QCOMPARE(m.captured(3), QString::fromStdString(skynnet::localHostName()));
        }
        QCOMPARE(ranks, (QSet<QString>{"1", "2", "3"}));
        QVERIFY2(mpi.out.contains("(3 submodels on 3 workers)"), qPrintable(mpi.out));
        // The plan says where the submodels train: the worker ranks, not threads of rank 0.
        VERIFY_CONTAINS(mpi.err.toStdString(), "; on 3 mpi workers (ranks 1-3; rank 0 hands out the submodels)\n");

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
        for (int i = 0; i < 3; ++i)
            QVERIFY2(a.weights[std::size_t(i)] == b.weights[std::size_t(i)], qPrintable(QString::number(i)));
        skynnet::Rng rng(7);
        skynnet::Matrix x(64, a.rawColumns());
        for (Eigen::Index k = 0; k < x.size(); ++k) x.data()[k] = float(rng.uniform() * 6 - 3);
        skynnet::CombinedModel ma = skynnet::buildCombinedModel(a), mb = skynnet::buildCombinedModel(b);
        QVERIFY(sameBits(skynnet::predictRaw(ma, a, x), skynnet::predictRaw(mb, b, x)));
    }

    // With the "other" output (--other-share) the plan draws each submodel's extra rows from the
    // seed alone: the MPI workers train on the rows the threads do, whether they read rank 0's
    // copy or are shipped their rows, and the models are the same bits; so are the stacked rule's
    // weights, fitted on the validation rows by rank 0's runner as by the threads' (--combine stacked).
    void otherOutputMatchesThreads() {
        QTemporaryDir dir;
        const QStringList other = splitRun + QStringList{"--other-share", "0.3", "--combine", "stacked"};
        const CliRun threads = runCli(other + QStringList{"--threads", "2", "--save", dir.filePath("threads.skym")});
        QVERIFY2(threads.exitCode == 0, qPrintable(threads.err));
        const auto reference = skynnet::loadCombinedModel(dir.filePath("threads.skym").toStdString());
        QVERIFY(reference.rule.otherOutput);
        QVERIFY(reference.rule.stacked.has_value());
        for (const QStringList& how : {QStringList{}, QStringList{"--ship-data"}}) {
            const QString model = dir.filePath(how.isEmpty() ? "mpi.skym" : "shipped.skym");
            const CliRun mpi = runMpi(4, other + how + QStringList{"--backend", "mpi", "--save", model});
            QVERIFY2(mpi.exitCode == 0, qPrintable(mpi.err));
            const auto a = skynnet::loadCombinedModel(model.toStdString());
            QVERIFY(a.rule.otherOutput);
            QVERIFY2(a.weights == reference.weights, qPrintable(how.join(' ')));
            QVERIFY2(a.rule.stacked == reference.rule.stacked, qPrintable(how.join(' ')));
        }
    }

    // The same for the data shards' overlap (--shard-overlap): the rows borrowed from the other
    // shards are drawn from the seed alone, so the ranks train the threads' models bit for bit.
    void shardOverlapMatchesThreads() {
        QTemporaryDir dir;
        const QStringList overlap = splitRun + QStringList{"--strategy", "data-shards", "--shard-overlap", "0.5"};
        const CliRun threads = runCli(overlap + QStringList{"--threads", "2", "--save", dir.filePath("threads.skym")});
        QVERIFY2(threads.exitCode == 0, qPrintable(threads.err));
        VERIFY_CONTAINS(threads.out.toStdString(), " overlap)");
        const auto reference = skynnet::loadCombinedModel(dir.filePath("threads.skym").toStdString());
        for (const QStringList& how : {QStringList{}, QStringList{"--ship-data"}}) {
            const QString model = dir.filePath(how.isEmpty() ? "mpi.skym" : "shipped.skym");
            const CliRun mpi = runMpi(4, overlap + how + QStringList{"--backend", "mpi", "--save", model});
            QVERIFY2(mpi.exitCode == 0, qPrintable(mpi.err));
            QVERIFY2(skynnet::loadCombinedModel(model.toStdString()).weights == reference.weights,
                     qPrintable(how.join(' ')));
        }
    }

    // The other ways a worker gets its rows give the same bits. SKYNNET_MPI_SHARE_DATA=0: every
    // worker prepares its own copy. SKYNNET_MPI_TEST_HOSTS=2: this machine acts as two hosts, ranks
    // 0 and 2 on one (rank 2 reads rank 0's copy), ranks 1 and 3 on the other, where rank 1, a
    // worker, prepares the copy that it and rank 3 read, as the first rank of any other host does.
    void everyWayToTheRowsGivesTheSameModel() {
        QTemporaryDir dir;
        const CliRun threads = runCli(splitRun + QStringList{"--threads", "2", "--save", dir.filePath("threads.skym")});
        QVERIFY2(threads.exitCode == 0, qPrintable(threads.err));
        const auto reference = skynnet::loadCombinedModel(dir.filePath("threads.skym").toStdString());

        const QString own = dir.filePath("own.skym");
        const CliRun unshared = runMpi(4, splitRun + QStringList{"--backend", "mpi", "--save", own},
                                       {"SKYNNET_MPI_TRACE=1", "SKYNNET_MPI_SHARE_DATA=0"});
        QVERIFY2(unshared.exitCode == 0, qPrintable(unshared.err));
        QCOMPARE(ranksPreparing(unshared), (QSet<QString>{"1", "2", "3"}));
        QVERIFY2(!unshared.err.contains("shared block"), qPrintable(unshared.err));
        QVERIFY(skynnet::loadCombinedModel(own.toStdString()).weights == reference.weights);

        const QString twoHosts = dir.filePath("two-hosts.skym");
        const CliRun split = runMpi(4, splitRun + QStringList{"--backend", "mpi", "--save", twoHosts},
                                    {"SKYNNET_MPI_TRACE=1", "SKYNNET_MPI_TEST_HOSTS=2"});
        QVERIFY2(split.exitCode == 0, qPrintable(split.err));
        QCOMPARE(ranksReadingFrom(split, 0), QSet<QString>{"2"});
        QCOMPARE(ranksReadingFrom(split, 1), QSet<QString>{"3"});
        QCOMPARE(ranksPreparing(split), QSet<QString>{"1"});
        VERIFY_CONTAINS(split.err.toStdString(), "): rows shared with 1 ranks on this host (");
        QVERIFY(skynnet::loadCombinedModel(twoHosts.toStdString()).weights == reference.weights);
    }

    // The workers prepare their rows from the job's data request, never from their own command
    // line: here (MPMD launch) theirs names other data, another seed and other fractions, and
    // they still prepare rank 0's rows (each its own, SKYNNET_MPI_SHARE_DATA=0: the rows they
    // prepare as soon as rank 0 sends the request ahead), so the model is the thread backend's.
    void workersTakeTheDataFromTheJob() {
        QTemporaryDir dir;
        const QString model = dir.filePath("mpi.skym"), reference = dir.filePath("threads.skym");
        const QStringList mine = QStringList{SKYNNET_CLI_PATH} + splitRun +
                                 QStringList{"--backend", "mpi", "--save", model};
        const QStringList theirs = {SKYNNET_CLI_PATH, "train", "--data",      "builtin:spirals",
                                    "--validation",   "0.3",   "--submodels", "3",
                                    "--seed",         "9",     "--backend",   "mpi"};
        // mpirun's -x holds for its own part of the command line only.
        const QStringList environment = {"-x", "SKYNNET_MPI_TRACE=1", "-x", "SKYNNET_MPI_SHARE_DATA=0"};
        const CliRun mpi = runMpirun(environment + QStringList{"-np", "1"} + mine + QStringList{":"} + environment +
                                     QStringList{"-np", "2"} + theirs);
        QVERIFY2(mpi.exitCode == 0, qPrintable(mpi.err));
        QCOMPARE(ranksPreparing(mpi), (QSet<QString>{"1", "2"}));
        const CliRun threads = runCli(splitRun + QStringList{"--threads", "2", "--save", reference});
        QVERIFY2(threads.exitCode == 0, qPrintable(threads.err));
        QVERIFY(skynnet::loadCombinedModel(model.toStdString()).weights ==
                skynnet::loadCombinedModel(reference.toStdString()).weights);
    }

    // More submodels than workers: the freed rank takes the next one; the model still matches.
    void fewerWorkersThanSubmodels() {
        QTemporaryDir dir;
        const CliRun mpi = runMpi(2, splitRun + QStringList{"--backend", "mpi", "--save", dir.filePath("a.skym")});
        QVERIFY2(mpi.exitCode == 0, qPrintable(mpi.err));
        // The one worker on this host takes its cores; --threads sets them.
        QCOMPARE(mpi.err.count(QRegularExpression(
                     QString("started on rank 1 \\(.*, %1 threads?\\)").arg(skynnet::hardwareThreads()))),
                 3);
        const CliRun given = runMpi(2, splitRun + QStringList{"--backend", "mpi", "--threads", "3"});
        QVERIFY2(given.exitCode == 0, qPrintable(given.err));
        QCOMPARE(given.err.count(QRegularExpression("started on rank 1 \\(.*, 3 threads\\)")), 3);
        const CliRun threads = runCli(splitRun + QStringList{"--threads", "1", "--save", dir.filePath("b.skym")});
        QVERIFY2(threads.exitCode == 0, qPrintable(threads.err));
        const auto a = skynnet::loadCombinedModel(dir.filePath("a.skym").toStdString());
        const auto b = skynnet::loadCombinedModel(dir.filePath("b.skym").toStdString());
        QVERIFY(a.weights == b.weights);

        // Bound to one core by mpirun, the worker trains with one thread and says why; same model.
        if (skynnet::hardwareThreads() < 2) return;
        const CliRun bound = runMpirun(QStringList{"--bind-to", "core", "-np", "2", SKYNNET_CLI_PATH} + splitRun +
                                       QStringList{"--backend", "mpi", "--save", dir.filePath("c.skym")});
        QVERIFY2(bound.exitCode == 0, qPrintable(bound.err));
        VERIFY_CONTAINS(bound.err.toStdString(), "skynnet-cli: warning: rank 1 on host " + skynnet::localHostName() +
                                                     " may run on 1 core only (the launcher bound it: with mpirun add "
                                                     "--bind-to none); it trains with 1 kernel thread instead of " +
                                                     std::to_string(skynnet::hardwareThreads()) + "\n");
        QCOMPARE(bound.err.count(QRegularExpression("started on rank 1 \\(.*, 1 thread\\)")), 3);
        QVERIFY(skynnet::loadCombinedModel(dir.filePath("c.skym").toStdString()).weights == b.weights);
    }

    // Two workers, three submodels: the worker that runs out of work hands its cores to the one
    // still training (it picks them up at its next batch), which changes no bit of the model.
    void freedCoresGoToTheBusyRank() {
        QTemporaryDir dir;
        const QString report = dir.filePath("r.json");
        const CliRun mpi = runMpi(3, splitRun + QStringList{"--backend", "mpi", "--save", dir.filePath("a.skym"),
                                                            "--report", report});
        QVERIFY2(mpi.exitCode == 0, qPrintable(mpi.err));
        QCOMPARE(readJson(report)["backend"].toObject()["cores_handed_on"].toInt(), 1);
        // With --threads the user's choice holds.
        const CliRun given = runMpi(3,
                                    splitRun + QStringList{"--backend", "mpi", "--threads", "1", "--report", report});
        QVERIFY2(given.exitCode == 0, qPrintable(given.err));
        QCOMPARE(readJson(report)["backend"].toObject()["cores_handed_on"].toInt(), 0);
        const CliRun threads = runCli(splitRun + QStringList{"--threads", "1", "--save", dir.filePath("b.skym")});
        QVERIFY2(threads.exitCode == 0, qPrintable(threads.err));
        const auto a = skynnet::loadCombinedModel(dir.filePath("a.skym").toStdString());
        const auto b = skynnet::loadCombinedModel(dir.filePath("b.skym").toStdString());
        QVERIFY(a.weights == b.weights);
    }

    // The job ends only after rank 0's outputs: the workers say goodbye (their figures are in the
    // report) once the submodels are back, then sleep, holding the host's shared block, while
    // rank 0 tests, trains the baseline and writes the report and model; only then does rank 0
    // release them (they free the block and finalize). The baseline rank 0 trains meanwhile is
    // the thread backend's, bit for bit.
    void jobEndsAfterTheOutputs() {
        QTemporaryDir dir;
        const QString report = dir.filePath("mpi.json"), threadsReport = dir.filePath("threads.json");
        const CliRun mpi = runMpi(3, splitRun + QStringList{"--backend", "mpi", "--baseline", "--report", report},
                                  {"SKYNNET_MPI_TRACE=1"});
        QVERIFY2(mpi.exitCode == 0, qPrintable(mpi.err));
        // Trace times are the host's local clock, to the millisecond, as is the report's mtime.
        const auto traced = [&](const QString& rank, const QString& what) {
            const QRegularExpression line(QString(R"(mpi-trace (\S+) rank %1 \(cpu [^)]*\): %2\n)").arg(rank, what));
            const auto m = line.match(mpi.err);
            return m.hasMatch() ? QTime::fromString(m.captured(1), "HH:mm:ss.zzz") : QTime();
        };
        const QTime written = QFileInfo(report).lastModified().time();
        const QTime stopped = traced("0", "every worker said goodbye"), released = traced("0", "workers released");
        QVERIFY2(stopped.isValid() && released.isValid(), qPrintable(mpi.err));
        QVERIFY2(stopped <= written && written <= released, qPrintable(mpi.err));
        for (const QString rank : {"1", "2"}) {
            const QTime bye = traced(rank, "bye"), free = traced(rank, "released");
            QVERIFY2(bye.isValid() && bye <= written, qPrintable(mpi.err));
            QVERIFY2(free.isValid() && written <= free, qPrintable(mpi.err));
        }
        const QJsonArray bytes = readJson(report)["backend"].toObject()["bytes_sent_per_rank"].toArray();
        QCOMPARE(bytes.size(), 3);
        for (const auto& b : bytes) QVERIFY(b.toDouble() > 0);

        const CliRun threads = runCli(splitRun + QStringList{"--baseline", "--threads",
                                                             QString::number(skynnet::hardwareThreads()), "--report",
                                                             threadsReport});
        QVERIFY2(threads.exitCode == 0, qPrintable(threads.err));
        const QJsonObject a = readJson(report)["baseline"].toObject(),
                          b = readJson(threadsReport)["baseline"].toObject();
        // Each epoch's losses and metrics, without its times.
        const auto learned = [](const QJsonObject& baseline) {
            QJsonArray out;
            for (const auto& e : baseline["history"].toArray()) {
                QJsonObject epoch = e.toObject();
                epoch.remove("seconds");
                epoch.remove("samples_per_second");
                out.append(epoch);
            }
            return out;
        };
        QVERIFY(!learned(a).isEmpty());
        QCOMPARE(learned(a), learned(b));
        QVERIFY(!a["metrics"].toObject().isEmpty());
        QCOMPARE(a["metrics"].toObject(), b["metrics"].toObject());
    }

    // A worker whose data file differs from rank 0's refuses the job, naming its rank and host.
    // (MPMD launch: each rank starts in its own folder, so the same relative path holds other data.)
    void workerWithOtherDataRefuses() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("a") && QDir(dir.path()).mkpath("b"));
        QByteArray csv = "x,y,label\n";
        for (int i = 0; i < 60; ++i)
            csv += QByteArray::number(i % 7) + "," + QByteArray::number(i % 5) + "," + (i % 3 ? "p" : "q") + "\n";
        writeText(dir.filePath("a/d.csv"), csv);
        writeText(dir.filePath("b/d.csv"), csv + "1,1,p\n");
        const QStringList train =
            {SKYNNET_CLI_PATH, "train",    "--data", "d.csv",     "--submodels", "2",      "--strategy",
             "data-shards",    "--epochs", "2",      "--backend", "mpi",         "--save", dir.filePath("m.skym")};
        const CliRun r = runMpirun(QStringList{"-np", "1", "-wdir", dir.filePath("a")} + train +
                                   QStringList{":", "-np", "1", "-wdir", dir.filePath("b")} + train);
        QCOMPARE(r.exitCode, 1);
        VERIFY_CONTAINS(r.err.toStdString(),
                        "rank 1 on host " + skynnet::localHostName() + ": the data file d.csv differs from rank 0's");
        QVERIFY(!QFile::exists(dir.filePath("m.skym")));

        // The same on "two hosts" (ranks 0 and 2, ranks 1 and 3), each worker in folder b: rank 1,
        // which would prepare its host's copy, refuses, and so do the others; no rank waits for
        // rows that never come.
        QStringList train2 = train;
        train2.last() = dir.filePath("m2.skym");  // the refused run above left its checkpoint folder
        const CliRun two = runMpirun(QStringList{"-np", "1", "-wdir", dir.filePath("a")} + train2 +
                                         QStringList{":", "-np", "3", "-wdir", dir.filePath("b")} + train2,
                                     300000, {"SKYNNET_MPI_TEST_HOSTS=2"});
        QCOMPARE(two.exitCode, 1);
        QVERIFY2(two.err.contains(
                     QRegularExpression("rank [123] on host " +
                                        QRegularExpression::escape(QString::fromStdString(skynnet::localHostName())) +
                                        ": the data file d.csv differs from rank 0's")),
                 qPrintable(two.err));
        QVERIFY(!QFile::exists(dir.filePath("m2.skym")));
    }

    // --ship-data: the worker's folder has no data file; rank 0 sends each submodel's rows and the
    // model equals the thread backend's. Without --ship-data the worker says what is missing.
    void shippedRowsNeedNoFiles() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("a") && QDir(dir.path()).mkpath("b"));
        QByteArray csv = "x,y,z,label\n";
        for (int i = 0; i < 300; ++i)
            csv += QByteArray::number((i * 37) % 101) + "," + QByteArray::number((i * 53) % 89) + "," +
                   QByteArray::number(i % 13) + "," + "abcd"[i % 4] + "\n";
        writeText(dir.filePath("a/d.csv"), csv);
        const QStringList train = {"train",    "--data", "d.csv",  "--layers", "dense:16:relu", "--submodels", "3",
                                   "--epochs", "6",      "--seed", "2"};
        const QStringList mpi = QStringList{SKYNNET_CLI_PATH} + train +
                                QStringList{"--backend", "mpi", "--save", dir.filePath("mpi.skym")};
        CliRun r = runMpirun(QStringList{"-np", "1", "-wdir", dir.filePath("a")} + mpi + QStringList{"--ship-data"} +
                             QStringList{":", "-np", "2", "-wdir", dir.filePath("b")} + mpi +
                             QStringList{"--ship-data"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString here = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.filePath("a")));
        r = runCli(train + QStringList{"--save", dir.filePath("threads.skym")});
        QVERIFY(QDir::setCurrent(here));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto a = skynnet::loadCombinedModel(dir.filePath("mpi.skym").toStdString());
        const auto b = skynnet::loadCombinedModel(dir.filePath("threads.skym").toStdString());
        QCOMPARE(a.submodelCount(), 3);
        QVERIFY(a.weights == b.weights);

        r = runMpirun(QStringList{"-np", "1", "-wdir", dir.filePath("a")} + mpi +
                      QStringList{":", "-np", "1", "-wdir", dir.filePath("b")} + mpi);
        QCOMPARE(r.exitCode, 1);
        VERIFY_CONTAINS(r.err.toStdString(), "rank 1 on host " + skynnet::localHostName() + ": ");
        VERIFY_CONTAINS(r.err.toStdString(),
                        "d.csv does not exist (every rank reads the data from the same path; or use --ship-data)");
    }

    // A worker running another build (here: the same program with one byte appended) refuses.
    void workerWithOtherBuildRefuses() {
        QTemporaryDir dir;
        const QString other = dir.filePath("skynnet-cli-other");
        QVERIFY(writeAnotherBuild(other));
        const QStringList args = splitRun + QStringList{"--backend", "mpi"};
        const CliRun r = runMpirun(QStringList{"-np", "1", SKYNNET_CLI_PATH} + args +
                                   QStringList{":", "-np", "1", other} + args);
        QCOMPARE(r.exitCode, 1);
        VERIFY_CONTAINS(r.err.toStdString(), "rank 1 on host " + skynnet::localHostName() + ": runs skynnet " +
                                                 std::string(skynnet::skynnetVersion) + " build ");
        VERIFY_CONTAINS(r.err.toStdString(), "install the same build on every machine");
    }

    // --hosts: skynnet-cli starts mpirun itself. A worker killed mid-run ends the job within
    // seconds, and the launcher names the rank, the host and the submodel it was training.
    void deadWorkerIsNamed() {
        QTemporaryDir dir;
        const QString hosts = dir.filePath("hosts");
        writeText(hosts, QByteArray::fromStdString(skynnet::localHostName()) + " slots=2\n");
        QProcess launcher;
        launcher.start(SKYNNET_CLI_PATH,
                       longRun + QStringList{"--hosts", hosts, "--ranks", "3", "--save", dir.filePath("m.skym")});
        QVERIFY(launcher.waitForStarted());
        QString err;
        QVERIFY2(waitForText(launcher, err, "started on rank 2 ", 120000), qPrintable(err));
        const QRegularExpression started(R"(submodel (\d)/3: started on rank 2 )");
        const QString submodel = started.match(err).captured(1);
        const QList<qint64> mpirun = childrenOf(launcher.processId());
        QCOMPARE(mpirun.size(), 1);
        const QList<qint64> ranks = childrenOf(mpirun[0]);
        QCOMPARE(ranks.size(), 3);
        qint64 victim = -1;
        for (qint64 pid : ranks)
            if (mpiRankOf(pid) == 2) victim = pid;
        QVERIFY(victim > 0);
        QVERIFY(::kill(pid_t(victim), SIGKILL) == 0);
        QVERIFY(launcher.waitForFinished(hangGuardMs(60000)));
        err += QString::fromUtf8(launcher.readAllStandardError());
        QCOMPARE(launcher.exitCode(), 1);
        VERIFY_CONTAINS(err.toStdString(), "skynnet-cli: MPI rank 2 on host " + skynnet::localHostName() +
                                               " was ended by signal 9 (Killed) while training submodel " +
                                               submodel.toStdString() + "; every rank of the job has ended");
        // mpirun may exit while the ranks it ended are still on their way out.
        for (qint64 pid : ranks) QTRY_VERIFY_WITH_TIMEOUT(ended(pid), hangGuardMs(10000));
        QVERIFY(!QFile::exists(dir.filePath("m.skym")));
    }

    // The worker dies while training its second submodel: the first is in the checkpoint (saved by
    // rank 0), the second's epoch state too (saved by the worker), --resume continues the second
    // from there and trains the third, and the model equals an uninterrupted run's.
    void killedWorkerResumes() {
        QTemporaryDir dir;
        const QString hosts = dir.filePath("hosts"), model = dir.filePath("m.skym");
        writeText(hosts, QByteArray::fromStdString(skynnet::localHostName()) + " slots=1\n");  // one worker
        const QStringList run = {"train",
                                 "--data",
                                 "builtin:blobs:classes=10:features=8:samples=20000",
                                 "--layers",
                                 "dense:64:relu,dense:64:relu",
                                 "--submodels",
                                 "3",
                                 "--epochs",
                                 "600",
                                 "--seed",
                                 "3",
                                 "--threads",
                                 "1",
                                 "--scale-epochs",  // 400 epochs each: killed long before its end
                                 "on",
                                 "--save",
                                 model};
        const QStringList mpi = run + QStringList{"--backend", "mpi", "--hosts", hosts};
        QProcess launcher;
        launcher.start(SKYNNET_CLI_PATH, mpi);
        QVERIFY(launcher.waitForStarted());
        QString err;
        QVERIFY2(waitForText(launcher, err, "completed in", 300000), qPrintable(err));
        const QRegularExpression started(R"(submodel (\d)/3: started on rank 1 )");
        QVERIFY2(waitForMatches(launcher, err, started, 2, 120000), qPrintable(err));
        QString second;
        for (auto it = started.globalMatch(err); it.hasNext();) second = it.next().captured(1);
        // Killed after a few of its epochs (600 / F = 400 in all), so that the worker has saved its state.
        const QRegularExpression epochOfSecond("submodel " + second + R"(/3: epoch +3/400 [^\n]*\n)");
        QVERIFY2(waitForMatches(launcher, err, epochOfSecond, 1, 120000), qPrintable(err));
        const QRegularExpression firstEpoch("submodel " + second + R"(/3: epoch +1/400 [^\n]*\n)");
        const QString firstEpochLine = firstEpoch.match(err).captured(0);
        QVERIFY(!firstEpochLine.isEmpty());
        // Its epoch states go to disk in the background, and epochs can outrun the disk: the kill
        // waits until one has landed (this test failed once in a loaded ctest -j2).
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(model + ".checkpoint/submodel-" + second + ".ckpt"), hangGuardMs(60000));
        const QList<qint64> mpirun = childrenOf(launcher.processId());
        QCOMPARE(mpirun.size(), 1);
        qint64 worker = -1;
        for (qint64 pid : childrenOf(mpirun[0]))
            if (mpiRankOf(pid) == 1) worker = pid;
        QVERIFY(worker > 0);
        QVERIFY(::kill(pid_t(worker), SIGKILL) == 0);
        QVERIFY(launcher.waitForFinished(hangGuardMs(60000)));
        err += QString::fromUtf8(launcher.readAllStandardError());
        QCOMPARE(launcher.exitCode(), 1);
        VERIFY_CONTAINS(err.toStdString(),
                        "was ended by signal 9 (Killed) while training submodel " + second.toStdString() +
                            "; every rank of the job has ended; the submodels that finished are "
                            "checkpointed in " +
                            model.toStdString() +
                            ".checkpoint: run the same command with --resume to train only the missing ones");
        QVERIFY(!QFile::exists(model));

        const CliRun resumed = runCli(mpi + QStringList{"--resume"}, 600000);
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        VERIFY_CONTAINS(resumed.err.toStdString(), "resuming from " + model.toStdString() +
                                                       ".checkpoint: 1 of 3 submodels finished, submodel " +
                                                       second.toStdString() + " after epoch ");
        QCOMPARE(resumed.err.count(started), 2);
        // The worker continued from its state: the epochs before it are replayed as they were
        // (their timings too), not trained again.
        QVERIFY2(resumed.err.contains(firstEpochLine), qPrintable(resumed.err));
        QVERIFY(!QDir(model + ".checkpoint").exists());  // removed once the model is written

        const QString reference = dir.filePath("threads.skym");
        const CliRun threads = runCli(QStringList(run.mid(0, run.size() - 1)) << reference, 600000);
        QVERIFY2(threads.exitCode == 0, qPrintable(threads.err));
        const auto a = skynnet::loadCombinedModel(model.toStdString());
        const auto b = skynnet::loadCombinedModel(reference.toStdString());
        QCOMPARE(a.submodelCount(), 3);
        QVERIFY(a.weights == b.weights);
    }

    // A worker whose checkpoint folder is not rank 0's (here: the same relative path from another
    // working folder, as on a machine of its own) keeps its submodels' epoch states there while
    // they train, and removes each once rank 0 has saved that submodel as finished: after a
    // successful run nothing is left on the worker's side. Rank 0 removes its own folder once the
    // model is written.
    void workerRemovesItsEpochStates() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("a") && QDir(dir.path()).mkpath("b"));
        const QStringList train = {SKYNNET_CLI_PATH, "train",
                                   "--data",         "builtin:blobs:classes=10:features=8:samples=6000",
                                   "--layers",       "dense:32:relu,dense:32:relu",
                                   "--submodels",    "3",
                                   "--epochs",       "60",
                                   "--seed",         "5",
                                   "--backend",      "mpi",
                                   "--checkpoint",   "ckpt",
                                   "--save",         "m.skym"};
        QStringList args;
        if (geteuid() == 0) args << "--allow-run-as-root";
        args << "--oversubscribe"
             << "-np"
             << "1"
             << "-wdir" << dir.filePath("a") << train << ":"
             << "-np"
             << "2"
             << "-wdir" << dir.filePath("b") << train;
        QProcess mpirun;
        mpirun.start("mpirun", args);
        QVERIFY(mpirun.waitForStarted());
        // While the submodels train, the workers' folder holds their epoch states.
        const QDir workerFolder(dir.filePath("b/ckpt"));
        int mostStates = 0;
        QElapsedTimer t;
        t.start();
        while (!mpirun.waitForFinished(20) && t.elapsed() < hangGuardMs(300000))
            mostStates = std::max(mostStates, int(workerFolder.entryList({"submodel-*.ckpt"}, QDir::Files).size()));
        QCOMPARE(mpirun.state(), QProcess::NotRunning);
        const QString err = QString::fromUtf8(mpirun.readAllStandardError());
        QVERIFY2(mpirun.exitStatus() == QProcess::NormalExit && mpirun.exitCode() == 0, qPrintable(err));
        QVERIFY2(mostStates >= 1, qPrintable(err));
        QVERIFY(QFile::exists(dir.filePath("a/m.skym")));
        QVERIFY2(!workerFolder.exists(),
                 qPrintable(workerFolder.entryList(QDir::AllEntries | QDir::NoDotAndDotDot).join(' ')));
        QVERIFY(!QDir(dir.filePath("a/ckpt")).exists());
        QVERIFY2(!err.contains("warning"), qPrintable(err));
    }

    // SIGTERM to the launcher (the app's Stop) or to mpirun itself ends every rank.
    void terminatedRunLeavesNoProcess() {
        for (const bool toMpirun : {false, true}) {
            QTemporaryDir dir;
            const QString hosts = dir.filePath("hosts");
            writeText(hosts, QByteArray::fromStdString(skynnet::localHostName()) + " slots=2\n");
            QProcess launcher;
            launcher.start(SKYNNET_CLI_PATH, longRun + QStringList{"--hosts", hosts, "--ranks", "3"});
            QVERIFY(launcher.waitForStarted());
            QString err;
            QVERIFY2(waitForText(launcher, err, "started on rank 2 ", 120000), qPrintable(err));
            const QList<qint64> mpirun = childrenOf(launcher.processId());
            QCOMPARE(mpirun.size(), 1);
            const QList<qint64> ranks = childrenOf(mpirun[0]);
            QCOMPARE(ranks.size(), 3);
            QVERIFY(::kill(pid_t(toMpirun ? mpirun[0] : launcher.processId()), SIGTERM) == 0);
            QVERIFY(launcher.waitForFinished(hangGuardMs(60000)));
            err += QString::fromUtf8(launcher.readAllStandardError());
            if (!toMpirun) {
                QCOMPARE(launcher.exitCode(), 130);
                VERIFY_CONTAINS(err.toStdString(), "skynnet-cli: interrupted while the MPI job ran; no output written");
            } else {
                QVERIFY(launcher.exitCode() != 0);
            }
            QVERIFY(ended(mpirun[0]));
            // mpirun may exit while the ranks it ended are still on their way out.
            for (qint64 pid : ranks) QTRY_VERIFY_WITH_TIMEOUT(ended(pid), hangGuardMs(10000));
        }
    }

    // mpi-check starts its own short job: one JSON line per rank, what the app's Check button reads.
    void mpiCheckListsEveryRank() {
        QTemporaryDir dir;
        const QString hosts = dir.filePath("hosts");
        writeText(hosts, "# this machine\n" + QByteArray::fromStdString(skynnet::localHostName()) + " slots=2\n");
        const CliRun r = runCli({"mpi-check", "--hosts", hosts, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);  // the two slots and rank 0
        QString build;
        for (int i = 0; i < lines.size(); ++i) {
            const QJsonObject o = QJsonDocument::fromJson(lines[i].toUtf8()).object();
            QCOMPARE(o.keys(), (QStringList{"build", "cores", "host", "rank", "version"}));
            QCOMPARE(o["rank"].toInt(), i);
            QCOMPARE(o["host"].toString(), QString::fromStdString(skynnet::localHostName()));
            QCOMPARE(o["cores"].toInt(), skynnet::hardwareThreads());
            QCOMPARE(o["version"].toString(), QString(skynnet::skynnetVersion));
            QCOMPARE(o["build"].toString().size(), 16);
            if (i == 0) build = o["build"].toString();
            QCOMPARE(o["build"].toString(), build);
        }
        const CliRun text = runCli({"mpi-check", "--ranks", "2"});
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY2(text.out.startsWith("rank 0: host " + QString::fromStdString(skynnet::localHostName()) + ", "),
                 qPrintable(text.out));
        QCOMPARE(text.out.count('\n'), 2);

        writeText(hosts, QByteArray::fromStdString(skynnet::localHostName()) + " slots=two\n");
        const CliRun bad = runCli({"mpi-check", "--hosts", hosts});
        QCOMPARE(bad.exitCode, 1);
        VERIFY_CONTAINS(bad.err.toStdString(), hosts.toStdString() + ":1: expected slots=N with a whole number N");
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
        // Under mpirun every rank finds the same mistake; only rank 0 says so.
        r = runMpi(3, {"train", "--data", blobs10, "--backend", "mpi"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count("--backend: mpi needs --submodels"), 1);
    }
};

QTEST_GUILESS_MAIN(TestMpi)
#include "tst_mpi.moc"
