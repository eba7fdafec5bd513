// The progress events of `skynnet-cli train --progress json` as typed values
// (engine/run/progress_event.h): every kind comes back unchanged from toJson through a line and
// progressEventFromJson; the lines version 0.1.0 wrote (copied from its writer's output) read as
// the values they were written from, and are written again as they were; an unknown kind is
// skipped and a bad field is refused by name.
#include <QtTest>

#include <cmath>
#include <limits>
#include <string>

#include "io/json.h"
#include "run/progress_event.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// What app/cli/json_progress.cpp of version 0.1.0 (commit 788a77e) wrote for the values that
// readsVersion010Lines expects, one line per kind and shape, byte for byte.
// (The escaped quotes are outside the raw strings, which moc would misread.)
const std::string planLine = R"({"event":"plan","submodels":2,"roles":["groups 1+2: classes 0-6",)"
                             "\"shard \\\"2\\\" of 4\""
                             R"(],"epochs":6,"baseline":true,"baseline_epochs":4})";
const std::string networkPlanLine =
    R"({"event":"plan","submodels":0,"roles":[],"epochs":3,"baseline":false,"baseline_epochs":0})";
const std::string startedLine =
    R"({"event":"started","model":"submodel","submodel":2,"rank":3,"host":"node2","threads":4})";
const std::string baselineStartedLine =
    R"({"event":"started","model":"baseline","submodel":0,"rank":0,"host":"vm","threads":2})";
const std::string batchLine =
    R"({"event":"batch","model":"submodel","submodel":2,"epoch":1,"batch":5,"batches":9,"loss":0.75})";
const std::string epochLine =
    R"({"event":"epoch","model":"submodel","submodel":2,"epoch":1,"loss":0.1,"metric":0.8125,"hasValidation":true,)"
    R"("validationLoss":0.6,"validationMetric":0.7,"seconds":1.5,"samplesPerSecond":1234.5678,"learningRate":0.001})";
const std::string divergedEpochLine =
    R"({"event":"epoch","model":"submodel","submodel":2,"epoch":2,"loss":"NaN","metric":"Infinity","hasValidation":false,)"
    R"("validationLoss":0.6,"validationMetric":0.7,"seconds":1.5,"samplesPerSecond":1234.5678,"learningRate":0.001})";
const std::string resourcesLine =
    R"({"event":"resources","model":"submodel","submodel":2,"rank":3,"host":"node2","elapsedSeconds":2.25,)"
    R"("cpuSeconds":1.25,"modelBytes":1000,"dataBytes":500,"processResidentBytes":9000000})";
const std::string finishedLine =
    R"({"event":"finished","model":"submodel","submodel":2,"status":"early_stopped","error":"","epochs_run":2,)"
    R"("wall_seconds":2.5,"cpu_seconds":4.75})";
const std::string baselineFailedLine =
    R"({"event":"finished","model":"baseline","submodel":0,"status":"failed","error":"epoch 1, batch 3: loss is NaN",)"
    R"("epochs_run":0,"wall_seconds":0.5,"cpu_seconds":0.25})";
const std::string splitResultLine =
    R"({"event":"result","model":"combined","status":"completed","submodels":2,"metric":"accuracy","test_accuracy":0.9,)"
    R"("test_loss":0.25,"submodel_test_metrics":[0.8,0.85],"baseline":{"status":"completed","train_seconds":3.5,)"
    R"("test_accuracy":0.875},"wall_seconds":12.5,"train_seconds":10.25,"cpu_seconds":20.5,"peak_memory_bytes":123456789,)"
    R"("model_path":"/tmp/m.skynnet","report_path":"/tmp/r.json"})";
const std::string networkResultLine =
    R"({"event":"result","model":"network","status":"completed","metric":"accuracy","wall_seconds":1.5,"train_seconds":1.25,)"
    R"("cpu_seconds":2.5,"peak_memory_bytes":1000,"model_path":"","report_path":""})";
// A project run's result: the report's fields, "model" and the figures set after them.
const std::string projectResultLine =
    R"({"event":"result","mode":"project","project":"/p/x.skynnet","run":2,"status":"completed",)"
    R"("message":"trained 2 submodels","metric":"accuracy","combined":0.9,"submodels":[0.8,0.85],"baseline":0.875,)"
    R"("wall_seconds":12.5,"train_seconds":10.25,"cpu_seconds":20.5,"peak_memory_bytes":123456789,"model":"combined",)"
    R"("model_path":"","report_path":"/tmp/r.json"})";
const std::string errorLine = R"({"event":"error","message":"no file 'x.csv'"})";

std::optional<ProgressEvent> readLine(const std::string& line) {
    const Json j = parseJson(line, "test line");
    return progressEventFromJson(JsonField(j, "test line"));
}

// The event of `line`, which must be a T.
template <typename T>
T readAs(const std::string& line) {
    const std::optional<ProgressEvent> e = readLine(line);
    if (!e) throw Error("no event read from " + line);
    if (!std::holds_alternative<T>(*e)) throw Error(std::string("a ") + eventName(*e) + " event read from " + line);
    return std::get<T>(*e);
}

// What a reader of the stream gets of `e`: its line, read back.
template <typename T>
T throughLine(const T& e) {
    return readAs<T>(dumpJson(toJson(ProgressEvent(e))));
}

// Equal, or both NaN (a diverged loss).
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

#define COMPARE_NUMBER(a, b) QVERIFY2(same((a), (b)), qPrintable(QString("%1 != %2").arg(a).arg(b)))

void compareTag(const ModelTag& a, const ModelTag& b) {
    QCOMPARE(a.model, b.model);
    QCOMPARE(a.submodel, b.submodel);
}

void comparePlace(const WorkerPlace& a, const WorkerPlace& b) {
    QCOMPARE(a.rank, b.rank);
    QCOMPARE(a.host, b.host);
    QCOMPARE(a.kernelThreads, b.kernelThreads);
}

void compareStats(const EpochStats& a, const EpochStats& b) {
    QCOMPARE(a.epoch, b.epoch);
    COMPARE_NUMBER(a.loss, b.loss);
    COMPARE_NUMBER(a.metric, b.metric);
    QCOMPARE(a.hasValidation, b.hasValidation);
    COMPARE_NUMBER(a.validationLoss, b.validationLoss);
    COMPARE_NUMBER(a.validationMetric, b.validationMetric);
    COMPARE_NUMBER(a.seconds, b.seconds);
    COMPARE_NUMBER(a.samplesPerSecond, b.samplesPerSecond);
    COMPARE_NUMBER(a.learningRate, b.learningRate);
}

void compareSample(const ResourceSample& a, const ResourceSample& b) {
    QCOMPARE(a.elapsedSeconds, b.elapsedSeconds);
    QCOMPARE(a.cpuSeconds, b.cpuSeconds);
    QCOMPARE(a.modelBytes, b.modelBytes);
    QCOMPARE(a.dataBytes, b.dataBytes);
    QCOMPARE(a.processResidentBytes, b.processResidentBytes);
}

void comparePlan(const PlanEvent& a, const PlanEvent& b) {
    QCOMPARE(a.submodels, b.submodels);
    QCOMPARE(a.roles, b.roles);
    QCOMPARE(a.epochs, b.epochs);
    QCOMPARE(a.baseline, b.baseline);
    QCOMPARE(a.baselineEpochs, b.baselineEpochs);
}

void compareFinished(const FinishedEvent& a, const FinishedEvent& b) {
    compareTag(a.tag, b.tag);
    QCOMPARE(a.status, b.status);
    QCOMPARE(a.error, b.error);
    QCOMPARE(a.epochsRun, b.epochsRun);
    QCOMPARE(a.wallSeconds, b.wallSeconds);
    QCOMPARE(a.cpuSeconds, b.cpuSeconds);
}

void compareResult(const ResultEvent& a, const ResultEvent& b) {
    QCOMPARE(a.model, b.model);
    QCOMPARE(a.status, b.status);
    QCOMPARE(a.message, b.message);
    QCOMPARE(a.wallSeconds, b.wallSeconds);
    QCOMPARE(a.trainSeconds, b.trainSeconds);
    QCOMPARE(a.cpuSeconds, b.cpuSeconds);
    QCOMPARE(a.peakMemoryBytes, b.peakMemoryBytes);
    QCOMPARE(a.modelPath, b.modelPath);
    QCOMPARE(a.reportPath, b.reportPath);
    QCOMPARE(dumpJson(a.details), dumpJson(b.details));
}

// The epoch the 0.1.0 lines were written from.
EpochStats firstEpoch() {
    EpochStats s;
    s.epoch = 1;
    s.loss = 0.1;
    s.metric = 0.8125;
    s.hasValidation = true;
    s.validationLoss = 0.6;
    s.validationMetric = 0.7;
    s.seconds = 1.5;
    s.samplesPerSecond = 1234.5678;
    s.learningRate = 0.001;
    return s;
}

// The message of the Error that reading `line` throws.
std::string readError(const std::string& line) {
    return errorOf([&] { readLine(line); });
}

}  // namespace

class TestProgressEvents : public QObject {
    Q_OBJECT

private slots:
    void readsVersion010Lines() {
        comparePlan(readAs<PlanEvent>(planLine),
                    PlanEvent{2, {"groups 1+2: classes 0-6", "shard \"2\" of 4"}, 6, true, 4});
        comparePlan(readAs<PlanEvent>(networkPlanLine), PlanEvent{0, {}, 3, false, 0});

        const StartedEvent started = readAs<StartedEvent>(startedLine);
        compareTag(started.tag, ModelTag{EventModel::Submodel, 2});
        comparePlace(started.place, WorkerPlace{3, "node2", 4});
        const StartedEvent baseline = readAs<StartedEvent>(baselineStartedLine);
        compareTag(baseline.tag, ModelTag{EventModel::Baseline, 0});
        comparePlace(baseline.place, WorkerPlace{0, "vm", 2});

        const BatchEvent batch = readAs<BatchEvent>(batchLine);
        compareTag(batch.tag, ModelTag{EventModel::Submodel, 2});
        QCOMPARE(batch.progress.epoch, 1);
        QCOMPARE(batch.progress.batch, 5);
        QCOMPARE(batch.progress.batches, 9);
        QCOMPARE(batch.progress.loss, 0.75);

        const EpochEvent epoch = readAs<EpochEvent>(epochLine);
        compareTag(epoch.tag, ModelTag{EventModel::Submodel, 2});
        compareStats(epoch.stats, firstEpoch());
        const EpochEvent diverged = readAs<EpochEvent>(divergedEpochLine);
        QCOMPARE(diverged.stats.epoch, 2);
        QVERIFY(std::isnan(diverged.stats.loss));
        QCOMPARE(diverged.stats.metric, std::numeric_limits<double>::infinity());
        QVERIFY(!diverged.stats.hasValidation);

        const ResourcesEvent resources = readAs<ResourcesEvent>(resourcesLine);
        compareTag(resources.tag, ModelTag{EventModel::Submodel, 2});
        QCOMPARE(resources.rank, 3);
        QCOMPARE(resources.host, std::string("node2"));
        compareSample(resources.sample, ResourceSample{2.25, 1.25, 1000, 500, 9000000});

        compareFinished(readAs<FinishedEvent>(finishedLine),
                        FinishedEvent{{EventModel::Submodel, 2}, TrainStatus::EarlyStopped, "", 2, 2.5, 4.75});
        compareFinished(readAs<FinishedEvent>(baselineFailedLine), FinishedEvent{{EventModel::Baseline, 0},
                                                                                 TrainStatus::Failed,
                                                                                 "epoch 1, batch 3: loss is NaN",
                                                                                 0,
                                                                                 0.5,
                                                                                 0.25});

        ResultEvent split{"combined", TrainStatus::Completed, std::nullopt, 12.5, 10.25, 20.5,
                          123456789,  "/tmp/m.skynnet",       "/tmp/r.json"};
        split.details = parseJson(R"({"submodels":2,"metric":"accuracy","test_accuracy":0.9,"test_loss":0.25,)"
                                  R"("submodel_test_metrics":[0.8,0.85],)"
                                  R"("baseline":{"status":"completed","train_seconds":3.5,"test_accuracy":0.875}})");
        compareResult(readAs<ResultEvent>(splitResultLine), split);
        ResultEvent network{"network", TrainStatus::Completed, std::nullopt, 1.5, 1.25, 2.5, 1000, "", ""};
        network.details = parseJson(R"({"metric":"accuracy"})");
        compareResult(readAs<ResultEvent>(networkResultLine), network);
        ResultEvent project{"combined", TrainStatus::Completed, "trained 2 submodels", 12.5, 10.25, 20.5, 123456789,
                            "",         "/tmp/r.json"};
        project.details = parseJson(
            R"({"mode":"project","project":"/p/x.skynnet","run":2,"metric":"accuracy","combined":0.9,)"
            R"("submodels":[0.8,0.85],"baseline":0.875})");
        compareResult(readAs<ResultEvent>(projectResultLine), project);

        QCOMPARE(readAs<ErrorEvent>(errorLine).message, std::string("no file 'x.csv'"));
    }

    // Reading a 0.1.0 line and writing it again gives the same line: the stream's format has not
    // changed. Only a project run's result comes back in another key order (the typed fields
    // first), with the same keys and values.
    void writesVersion010LinesAgain() {
        for (const std::string& line :
             {planLine, networkPlanLine, startedLine, baselineStartedLine, batchLine, epochLine, divergedEpochLine,
              resourcesLine, finishedLine, baselineFailedLine, splitResultLine, networkResultLine, errorLine}) {
            const std::optional<ProgressEvent> e = readLine(line);
            QVERIFY(e);
            QCOMPARE(dumpJson(toJson(*e)), line);
        }
        const std::string project = dumpJson(toJson(ProgressEvent(readAs<ResultEvent>(projectResultLine))));
        QVERIFY(project != projectResultLine);
        QCOMPARE(nlohmann::json::parse(project), nlohmann::json::parse(projectResultLine));  // unordered objects
    }

    void roundTripsEveryKind() {
        const PlanEvent plan{3, {"a", "b", "c"}, 7, true, 5};
        comparePlan(throughLine(plan), plan);

        const StartedEvent started{{EventModel::Network, 0}, WorkerPlace{5, "host-ä", 16}};
        const StartedEvent startedBack = throughLine(started);
        compareTag(startedBack.tag, started.tag);
        comparePlace(startedBack.place, started.place);

        const BatchEvent batch{{EventModel::Baseline, 0}, BatchProgress{4, 17, 20, 1.0 / 3.0}};
        const BatchEvent batchBack = throughLine(batch);
        compareTag(batchBack.tag, batch.tag);
        QCOMPARE(batchBack.progress.epoch, 4);
        QCOMPARE(batchBack.progress.batch, 17);
        QCOMPARE(batchBack.progress.batches, 20);
        QCOMPARE(batchBack.progress.loss, 1.0 / 3.0);  // doubles survive their text exactly

        EpochStats stats = firstEpoch();
        stats.epoch = 9;
        stats.loss = std::numeric_limits<double>::quiet_NaN();
        stats.validationMetric = -std::numeric_limits<double>::infinity();
        const EpochEvent epoch{{EventModel::Submodel, 12}, stats};
        const EpochEvent epochBack = throughLine(epoch);
        compareTag(epochBack.tag, epoch.tag);
        compareStats(epochBack.stats, stats);

        const ResourcesEvent resources{{EventModel::Submodel, 1},
                                       2,
                                       "node1",
                                       ResourceSample{0.5, 0.75, 1 << 20, 3, 1LL << 33}};
        const ResourcesEvent resourcesBack = throughLine(resources);
        compareTag(resourcesBack.tag, resources.tag);
        QCOMPARE(resourcesBack.rank, 2);
        QCOMPARE(resourcesBack.host, std::string("node1"));
        compareSample(resourcesBack.sample, resources.sample);

        const FinishedEvent finished{{EventModel::Submodel, 3},
                                     TrainStatus::Cancelled,
                                     "stopped \"now\"",
                                     4,
                                     8.125,
                                     30.5};
        compareFinished(throughLine(finished), finished);

        ResultEvent result{"network", TrainStatus::EarlyStopped, "done", 3.5, 2.5, 7.25, 1LL << 40, "m.skynnet",
                           "r.json"};
        result.details = parseJson(R"({"metric":"r2","test_r2":0.5,"nested":{"a":[1,2,{"b":null}]}})");
        compareResult(throughLine(result), result);
        ResultEvent bare;
        bare.model = "combined";
        compareResult(throughLine(bare), bare);

        QCOMPARE(throughLine(ErrorEvent{"line 1\nline 2"}).message, std::string("line 1\nline 2"));
    }

    // A newer tool's event kind is skipped, not an error: the reader carries on.
    void unknownKindIsSkipped() {
        QVERIFY(!readLine(R"({"event":"checkpoint_saved","model":"submodel","submodel":1,"path":"x"})"));
        QVERIFY(!readLine(R"({"event":"note"})"));
        // Unknown fields of a known kind are ignored.
        QCOMPARE(readAs<ErrorEvent>(R"({"event":"error","message":"m","code":7})").message, std::string("m"));
    }

    void badLinesNameTheField() {
        VERIFY_CONTAINS(readError("[1,2]"), "must be an object");
        VERIFY_CONTAINS(readError(R"({"model":"submodel"})"), "'event'");
        VERIFY_CONTAINS(readError(R"({"event":7})"), "event");
        VERIFY_CONTAINS(readError(
                            R"({"event":"batch","model":"submodel","submodel":1,"epoch":1,"batch":1,"loss":0.5})"),
                        "'batches'");
        const std::string model = readError(
            R"({"event":"started","model":"teacher","submodel":1,"rank":0,"host":"h","threads":1})");
        VERIFY_CONTAINS(model, "model");
        VERIFY_CONTAINS(model, "unknown model 'teacher'");
        VERIFY_CONTAINS(readError(
                            R"({"event":"started","model":"submodel","submodel":-1,"rank":0,"host":"h","threads":1})"),
                        "submodel");
        VERIFY_CONTAINS(readError(R"({"event":"started","model":"submodel","submodel":1,"rank":0,"host":"h"})"),
                        "'threads'");
        VERIFY_CONTAINS(readError(R"({"event":"finished","model":"baseline","submodel":0,"status":"done","error":"",)"
                                  R"("epochs_run":1,"wall_seconds":1,"cpu_seconds":1})"),
                        "status");
        VERIFY_CONTAINS(
            readError(
                R"({"event":"plan","submodels":2,"roles":["a",3],"epochs":1,"baseline":false,"baseline_epochs":0})"),
            "roles[1]");
        VERIFY_CONTAINS(readError(R"({"event":"result","model":"combined","wall_seconds":"soon"})"), "wall_seconds");
        VERIFY_CONTAINS(readError(R"({"event":"error"})"), "'message'");
    }

    // The result reads what it finds: a figure left out keeps its default, the rest are details.
    void resultReadsWhatItFinds() {
        const ResultEvent r = readAs<ResultEvent>(R"({"event":"result","model":"combined","test_accuracy":0.9})");
        QCOMPARE(r.model, std::string("combined"));
        QCOMPARE(r.status, TrainStatus::Completed);
        QVERIFY(!r.message);
        QCOMPARE(r.wallSeconds, 0.0);
        QCOMPARE(r.peakMemoryBytes, std::int64_t(0));
        QCOMPARE(r.modelPath, std::string());
        QCOMPARE(dumpJson(r.details), std::string(R"({"test_accuracy":0.9})"));

        // A command's fields, without "event", and back.
        ResultEvent e{"network", TrainStatus::Completed, std::nullopt, 1.5, 1.25, 2.5, 1000, "", ""};
        e.details = parseJson(R"({"metric":"accuracy"})");
        const Json fields = resultFields(e);
        QVERIFY(!fields.contains("event"));
        QCOMPARE("{\"event\":\"result\"," + dumpJson(fields).substr(1), networkResultLine);
        compareResult(resultEventFromJson(fields), e);
        // A detail named like a typed field never overrides it.
        e.details["status"] = "failed";
        QCOMPARE(resultFields(e)["status"].get<std::string>(), std::string("completed"));
    }

    void namesAndTags() {
        QCOMPARE(std::string(eventName(PlanEvent{})), std::string("plan"));
        QCOMPARE(std::string(eventName(ResourcesEvent{})), std::string("resources"));
        QCOMPARE(std::string(eventName(ErrorEvent{})), std::string("error"));
        QVERIFY(!modelTagOf(PlanEvent{}));
        QVERIFY(!modelTagOf(ResultEvent{}));
        const auto tag = modelTagOf(EpochEvent{{EventModel::Baseline, 0}, {}});
        QVERIFY(tag);
        QCOMPARE(tag->model, EventModel::Baseline);
        for (EventModel m : {EventModel::Submodel, EventModel::Baseline, EventModel::Network})
            QCOMPARE(parseEventModel(eventModelName(m)), m);

        TrainResult t;
        t.status = TrainStatus::Failed;
        t.error = "out of memory";
        t.history.resize(3);
        t.wallSeconds = 4;
        t.cpuSeconds = 6;
        compareFinished(finishedEventOf({EventModel::Submodel, 2}, t),
                        FinishedEvent{{EventModel::Submodel, 2}, TrainStatus::Failed, "out of memory", 3, 4, 6});
    }
};

QTEST_GUILESS_MAIN(TestProgressEvents)
#include "tst_progress_events.moc"
