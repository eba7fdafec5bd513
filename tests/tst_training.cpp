// Optimisers against hand-computed steps, schedules, and the Trainer: learning, determinism,
// early stopping, cancellation, pause (and the time it leaves out), divergence, and the step API.
#include <QtTest>
#include <functional>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <thread>

#include "core/cancel.h"
#include "core/error.h"
#include "core/parallel.h"
#include "layers/batch_norm.h"
#include "layers/conv2d.h"
#include "model/network.h"
#include "optim/optimizer.h"
#include "train/batch_split.h"
#include "train/metrics.h"
#include "train/resources.h"
#include "train/trainer.h"

#include "test_support.h"

using namespace skynnet;

namespace {

struct OneParam {
    Matrix w = Matrix::Constant(1, 2, 1.0f);
    Matrix g = Matrix::Constant(1, 2, 0.5f);
    std::vector<Param> params() { return {{&w, &g, true}}; }
};

// Two interleaved noisy circles: not linearly separable, easy for a small MLP.
void rings(int n, std::uint64_t seed, Matrix& x, Matrix& y) {
    Rng rng(seed);
    x.resize(n, 2);
    y = Matrix::Zero(n, 2);
    for (int i = 0; i < n; ++i) {
        const int c = i % 2;
        const float angle = rng.uniform(0, 6.2831853f);
        const float radius = (c ? 2.0f : 1.0f) + rng.normal(0, 0.15f);
        x(i, 0) = radius * std::cos(angle);
        x(i, 1) = radius * std::sin(angle);
        y(i, c) = 1;
    }
}

NetworkSpec ringSpec() {
    NetworkSpec spec;
    spec.input = Shape::flat(2);
    spec.layers = parseLayers("dense:32:relu,dense:16:relu");
    spec.setOutputFor(Task::Classification, 2);
    return spec;
}

// Uniform features and random labels of 4 classes: a batch of these is big enough work for a
// network of wideSpec() to be split over two replicas.
void noise(int n, std::uint64_t seed, Matrix& x, Matrix& y) {
    Rng rng(seed);
    x.resize(n, 64);
    y = Matrix::Zero(n, 4);
    for (Index i = 0; i < x.size(); ++i) x.data()[i] = rng.uniform(-1, 1);
    for (int i = 0; i < n; ++i) y(i, int(rng.below(4))) = 1;
}

NetworkSpec wideSpec(const std::string& layers) {
    NetworkSpec spec;
    spec.input = Shape::flat(64);
    spec.layers = parseLayers(layers);
    spec.setOutputFor(Task::Classification, 4);
    return spec;
}

TrainConfig quickConfig(int epochs) {
    TrainConfig c;
    c.epochs = epochs;
    c.batchSize = 32;
    c.optimizer.learningRate = 0.01f;
    c.threads = 1;
    return c;
}

// Two epochs of Adam in batches of 192 rows (3 slices of work for the small CNNs here) on
// `threads` kernel threads, from the weights of seed 8.
Network trainedInBatchesOf192(const NetworkSpec& spec, const Matrix& x, const Matrix& y, int threads) {
    Network net(spec, 8);
    TrainConfig c = quickConfig(2);
    c.batchSize = 192;
    c.optimizer.kind = OptimizerKind::Adam;
    c.threads = threads;
    Trainer(net, c, Task::Classification).fit(x, y);
    return net;
}

// A small CNN of 4 classes trained in batches of 3 slices ends with the same weights and
// predictions on 2 and 3 threads as on 1; `check` holds for the 1-thread network (it did what the
// test is about).
void trainsAlikeOnAnyThreads(NetworkSpec spec, const Matrix& x, const Matrix& y,
                             const std::function<bool(Network&)>& check) {
    spec.setOutputFor(Task::Classification, 4);
    QCOMPARE(BatchSplit::slicesFor(192, flopsPerSample(spec)), 3);
    Network one = trainedInBatchesOf192(spec, x, y, 1);
    QVERIFY(check(one));
    for (int threads : {2, 3}) {
        Network other = trainedInBatchesOf192(spec, x, y, threads);
        QVERIFY2(other.flatWeights() == one.flatWeights(), std::to_string(threads).c_str());
        QVERIFY(other.predict(x) == one.predict(x));
    }
}

}  // namespace

class TestTraining : public QObject {
    Q_OBJECT
private slots:
    void sgdPlainMomentumNesterov() {
        OptimizerConfig c;
        c.kind = OptimizerKind::SGD;
        c.learningRate = 0.1f;
        OneParam p;
        makeOptimizer(c)->step(p.params());
        QCOMPARE(p.w(0, 0), 0.95f);
        // Momentum 0.9: v1 = 0.5, w = 1 - 0.05; v2 = 0.45 + 0.5 = 0.95, w = 0.95 - 0.095.
        c.momentum = 0.9f;
        OneParam m;
        auto opt = makeOptimizer(c);
        opt->step(m.params());
        opt->step(m.params());
        QVERIFY(std::abs(m.w(0, 0) - (0.95f - 0.095f)) < 1e-6f);
        // Nesterov: w -= lr (g + mu v): step 1: v=0.5, w = 1 - 0.1*(0.5+0.45) = 0.905.
        c.nesterov = true;
        OneParam n;
        makeOptimizer(c)->step(n.params());
        QVERIFY(std::abs(n.w(0, 0) - 0.905f) < 1e-6f);
    }

    void adamFirstStepIsLearningRate() {
        // With bias correction Adam's first step is lr * g/|g| (up to epsilon), whatever |g| is.
        OptimizerConfig c;
        c.learningRate = 0.01f;
        OneParam p;
        p.g << 0.001f, -40.0f;
        makeOptimizer(c)->step(p.params());
        QVERIFY(std::abs(p.w(0, 0) - 0.99f) < 1e-4f);
        QVERIFY(std::abs(p.w(0, 1) - 1.01f) < 1e-5f);
    }

    void adamFollowsItsFormulaOnEveryValue() {
        // The update runs in vector lanes with a scalar tail, in segments of 2048 values: 2051
        // values cross a segment and end in a tail whatever the vector width. Three steps against
        // the textbook formula in double precision, with gradients of every sign and scale.
        OptimizerConfig c;
        c.learningRate = 0.01f;
        const Index n = 2051;
        Matrix w(1, n), g(1, n);
        Rng rng(5);
        for (Index i = 0; i < n; ++i) w(0, i) = rng.uniform(-1.0f, 1.0f);
        std::vector<double> rw(w.data(), w.data() + n), m(n, 0.0), v(n, 0.0);
        std::vector<Param> params{{&w, &g, true}};
        auto adam = makeOptimizer(c);
        for (int t = 1; t <= 3; ++t) {
            for (Index i = 0; i < n; ++i) g(0, i) = rng.uniform(-1.0f, 1.0f) * std::pow(10.0f, float(i % 7) - 4.0f);
            adam->step(params);
            for (Index i = 0; i < n; ++i) {
                m[i] = 0.9 * m[i] + 0.1 * g(0, i);
                v[i] = 0.999 * v[i] + 0.001 * double(g(0, i)) * g(0, i);
                const double mHat = m[i] / (1 - std::pow(0.9, t)), vHat = v[i] / (1 - std::pow(0.999, t));
                rw[i] -= 0.01 * mHat / (std::sqrt(vHat) + 1e-7);
            }
        }
        double worst = 0;
        for (Index i = 0; i < n; ++i) worst = std::max(worst, std::abs(double(w(0, i)) - rw[i]));
        // Each step moves a value by up to the learning rate; float rounding of the weights
        // (about 6e-8 at 1) is the bound, not the steps' size.
        QVERIFY2(worst < 2e-6, qPrintable(QString("largest difference %1").arg(worst)));
    }

    void smallUpdatesStayOnTheCallingThread() {
        // The update of a small network takes microseconds: a second thread woken for it spins for
        // milliseconds after, on a core a sibling submodel could use, and its CPU time counts
        // against the submodel. Four parameters of 4096 values stay on this thread with a budget of
        // 2; four of 65536 values are worth both threads.
        auto teamOfUpdate = [](Index cols) {
            std::vector<Matrix> values(4, Matrix::Constant(1, cols, 1.0f)), grads(4, Matrix::Constant(1, cols, 0.5f));
            std::vector<Param> params;
            for (std::size_t i = 0; i < values.size(); ++i) params.push_back({&values[i], &grads[i], true});
            std::atomic<int> widest{0};
            SegmentHooks hooks;
            hooks.gradient = [&](std::size_t i, Index begin, Index len, Scalar* to) {
                for (int seen = widest.load(); currentTeamSize() > seen;)
                    widest.compare_exchange_weak(seen, currentTeamSize());
                std::copy_n(grads[i].data() + begin, len, to);
            };
            const KernelThreadScope budget(2);
            makeOptimizer(OptimizerConfig{})->step(params, hooks);
            // Every segment was updated, alike.
            const bool updated = values[0](0, 0) < 1.0f && values[3](0, cols - 1) == values[0](0, 0);
            return std::pair(widest.load(), updated);
        };
        QCOMPARE(teamOfUpdate(4096), std::pair(1, true));
        QCOMPARE(teamOfUpdate(65536), std::pair(2, true));
        QCOMPARE(threadsWorthFor(10, 32768), 1);
        const KernelThreadScope three(3);
        QCOMPARE(threadsWorthFor(40000 * 3, 40000), 3);
        QCOMPARE(threadsWorthFor(40000 * 9, 40000), 3);  // never more than the budget
    }

    void workerCpuCountsTheKernelTeam() {
        // Each of the team's 2 threads burns 60 ms of its own CPU clock: the worker's CPU time
        // grows by both, read without a parallel region of its own (the team's clocks are kept).
        const auto ownCpu = [] {
            timespec ts{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
            return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
        };
        const KernelThreadScope budget(2);
        const double before = workerCpuSeconds();
        std::atomic<int> team{0};
        volatile double sink = 0;
        parallelRegion(2, [&](int) {
            team = std::max(team.load(), currentTeamSize());
            const double start = ownCpu();
            while (ownCpu() - start < 0.06) sink = sink + 1;
        });
        const double used = workerCpuSeconds() - before;
        if (team.load() < 2) QSKIP("OpenMP granted one thread (OMP_THREAD_LIMIT?)");
        QVERIFY2(used >= 0.119 && used < 0.5, std::to_string(used).c_str());
    }

    void weightDecayL2AndDecoupled() {
        OptimizerConfig c;
        c.kind = OptimizerKind::SGD;
        c.learningRate = 0.1f;
        c.weightDecay = 0.2f;
        OneParam p;  // g + wd*w = 0.5 + 0.2 -> w = 1 - 0.07
        makeOptimizer(c)->step(p.params());
        QVERIFY(std::abs(p.w(0, 0) - 0.93f) < 1e-6f);
        c.kind = OptimizerKind::AdamW;
        c.learningRate = 0.01f;
        OneParam q;  // w * (1 - lr*wd) then the Adam step of size lr
        makeOptimizer(c)->step(q.params());
        QVERIFY(std::abs(q.w(0, 0) - (1.0f * (1 - 0.002f) - 0.01f)) < 1e-5f);
        // Biases (decays = false) are never decayed.
        Matrix b = Matrix::Constant(1, 1, 1.0f), gb = Matrix::Zero(1, 1);
        c.kind = OptimizerKind::SGD;
        makeOptimizer(c)->step({{&b, &gb, false}});
        QCOMPARE(b(0, 0), 1.0f);
    }

    void rmspropFirstStep() {
        OptimizerConfig c;
        c.kind = OptimizerKind::RMSProp;
        c.learningRate = 0.01f;
        c.rho = 0.9f;
        OneParam p;  // s = 0.1 * 0.25 = 0.025; step = 0.01 * 0.5 / sqrt(0.025)
        makeOptimizer(c)->step(p.params());
        QVERIFY(std::abs(p.w(0, 0) - (1 - 0.01f * 0.5f / std::sqrt(0.025f))) < 1e-5f);
    }

    void schedules() {
        Schedule step = parseSchedule("step:2:0.5");
        QCOMPARE(step.rate(1.0f, 0), 1.0f);
        QCOMPARE(step.rate(1.0f, 1), 1.0f);
        QCOMPARE(step.rate(1.0f, 2), 0.5f);
        QCOMPARE(step.rate(1.0f, 5), 0.25f);
        Schedule cosine = parseSchedule("cosine:0.1");
        cosine.totalEpochs = 5;
        QCOMPARE(cosine.rate(1.0f, 0), 1.0f);
        QVERIFY(std::abs(cosine.rate(1.0f, 2) - 0.55f) < 1e-6f);
        QVERIFY(std::abs(cosine.rate(1.0f, 4) - 0.1f) < 1e-6f);
        for (const char* bad : {"step:0:0.5", "step:3", "linear", "cosine:x", "step:5:0.5x", "cosine:0.1y"})
            QVERIFY_THROWS_EXCEPTION(Error, parseSchedule(bad));
    }

    void trainerLearnsRings() {
        Matrix x, y, xt, yt;
        rings(2000, 1, x, y);
        rings(500, 2, xt, yt);
        Network net(ringSpec(), 3);
        Trainer trainer(net, quickConfig(15), Task::Classification);
        std::vector<EpochStats> seen;
        TrainCallbacks cb;
        cb.onEpoch = [&](const EpochStats& s) { seen.push_back(s); };
        const TrainResult r = trainer.fit(x, y, &xt, &yt, cb);
        QCOMPARE(r.status, TrainStatus::Completed);
        QCOMPARE(int(r.history.size()), 15);
        QCOMPARE(int(seen.size()), 15);
        QVERIFY(seen.back().hasValidation);
        QVERIFY2(seen.back().validationMetric >= 0.97, std::to_string(seen.back().validationMetric).c_str());
        QVERIFY(seen.back().loss < seen.front().loss);
        QVERIFY(r.wallSeconds > 0 && r.cpuSeconds > 0 && r.peakModelBytes > 0);
        const auto m = classificationMetrics(trueClasses(yt), predictedClasses(net.predict(xt)), 2);
        QCOMPARE(m.accuracy, trainer.evaluate(xt, yt).metric);
        QCOMPARE(m.confusion[0][0] + m.confusion[0][1] + m.confusion[1][0] + m.confusion[1][1], 500L);
    }

    void sameSeedSameResult() {
        Matrix x, y;
        rings(600, 4, x, y);
        auto run = [&](std::uint64_t seed) {
            Network net(ringSpec(), seed);
            TrainConfig c = quickConfig(3);
            c.seed = seed;
            Trainer(net, c, Task::Classification).fit(x, y);
            return net.flatWeights();
        };
        QVERIFY(run(5) == run(5));
        QVERIFY(run(5) != run(6));
    }

    void pauseBlocksUntilResumedOrCancelled() {
        CancelToken token;
        token.pause();
        std::atomic<bool> returned{false};
        std::thread waiter([&] {
            token.waitWhilePaused();
            returned = true;
        });
        QTest::qWait(150);
        QVERIFY(!returned);
        token.resume();
        waiter.join();
        QVERIFY(returned);
        token.pause();
        returned = false;
        std::thread second([&] {
            token.waitWhilePaused();
            returned = true;
        });
        token.cancel();  // lock-free: what a signal handler may call
        second.join();
        QVERIFY(returned && token.cancelled());
    }

    void pauseKeepsItsIntervals() {
        using namespace std::chrono_literals;
        CancelToken token;
        const auto origin = CancelToken::Clock::now();
        QCOMPARE(token.pausedSeconds(), 0.0);
        QVERIFY(token.pausesSince(origin).empty());
        token.pause();
        std::this_thread::sleep_for(30ms);
        token.pause();  // pausing again changes nothing: still the one pause
        QVERIFY(token.pausedSeconds() >= 0.03);
        const std::vector<PauseInterval> ongoing = token.pausesSince(origin);
        QCOMPARE(int(ongoing.size()), 1);
        QVERIFY(ongoing[0].startSeconds >= 0 && ongoing[0].endSeconds - ongoing[0].startSeconds >= 0.03);
        token.resume();
        const double first = token.pausedSeconds();
        const auto afterFirst = CancelToken::Clock::now();
        std::this_thread::sleep_for(20ms);
        QCOMPARE(token.pausedSeconds(), first);  // running: the total holds still
        token.resume();                          // resuming a running token changes nothing
        QCOMPARE(token.pausedSeconds(), first);
        CancelToken sibling = token.linked();  // a submodel's token pauses with the run's
        sibling.pause();
        QVERIFY(token.paused());
        std::this_thread::sleep_for(10ms);
        sibling.resume();
        const std::vector<PauseInterval> both = token.pausesSince(origin);
        QCOMPARE(int(both.size()), 2);
        QVERIFY(both[0].endSeconds <= both[1].startSeconds);
        const double lengths = (both[0].endSeconds - both[0].startSeconds) +
                               (both[1].endSeconds - both[1].startSeconds);
        QVERIFY2(std::abs(lengths - token.pausedSeconds()) < 1e-6, std::to_string(lengths).c_str());
        // An origin after the first pause: only the second, on that origin's clock.
        const std::vector<PauseInterval> later = token.pausesSince(afterFirst);
        QCOMPARE(int(later.size()), 1);
        QVERIFY(later[0].startSeconds >= 0.02);
    }

    // A run paused for a measured interval reports wall seconds without it: the pause lies inside
    // fit(), so the run's wall time plus the pause is at most the call's whole duration (before,
    // it was the call's whole duration). The epochs' seconds leave it out the same way.
    void pausedTimeIsNotTrainingTime() {
        Matrix x, y;
        rings(400, 9, x, y);
        Network net(ringSpec(), 2);
        Trainer trainer(net, quickConfig(4), Task::Classification);
        CancelToken token;
        std::thread resumer;
        TrainCallbacks cb;
        cb.onEpoch = [&](const EpochStats& s) {
            if (s.epoch != 2) return;
            token.pause();  // the third epoch's first batch waits for the resumer
            resumer = std::thread([&token] {
                std::this_thread::sleep_for(std::chrono::milliseconds(400));
                token.resume();
            });
        };
        const auto start = CancelToken::Clock::now();
        const TrainResult r = trainer.fit(x, y, nullptr, nullptr, cb, &token);
        const double call = std::chrono::duration<double>(CancelToken::Clock::now() - start).count();
        resumer.join();
        QCOMPARE(r.status, TrainStatus::Completed);
        const double paused = token.pausedSeconds();
        QVERIFY(paused >= 0.4);
        QVERIFY(r.wallSeconds > 0);
        QVERIFY2(r.wallSeconds + paused <= call + 1e-6,
                 (std::to_string(r.wallSeconds) + " + " + std::to_string(paused) + " > " + std::to_string(call))
                     .c_str());
        double epochs = 0;
        for (const EpochStats& e : r.history) {
            epochs += e.seconds;
            QCOMPARE(e.samplesPerSecond, 400.0 / e.seconds);
        }
        QVERIFY2(epochs <= r.wallSeconds + 1e-6,
                 (std::to_string(epochs) + " > " + std::to_string(r.wallSeconds)).c_str());
        QVERIFY2(r.history[2].seconds + paused <= call + 1e-6, std::to_string(r.history[2].seconds).c_str());
    }

    void sameSeedSameResultWithTwoThreads() {
        // Large enough for the batch to be split over two replicas (a step of ~60 MFLOP).
        Matrix x, y;
        noise(512, 8, x, y);
        const NetworkSpec spec = wideSpec("dense:256:relu,dropout:0.1,dense:256:relu");
        auto run = [&] {
            Network net(spec, 3);
            TrainConfig c = quickConfig(2);
            c.batchSize = 128;
            c.threads = 2;
            Trainer(net, c, Task::Classification).fit(x, y);
            return net.flatWeights();
        };
        QVERIFY(run() == run());
    }

    void dropoutMasksDoNotDependOnThreads() {
        // One plain SGD step on a batch big enough to be split over two replicas: the step moves the
        // weights by lr x gradient, so the same masks give the same weights up to float rounding
        // (the two replicas sum their halves in another order), and other masks would not.
        Matrix x, y;
        noise(256, 9, x, y);
        const NetworkSpec spec = wideSpec("dense:256:relu,dropout:0.5,dense:256:relu,dropout:0.5");
        auto step = [&](int threads) {
            Network net(spec, 5);
            TrainConfig c = quickConfig(1);
            c.optimizer.kind = OptimizerKind::SGD;
            c.optimizer.learningRate = 1.0f;
            c.threads = threads;
            Trainer trainer(net, c, Task::Classification);
            trainer.trainBatch(x.topRows(128), y.topRows(128));
            trainer.trainBatch(x.bottomRows(128), y.bottomRows(128));
            return net.flatWeights();
        };
        const std::vector<Scalar> one = step(1), two = step(2), start = Network(spec, 5).flatWeights();
        double moved = 0, differ = 0;
        for (std::size_t i = 0; i < one.size(); ++i) {
            moved = std::max(moved, double(std::abs(one[i] - start[i])));
            differ = std::max(differ, double(std::abs(one[i] - two[i])));
        }
        QVERIFY2(moved > 1e-2, std::to_string(moved).c_str());
        QVERIFY2(differ < 1e-5, std::to_string(differ).c_str());
    }

    void earlyStoppingRestoresBest() {
        Matrix x, y, xv, yv;
        rings(300, 5, x, y);
        rings(300, 6, xv, yv);
        Network net(ringSpec(), 1);
        TrainConfig c = quickConfig(200);
        c.optimizer.learningRate = 0.05f;
        c.earlyStopping.enabled = true;
        c.earlyStopping.patience = 3;
        std::vector<std::vector<Scalar>> weightsAfterEpoch;
        TrainCallbacks cb;
        cb.onEpoch = [&](const EpochStats&) { weightsAfterEpoch.push_back(net.flatWeights()); };
        Trainer trainer(net, c, Task::Classification);
        const TrainResult r = trainer.fit(x, y, &xv, &yv, cb);
        QCOMPARE(r.status, TrainStatus::EarlyStopped);
        QCOMPARE(int(r.history.size()), r.bestEpoch + 3);
        double best = 1e9;
        int bestEpoch = 0;
        for (const auto& s : r.history)
            if (s.validationLoss < best) best = s.validationLoss, bestEpoch = s.epoch;
        QCOMPARE(r.bestEpoch, bestEpoch);
        QVERIFY(net.flatWeights() == weightsAfterEpoch[std::size_t(bestEpoch - 1)]);
    }

    void cancelStopsTheEpochsEvaluations_data() {
        QTest::addColumn<int>("task");
        QTest::newRow("validation") << int(Task::Classification);
        QTest::newRow("regression metric on the training rows") << int(Task::Regression);
    }
    void cancelStopsTheEpochsEvaluations() {
        // Cancelled during the last batch of the first epoch: what remains of the epoch is its
        // evaluations (validation; the regression metric over every training row), and they stop too.
        QFETCH(int, task);
        Matrix x, y, xv, yv;
        rings(640, 3, x, y);
        rings(20000, 4, xv, yv);
        NetworkSpec spec = ringSpec();
        TrainConfig c = quickConfig(3);
        c.batchReportSeconds = 0;
        if (Task(task) == Task::Regression) {
            spec.setOutputFor(Task::Regression, 2);
            c.loss = LossKind::MeanSquaredError;
        }
        Network net(spec, 1);
        CancelToken token;
        int epochs = 0;
        TrainCallbacks cb;
        cb.onBatch = [&](const BatchProgress& p) {
            if (p.batch == p.batches) token.cancel();
        };
        cb.onEpoch = [&](const EpochStats&) { ++epochs; };
        const TrainResult r = Trainer(net, c, Task(task)).fit(x, y, &xv, &yv, cb, &token);
        QCOMPARE(r.status, TrainStatus::Cancelled);
        QCOMPARE(epochs, 0);
        QCOMPARE(int(r.history.size()), 0);
    }

    void cancelStopsAtABatchBoundary() {
        Matrix x, y;
        rings(3200, 7, x, y);
        Network net(ringSpec(), 1);
        CancelToken token;
        int batches = 0;
        TrainCallbacks cb;
        TrainConfig c = quickConfig(50);
        c.batchReportSeconds = 0;  // report every batch
        cb.onBatch = [&](const BatchProgress& p) {
            ++batches;
            if (p.epoch == 2 && p.batch == 10) token.cancel();
        };
        const TrainResult r = Trainer(net, c, Task::Classification).fit(x, y, nullptr, nullptr, cb, &token);
        QCOMPARE(r.status, TrainStatus::Cancelled);
        QCOMPARE(int(r.history.size()), 1);
        QCOMPARE(batches, 100 + 10);
    }

    void divergenceNamesEpochAndBatch() {
        Matrix x, y;
        rings(256, 8, x, y);
        Matrix bad = Matrix::Constant(x.rows(), x.cols(), std::nanf(""));
        Network net(ringSpec(), 1);
        const TrainResult r = Trainer(net, quickConfig(3), Task::Classification).fit(bad, y);
        QCOMPARE(r.status, TrainStatus::Failed);
        QVERIFY2(r.error.find("NaN at epoch 1, batch 1 ") != std::string::npos, r.error.c_str());
        // Huge inputs: the clamped first loss is finite, the step overflows the weights, and the
        // next batch reports it.
        x *= 1e30f;
        Network net2(ringSpec(), 1);
        const TrainResult r2 = Trainer(net2, quickConfig(3), Task::Classification).fit(x, y);
        QCOMPARE(r2.status, TrainStatus::Failed);
        QVERIFY2(r2.error.find("at epoch 1, batch 2 ") != std::string::npos, r2.error.c_str());
        QVERIFY(r2.history.empty());
    }

    void lossMustSuitTheOutput() {
        NetworkSpec spec = ringSpec();
        spec.setOutputFor(Task::Regression, 2);
        Network net(spec, 1);
        try {
            Trainer(net, quickConfig(1), Task::Regression);
            QFAIL("cross-entropy on a linear output was accepted");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("needs a softmax output") != std::string::npos, e.what());
        }
        TrainConfig mse = quickConfig(1);
        mse.loss = LossKind::MeanSquaredError;
        Trainer ok(net, mse, Task::Regression);  // any loss without a fused activation is fine
    }

    void batchSplitGivesTheWholeBatchGradient_data() {
        QTest::addColumn<QString>("layers");
        QTest::newRow("no dropout") << "dense:32:tanh,dropout:0.0,dense:16:relu";
        // Each row's mask comes from its place in the batch, not from the replica that runs it: the
        // three slices together draw the masks one pass over the whole batch draws.
        QTest::newRow("dropout") << "dense:32:tanh,dropout:0.3,dense:16:relu,dropout:0.5";
    }
    void batchSplitGivesTheWholeBatchGradient() {
        QFETCH(QString, layers);
        Matrix x, y;
        rings(96, 12, x, y);
        NetworkSpec spec = ringSpec();
        spec.layers = parseLayers(layers.toStdString());
        Network whole(spec, 4), split(spec, 4);
        const auto loss = makeLoss(LossKind::SoftmaxCrossEntropy);
        Matrix grad;
        whole.setBatchOrigin(7, 0);
        const auto a = forwardBackward(whole, *loss, Task::Classification, x, y, x.rows(), grad);
        BatchSplit batchSplit;
        const auto b = batchSplit.computeGradients(split, *loss, Task::Classification, x, y, 7, 3, 3);
        QVERIFY(std::abs(a.loss - b.loss) < 1e-6);
        QCOMPARE(a.metricSum, b.metricSum);
        auto pa = whole.params(), pb = split.params();
        for (std::size_t i = 0; i < pa.size(); ++i)
            QVERIFY2(pa[i].grad->isApprox(*pb[i].grad, 1e-5f), ("param " + std::to_string(i)).c_str());
        // Replicas follow the master's weights at every step.
        *pb[0].value *= 0.5f;
        *pa[0].value *= 0.5f;
        const auto c = batchSplit.computeGradients(split, *loss, Task::Classification, x, y, 8, 3, 3);
        whole.setBatchOrigin(8, 0);
        const auto d = forwardBackward(whole, *loss, Task::Classification, x, y, x.rows(), grad);
        QVERIFY(std::abs(c.loss - d.loss) < 1e-6);
        QVERIFY(pa[0].grad->isApprox(*pb[0].grad, 1e-5f));
    }

    void batchSplitCountsEverySliceWhenOpenMPGrantsFewerThreads() {
        // A region nested in an active one gets a team of 1 (nesting is off by default), as any
        // region may under OMP_THREAD_LIMIT or OMP_DYNAMIC: the two other slices must still count.
        Matrix x, y;
        rings(96, 13, x, y);
        Network whole(ringSpec(), 5), split(ringSpec(), 5);
        const auto loss = makeLoss(LossKind::SoftmaxCrossEntropy);
        Matrix grad;
        const auto a = forwardBackward(whole, *loss, Task::Classification, x, y, x.rows(), grad);
        BatchSplit batchSplit;
        BatchSplit::Step b;
        std::vector<int> visits(4, 0);
        parallelRegion(2, [&](int t) {
            if (t != 0) return;
            b = batchSplit.computeGradients(split, *loss, Task::Classification, x, y, 0, 3, 3);
            parallelRegion(4, [&](int slot) { ++visits[std::size_t(slot)]; });
        });
        QCOMPARE(visits, std::vector<int>(4, 1));
        QVERIFY(std::abs(a.loss - b.loss) < 1e-6);
        QCOMPARE(a.metricSum, b.metricSum);
        auto pa = whole.params(), pb = split.params();
        for (std::size_t i = 0; i < pa.size(); ++i)
            QVERIFY2(pa[i].grad->isApprox(*pb[i].grad, 1e-5f), ("param " + std::to_string(i)).c_str());
    }

    void slicesDependOnTheBatchAndTheNetworkOnly() {
        Network wide(wideSpec("dense:256:relu,dense:256:relu"), 1);
        std::int64_t flops = 0;
        for (const auto& l : wide.layers()) flops += l->flopsPerSample();
        QCOMPARE(flops, std::int64_t(2 * (64 * 256 + 256 * 256 + 256 * 4)));
        // About 64 rows a slice, rounded to the nearest count, at most kMaxSlices.
        QCOMPARE(BatchSplit::slicesFor(32, flops), 1);
        QCOMPARE(BatchSplit::slicesFor(95, flops), 1);
        QCOMPARE(BatchSplit::slicesFor(96, flops), 2);
        QCOMPARE(BatchSplit::slicesFor(128, flops), 2);
        QCOMPARE(BatchSplit::slicesFor(192, flops), 3);
        QCOMPARE(BatchSplit::slicesFor(100000, flops), BatchSplit::kMaxSlices);
        // A slice of the ring network is far less than 4 MFLOP of work: one slice, one thread.
        QCOMPARE(BatchSplit::slicesFor(128, 2 * (2 * 32 + 32 * 16 + 16 * 2)), 1);
        // Forward, backward twice that: 128 rows of 32 kFLOP are 12.3 MFLOP, 3 slices' worth but
        // 2 by rows; 640 rows of 10 kFLOP are 19.2 MFLOP, 10 slices by rows but 4 by work.
        QCOMPARE(BatchSplit::slicesFor(128, 32000), 2);
        QCOMPARE(BatchSplit::slicesFor(640, 10000), 4);
    }

    void batchSplitGradientsDoNotDependOnThreads() {
        Matrix x, y;
        noise(200, 21, x, y);
        const NetworkSpec spec = wideSpec("dense:64:tanh,dropout:0.3,dense:32:relu");
        const auto loss = makeLoss(LossKind::SoftmaxCrossEntropy);
        auto gradients = [&](int threads) {
            Network net(spec, 6);
            BatchSplit split;
            const auto step = split.computeGradients(net, *loss, Task::Classification, x, y, 3, 4, threads);
            std::vector<Scalar> all;
            for (const auto& p : net.params()) all.insert(all.end(), p.grad->data(), p.grad->data() + p.grad->size());
            all.push_back(Scalar(step.loss));
            all.push_back(Scalar(step.metricSum));
            return all;
        };
        const std::vector<Scalar> one = gradients(1);
        QVERIFY(std::any_of(one.begin(), one.end(), [](Scalar g) { return g != 0; }));
        for (int threads : {2, 3, 4, 7}) QVERIFY2(gradients(threads) == one, std::to_string(threads).c_str());
    }

    void trainingDoesNotDependOnKernelThreads() {
        // Batches of 192 rows are 3 slices (2 threads take 2 and 1), the epoch's last batch of
        // 124 rows 2 slices; dropout, and a validation set of more than one prediction chunk.
        Matrix x, y, xv, yv;
        noise(700, 22, x, y);
        noise(1100, 23, xv, yv);
        const NetworkSpec spec = wideSpec("dense:256:relu,dropout:0.2,dense:256:relu,dropout:0.1");
        auto run = [&](int threads) {
            Network net(spec, 8);
            TrainConfig c = quickConfig(3);
            c.batchSize = 192;
            c.optimizer.kind = OptimizerKind::Adam;
            c.threads = threads;
            const TrainResult r = Trainer(net, c, Task::Classification).fit(x, y, &xv, &yv);
            std::vector<double> history;
            for (const EpochStats& e : r.history)
                history.insert(history.end(),
                               {e.loss, e.metric, e.validationLoss, e.validationMetric, double(e.learningRate)});
            return std::make_pair(net.flatWeights(), history);
        };
        const auto one = run(1);
        QCOMPARE(int(one.second.size()), 3 * 5);
        QVERIFY(one.first != Network(spec, 8).flatWeights());
        for (int threads : {2, 3}) {
            const auto other = run(threads);
            QVERIFY2(other.first == one.first, std::to_string(threads).c_str());
            QCOMPARE(other.second, one.second);
        }
    }

    void kernelThreadsMayChangeBetweenBatches() {
        // A scheduler hands a running model cores between its batches: 1, 2, 3, 1, ... threads
        // give the floats of one thread throughout.
        Matrix x, y, xv, yv;
        noise(700, 22, x, y);
        noise(300, 23, xv, yv);
        const NetworkSpec spec = wideSpec("dense:256:relu,dropout:0.2,dense:256:relu");
        auto run = [&](bool changing, int& asked) {
            Network net(spec, 8);
            TrainConfig c = quickConfig(3);
            c.batchSize = 192;
            c.optimizer.kind = OptimizerKind::Adam;
            TrainCallbacks cb;
            if (changing) cb.kernelThreads = [&asked] { return 1 + asked++ % 3; };
            const TrainResult r = Trainer(net, c, Task::Classification).fit(x, y, &xv, &yv, cb);
            return std::make_pair(net.flatWeights(), r.history);
        };
        int asked = 0;
        const auto one = run(false, asked);
        const auto changing = run(true, asked);
        QCOMPARE(one.second.size(), std::size_t(3));
        QCOMPARE(asked, 3 * 4);  // before each of the 4 batches of every epoch
        QVERIFY(changing.first == one.first);
        QCOMPARE(changing.second.back().validationLoss, one.second.back().validationLoss);
    }

    void rowViewsTrainLikeCopies() {
        // Rows picked from shared matrices train and validate exactly like copies of those rows;
        // the validation rows span two prediction chunks. Their bytes count as the copies' would.
        Matrix x, y, xv, yv;
        noise(900, 31, x, y);
        noise(2500, 32, xv, yv);
        std::vector<int> rows, valRows;
        for (int r = 0; r < 900; ++r)
            if (r % 3 != 1) rows.push_back(r);
        for (int r = 2499; r >= 0; r -= 2) valRows.push_back(r);  // any order
        const auto copy = [](const Matrix& m, const std::vector<int>& pick) {
            Matrix out(Index(pick.size()), m.cols());
            for (std::size_t i = 0; i < pick.size(); ++i) out.row(Index(i)) = m.row(pick[i]);
            return out;
        };
        const Matrix xc = copy(x, rows), yc = copy(y, rows), xvc = copy(xv, valRows), yvc = copy(yv, valRows);
        const NetworkSpec spec = wideSpec("dense:64:relu,dropout:0.1,dense:32:relu");
        TrainConfig c = quickConfig(3);
        c.batchSize = 64;
        c.earlyStopping.enabled = true;
        Network copied(spec, 5), viewed(spec, 5);
        Trainer byCopy(copied, c, Task::Classification), byView(viewed, c, Task::Classification);
        const TrainResult a = byCopy.fit(xc, yc, &xvc, &yvc);
        const RowView view{&x, &rows}, valView{&xv, &valRows};
        const TrainResult b = byView.fit(view, yc, &valView, &yvc);
        QCOMPARE(b.history.size(), std::size_t(3));
        QVERIFY(copied.flatWeights() == viewed.flatWeights());
        for (std::size_t e = 0; e < a.history.size(); ++e) {
            QCOMPARE(b.history[e].loss, a.history[e].loss);
            QCOMPARE(b.history[e].validationLoss, a.history[e].validationLoss);
            QCOMPARE(b.history[e].validationMetric, a.history[e].validationMetric);
        }
        QCOMPARE(b.dataBytes, a.dataBytes);
        QCOMPARE(b.dataBytes, std::int64_t(rows.size() * (64 + 4) + valRows.size() * (64 + 4)) * 4);
        const Evaluation ev = byView.evaluate(valView, yvc), ec = byCopy.evaluate(xvc, yvc);
        QVERIFY(ev.output == ec.output);
        QCOMPARE(ev.loss, ec.loss);
        // A view's rows must match its targets, as a matrix's must.
        VERIFY_CONTAINS(errorOf([&] { byView.trainEpoch(view, yvc, nullptr, nullptr); }),
                        "600 samples but 1250 target rows");
        // And its rows must lie inside its matrix.
        std::vector<int> outside = rows;
        outside.back() = 900;
        const RowView bad{&x, &outside};
        VERIFY_CONTAINS(errorOf([&] { byView.trainEpoch(bad, yc, nullptr, nullptr); }),
                        "training row 900 is outside the data's 900 rows");
        VERIFY_CONTAINS(errorOf([&] { byView.trainEpoch(view, yc, &bad, &yc); }), "validation row 900 is outside");
        VERIFY_CONTAINS(errorOf([&] { byView.evaluate(bad, yc); }), "evaluation row 900 is outside");
        CancelToken stopped;
        stopped.cancel();
        QCOMPARE(byView.evaluate(valView, yvc, &stopped).output.rows(), Index(0));
    }

    void cnnWithBatchNormDoesNotDependOnKernelThreads() {
        // 8x8 images, batches of 192 rows in 3 slices: batch norm normalises each slice by its own
        // statistics and folds all three into its running values in row order, whichever thread
        // ran which slice.
        Matrix x, y;
        noise(400, 24, x, y);
        NetworkSpec spec;
        spec.input = Shape{1, 8, 8};
        spec.layers = parseLayers("conv:16:3x3:same:linear,bn,activation:relu,conv:16:3x3:relu,maxpool:2,flatten,bn");
        trainsAlikeOnAnyThreads(spec, x, y, [](Network& one) {
            // The state moved.
            return !dynamic_cast<BatchNorm&>(*one.layers()[1]).runningMean().isZero();
        });
    }

    void cnnPoolingInItsConvolutionsDoesNotDependOnKernelThreads() {
        // The CNN in small: each convolution takes its ReLU and max pool, the first hands
        // its output to the second as blocks: whole ones, and a part-full one in the epoch's last,
        // shorter batch (410 rows).
        Matrix x8, y;
        noise(410, 25, x8, y);
        // 12 x 12 images: the 8 x 8 noise twice, then its first 16 values again.
        Matrix x(410, 144);
        x << x8, x8, x8.leftCols(16);
        NetworkSpec spec;
        spec.input = Shape{1, 12, 12};
        spec.layers = parseLayers("conv:8:3x3:relu,maxpool:2,conv:8:3x3:relu,maxpool:2,flatten,dense:6:relu");
        trainsAlikeOnAnyThreads(spec, x, y, [](Network& one) {
            return dynamic_cast<const Conv2D&>(*one.layers()[0]).handsBlocks();
        });
    }

    void stepApiMatchesFit() {
        Matrix x, y;
        rings(256, 9, x, y);
        Network a(ringSpec(), 2), b(ringSpec(), 2);
        TrainConfig c = quickConfig(2);
        Trainer(a, c, Task::Classification).fit(x, y);
        Trainer stepper(b, c, Task::Classification);
        QVERIFY(stepper.trainEpoch(x, y, nullptr, nullptr).status == TrainStatus::Completed);
        QVERIFY(stepper.trainEpoch(x, y, nullptr, nullptr).status == TrainStatus::Completed);
        QCOMPARE(stepper.epochsDone(), 2);
        QVERIFY(a.flatWeights() == b.flatWeights());
        // One batch step lowers the loss on that batch for a small learning rate.
        const double before = stepper.evaluate(x.topRows(32), y.topRows(32)).loss;
        stepper.trainBatch(x.topRows(32), y.topRows(32));
        QVERIFY(stepper.evaluate(x.topRows(32), y.topRows(32)).loss < before);
    }

    void regressionAndBinaryLearn() {
        Rng rng(3);
        Matrix x(1500, 3), y(1500, 2), yb(1500, 1);
        for (int i = 0; i < 1500; ++i) {
            for (int j = 0; j < 3; ++j) x(i, j) = rng.uniform(-2, 2);
            y(i, 0) = std::sin(x(i, 0)) + 0.5f * x(i, 1);
            y(i, 1) = x(i, 2) * x(i, 2) - 1;
            yb(i, 0) = x(i, 0) * x(i, 1) > 0 ? 1 : 0;
        }
        NetworkSpec spec;
        spec.input = Shape::flat(3);
        spec.layers = parseLayers("dense:32:tanh,dense:32:tanh");
        spec.setOutputFor(Task::Regression, 2);
        Network reg(spec, 1);
        TrainConfig c = quickConfig(40);
        c.loss = LossKind::MeanSquaredError;
        Trainer rt(reg, c, Task::Regression);
        rt.fit(x, y);
        QVERIFY(regressionMetrics(reg.predict(x), y).r2 > 0.95);
        spec.setOutputFor(Task::Binary, 1);
        spec.layers = parseLayers("dense:32:relu,dense:16:relu");
        Network bin(spec, 1);
        c.loss = LossKind::BinaryCrossEntropy;
        Trainer bt(bin, c, Task::Binary);
        bt.fit(x, yb);
        QVERIFY(bt.evaluate(x, yb).metric > 0.95);
    }

    void metricsWorkedExample() {
        const auto m = classificationMetrics({0, 0, 1, 1, 2, 2}, {0, 1, 1, 1, 2, 0}, 3);
        QCOMPARE(m.accuracy, 4.0 / 6);
        QCOMPARE(m.confusion[0][1], 1L);
        QCOMPARE(m.precision[1], 2.0 / 3);
        QCOMPARE(m.recall[0], 0.5);
        Matrix out(3, 1), target(3, 1);
        out << 1, 2, 4;
        target << 1, 3, 2;
        const auto r = regressionMetrics(out, target);
        QCOMPARE(r.mse, 5.0 / 3);
        QCOMPARE(r.mae, 1.0);
        QVERIFY(std::abs(r.r2 - (1 - 5.0 / (2.0 / 3 * 3))) < 1e-12);

        // A one-class softmax column reads as a sigmoid, class 1 of 1 class: refused, not written past the matrix.
        Matrix one = Matrix::Ones(2, 1);
        QCOMPARE(errorOf([&] { classificationMetrics(trueClasses(one), predictedClasses(one), 1); }),
                 std::string("classification metrics: sample 1 has class 1, predicted 1, outside the 1 classes"));
        QCOMPARE(errorOf([] {
                     classificationMetrics({0, 1}, {0}, 2);
                 }),
                 std::string("classification metrics: 2 true classes for 1 predictions"));
    }
};

QTEST_APPLESS_MAIN(TestTraining)
#include "tst_training.moc"
