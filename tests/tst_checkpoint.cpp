// Checkpoints: a Trainer resumed from its epoch-end state, and a split run resumed after a
// cancel, end with the same bits as runs never interrupted (within this build).
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <map>
#include <mutex>

#include "core/error.h"
#include "core/rng.h"
#include "data/dataset.h"
#include "io/file_faults.h"
#include "project/checkpoint_store.h"
#include "project/latest_write_queue.h"
#include "project/project_file.h"
#include "split/parallel_trainer.h"
#include "split/thread_backend.h"
#include "train/trainer.h"

#include "cli_support.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// Seeded Gaussian blobs around `classes` centres in [-3, 3]^dims.
Dataset blobs(int classes, int perClass, int dims, std::uint64_t seed) {
    Rng centres(99), rng(seed);
    Matrix c(classes, dims);
    for (Index i = 0; i < c.size(); ++i) c.data()[i] = centres.uniform(-3.f, 3.f);
    Dataset d;
    d.source = "blobs";
    d.task = Task::Classification;
    d.sampleShape = Shape::flat(dims);
    for (int k = 0; k < classes; ++k) d.classNames.push_back("blob " + std::to_string(k));
    d.features.resize(Index(classes) * perClass, dims);
    for (Index r = 0; r < d.features.rows(); ++r) {
        d.labels.push_back(int(r % classes));
        for (int j = 0; j < dims; ++j) d.features(r, j) = c(r % classes, j) + rng.normal(0.f, 1.5f);
    }
    return d;
}

NetworkSpec mlp(const std::string& layers, int inputs) {
    NetworkSpec s;
    s.input = Shape::flat(inputs);
    s.layers = parseLayers(layers);
    return s;
}

TrainConfig config(int epochs) {
    TrainConfig c;
    c.epochs = epochs;
    c.batchSize = 24;  // the last batch of every epoch is a short one
    c.optimizer.learningRate = 3e-3f;
    c.seed = 11;
    c.batchReportSeconds = 0;
    return c;
}

// An in-memory checkpoint folder: what CheckpointHooks saw, per submodel.
struct MemoryCheckpoints {
    std::mutex mutex;
    std::map<int, SubmodelResume> saved;
    std::map<int, int> epochSaves, finishedSaves;
    CheckpointHooks hooks() {
        CheckpointHooks h;
        h.load = [this](int i) -> std::optional<SubmodelResume> {
            const std::lock_guard lock(mutex);
            const auto it = saved.find(i);
            if (it == saved.end()) return std::nullopt;
            return it->second;
        };
        h.saveEpoch = [this](int i, const Network& n, const TrainerState& s) {
            const std::lock_guard lock(mutex);
            SubmodelResume& r = saved[i];
            r.finished = false;
            r.weights = n.flatWeights();
            r.state = s;
            ++epochSaves[i];
        };
        h.saveFinished = [this](int i, const SubmodelOutcome& o) {
            const std::lock_guard lock(mutex);
            SubmodelResume& r = saved[i];
            r.finished = true;
            r.weights = o.network.flatWeights();
            r.result = o.result;
            ++finishedSaves[i];
        };
        return h;
    }
};

Matrix combinedPredictions(ParallelResult& r, const Matrix& x) { return r.model.predict(x); }

bool sameBits(const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(Scalar)) == 0;
}

SplitPlan threeGroups(const Dataset& train, int epochs) {
    SplitOptions o;
    o.strategy = Strategy::ClassGroups;
    o.requested = 3;
    o.epochs = epochs;
    return makePlan(mlp("dense:32,dropout:0.2", 8), train, o);
}

// Trains the plan with checkpoints, cancelled once submodel `stopAt` has finished epoch `epoch`.
ParallelResult trainUntil(const SplitPlan& plan, const TrainConfig& c, const Dataset& train,
                          const CheckpointHooks& hooks, int stopAt, int epoch) {
    CancelToken cancel;
    SubmodelEvents events;
    events.onEpoch = [&](int i, const EpochStats& s) {
        if (i == stopAt && s.epoch == epoch) cancel.cancel();
    };
    return ParallelTrainer(plan, c, std::make_shared<ThreadBackend>(3)).train(train, nullptr, events, &cancel, &hooks);
}

void flipByte(const QString& path, qint64 at) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.seek(at));
    char b = 0;
    QVERIFY(f.getChar(&b));
    QVERIFY(f.seek(at));
    QVERIFY(f.putChar(char(b ^ 0x5a)));
}

// runCli with SKYNNET_TEST_KILL_AFTER_CHECKPOINT set: the tool kills itself (SIGKILL) after it has
// saved the checkpoint of that epoch; exitCode is -1 for a crash.
CliRun runCliKilledAfter(const QStringList& args, int epoch) {
    QProcessEnvironment env;
    env.insert("SKYNNET_TEST_KILL_AFTER_CHECKPOINT", QString::number(epoch));
    return runCli(args, 120000, env);
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The example project in <dir>/<name>/projects, its data in <dir>/<name>/datasets.
QString copyExampleProject(const QTemporaryDir& dir, const QString& name) {
    QDir(dir.path()).mkpath(name + "/projects");
    QDir(dir.path()).mkpath(name + "/datasets");
    const QString project = dir.filePath(name + "/projects/wine-class-groups.skynnet");
    QFile::copy(QString::fromStdString(sourcePath("resources/projects/wine-class-groups.skynnet")), project);
    QFile::copy(QString::fromStdString(sourcePath("resources/datasets/wine.csv")),
                dir.filePath(name + "/datasets/wine.csv"));
    return project;
}

}  // namespace

class TstCheckpoint : public QObject {
    Q_OBJECT

private slots:
    void trainerResumesBitForBit_data() {
        QTest::addColumn<QString>("layers");
        QTest::addColumn<QString>("optimizer");
        QTest::addColumn<bool>("earlyStopping");
        QTest::newRow("adam, dropout, early stopping") << "dense:32,dropout:0.3,dense:16"
                                                       << "adam" << true;
        QTest::newRow("sgd momentum, batch norm") << "dense:24,bn,dense:12"
                                                  << "sgd" << false;
        QTest::newRow("rmsprop") << "dense:16"
                                 << "rmsprop" << false;
        QTest::newRow("adam") << "dense:16"
                              << "adam" << false;
        QTest::newRow("adam, dropout") << "dense:16,dropout:0.3"
                                       << "adam" << false;
        QTest::newRow("adam, early stopping") << "dense:16"
                                              << "adam" << true;
    }
    void trainerResumesBitForBit() {
        QFETCH(QString, layers);
        QFETCH(QString, optimizer);
        QFETCH(bool, earlyStopping);
        const Dataset train = blobs(4, 40, 6, 1), val = blobs(4, 10, 6, 2);
        NetworkSpec spec = mlp(layers.toStdString(), 6);
        spec.setOutputFor(Task::Classification, 4);
        TrainConfig c = config(7);
        c.optimizer.kind = parseOptimizer(optimizer.toStdString());
        c.optimizer.momentum = 0.9f;
        c.optimizer.schedule = parseSchedule("cosine");
        c.earlyStopping.enabled = earlyStopping;
        c.earlyStopping.patience = 100;  // never stops: every epoch runs, the best one is restored
        const Matrix y = train.targetMatrix(), yVal = val.targetMatrix();

        // The uninterrupted run, keeping its state after epoch 3.
        Network whole(spec, 5);
        std::vector<TrainerState> states;
        std::vector<std::vector<Scalar>> weightsAt;
        TrainCallbacks cb;
        cb.onCheckpoint = [&](const TrainerState& s) {
            states.push_back(s);
            weightsAt.push_back(whole.flatWeights());
        };
        const TrainResult full =
            Trainer(whole, c, Task::Classification).fit(train.features, y, &val.features, &yVal, cb);
        QCOMPARE(int(states.size()), 6);  // every epoch end but the last
        QCOMPARE(states[2].epochsDone, 3);
        QCOMPARE(int(states[2].history.size()), 3);

        // A fresh network and Trainer continue from it.
        // Built from the same seed (it also seeds Dropout's masks), then given the checkpoint's weights.
        Network resumed(spec, 5);
        resumed.setFlatWeights(weightsAt[2]);
        Trainer trainer(resumed, c, Task::Classification);
        trainer.resumeFrom(states[2]);
        int epochsSeen = 0;
        TrainCallbacks counting;
        counting.onEpoch = [&](const EpochStats& s) {
            QCOMPARE(s.epoch, 4 + epochsSeen);
            ++epochsSeen;
        };
        const TrainResult rest = trainer.fit(train.features, y, &val.features, &yVal, counting);
        QCOMPARE(epochsSeen, 4);
        QVERIFY(resumed.flatWeights() == whole.flatWeights());
        QCOMPARE(rest.status, full.status);
        QCOMPARE(rest.bestEpoch, full.bestEpoch);
        QCOMPARE(rest.history.size(), full.history.size());
        for (std::size_t e = 0; e < full.history.size(); ++e) {
            QCOMPARE(rest.history[e].epoch, full.history[e].epoch);
            QCOMPARE(rest.history[e].loss, full.history[e].loss);
            QCOMPARE(rest.history[e].validationLoss, full.history[e].validationLoss);
        }
        QVERIFY(rest.wallSeconds >= states[2].wallSeconds);  // the whole training, not only the rest
    }

    void resumeRefusesAStateThatDoesNotFit() {
        const Dataset train = blobs(3, 20, 4, 1);
        NetworkSpec spec = mlp("dense:8", 4);
        spec.setOutputFor(Task::Classification, 3);
        Network net(spec, 1);
        TrainConfig c = config(3);
        TrainerState s;
        s.epochsDone = 5;
        s.history.resize(5);
        VERIFY_CONTAINS(errorOf([&] { Trainer(net, c, Task::Classification).resumeFrom(s); }),
                        "5 epochs done, the training has 3");
        s = TrainerState();
        s.optimizer.lists = {{Matrix::Zero(2, 2)}, {}};  // Adam keeps two lists, one per parameter
        VERIFY_CONTAINS(errorOf([&] { Trainer(net, c, Task::Classification).resumeFrom(s); }),
                        "holds 1 matrices for 4 parameters");
        s = TrainerState();
        s.bestWeights.resize(3);
        VERIFY_CONTAINS(errorOf([&] { Trainer(net, c, Task::Classification).resumeFrom(s); }),
                        "best weights are 3 values");
    }

    // Three submodels on two threads; the run is cancelled once submodel 2 has done 2 of its epochs
    // (a kill at that point leaves the same checkpoints behind), then resumed.
    void splitRunResumesAfterCancelBitForBit() {
        const Dataset train = blobs(6, 60, 8, 3), test = blobs(6, 10, 8, 4);
        SplitOptions o;
        o.strategy = Strategy::ClassGroups;
        o.requested = 3;
        o.epochs = 5;
        const SplitPlan plan = makePlan(mlp("dense:32,dropout:0.2", 8), train, o);
        QCOMPARE(plan.submodelCount(), 3);
        const TrainConfig c = config(5);

        ParallelResult whole = ParallelTrainer(plan, c, std::make_shared<ThreadBackend>(3)).train(train);
        QCOMPARE(whole.status, TrainStatus::Completed);
        const Matrix expected = combinedPredictions(whole, test.features);

        MemoryCheckpoints store;
        const CheckpointHooks hooks = store.hooks();
        CancelToken cancel;
        SubmodelEvents stopping;
        stopping.onEpoch = [&](int i, const EpochStats& s) {
            if (i == 1 && s.epoch == 2) cancel.cancel();
        };
        ParallelResult first = ParallelTrainer(plan, c, std::make_shared<ThreadBackend>(3))
                                   .train(train, nullptr, stopping, &cancel, &hooks);
        QCOMPARE(first.status, TrainStatus::Cancelled);
        QVERIFY(store.saved.count(1));
        QVERIFY(!store.saved.at(1).finished);
        QCOMPARE(store.saved.at(1).state.epochsDone, 2);

        // Resume on another thread budget: what a submodel gets does not change its floats.
        // Epochs with batches are trained now; the others are the checkpoint's, replayed.
        std::mutex mutex;
        std::map<int, std::vector<int>> epochsTrained, epochsSeen;
        SubmodelEvents counting;
        counting.onBatch = [&](int i, const BatchProgress& b) {
            const std::lock_guard lock(mutex);
            auto& list = epochsTrained[i];
            if (list.empty() || list.back() != b.epoch) list.push_back(b.epoch);
        };
        counting.onEpoch = [&](int i, const EpochStats& s) {
            const std::lock_guard lock(mutex);
            epochsSeen[i].push_back(s.epoch);
        };
        const auto finishedBefore = store.finishedSaves;
        ParallelResult resumed = ParallelTrainer(plan, c, std::make_shared<ThreadBackend>(2))
                                     .train(train, nullptr, counting, nullptr, &hooks);
        QCOMPARE(resumed.status, TrainStatus::Completed);
        std::vector<int> left;  // only the epochs it had left
        for (int e = 3; e <= plan.effectiveEpochs; ++e) left.push_back(e);
        QVERIFY(!left.empty());
        QCOMPARE(epochsTrained[1], left);
        for (const auto& [i, n] : finishedBefore)
            QVERIFY2(epochsTrained[i].empty(), "a finished submodel trained again");
        std::vector<int> all;  // every submodel's whole training is reported
        for (int e = 1; e <= plan.effectiveEpochs; ++e) all.push_back(e);
        for (int i = 0; i < 3; ++i) QCOMPARE(epochsSeen[i], all);
        QVERIFY(sameBits(combinedPredictions(resumed, test.features), expected));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(resumed.submodels[std::size_t(i)].history.size(), whole.submodels[std::size_t(i)].history.size());
            QCOMPARE(store.saved.at(i).finished, true);
        }
    }

    // A resumed run's wall time is this session's, and so is sessionCpuSeconds(): both cover the
    // same work. cpuSeconds also holds what the earlier session spent (earlierCpuSeconds), exactly
    // what its checkpoints held.
    void resumedRunTimesCoverTheSameSessions() {
        const Dataset train = blobs(6, 120, 8, 3);
        const SplitPlan plan = threeGroups(train, 6);
        const TrainConfig c = config(6);
        const ParallelResult fresh = ParallelTrainer(plan, c, std::make_shared<ThreadBackend>(2)).train(train);
        QVERIFY(!fresh.resumed());
        QCOMPARE(fresh.earlierCpuSeconds, 0.0);
        QCOMPARE(fresh.sessionCpuSeconds(), fresh.cpuSeconds);

        MemoryCheckpoints store;
        const CheckpointHooks hooks = store.hooks();
        QCOMPARE(trainUntil(plan, c, train, hooks, 2, 2).status, TrainStatus::Cancelled);
        double held = 0;
        for (const auto& [i, r] : store.saved) held += r.finished ? r.result.cpuSeconds : r.state.cpuSeconds;
        const int continued = int(store.saved.size());
        QVERIFY(continued > 0);
        QVERIFY(held > 0);

        const ParallelResult resumed =
            ParallelTrainer(plan, c, std::make_shared<ThreadBackend>(2)).train(train, nullptr, {}, nullptr, &hooks);
        QCOMPARE(resumed.status, TrainStatus::Completed);
        QVERIFY(resumed.resumed());
        QCOMPARE(resumed.resumedSubmodels, continued);
        QCOMPARE(resumed.earlierCpuSeconds, held);
        QCOMPARE(resumed.sessionCpuSeconds(), resumed.cpuSeconds - held);
        // This session's CPU fits in this session's wall: two workers, one kernel thread each.
        QVERIFY(resumed.sessionCpuSeconds() >= 0);
        QVERIFY2(resumed.sessionCpuSeconds() <= 2 * resumed.wallSeconds + 0.05,
                 qPrintable(QStringLiteral("%1 s CPU in %2 s wall")
                                .arg(resumed.sessionCpuSeconds())
                                .arg(resumed.wallSeconds)));
        for (const TrainResult& t : resumed.submodels) QVERIFY(t.earlierCpuSeconds <= t.cpuSeconds);

        // A second resume only loads: no second of it is this session's, all are the earlier ones.
        const ParallelResult loaded =
            ParallelTrainer(plan, c, std::make_shared<ThreadBackend>(2)).train(train, nullptr, {}, nullptr, &hooks);
        QCOMPARE(loaded.resumedSubmodels, 3);
        QCOMPARE(loaded.cpuSeconds, resumed.cpuSeconds);
        QCOMPARE(loaded.earlierCpuSeconds, loaded.cpuSeconds);
        QCOMPARE(loaded.sessionCpuSeconds(), 0.0);
        for (std::size_t i = 0; i < 3; ++i)
            QCOMPARE(loaded.submodels[i].earlierWallSeconds, resumed.submodels[i].wallSeconds);
    }

    void storeResumesAfterCancelBitForBit() {
        const Dataset train = blobs(6, 60, 8, 3), test = blobs(6, 10, 8, 4);
        const SplitPlan plan = threeGroups(train, 4);
        const TrainConfig c = config(4);
        ParallelResult whole = ParallelTrainer(plan, c, std::make_shared<ThreadBackend>(3)).train(train);
        const Matrix expected = combinedPredictions(whole, test.features);

        QTemporaryDir tmp;
        const std::string folder = tmp.filePath("run.checkpoint").toStdString();
        const CheckpointRunKey key = checkpointRunKey(plan, c, train, nullptr);
        {
            const CheckpointStore store = CheckpointStore::start(folder, plan, key);
            const CheckpointHooks hooks = store.hooks();
            QCOMPARE(trainUntil(plan, c, train, hooks, 2, 1).status, TrainStatus::Cancelled);
            VERIFY_CONTAINS(store.progressText(),
                            "submodel 3 after epoch 1 of " + std::to_string(plan.effectiveEpochs));
        }
        QVERIFY(CheckpointStore::holdsRun(folder));
        {
            QFile notes(tmp.filePath("run.checkpoint/notes.txt"));
            QVERIFY(notes.open(QIODevice::WriteOnly));
            notes.write("kept");
        }
        // Another thread budget and another process-level config field that changes no result.
        TrainConfig other = c;
        other.threads = 2;
        other.batchReportSeconds = 5;
        const CheckpointStore store = CheckpointStore::resume(folder, plan,
                                                              checkpointRunKey(plan, other, train, nullptr));
        const CheckpointHooks hooks = store.hooks();
        ParallelResult resumed =
            ParallelTrainer(plan, other, std::make_shared<ThreadBackend>(2)).train(train, nullptr, {}, nullptr, &hooks);
        QCOMPARE(resumed.status, TrainStatus::Completed);
        QVERIFY(sameBits(combinedPredictions(resumed, test.features), expected));
        QCOMPARE(store.progressText(), std::string("3 of 3 submodels finished"));
        // A second resume only loads: same model again, nothing trained, every epoch replayed.
        std::atomic<int> batches{0}, epochs{0};
        SubmodelEvents counting;
        counting.onBatch = [&](int, const BatchProgress&) { ++batches; };
        counting.onEpoch = [&](int, const EpochStats&) { ++epochs; };
        ParallelResult again = ParallelTrainer(plan, c).train(train, nullptr, counting, nullptr, &hooks);
        QCOMPARE(batches.load(), 0);
        QCOMPARE(epochs.load(), 3 * plan.effectiveEpochs);
        QVERIFY(sameBits(combinedPredictions(again, test.features), expected));
        QCOMPARE(again.submodels[1].history.size(), whole.submodels[1].history.size());
        store.removeFolder();
        QVERIFY(!QFile::exists(tmp.filePath("run.checkpoint/run.json")));
        QVERIFY(!QFile::exists(tmp.filePath("run.checkpoint/submodel-1.ckpt")));
        QVERIFY(QFile::exists(tmp.filePath("run.checkpoint/notes.txt")));  // not the run's: kept, and its folder
    }

    void writeQueueKeepsTheLatestOfEachKey() {
        LatestWriteQueue queue;
        std::mutex m;
        std::condition_variable cv;
        bool release = false, started = false;
        std::vector<std::string> done;
        const auto record = [&](std::string what) {
            const std::lock_guard lock(m);
            done.push_back(std::move(what));
        };
        // The first write of key 1 holds the queue's thread; meanwhile 1 gets two more, 2 one.
        queue.post(1, [&] {
            std::unique_lock lock(m);
            started = true;
            cv.notify_all();
            cv.wait(lock, [&] { return release; });
            done.push_back("1a");
        });
        {
            std::unique_lock lock(m);
            cv.wait(lock, [&] { return started; });
        }
        queue.post(1, [&] { record("1b"); });
        queue.post(2, [&] { record("2a"); });
        queue.post(1, [&] { record("1c"); });  // replaces 1b, which never ran
        {
            const std::lock_guard lock(m);
            release = true;
        }
        cv.notify_all();
        queue.drainAll();
        QCOMPARE(done, (std::vector<std::string>{"1a", "1c", "2a"}));
        // A failed write is reported once, by the key's next drain or post, and never to another key.
        queue.post(3, [] { throw Error("cannot save x: No space left on device"); });
        queue.drain(2);
        QVERIFY_THROWS_EXCEPTION(Error, queue.drain(3));
        queue.drain(3);
        queue.post(3, [] { throw Error("disk gone"); });
        queue.drainAll();
        QVERIFY_THROWS_EXCEPTION(Error, queue.post(3, [&] { record("3b"); }));
        // What waits when the queue goes is written.
        {
            LatestWriteQueue last;
            last.post(7, [&] { record("7"); });
        }
        QCOMPARE(done.back(), std::string("7"));
    }

    void storeSavesEpochsInTheBackgroundAndReportsTheirErrors() {
        const Dataset train = blobs(6, 30, 8, 3);
        const SplitPlan plan = threeGroups(train, 2);
        QTemporaryDir tmp;
        const std::string folder = tmp.filePath("bg.checkpoint").toStdString();
        const CheckpointStore store = CheckpointStore::start(folder, plan,
                                                             checkpointRunKey(plan, config(2), train, nullptr));
        const SubmodelPlan& sp = plan.submodels[0];
        Network net(sp.spec, sp.seed);
        TrainerState s;
        const auto nextEpoch = [&s] {
            ++s.epochsDone;
            EpochStats e;
            e.epoch = s.epochsDone;
            s.history.push_back(e);
        };
        for (int e = 1; e <= 20; ++e) {
            nextEpoch();
            store.saveEpoch(0, net, s);
        }
        const auto saved = store.load(0);  // waits for the queue: the latest epoch, whichever were written
        QVERIFY(saved && !saved->finished);
        QCOMPARE(saved->state.epochsDone, 20);
        QVERIFY(saved->weights == net.flatWeights());
        // A full disk under an epoch's save: the next save of that submodel says so, the file is
        // the one before.
        struct FullDisk {
            FullDisk() {
                setSaveFaultHook([](SaveStep step, int, const char*) { return step == SaveStep::Write ? ENOSPC : 0; });
            }
            ~FullDisk() { setSaveFaultHook(nullptr); }
        };
        {
            const FullDisk full;
            nextEpoch();
            store.saveEpoch(0, net, s);
            store.waitForSaves();
        }
        try {
            nextEpoch();
            store.saveEpoch(0, net, s);
            QFAIL("the failed save was not reported");
        } catch (const Error& e) {
            VERIFY_CONTAINS(std::string(e.what()), "submodel-1.ckpt");
            VERIFY_CONTAINS(std::string(e.what()), "No space left on device");
        }
        QCOMPARE(store.load(0)->state.epochsDone, 20);
    }

    void storeRefusesAnotherRun() {
        const Dataset train = blobs(6, 30, 8, 3), otherData = blobs(6, 30, 8, 5);
        const SplitPlan plan = threeGroups(train, 2);
        const TrainConfig c = config(2);
        QTemporaryDir tmp;
        const std::string folder = tmp.filePath("ck").toStdString();
        VERIFY_CONTAINS(errorOf(
                            [&] { CheckpointStore::resume(folder, plan, checkpointRunKey(plan, c, train, nullptr)); }),
                        "the checkpoint folder " + folder + " does not exist: nothing to resume");
        QVERIFY(QDir().mkpath(QString::fromStdString(folder)));
        VERIFY_CONTAINS(errorOf(
                            [&] { CheckpointStore::resume(folder, plan, checkpointRunKey(plan, c, train, nullptr)); }),
                        "holds no run.json");
        (void)CheckpointStore::start(folder, plan, checkpointRunKey(plan, c, train, nullptr));
        const std::string runFile = folder + "/run.json";
        VERIFY_CONTAINS(errorOf([&] {
                            CheckpointStore::resume(folder, plan, checkpointRunKey(plan, c, otherData, nullptr));
                        }),
                        runFile + " is from another run: the training data differs");
        TrainConfig lr = c;
        lr.optimizer.learningRate *= 2;
        VERIFY_CONTAINS(errorOf(
                            [&] { CheckpointStore::resume(folder, plan, checkpointRunKey(plan, lr, train, nullptr)); }),
                        runFile + " is from another run: the training settings differ");
        const SplitPlan longer = threeGroups(train, 3);
        VERIFY_CONTAINS(errorOf([&] {
                            CheckpointStore::resume(folder, longer, checkpointRunKey(longer, lr, otherData, nullptr));
                        }),
                        "the split plan, the training settings and the training data differ");
        // A damaged run.json names itself.
        {
            QFile f(QString::fromStdString(runFile));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("{\"format\": \"skynnet-checkpoint\", ");
        }
        VERIFY_CONTAINS(errorOf(
                            [&] { CheckpointStore::resume(folder, plan, checkpointRunKey(plan, c, train, nullptr)); }),
                        runFile + ":");
    }

    void damagedSubmodelFileIsAnErrorNamingIt() {
        const Dataset train = blobs(6, 30, 8, 3);
        const SplitPlan plan = threeGroups(train, 3);
        const TrainConfig c = config(3);
        const CheckpointRunKey key = checkpointRunKey(plan, c, train, nullptr);
        QTemporaryDir tmp;
        const std::string folder = tmp.filePath("ck").toStdString();
        const CheckpointStore store = CheckpointStore::start(folder, plan, key);
        const CheckpointHooks hooks = store.hooks();
        QCOMPARE(ParallelTrainer(plan, c).train(train, nullptr, {}, nullptr, &hooks).status, TrainStatus::Completed);
        const QString first = QString::fromStdString(store.submodelPath(0)),
                      second = QString::fromStdString(store.submodelPath(1));

        // One flipped byte: the CRC catches it; the run fails naming the file, nothing crashes.
        flipByte(second, QFileInfo(second).size() / 2);
        VERIFY_CONTAINS(errorOf([&] { store.load(1); }), second.toStdString() + " is damaged");
        const ParallelResult r = ParallelTrainer(plan, c).train(train, nullptr, {}, nullptr, &hooks);
        QCOMPARE(r.status, TrainStatus::Failed);
        VERIFY_CONTAINS(r.error, "submodel 2: " + second.toStdString() + " is damaged");

        // Truncated, empty, another file type, another submodel's file.
        QFile::remove(second);
        QVERIFY(QFile::copy(first, second));
        VERIFY_CONTAINS(errorOf([&] { store.load(1); }), second.toStdString() + ": submodel must be 2");
        QVERIFY(QFile::resize(second, QFileInfo(first).size() - 7));
        VERIFY_CONTAINS(errorOf([&] { store.load(1); }), second.toStdString());
        QVERIFY(QFile::resize(second, 0));
        VERIFY_CONTAINS(errorOf([&] { store.load(1); }), second.toStdString());
        {
            QFile f(second);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("not a checkpoint at all");
        }
        VERIFY_CONTAINS(errorOf([&] { store.load(1); }), second.toStdString());
        // A checkpoint of another run copied in is refused too.
        const CheckpointStore elsewhere = CheckpointStore::start(tmp.filePath("other").toStdString(), plan,
                                                                 checkpointRunKey(plan, config(2), train, nullptr));
        const CheckpointHooks otherHooks = elsewhere.hooks();
        TrainConfig two = config(2);
        QCOMPARE(ParallelTrainer(plan, two).train(train, nullptr, {}, nullptr, &otherHooks).status,
                 TrainStatus::Completed);
        QFile::remove(second);
        QVERIFY(QFile::copy(QString::fromStdString(elsewhere.submodelPath(1)), second));
        VERIFY_CONTAINS(errorOf([&] { store.load(1); }),
                        second.toStdString() + " is from another run: the training settings differ");
    }

    void cliResumesAfterAKill_data() {
        QTest::addColumn<QStringList>("options");
        QTest::newRow("split") << QStringList{"--submodels", "3", "--threads", "2"};
        QTest::newRow("single network") << QStringList{"--early-stopping", "20"};
    }
    void cliResumesAfterAKill() {
        QFETCH(QStringList, options);
        QTemporaryDir tmp;
        const QStringList common = QStringList{"train", "--data",   "builtin:spirals",      "--epochs",
                                               "6",     "--layers", "dense:32,dropout:0.1", "--quiet"} +
                                   options;
        const QString whole = tmp.filePath("whole.skym"), killed = tmp.filePath("killed.skym");
        const CliRun w = runCli(common + QStringList{"--save", whole});
        QVERIFY2(w.exitCode == 0, qPrintable(w.err));
        QVERIFY(!QFile::exists(whole + ".checkpoint"));  // removed once the model was written

        const CliRun k = runCliKilledAfter(common + QStringList{"--save", killed}, 2);
        QCOMPARE(k.exitCode, -1);
        QVERIFY(!QFile::exists(killed));
        QVERIFY(QFile::exists(killed + ".checkpoint/run.json"));
        // The submodel that saved epoch 2 first, whichever it was: under load a thread may start
        // its submodel two epochs after the other.
        QVERIFY(!QDir(killed + ".checkpoint").entryList({"submodel-*.ckpt"}, QDir::Files).isEmpty());

        // Without --resume an earlier run's folder is not overwritten.
        const CliRun fresh = runCli(common + QStringList{"--save", killed});
        QVERIFY(fresh.exitCode != 0);
        VERIFY_CONTAINS(fresh.err.toStdString(), "the checkpoint folder " + (killed + ".checkpoint").toStdString() +
                                                     " holds the checkpoints of an earlier run: add --resume");
        // Resumed without --quiet to see the message; other --threads change nothing.
        QStringList resumeArgs = common + QStringList{"--save", killed, "--resume"};
        resumeArgs.removeAll("--quiet");
        const CliRun r = runCli(resumeArgs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.err.toStdString(), "resuming from " + (killed + ".checkpoint").toStdString() + ": ");
        VERIFY_CONTAINS(r.err.toStdString(), "after epoch 2 of ");
        QVERIFY(!QFile::exists(killed + ".checkpoint"));
        const QByteArray expected = fileBytes(whole);
        QVERIFY(!expected.isEmpty());
        QVERIFY2(fileBytes(killed) == expected, "the resumed model differs from the uninterrupted one");
    }

    void cliResumeErrors() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("ck"), model = tmp.filePath("m.skym");
        const QStringList base{"train", "--data", "builtin:spirals", "--epochs", "4", "--submodels", "3", "--quiet"};
        CliRun r = runCli(base + QStringList{"--resume"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(), "--resume: needs --checkpoint DIR or --save MODEL");
        r = runCli(base + QStringList{"--checkpoint", dir, "--resume"});
        QVERIFY(r.exitCode != 0);
        VERIFY_CONTAINS(r.err.toStdString(),
                        "the checkpoint folder " + dir.toStdString() + " does not exist: nothing to resume");
        // --checkpoint without --save: nothing is written to keep, so the folder stays and a later
        // --resume --save makes the model without training again.
        r = runCli(base + QStringList{"--checkpoint", dir});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(dir + "/run.json"));
        r = runCli(base + QStringList{"--checkpoint", dir, "--resume", "--lr", "0.01"});
        QVERIFY(r.exitCode != 0);
        VERIFY_CONTAINS(r.err.toStdString(),
                        (dir + "/run.json").toStdString() + " is from another run: the training settings differ");
        r = runCli(base + QStringList{"--checkpoint", dir, "--resume", "--seed", "2"});
        QVERIFY(r.exitCode != 0);
        VERIFY_CONTAINS(r.err.toStdString(),
                        "is from another run: the split plan, the training settings and the training data differ");
        QStringList loud = base + QStringList{"--checkpoint", dir, "--resume", "--save", model};
        loud.removeAll("--quiet");
        r = runCli(loud);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.err.toStdString(), "3 of 3 submodels finished");
        QVERIFY(QFile::exists(model));
        QVERIFY(!QFile::exists(dir));
    }

    void cliProjectResumesAfterAKill() {
        QTemporaryDir tmp;
        const QString whole = copyExampleProject(tmp, "whole"), killed = copyExampleProject(tmp, "killed");
        const CliRun w = runCli({"train", "--project", whole, "--threads", "2", "--quiet"});
        QVERIFY2(w.exitCode == 0, qPrintable(w.err));
        QVERIFY(!QFile::exists(whole + ".checkpoint"));
        const QByteArray before = fileBytes(killed);

        const CliRun k = runCliKilledAfter({"train", "--project", killed, "--threads", "2", "--quiet"}, 1);
        QCOMPARE(k.exitCode, -1);
        QCOMPARE(fileBytes(killed), before);  // the project is only written once the run is done
        QVERIFY(QFile::exists(killed + ".checkpoint/run.json"));
        const CliRun refused = runCli({"train", "--project", killed, "--quiet"});
        QVERIFY(refused.exitCode != 0);
        VERIFY_CONTAINS(refused.err.toStdString(), "holds the checkpoints of an earlier run: add --resume");
        const CliRun r = runCli({"train", "--project", killed, "--threads", "1", "--resume"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.err.toStdString(), "resuming from " + (killed + ".checkpoint").toStdString());
        QVERIFY(!QFile::exists(killed + ".checkpoint"));

        const ProjectData a = loadProject(whole.toStdString()), b = loadProject(killed.toStdString());
        QVERIFY(a.runs.back().results && b.runs.back().results);
        QVERIFY(sameBits(a.runs.back().results->combinedTestOutput, b.runs.back().results->combinedTestOutput));
        QCOMPARE(a.runs.back().results->combinedMetric, b.runs.back().results->combinedMetric);
    }
};

QTEST_APPLESS_MAIN(TstCheckpoint)
#include "tst_checkpoint.moc"
