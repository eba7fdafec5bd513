// The engine's one run path (engine/run/runner.h): the order of its steps as an observer sees them,
// a stop and a failure told as outcomes, the network-alone run, the rows it measures on, its
// checkpoints (RunData's JSON form: tst_run_data).
#include <QTemporaryDir>
#include <QTest>
#include <mutex>

#include "project/checkpoint_store.h"
#include "run/runner.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// Everything the runner tells, as lines, in order (the submodels' events only by their count).
class Recorder : public RunObserver {
public:
    std::vector<std::string> steps;
    int submodelEpochs = 0, submodelEnds = 0;

    void dataReady(const PreparedData&) override { add("data"); }
    void planned(const SplitPlan& plan, const RunRequest&) override {
        add("planned " + std::to_string(plan.submodelCount()));
    }
    void networkPlanned(const NetworkSpec&, const PreparedData&, const RunRequest&) override { add("network planned"); }
    void resuming(const std::string&, const std::string& progress) override { add("resuming " + progress); }
    SubmodelEvents submodelEvents() override {
        add("submodel events");
        SubmodelEvents e;
        e.onEpoch = [this](int, const EpochStats&) {
            std::lock_guard lock(mutex_);
            ++submodelEpochs;
        };
        e.onSubmodelFinished = [this](int, const TrainResult&) {
            std::lock_guard lock(mutex_);
            ++submodelEnds;
        };
        return e;
    }
    void modelStarted(RunModel m, const WorkerPlace&) override { add(std::string("started ") + runModelName(m)); }
    TrainCallbacks modelCallbacks(RunModel m) override {
        add(std::string("callbacks ") + runModelName(m));
        return {};
    }
    void modelFinished(RunModel m, const TrainResult& r) override {
        add(std::string("finished ") + runModelName(m) + " " + statusName(r.status));
    }
    void log(const std::string& line) override {
        add("log " + line.substr(0, line.find_first_of(":0123456789")));
        std::lock_guard lock(mutex_);
        lines.push_back(line);
    }
    std::vector<std::string> lines;  // the log's whole lines
    std::string lineStarting(const std::string& start) const {
        for (const std::string& l : lines)
            if (l.rfind(start, 0) == 0) return l;
        return {};
    }

private:
    std::mutex mutex_;
    void add(const std::string& s) {
        std::lock_guard lock(mutex_);
        steps.push_back(s);
    }
};

RunData blobs(int samples = 240) {
    RunData d;
    d.train.path = "builtin:blobs:classes=6:features=5:samples=" + std::to_string(samples);
    d.preparation.validationFraction = 0.2;
    d.preparation.testFraction = 0.2;
    return d;
}

RunRequest splitRequest() {
    RunRequest r;
    r.data = blobs();
    r.network.layers = parseLayers("dense:16:relu");
    SplitOptions split;
    split.strategy = Strategy::ClassGroups;
    split.requested = 3;
    r.split = split;
    r.config.epochs = 3;
    r.config.batchSize = 32;
    r.baseline = true;
    r.threads = 2;
    return r;
}

}  // namespace

class TestRun : public QObject {
    Q_OBJECT

private slots:
    // runner.h's order: data, plan, the submodels (and the stacked rule's fit), the baseline, the measurement, the
    // record.
    void splitRunTellsItsStepsInOrder() {
        Recorder seen;
        const RunOutcome out = performRun(splitRequest(), seen, CancelToken());
        QCOMPARE(out.status, TrainStatus::Completed);
        const std::vector<std::string> expected = {"data",
                                                   "planned 3",
                                                   "log training ",
                                                   "submodel events",
                                                   "log split run",
                                                   "log stacked rule",  // fitted on the validation rows
                                                   "log baseline",
                                                   "started baseline",
                                                   "callbacks baseline",
                                                   "finished baseline completed",
                                                   "log baseline",
                                                   "log finished"};
        QCOMPARE(seen.steps, expected);
        QCOMPARE(seen.submodelEnds, 3);
        QCOMPARE(seen.submodelEpochs, 3 * out.plan->effectiveEpochs);
        // Measured on the test rows (HeldOut has them), the combined model and the baseline alike.
        QCOMPARE(out.evaluatedOn, std::string("test"));
        QCOMPARE(out.evaluatedSamples, long(out.data->test.size()));
        QVERIFY(out.combined && out.baselineEvaluation);
        QCOMPARE(out.combined->output.rows(), Index(out.data->test.size()));
        QVERIFY(out.record && out.record->results && out.record->results->model);
        const ProjectResults& r = *out.record->results;
        QCOMPARE(r.combinedMetric, out.combined->metric);
        QCOMPARE(r.baselineMetric, out.baselineEvaluation->metric);
        QCOMPARE(r.submodelMetrics.size(), std::size_t(3));
        QVERIFY(out.message.rfind("combined accuracy ", 0) == 0);
        VERIFY_CONTAINS(out.message, " on test " + std::to_string(out.data->test.size()) + " samples, baseline ");
        QCOMPARE(out.record->message, out.message);
    }

    // The same request trains to the same bits on 1 and 2 threads (the backend hands cores around).
    void sameModelOnAnyThreadBudget() {
        RunRequest one = splitRequest(), two = splitRequest();
        one.threads = 1;
        Recorder a, b;
        const RunOutcome x = performRun(one, a, CancelToken()), y = performRun(two, b, CancelToken());
        QCOMPARE(x.record->results->model->weights, y.record->results->model->weights);
        QCOMPARE(x.record->results->baselineWeights, y.record->results->baselineWeights);
    }

    void stopBeforeTrainingIsCancelledNotFailed() {
        CancelToken cancel;
        cancel.cancel();
        Recorder seen;
        const RunOutcome out = performRun(splitRequest(), seen, cancel);
        QCOMPARE(out.status, TrainStatus::Cancelled);
        QCOMPARE(out.message, std::string(" before training started"));
        QVERIFY(!out.record);
    }

    // A bad request is a Failed outcome with the engine's message, never an exception.
    void badDataIsAFailureWithItsMessage() {
        RunRequest r = splitRequest();
        r.data->train.path = "builtin:nosuch";
        Recorder seen;
        const RunOutcome out = performRun(r, seen, CancelToken());
        QCOMPARE(out.status, TrainStatus::Failed);
        VERIFY_CONTAINS(out.message, "nosuch");
        QVERIFY(seen.steps.empty());
    }

    // Without a split the network trains alone; TestOnly without test rows measures nothing.
    void networkAloneAndNoTestRows() {
        RunRequest r = splitRequest();
        r.split.reset();
        r.baseline = false;
        r.data->preparation.testFraction = 0;
        r.evaluation = EvaluationRows::TestOnly;
        Recorder seen;
        const RunOutcome out = performRun(r, seen, CancelToken());
        QCOMPARE(out.status, TrainStatus::Completed);
        const std::vector<std::string> expected =
            {"data",        "network planned", "started network", "callbacks network", "finished network completed",
             "log network", "log finished"};
        QCOMPARE(seen.steps, expected);
        QVERIFY(out.network && !out.networkEvaluation && out.evaluatedOn.empty());
        QCOMPARE(int(out.networkResult.history.size()), 3);
        // HeldOut falls back to the validation rows.
        r.evaluation = EvaluationRows::HeldOut;
        Recorder again;
        const RunOutcome held = performRun(r, again, CancelToken());
        QCOMPARE(held.evaluatedOn, std::string("validation"));
        QCOMPARE(held.networkEvaluation->output.rows(), Index(held.data->validation.size()));
    }

    // Checkpoints: removed after a completed run unless kept; a folder holding a run is refused by
    // Fresh, replaced by Replace, continued by Resume (to the same model).
    void checkpointsOfARun() {
        QTemporaryDir dir;
        RunRequest r = splitRequest();
        r.checkpointFolder = dir.filePath("ck").toStdString();
        r.keepCheckpoints = true;
        Recorder first;
        const RunOutcome kept = performRun(r, first, CancelToken());
        QCOMPARE(kept.status, TrainStatus::Completed);
        QVERIFY(CheckpointStore::holdsRun(r.checkpointFolder));

        Recorder refused;
        const RunOutcome fresh = performRun(r, refused, CancelToken());
        QCOMPARE(fresh.status, TrainStatus::Failed);
        VERIFY_CONTAINS(fresh.message, "holds the checkpoints of an earlier run");

        r.checkpointStart = CheckpointStart::Resume;
        r.keepCheckpoints = false;
        Recorder resumed;
        const RunOutcome again = performRun(r, resumed, CancelToken());
        QCOMPARE(again.status, TrainStatus::Completed);
        QVERIFY2(resumed.steps.at(3).rfind("resuming 3 of 3 submodels finished", 0) == 0, resumed.steps.at(3).c_str());
        // Its wall and CPU are this session's, which only loaded the submodels; the CPU of the
        // session that trained them is told apart.
        QVERIFY(again.split->resumed());
        QCOMPARE(again.split->sessionCpuSeconds(), 0.0);
        QCOMPARE(again.split->cpuSeconds, kept.split->cpuSeconds);
        const std::string times = resumed.lineStarting("split run: ");
        VERIFY_CONTAINS(times, " s wall, 0.00 s CPU in this session; 3 submodel(s) continued from checkpoints, whose "
                               "earlier sessions spent ");
        VERIFY_CONTAINS(times, " s CPU in all)");
        QVERIFY(first.lineStarting("split run: ").find("this session") == std::string::npos);  // not resumed
        QCOMPARE(again.record->results->model->weights, kept.record->results->model->weights);
        QVERIFY(!CheckpointStore::holdsRun(r.checkpointFolder));  // removed once completed
    }
};

QTEST_GUILESS_MAIN(TestRun)
#include "tst_run.moc"
