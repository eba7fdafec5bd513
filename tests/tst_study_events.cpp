// The progress events of `skynnet-cli study --progress json` as typed values
// (engine/study/study_event.h): every kind comes back unchanged from toJson through a line and
// studyEventFromJson; the lines the tool wrote before the events were typed read as the values
// they say, are written again byte for byte, and are what the engine builds from its study model
// for the same runs; an unknown kind is skipped and a bad field is refused by name.
#include <QtTest>

#include <string>
#include <vector>

#include "io/json.h"
#include "study/study_event.h"
#include "study/study_outputs.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// What `skynnet-cli study --progress json` wrote before its events were typed (main at 1ba042d,
// the study's stream as version 0.1.0 wrote it), copied byte for byte from its output: a study
// continued with two runs to do (the plan), a one-run study of N=1 on seed 7 (run_started to
// summary), a split run an earlier invocation did, a run that failed, a run that failed before
// any finished (no estimate yet), a summary of no finished run, and a bad option's error.
const std::string planLine =
    R"({"event":"plan","out":"/tmp/studyevents/ok","runs":[{"index":1,"run":"N1-seed1","config":"N1","submodels":1,)"
    R"("strategy":"original","scale_epochs":"default","seed":1,"done":true},{"index":2,"run":"N3-seed1",)"
    R"("config":"N3","submodels":3,"strategy":"auto","scale_epochs":"default","seed":1,"done":true},{"index":3,)"
    R"("run":"N3-ensemble-seed1","config":"N3-ensemble","submodels":3,"strategy":"ensemble",)"
    R"("scale_epochs":"default","seed":1,"done":true},{"index":4,"run":"N1-seed2","config":"N1","submodels":1,)"
    R"("strategy":"original","scale_epochs":"default","seed":2,"done":true},{"index":5,"run":"N3-seed2",)"
    R"("config":"N3","submodels":3,"strategy":"auto","scale_epochs":"default","seed":2,"done":false},{"index":6,)"
    R"("run":"N3-ensemble-seed2","config":"N3-ensemble","submodels":3,"strategy":"ensemble",)"
    R"("scale_epochs":"default","seed":2,"done":false}],"configurations":["N1","N3","N3-ensemble"],"seeds":[1,2]})";
const std::string runStartedLine =
    R"({"event":"run_started","index":1,"run":"N1-seed7","config":"N1","seed":7,)"
    R"("command":["/tmp/studyevents/skynnet-cli-main","train","--data","builtin:blobs:samples=100:classes=2",)"
    R"("--layers","dense:4:relu","--epochs","1","--threads","1","--seed","7","--report",)"
    R"("/tmp/s/tiny/runs/N1-seed7.json","--save","/tmp/s/tiny/runs/N1-seed7.skym"],)"
    R"("log":"/tmp/s/tiny/runs/N1-seed7.log"})";
const std::string runFinishedLine =
    R"({"event":"run_finished","index":1,"run":"N1-seed7","config":"N1","submodels":1,"seed":7,"status":"finished",)"
    R"("S":1,"strategy":"original","scale_epochs":false,"epoch_scaling":"off","metric":0.8,"metric_name":"accuracy",)"
    R"("wall_seconds":0.015636651,"train_seconds":0.000135803,"slowest_submodel_seconds":0.000135803,)"
    R"("machines_seconds":0.000135803,"submodel_seconds":[0.000135803],"predicted_seconds_on_s_machines":null,)"
    R"("cpu_seconds":0.020436,"peak_memory_bytes":5048,"process_peak_memory_bytes":26001408,"params":0,)"
    R"("flops_per_sample":0,"latency_seconds_per_batch":null,"reused":false,"remaining_seconds":0.0})";
const std::string reusedRunLine =
    R"({"event":"run_finished","index":2,"run":"N3-seed1","config":"N3","submodels":3,"seed":1,"status":"finished",)"
    R"("S":3,"strategy":"class-groups","scale_epochs":true,"epoch_scaling":"on","metric":0.4,"metric_name":"accuracy",)"
    R"("wall_seconds":0.057527591,"train_seconds":0.037493354,"slowest_submodel_seconds":0.000388835,)"
    R"("machines_seconds":0.000771829,"submodel_seconds":[0.000388835,0.000256438,0.000126556],)"
    R"("predicted_seconds_on_s_machines":0.00030287368421052634,"cpu_seconds":0.024036,"peak_memory_bytes":13604,)"
    R"("process_peak_memory_bytes":26681344,"params":0,"flops_per_sample":0,"latency_seconds_per_batch":null,)"
    R"("reused":true})";
const std::string failedRunLine =
    R"({"event":"run_finished","index":3,"run":"N3-binary-shards-seed1","config":"N3-binary-shards","submodels":3,)"
    R"("seed":1,"status":"failed","strategy":"binary-shards","error":"exit status 1: the binary-shards strategy )"
    R"(needs a binary task, this dataset's task is classification (use class-groups or data-shards) (see )"
    R"(/tmp/studyevents/fail/runs/N3-binary-shards-seed1.log))"
    R"(","remaining_seconds":0.18712554})";
const std::string unknownRemainingLine =
    R"({"event":"run_finished","index":1,"run":"N1-seed1","config":"N1","submodels":1,"seed":1,"status":"failed",)"
    R"("strategy":"original","error":"exit status 1: builtin:blobs:samples=5:classes=2: 4 rows are too few for )"
    R"(training, validation (fraction 0.1) and test (fraction 0.2): at least 5 rows are needed to give each part a )"
    R"(row (see /tmp/s/nul/runs/N1-seed1.log))"
    R"(","remaining_seconds":null})";
const std::string partialSummaryLine =
    R"({"event":"partial_summary","summary":{"metric_name":"accuracy","original":{"metric_mean":0.8,)"
    R"("metric_sd":null},"configurations":[{"config":"N1","submodels":1,"S":1,"strategy":"original",)"
    R"("scale_epochs":false,"epoch_scaling":"off","runs":1,"metric_mean":0.8,"metric_sd":null,"difference":null,)"
    R"("wall_seconds_mean":0.015636651,"wall_seconds_sd":null,"train_seconds_mean":0.000135803,)"
    R"("slowest_submodel_seconds_mean":0.000135803,"machines_seconds_mean":0.000135803,"cpu_seconds_mean":0.020436,)"
    R"("peak_memory_bytes_max":5048,"params":0,"flops_per_sample":0,"latency_seconds_per_batch_median":null}],)"
    R"("recommendation":{"rule":"the shortest mean time among the configurations whose mean accuracy is at least )"
    R"(the original's mean minus its standard deviation over the seeds","threshold":0.8,)"
    R"("this_machine":{"config":"N1","submodels":1,"strategy":"original","seconds":0.015636651,"metric_mean":0.8},)"
    R"("machines":1,"on_machines":{"config":"N1","submodels":1,"strategy":"original","seconds":0.000135803,)"
    R"("metric_mean":0.8}}}})";
const std::string noneFinishedSummaryLine =
    R"({"event":"partial_summary","summary":{"metric_name":"","original":{"metric_mean":null,"metric_sd":null},)"
    R"("configurations":[],"recommendation":{"rule":"the shortest mean time among the configurations whose mean  )"
    R"(is at least the original's mean minus its standard deviation over the seeds","threshold":null,)"
    R"("this_machine":null,"machines":1,"on_machines":null}}})";
const std::string summaryLine =
    R"({"event":"summary","summary":{"metric_name":"accuracy","original":{"metric_mean":0.8,"metric_sd":null},)"
    R"("configurations":[{"config":"N1","submodels":1,"S":1,"strategy":"original","scale_epochs":false,"epoch_scaling":"off","runs":1,)"
    R"("metric_mean":0.8,"metric_sd":null,"difference":null,"wall_seconds_mean":0.015636651,"wall_seconds_sd":null,)"
    R"("train_seconds_mean":0.000135803,"slowest_submodel_seconds_mean":0.000135803,)"
    R"("machines_seconds_mean":0.000135803,"cpu_seconds_mean":0.020436,"peak_memory_bytes_max":5048,"params":22,)"
    R"("flops_per_sample":32,"latency_seconds_per_batch_median":5.22e-06}],"recommendation":{"rule":"the shortest )"
    R"(mean time among the configurations whose mean accuracy is at least the original's mean minus its standard )"
    R"(deviation over the seeds","threshold":0.8,"this_machine":{"config":"N1","submodels":1,"strategy":"original",)"
    R"("seconds":0.015636651,"metric_mean":0.8},"machines":1,"on_machines":{"config":"N1","submodels":1,)"
    R"("strategy":"original","seconds":0.000135803,"metric_mean":0.8}}},"runs":[{"run":"N1-seed7","config":"N1",)"
    R"("submodels":1,"seed":7,"status":"finished","S":1,"strategy":"original","scale_epochs":false,"epoch_scaling":"off","metric":0.8,)"
    R"("metric_name":"accuracy","wall_seconds":0.015636651,"train_seconds":0.000135803,)"
    R"("slowest_submodel_seconds":0.000135803,"machines_seconds":0.000135803,"submodel_seconds":[0.000135803],)"
    R"("predicted_seconds_on_s_machines":null,"cpu_seconds":0.020436,"peak_memory_bytes":5048,)"
    R"("process_peak_memory_bytes":26001408,"params":22,"flops_per_sample":32,"latency_seconds_per_batch":5.22e-06,)"
    R"("reused":false}],"files":["/tmp/s/tiny/study.json","/tmp/s/tiny/study.csv","/tmp/s/tiny/study.md",)"
    R"("/tmp/s/tiny/study.png"]})";
const std::string errorLine = R"({"event":"error","message":"--submodels: N must be at least 1, got '0'"})";

std::optional<StudyEvent> readLine(const std::string& line) {
    const Json j = parseJson(line, "test line");
    return studyEventFromJson(JsonField(j, "test line"));
}

// The event of `line`, which must be a T.
template <typename T>
T readAs(const std::string& line) {
    const std::optional<StudyEvent> e = readLine(line);
    if (!e) throw Error("no event read from " + line);
    if (!std::holds_alternative<T>(*e))
        throw Error(std::string("a ") + studyEventName(*e) + " event read from " + line);
    return std::get<T>(*e);
}

std::string lineOf(const StudyEvent& e) { return dumpJson(toJson(e)); }

// What a reader of the stream gets of `e`: its line, read back.
template <typename T>
T throughLine(const T& e) {
    return readAs<T>(lineOf(e));
}

#define COMPARE_JSON(a, b) QCOMPARE(dumpJson(a), dumpJson(b))

void comparePlanned(const PlannedRun& a, const PlannedRun& b) {
    QCOMPARE(a.index, b.index);
    QCOMPARE(a.run, b.run);
    QCOMPARE(a.config, b.config);
    QCOMPARE(a.submodels, b.submodels);
    QCOMPARE(a.strategy, b.strategy);
    QCOMPARE(a.scaleEpochs, b.scaleEpochs);
    QCOMPARE(a.seed, b.seed);
    QCOMPARE(a.done, b.done);
}

void comparePlan(const StudyPlanEvent& a, const StudyPlanEvent& b) {
    QCOMPARE(a.out, b.out);
    QCOMPARE(a.runs.size(), b.runs.size());
    for (std::size_t i = 0; i < a.runs.size(); ++i) comparePlanned(a.runs[i], b.runs[i]);
    QCOMPARE(a.configurations, b.configurations);
    QCOMPARE(a.seeds, b.seeds);
}

void compareStarted(const StudyRunStartedEvent& a, const StudyRunStartedEvent& b) {
    QCOMPARE(a.index, b.index);
    QCOMPARE(a.run, b.run);
    QCOMPARE(a.config, b.config);
    QCOMPARE(a.seed, b.seed);
    QCOMPARE(a.command, b.command);
    QCOMPARE(a.log, b.log);
}

void compareFinished(const StudyRunFinishedEvent& a, const StudyRunFinishedEvent& b) {
    QCOMPARE(a.index, b.index);
    COMPARE_JSON(a.run, b.run);
    QCOMPARE(a.estimated, b.estimated);
    QCOMPARE(a.remainingSeconds, b.remainingSeconds);
}

void compareSummary(const StudySummaryEvent& a, const StudySummaryEvent& b) {
    COMPARE_JSON(a.summary, b.summary);
    QCOMPARE(a.runs.size(), b.runs.size());
    for (std::size_t i = 0; i < a.runs.size(); ++i) COMPARE_JSON(a.runs[i], b.runs[i]);
    QCOMPARE(a.files, b.files);
}

// The one-run study of the lines: N=1 on seed 7 in /tmp/s/tiny.
StudyPlan tinyPlan() {
    StudyPlan p;
    p.submodels = {1};
    p.seeds = {7};
    return p;
}

// Its run's figures as its train report gave them (the inference figures come later).
StudyRun tinyRun() {
    StudyRun r;
    r.finished = true;
    r.S = 1;
    r.strategy = "original";
    r.metricName = "accuracy";
    r.metric = 0.8;
    r.wallSeconds = 0.015636651;
    r.trainSeconds = 0.000135803;
    r.slowestSubmodelSeconds = 0.000135803;
    r.submodelSeconds = {0.000135803};
    r.cpuSeconds = 0.020436;
    r.peakMemoryBytes = 5048;
    r.processPeakMemoryBytes = 26001408;
    return r;
}

// The message of the Error that reading `line` throws.
std::string readError(const std::string& line) {
    return errorOf([&] { readLine(line); });
}

}  // namespace

class TestStudyEvents : public QObject {
    Q_OBJECT

private slots:
    void readsTodaysLines() {
        const StudyPlanEvent plan = readAs<StudyPlanEvent>(planLine);
        QCOMPARE(plan.out, std::string("/tmp/studyevents/ok"));
        QCOMPARE(plan.runs.size(), std::size_t(6));
        comparePlanned(plan.runs[0], PlannedRun{1, "N1-seed1", "N1", 1, "original", "default", 1, true});
        comparePlanned(plan.runs[5],
                       PlannedRun{6, "N3-ensemble-seed2", "N3-ensemble", 3, "ensemble", "default", 2, false});
        QCOMPARE(plan.configurations, (std::vector<std::string>{"N1", "N3", "N3-ensemble"}));
        QCOMPARE(plan.seeds, (std::vector<std::uint64_t>{1, 2}));

        compareStarted(readAs<StudyRunStartedEvent>(runStartedLine),
                       StudyRunStartedEvent{1,
                                            "N1-seed7",
                                            "N1",
                                            7,
                                            {"/tmp/studyevents/skynnet-cli-main", "train", "--data",
                                             "builtin:blobs:samples=100:classes=2", "--layers", "dense:4:relu",
                                             "--epochs", "1", "--threads", "1", "--seed", "7", "--report",
                                             "/tmp/s/tiny/runs/N1-seed7.json", "--save",
                                             "/tmp/s/tiny/runs/N1-seed7.skym"},
                                            "/tmp/s/tiny/runs/N1-seed7.log"});

        // A run's figures are study.json's entry: the event's own keys are not among them.
        const StudyRunFinishedEvent finished = readAs<StudyRunFinishedEvent>(runFinishedLine);
        QCOMPARE(finished.index, 1);
        StudyRun tiny = tinyRun();
        tiny.spec = tinyPlan().runs()[0];
        COMPARE_JSON(finished.run, runJson(tiny, 1));
        QVERIFY(finished.estimated);
        QCOMPARE(finished.remainingSeconds, std::optional<double>(0.0));

        const StudyRunFinishedEvent reused = readAs<StudyRunFinishedEvent>(reusedRunLine);
        QCOMPARE(reused.index, 2);
        QCOMPARE(reused.run.at("run").get<std::string>(), std::string("N3-seed1"));
        QCOMPARE(reused.run.at("submodel_seconds").size(), std::size_t(3));
        QCOMPARE(reused.run.at("reused").get<bool>(), true);
        QVERIFY(!reused.estimated);  // an earlier invocation's run: no estimate
        QVERIFY(!reused.remainingSeconds);

        const StudyRunFinishedEvent failed = readAs<StudyRunFinishedEvent>(failedRunLine);
        QCOMPARE(failed.index, 3);
        QCOMPARE(failed.run.at("status").get<std::string>(), std::string("failed"));
        VERIFY_CONTAINS(failed.run.at("error").get<std::string>(), "needs a binary task");
        QCOMPARE(failed.remainingSeconds, std::optional<double>(0.18712554));
        const StudyRunFinishedEvent unknown = readAs<StudyRunFinishedEvent>(unknownRemainingLine);
        QVERIFY(unknown.estimated);
        QVERIFY(!unknown.remainingSeconds);  // null: no run had finished to estimate from

        const StudyPartialSummaryEvent partial = readAs<StudyPartialSummaryEvent>(partialSummaryLine);
        QCOMPARE(partial.summary.at("configurations").size(), std::size_t(1));
        QCOMPARE(partial.summary.at("configurations")[0].at("params").get<int>(), 0);  // not measured yet
        QCOMPARE(readAs<StudyPartialSummaryEvent>(noneFinishedSummaryLine).summary.at("configurations").size(),
                 std::size_t(0));

        const StudySummaryEvent summary = readAs<StudySummaryEvent>(summaryLine);
        QCOMPARE(summary.summary.at("configurations")[0].at("params").get<int>(), 22);
        QCOMPARE(summary.runs.size(), std::size_t(1));
        QCOMPARE(summary.runs[0].at("latency_seconds_per_batch").get<double>(), 5.22e-06);
        QCOMPARE(summary.files, (std::vector<std::string>{"/tmp/s/tiny/study.json", "/tmp/s/tiny/study.csv",
                                                          "/tmp/s/tiny/study.md", "/tmp/s/tiny/study.png"}));

        QCOMPARE(readAs<ErrorEvent>(errorLine).message, std::string("--submodels: N must be at least 1, got '0'"));
    }

    // Reading a line and writing it again gives the same line: the stream's format has not
    // changed.
    void writesTodaysLinesAgain() {
        for (const std::string& line :
             {planLine, runStartedLine, runFinishedLine, reusedRunLine, failedRunLine, unknownRemainingLine,
              partialSummaryLine, noneFinishedSummaryLine, summaryLine, errorLine}) {
            const std::optional<StudyEvent> e = readLine(line);
            QVERIFY(e);
            QCOMPARE(lineOf(*e), line);
        }
    }

    // The events the engine builds from its study model are the tool's lines for the same runs.
    void builtFromTheStudyModel() {
        StudyPlan continued;
        continued.submodels = {1, 3};
        continued.seeds = {1, 2};
        StudyProgress halfDone(continued, "/tmp/studyevents/ok");
        for (int i = 0; i < 4; ++i) halfDone.record(i, StudyRun{});
        QCOMPARE(lineOf(studyPlanEvent(halfDone, "/tmp/studyevents/ok")), planLine);

        StudyProgress tiny(tinyPlan(), "/tmp/s/tiny");
        const StudyRunFiles files = tiny.files(0);
        const std::vector<std::string> command = {"/tmp/studyevents/skynnet-cli-main",
                                                  "train",
                                                  "--data",
                                                  "builtin:blobs:samples=100:classes=2",
                                                  "--layers",
                                                  "dense:4:relu",
                                                  "--epochs",
                                                  "1",
                                                  "--threads",
                                                  "1",
                                                  "--seed",
                                                  "7",
                                                  "--report",
                                                  files.report,
                                                  "--save",
                                                  files.model};
        QCOMPARE(lineOf(runStartedEvent(tiny, 0, command, files.log)), runStartedLine);

        tiny.record(0, tinyRun());
        StudyRunFinishedEvent finished = runFinishedEvent(tiny, 0, 1);
        QVERIFY(!finished.estimated);
        finished.estimated = true;
        finished.remainingSeconds = tiny.remainingSeconds();
        QCOMPARE(lineOf(finished), runFinishedLine);
        QCOMPARE(lineOf(partialSummaryEvent(summarizeStudy(tiny.runs(), tiny.plan(), 1))), partialSummaryLine);

        // After the inference figures: the summary of study.json's document.
        tiny.run(0).params = 22;
        tiny.run(0).flopsPerSample = 32;
        tiny.run(0).latencySeconds = 5.22e-06;
        const StudySummary summary = summarizeStudy(tiny.runs(), tiny.plan(), 1);
        const Json document = studyJson(tiny.runs(), summary, tiny.plan(),
                                        StudyOrigin{"skynnet-cli", "0.1.0", "skynnet-cli study"});
        const std::vector<std::string> written = {"/tmp/s/tiny/study.json", "/tmp/s/tiny/study.csv",
                                                  "/tmp/s/tiny/study.md", "/tmp/s/tiny/study.png"};
        QCOMPARE(lineOf(studySummaryEvent(document, written)), summaryLine);

        // A split run an earlier invocation did, reported with the plan: no estimate.
        StudyRun split;
        split.finished = true;
        split.reused = true;
        split.S = 3;
        split.strategy = "class-groups";
        split.epochScaling = EpochScaling::On;
        split.metricName = "accuracy";
        split.metric = 0.4;
        split.wallSeconds = 0.057527591;
        split.trainSeconds = 0.037493354;
        split.slowestSubmodelSeconds = 0.000388835;
        split.submodelSeconds = {0.000388835, 0.000256438, 0.000126556};
        split.predictedSecondsOnSMachines = 0.00030287368421052634;
        split.cpuSeconds = 0.024036;
        split.peakMemoryBytes = 13604;
        split.processPeakMemoryBytes = 26681344;
        halfDone.record(1, split);
        QCOMPARE(lineOf(runFinishedEvent(halfDone, 1, 1)), reusedRunLine);

        // A failed run of a study of two strategies: the strategy it was to use, and why it failed.
        StudyPlan strategies;
        strategies.submodels = {1, 3};
        strategies.seeds = {1, 2};
        strategies.strategies = {"class-groups", "binary-shards"};
        strategies.ensemble = false;
        StudyProgress failing(strategies, "/tmp/studyevents/fail");
        StudyRun failed;
        failed.error =
            "exit status 1: the binary-shards strategy needs a binary task, this dataset's task is classification "
            "(use class-groups or data-shards) (see " +
            failing.files(2).log + ")";
        failing.record(2, failed);
        StudyRunFinishedEvent failedEvent = runFinishedEvent(failing, 2, 2);
        failedEvent.estimated = true;
        failedEvent.remainingSeconds = 0.18712554;
        QCOMPARE(lineOf(failedEvent), failedRunLine);
    }

    void roundTripsEveryKind() {
        const StudyPlanEvent plan{"/data/study \"1\"",
                                  {PlannedRun{1, "N1-seed5", "N1", 1, "original", "default", 5, true},
                                   PlannedRun{2, "N4-class-groups-scale-off-seed5", "N4-class-groups-scale-off", 4,
                                              "class-groups", "off", 5, false}},
                                  {"N1", "N4-class-groups-scale-off"},
                                  {5, 1ULL << 40}};
        comparePlan(throughLine(plan), plan);
        comparePlan(throughLine(StudyPlanEvent{}), StudyPlanEvent{});

        const StudyRunStartedEvent started{12,
                                           "N6-ensemble-seed3",
                                           "N6-ensemble",
                                           3,
                                           {"/usr/bin/skynnet-cli", "train", "--project", "ä b.skynnet"},
                                           "runs/N6-ensemble-seed3.log"};
        compareStarted(throughLine(started), started);

        StudyRunFinishedEvent
            finished{4,
                     parseJson(R"({"run":"N3-seed2","config":"N3","submodels":3,"seed":2,"status":"finished",)"
                               R"("metric":0.75,"submodel_seconds":[1.5,2.25],"latency_seconds_per_batch":null,)"
                               R"("nested":{"a":[1,{"b":null}]}})"),
                     true, 1.0 / 3.0};
        compareFinished(throughLine(finished), finished);  // doubles survive their text exactly
        finished.remainingSeconds.reset();
        compareFinished(throughLine(finished), finished);
        finished.estimated = false;
        compareFinished(throughLine(finished), finished);
        QVERIFY(!toJson(finished).contains("remaining_seconds"));

        const StudyPartialSummaryEvent partial{
            parseJson(R"({"metric_name":"r2","configurations":[{"config":"N1","metric_mean":-0.5}]})")};
        COMPARE_JSON(throughLine(partial).summary, partial.summary);

        const StudySummaryEvent
            summary{parseJson(R"({"metric_name":"accuracy","configurations":[],"recommendation":null})"),
                    {parseJson(R"({"run":"N1-seed1","config":"N1","seed":1,"status":"failed","error":"x"})"),
                     parseJson(R"({"run":"N1-seed2","config":"N1","seed":2,"status":"finished","metric":1})")},
                    {"a/study.json", "a/study.png"}};
        compareSummary(throughLine(summary), summary);
        const StudySummaryEvent bare{parseJson(R"({"configurations":[]})"), {}, {}};
        compareSummary(throughLine(bare), bare);

        QCOMPARE(throughLine(ErrorEvent{"line 1\nline 2"}).message, std::string("line 1\nline 2"));
    }

    // The error event is the training's, written and read by its code.
    void errorIsTheTrainingsEvent() {
        const ErrorEvent e{"interrupted by SIGTERM"};
        QCOMPARE(lineOf(e), dumpJson(toJson(ProgressEvent(e))));
        const Json j = parseJson(errorLine);
        QCOMPARE(std::get<ErrorEvent>(*progressEventFromJson(JsonField(j))).message,
                 readAs<ErrorEvent>(errorLine).message);
    }

    // A figure named like one of the run event's own keys never overrides them.
    void runFiguresKeepTheirPlace() {
        const StudyRunFinishedEvent
            e{2, parseJson(R"({"run":"r","config":"c","seed":1,"status":"finished","index":9,"event":"x"})"), false,
              std::nullopt};
        QCOMPARE(lineOf(e),
                 std::string(
                     R"({"event":"run_finished","index":2,"run":"r","config":"c","seed":1,"status":"finished"})"));
    }

    // A newer tool's event kind is skipped, not an error: the reader carries on.
    void unknownKindIsSkipped() {
        QVERIFY(!readLine(R"({"event":"run_measured","index":1,"latency_seconds_per_batch":0.5})"));
        QVERIFY(!readLine(R"({"event":"result","model":"combined"})"));  // the training's, not the study's
        // Unknown fields of a known kind are ignored.
        QCOMPARE(readAs<StudyRunStartedEvent>(R"({"event":"run_started","index":1,"run":"r","config":"c","seed":1,)"
                                              R"("command":[],"log":"l","host":"h"})")
                     .log,
                 std::string("l"));
    }

    void badLinesNameTheField() {
        VERIFY_CONTAINS(readError("[1,2]"), "must be an object");
        VERIFY_CONTAINS(readError(R"({"out":"x"})"), "'event'");
        VERIFY_CONTAINS(readError(R"({"event":7})"), "event");
        VERIFY_CONTAINS(readError(
                            R"({"event":"plan","out":"o","runs":[{"index":1,"run":"r","config":"c","submodels":1,)"
                            R"("strategy":"s","scale_epochs":"default","seed":"one","done":false}],)"
                            R"("configurations":[],"seeds":[]})"),
                        "runs[0].seed");
        VERIFY_CONTAINS(readError(R"({"event":"plan","out":"o","runs":[],"configurations":["N1",3],"seeds":[]})"),
                        "configurations[1]");
        VERIFY_CONTAINS(
            readError(R"({"event":"run_started","index":0,"run":"r","config":"c","seed":1,"command":[],"log":"l"})"),
            "index");
        VERIFY_CONTAINS(readError(R"({"event":"run_started","index":1,"run":"r","config":"c","seed":1,"command":[]})"),
                        "'log'");
        VERIFY_CONTAINS(readError(R"({"event":"run_finished","index":1,"run":"r","config":"c","seed":1})"), "'status'");
        VERIFY_CONTAINS(readError(
                            R"({"event":"run_finished","index":1,"run":7,"config":"c","seed":1,"status":"finished"})"),
                        "run");
        VERIFY_CONTAINS(readError(
                            R"({"event":"run_finished","index":1,"run":"r","config":"c","seed":1,"status":"finished",)"
                            R"("remaining_seconds":"soon"})"),
                        "remaining_seconds");
        VERIFY_CONTAINS(readError(R"({"event":"partial_summary","summary":[]})"), "summary");
        VERIFY_CONTAINS(readError(R"({"event":"partial_summary","summary":{"configurations":[{"metric_mean":1}]}})"),
                        "summary.configurations[0].config");
        VERIFY_CONTAINS(readError(R"({"event":"summary","summary":{"configurations":[]},"runs":[3],"files":[]})"),
                        "runs[0]");
        VERIFY_CONTAINS(readError(R"({"event":"summary","summary":{"configurations":[]},"runs":[]})"), "'files'");
        VERIFY_CONTAINS(readError(R"({"event":"error"})"), "'message'");
    }

    void namesOfKinds() {
        QCOMPARE(std::string(studyEventName(StudyPlanEvent{})), std::string("plan"));
        QCOMPARE(std::string(studyEventName(StudyRunStartedEvent{})), std::string("run_started"));
        QCOMPARE(std::string(studyEventName(StudyRunFinishedEvent{})), std::string("run_finished"));
        QCOMPARE(std::string(studyEventName(StudyPartialSummaryEvent{})), std::string("partial_summary"));
        QCOMPARE(std::string(studyEventName(StudySummaryEvent{})), std::string("summary"));
        QCOMPARE(std::string(studyEventName(ErrorEvent{})), std::string("error"));
    }
};

QTEST_GUILESS_MAIN(TestStudyEvents)
#include "tst_study_events.moc"
