// `skynnet-cli train --progress json`: every stdout line parses as one JSON event (with the
// engine's parser), and the events come in the order a reader relies on: the plan first, each
// model's started before its batches and epochs, its finished after them, the result last; an
// error event (and a non-zero exit status) when the run fails, and nothing else on stdout.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <string>
#include <vector>

#include "cli_support.h"
#include "io/json.h"
#include "project/project_file.h"
#include "project/project_json.h"
#include "split/worker_pool.h"
#include "test_support.h"

using namespace skynnet;

namespace {

std::vector<Json> eventsOf(const CliRun& r) {
    std::vector<Json> events;
    int line = 0;
    for (const QString& text : r.out.split('\n', Qt::SkipEmptyParts)) {
        ++line;
        const std::string source = "stdout line " + std::to_string(line);
        Json e;
        try {
            e = parseJson(text.toStdString(), source);
        } catch (const Error& error) {
            QTest::qFail(qPrintable(QString("%1: %2").arg(error.what(), text)), __FILE__, __LINE__);
            return {};
        }
        if (!e.is_object() || !e.contains("event") || !e["event"].is_string()) {
            QTest::qFail(qPrintable(QString::fromStdString(source) + " is not an event: " + text), __FILE__, __LINE__);
            return {};
        }
        events.push_back(std::move(e));
    }
    return events;
}

std::string kind(const Json& e) { return e["event"].get<std::string>(); }
std::string modelKey(const Json& e) {
    return e["model"].get<std::string>() + " " + std::to_string(e["submodel"].get<int>());
}

// Checks one model's events in stream order: started, then batches and epochs (epoch numbers 1, 2,
// ... in order, each epoch's last batch before its epoch event), then finished; returns the epochs seen.
struct ModelTrace {
    bool started = false, finished = false;
    int epochs = 0, batches = 0, resources = 0;
    int lastBatchEpoch = 0;  // the epoch whose last batch was reported, 0 for none yet
    std::string status;
};

// Walks the events and checks the per-model order; fails the test with the offending line.
std::map<std::string, ModelTrace> traceModels(const std::vector<Json>& events, int expectedEpochs) {
    std::map<std::string, ModelTrace> traces;
    for (std::size_t n = 0; n < events.size(); ++n) {
        const Json& e = events[n];
        const std::string k = kind(e);
        if (k == "plan" || k == "result" || k == "error") continue;
        const std::string where = "line " + std::to_string(n + 1) + " " + dumpJson(e) + ": ";
        ModelTrace& t = traces[modelKey(e)];
        if (k == "started") {
            if (t.started) QTest::qFail((where + "started twice").c_str(), __FILE__, __LINE__);
            t.started = true;
            if (e["host"].get<std::string>() != localHostName())
                QTest::qFail((where + "names another host").c_str(), __FILE__, __LINE__);
            if (e["rank"].get<int>() != 0 || e["threads"].get<int>() < 1)
                QTest::qFail((where + "rank or threads").c_str(), __FILE__, __LINE__);
            continue;
        }
        if (!t.started || t.finished) QTest::qFail((where + "outside started..finished").c_str(), __FILE__, __LINE__);
        if (k == "batch") {
            const BatchProgress b = batchProgressFromJson(JsonField(e, "batch event"));
            if (b.epoch != t.epochs + 1 || b.batch < 1 || b.batch > b.batches)
                QTest::qFail((where + "batch out of order").c_str(), __FILE__, __LINE__);
            if (b.batch == b.batches) t.lastBatchEpoch = b.epoch;
            ++t.batches;
        } else if (k == "epoch") {
            const EpochStats s = epochStatsFromJson(JsonField(e, "epoch event"));
            if (s.epoch != t.epochs + 1) QTest::qFail((where + "epoch out of order").c_str(), __FILE__, __LINE__);
            if (t.lastBatchEpoch != s.epoch)
                QTest::qFail((where + "no last batch before the epoch").c_str(), __FILE__, __LINE__);
            ++t.epochs;
        } else if (k == "resources") {
            resourceSampleFromJson(JsonField(e, "resources event"));
            if (e["host"].get<std::string>() != localHostName())
                QTest::qFail((where + "names another host").c_str(), __FILE__, __LINE__);
            ++t.resources;
        } else if (k == "finished") {
            t.finished = true;
            t.status = e["status"].get<std::string>();
            if (e["epochs_run"].get<int>() != t.epochs)
                QTest::qFail((where + "epochs_run").c_str(), __FILE__, __LINE__);
            if (!(e["wall_seconds"].get<double>() > 0))
                QTest::qFail((where + "wall_seconds").c_str(), __FILE__, __LINE__);
        } else {
            QTest::qFail((where + "unknown event").c_str(), __FILE__, __LINE__);
        }
    }
    for (const auto& [name, t] : traces)
        if (!t.finished || t.epochs != expectedEpochs || t.status != "completed" || t.batches < t.epochs)
            QTest::qFail((name + ": " + std::to_string(t.epochs) + " epochs, status " + t.status).c_str(), __FILE__,
                         __LINE__);
    return traces;
}

// The position of the first event of `model` (e.g. "baseline 0") of kind `k`, or -1.
int indexOf(const std::vector<Json>& events, const std::string& k, const std::string& model) {
    for (std::size_t n = 0; n < events.size(); ++n)
        if (kind(events[n]) == k && events[n].contains("model") && modelKey(events[n]) == model) return int(n);
    return -1;
}

// runCli with one more environment variable.
CliRun runCliWith(const QStringList& args, const QString& name, const QString& value) {
    QProcessEnvironment env;
    env.insert(name, value);
    return runCli(args, 120000, env);
}

// The example project and its data in `dir`, laid out as the project expects (../datasets/wine.csv).
QString copyExampleProject(const QTemporaryDir& dir, const QString& name) {
    QDir(dir.path()).mkpath(name + "/projects");
    QDir(dir.path()).mkpath(name + "/datasets");
    const QString project = dir.filePath(name + "/projects/wine-class-groups.skynnet");
    QFile::copy(QString::fromStdString(sourcePath("resources/projects/wine-class-groups.skynnet")), project);
    QFile::copy(QString::fromStdString(sourcePath("resources/datasets/wine.csv")),
                dir.filePath(name + "/datasets/wine.csv"));
    return project;
}

const QStringList blobs = {"train",    "--data",        "builtin:blobs:classes=6:features=6",
                           "--layers", "dense:16:relu", "--epochs",
                           "3",        "--batch",       "32",
                           "--lr",     "0.02",          "--seed",
                           "2",        "--threads",     "2"};

}  // namespace

class TestCliProgress : public QObject {
    Q_OBJECT

private slots:
    void splitWithBaselineEventsInOrder() {
        QTemporaryDir dir;
        const QString model = dir.filePath("m.skynnet"), report = dir.filePath("r.json");
        const CliRun r = runCli(blobs + QStringList{"--submodels", "3", "--baseline", "--progress", "json", "--save",
                                                    model, "--report", report});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const std::vector<Json> events = eventsOf(r);
        QVERIFY(events.size() > 10);

        const Json& plan = events.front();
        QCOMPARE(kind(plan), std::string("plan"));
        QCOMPARE(plan["submodels"].get<int>(), 3);
        QCOMPARE(plan["roles"].size(), std::size_t(3));
        QVERIFY(plan["baseline"].get<bool>());
        const int epochs = plan["epochs"].get<int>();
        QVERIFY(epochs >= 1);

        const Json& result = events.back();
        QCOMPARE(kind(result), std::string("result"));
        QCOMPARE(result["model"].get<std::string>(), std::string("combined"));
        QCOMPARE(result["status"].get<std::string>(), std::string("completed"));
        QCOMPARE(result["model_path"].get<std::string>(), model.toStdString());
        QCOMPARE(result["report_path"].get<std::string>(), report.toStdString());
        const double accuracy = result["test_accuracy"].get<double>();
        QVERIFY(accuracy > 0.5 && accuracy <= 1.0);
        QCOMPARE(result["submodel_test_metrics"].size(), std::size_t(3));
        QVERIFY(result["baseline"]["test_accuracy"].get<double>() > 0.5);
        QVERIFY(QFile::exists(model));
        // The result carries the report's headline, from the same numbers.
        QFile f(report);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Json written = parseJson(f.readAll().toStdString(), "report");
        QCOMPARE(written["test_accuracy"].get<double>(), accuracy);

        int plans = 0, results = 0;
        for (const Json& e : events) {
            plans += kind(e) == "plan";
            results += kind(e) == "result";
            QVERIFY(kind(e) != "error");
        }
        QCOMPARE(plans, 1);
        QCOMPARE(results, 1);

        // The submodels train for the plan's epochs; the baseline (after them) for its own.
        std::map<std::string, ModelTrace> submodels;
        {
            std::vector<Json> split, base;
            for (const Json& e : events)
                if (e.contains("model") && kind(e) != "result") (e["model"] == "baseline" ? base : split).push_back(e);
            submodels = traceModels(split, epochs);
            traceModels(base, plan["baseline_epochs"].get<int>());
        }
        QCOMPARE(int(submodels.size()), 3);
        for (int i = 1; i <= 3; ++i) QVERIFY(submodels.count("submodel " + std::to_string(i)));
        for (int i = 1; i <= 3; ++i)
            QVERIFY(indexOf(events, "finished", "submodel " + std::to_string(i)) <
                    indexOf(events, "started", "baseline 0"));

        // The human summary is on stderr, not mixed into the events.
        QVERIFY2(r.err.contains("combined model saved to " + model), qPrintable(r.err));
    }

    void singleNetworkEvents() {
        const CliRun r = runCli(blobs + QStringList{"--progress=json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const std::vector<Json> events = eventsOf(r);
        QVERIFY(!events.empty());
        QCOMPARE(kind(events.front()), std::string("plan"));
        QCOMPARE(events.front()["submodels"].get<int>(), 0);
        QCOMPARE(events.front()["epochs"].get<int>(), 3);
        const auto traces = traceModels(events, 3);
        QCOMPARE(int(traces.size()), 1);
        QVERIFY(traces.count("network 0"));
        const Json& result = events.back();
        QCOMPARE(kind(result), std::string("result"));
        QCOMPARE(result["model"].get<std::string>(), std::string("network"));
        QCOMPARE(result["metric"].get<std::string>(), std::string("accuracy"));
        QVERIFY(result["test_accuracy"].get<double>() > 0.5);
        QCOMPARE(result["model_path"].get<std::string>(), std::string());
        QVERIFY(r.err.contains("test accuracy"));
    }

    void textProgressKeepsStdoutForTheSummary() {
        const CliRun r = runCli(blobs + QStringList{"--progress", "text"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.startsWith("test accuracy"));
        QVERIFY(!r.out.contains("{"));
        QVERIFY(r.err.contains("epoch 3/3"));
    }

    void failureIsAnErrorEvent() {
        QTemporaryDir dir;
        const QString missing = dir.filePath("missing.csv");
        const CliRun r = runCli({"train", "--data", missing, "--progress", "json"});
        QCOMPARE(r.exitCode, 1);
        const std::vector<Json> events = eventsOf(r);
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(kind(events[0]), std::string("error"));
        VERIFY_CONTAINS(events[0]["message"].get<std::string>(), missing.toStdString());
        QVERIFY(r.err.contains("skynnet-cli: "));
    }

    void badOptionIsAnErrorEventToo() {
        const CliRun r = runCli(blobs + QStringList{"--epochs", "0", "--progress", "json"});
        QCOMPARE(r.exitCode, 2);
        const std::vector<Json> events = eventsOf(r);
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(kind(events[0]), std::string("error"));
        VERIFY_CONTAINS(events[0]["message"].get<std::string>(), "--epochs");

        const CliRun bad = runCli(blobs + QStringList{"--progress", "xml"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.out.isEmpty());
        QVERIFY2(bad.err.contains("--progress: expected text or json, not 'xml'"), qPrintable(bad.err));
    }

    void projectRunEvents() {
        QTemporaryDir dir;
        QDir(dir.path()).mkpath("projects");
        QDir(dir.path()).mkpath("datasets");
        const QString project = dir.filePath("projects/wine-class-groups.skynnet");
        QVERIFY(
            QFile::copy(QString::fromStdString(sourcePath("resources/projects/wine-class-groups.skynnet")), project));
        QVERIFY(QFile::copy(QString::fromStdString(sourcePath("resources/datasets/wine.csv")),
                            dir.filePath("datasets/wine.csv")));
        const ProjectData before = loadProject(project.toStdString());

        const CliRun r = runCli({"train", "--project", project, "--threads", "2", "--progress", "json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const std::vector<Json> events = eventsOf(r);
        QVERIFY(!events.empty());
        const Json& plan = events.front();
        QCOMPARE(kind(plan), std::string("plan"));
        QCOMPARE(plan["baseline"].get<bool>(), before.training.trainBaseline);
        const Json& result = events.back();
        QCOMPARE(kind(result), std::string("result"));
        QCOMPARE(result["project"].get<std::string>(), project.toStdString());
        const ProjectData after = loadProject(project.toStdString());
        QCOMPARE(after.runs.size(), before.runs.size() + 1);
        QCOMPARE(result["run"].get<int>(), int(after.runs.size()));
        QCOMPARE(result["combined"].get<double>(), after.runs.back().results->combinedMetric);
        std::vector<Json> split;
        for (const Json& e : events)
            if (e.contains("model") && e["model"] == "submodel") split.push_back(e);
        QCOMPARE(int(traceModels(split, plan["epochs"].get<int>()).size()), plan["submodels"].get<int>());
    }

    // A project run killed after its first checkpoint continues with --resume (the app's Resume of a
    // hostfile run) and saves the same run an uninterrupted one does; the folder is then removed.
    void projectRunResumes() {
        QTemporaryDir dir;
        const QString whole = copyExampleProject(dir, "whole"), killed = copyExampleProject(dir, "killed");
        const CliRun a = runCli({"train", "--project", whole, "--threads", "2", "--progress", "json"});
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        QVERIFY(!QFileInfo::exists(whole + ".checkpoint"));

        const CliRun dead = runCliWith({"train", "--project", killed, "--threads", "2", "--progress", "json"},
                                       "SKYNNET_TEST_KILL_AFTER_CHECKPOINT", "1");
        QCOMPARE(dead.exitCode, -1);  // SIGKILL, as a crash
        QVERIFY2(QFileInfo(killed + ".checkpoint").isDir(), qPrintable(dead.err + dead.out.left(300)));
        QVERIFY(loadProject(killed.toStdString()).runs.size() == loadProject(whole.toStdString()).runs.size() - 1);

        const CliRun again = runCli({"train", "--project", killed, "--threads", "2", "--progress", "json"});
        QCOMPARE(again.exitCode, 1);
        VERIFY_CONTAINS(eventsOf(again).back()["message"].get<std::string>(), "add --resume to continue");

        const CliRun resumed = runCli(
            {"train", "--project", killed, "--threads", "2", "--progress", "json", "--resume"});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QCOMPARE(kind(eventsOf(resumed).back()), std::string("result"));
        QVERIFY(!QFileInfo::exists(killed + ".checkpoint"));
        const ProjectData wholeProject = loadProject(whole.toStdString()),
                          killedProject = loadProject(killed.toStdString());
        const ProjectRun& x = wholeProject.runs.back();
        const ProjectRun& y = killedProject.runs.back();
        QCOMPARE(y.results->combinedMetric, x.results->combinedMetric);
        QCOMPARE(y.results->combinedTestOutput, x.results->combinedTestOutput);
    }
};

QTEST_GUILESS_MAIN(TestCliProgress)
#include "tst_cli_progress.moc"
