// The split study: the statistics it reports (engine/core/statistics.h), the plain ensemble it
// compares the split with (SplitOptions::ensemble), and `skynnet-cli study` end to end: its
// numbers against the same runs done one by one with train, a cancelled study resumed, bad options.
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <numbers>

#include "core/statistics.h"
#include "project/project_file.h"
#include "split/split_plan.h"

#include "cli_support.h"
#include "plan_support.h"
#include "test_support.h"

using namespace skynnet;

namespace {

NetworkSpec mlp(const std::string& layers, int inputs) {
    NetworkSpec s;
    s.input = Shape::flat(inputs);
    s.layers = parseLayers(layers);
    return s;
}

std::int64_t totalParams(const SplitPlan& plan) {
    std::int64_t n = 0;
    for (const SubmodelPlan& s : plan.submodels) n += s.params;
    return n;
}

// Small and quick: 4 classes of blobs, a one-layer network, a few epochs, 2 kernel threads.
QStringList trainOptions(int epochs = 4) {
    return {"--data",    "builtin:blobs:samples=400:classes=4",
            "--layers",  "dense:16:relu",
            "--epochs",  QString::number(epochs),
            "--threads", "2"};
}

QStringList studyArgs(const QString& out, const QStringList& extra, int epochs = 4) {
    return QStringList{"study"} + trainOptions(epochs) + extra + QStringList{"--out", out};
}

// A project as the app saves it: blobs of 4 classes, class groups into N=3, 4 epochs, a baseline.
ProjectData blobsProject() {
    ProjectData p;
    p.data.train.path = "builtin:blobs:samples=400:classes=4";
    p.network.layers = parseLayers("dense:16:relu");
    p.split.strategy = Strategy::ClassGroups;
    p.split.requested = 3;
    p.training.config.epochs = 4;
    p.training.threadBudget = 2;
    p.training.trainBaseline = true;
    return p;
}

// The run of study.json named `name` ("N2-seed1").
QJsonObject runNamed(const QJsonObject& study, const QString& name) {
    for (const QJsonValue& v : study["runs"].toArray())
        if (v.toObject()["run"].toString() == name) return v.toObject();
    return {};
}

QJsonObject configNamed(const QJsonObject& study, const QString& name) {
    for (const QJsonValue& v : study["summary"].toObject()["configurations"].toArray())
        if (v.toObject()["config"].toString() == name) return v.toObject();
    return {};
}

}  // namespace

class TestStudy : public QObject {
    Q_OBJECT

private slots:
    // Published two-sided 95% values, and the closed forms of 1 and 2 degrees of freedom.
    void tQuantileMatchesTables() {
        QVERIFY(std::fabs(studentTQuantile(0.975, 1) - 12.706) < 5e-4);
        QVERIFY(std::fabs(studentTQuantile(0.975, 2) - 4.303) < 5e-4);
        QVERIFY(std::fabs(studentTQuantile(0.975, 3) - 3.182) < 5e-4);
        QVERIFY(std::fabs(studentTQuantile(0.975, 4) - 2.776) < 5e-4);
        QVERIFY(std::fabs(studentTQuantile(0.975, 10) - 2.228) < 5e-4);
        QVERIFY(std::fabs(studentTQuantile(0.975, 30) - 2.042) < 5e-4);
        QVERIFY(std::fabs(studentTQuantile(0.95, 5) - 2.015) < 5e-4);
        QVERIFY(std::fabs(studentTQuantile(0.995, 3) - 5.841) < 5e-4);
        QVERIFY(std::fabs(studentTQuantile(0.975, 100000) - 1.960) < 5e-4);  // the normal's 1.95996
        // df = 1 is Cauchy: tan(pi (p - 1/2)); df = 2: (2p - 1) / sqrt(2 p (1 - p)).
        for (double p : {0.6, 0.9, 0.975, 0.999}) {
            QVERIFY(std::fabs(studentTQuantile(p, 1) - std::tan(std::numbers::pi * (p - 0.5))) <
                    1e-9 * std::tan(std::numbers::pi * (p - 0.5)));
            const double two = (2 * p - 1) / std::sqrt(2 * p * (1 - p));
            QVERIFY(std::fabs(studentTQuantile(p, 2) - two) < 1e-9 * two);
        }
        QCOMPARE(studentTQuantile(0.025, 4), -studentTQuantile(0.975, 4));
        QCOMPARE(studentTQuantile(0.5, 7), 0.0);
        QVERIFY(std::fabs(studentTCdf(studentTQuantile(0.9, 6), 6) - 0.9) < 1e-12);
        QCOMPARE(studentTCdf(0, 3), 0.5);
        VERIFY_CONTAINS(errorOf([] { studentTQuantile(1.0, 3); }), "strictly between 0 and 1, got 1");
        VERIFY_CONTAINS(errorOf([] { studentTQuantile(0.9, 0); }), "at least 1 degree of freedom, got 0");
    }

    // A split's accuracy on 4 seeds against the original's on the same seeds, by hand:
    // d = 0.02, 0.01, 0, 0.03; mean 0.015; sd = sqrt((2 * 0.005^2 + 2 * 0.015^2) / 3) = sqrt(5e-4 / 3);
    // 95% half width = t(0.975, 3) * sd / sqrt(4) = 3.182446 * 0.0129099 / 2 = 0.0205426.
    void pairedIntervalWorkedExample() {
        const std::vector<double> split = {0.91, 0.88, 0.90, 0.93}, original = {0.89, 0.87, 0.90, 0.90};
        const std::vector<double> d = pairedDifferences(split, original);
        QCOMPARE(int(d.size()), 4);
        QVERIFY(std::fabs(d[0] - 0.02) < 1e-12 && std::fabs(d[1] - 0.01) < 1e-12 && std::fabs(d[2]) < 1e-12 &&
                std::fabs(d[3] - 0.03) < 1e-12);
        const auto interval = tInterval(d, 0.95);
        QVERIFY(interval);
        QCOMPARE(interval->n, 4);
        QVERIFY(std::fabs(interval->mean - 0.015) < 1e-12);
        QVERIFY(std::fabs(interval->stdDev - std::sqrt(5e-4 / 3)) < 1e-12);
        QVERIFY(std::fabs(interval->halfWidth - 0.0205426) < 1e-6);
        QVERIFY(std::fabs(interval->low() - (0.015 - 0.0205426)) < 1e-6);
        QVERIFY(std::fabs(interval->high() - (0.015 + 0.0205426)) < 1e-6);
        // The interval includes 0: four seeds cannot tell this gain from noise.
        QVERIFY(interval->low() < 0 && interval->high() > 0);

        QVERIFY(!sampleStdDev({0.9}));
        QVERIFY(!tInterval({0.9}));
        QCOMPARE(meanOf({0.9}), 0.9);
        VERIFY_CONTAINS(errorOf([] { meanOf({}); }), "mean of no values");
        VERIFY_CONTAINS(errorOf([] { pairedDifferences({1, 2}, {1}); }), "got 2 and 1");
    }

    // The plain ensemble: N members, every one on all the rows, about the split's parameters in all.
    void ensemblePlan() {
        const NetworkSpec spec = mlp("dense:128:relu,dense:64:relu", 8);
        const DataInfo data = classInfo(10, 30);
        SplitOptions split;
        split.requested = 3;
        const SplitPlan groups = makePlan(spec, data, split);
        SplitOptions options = split;
        options.strategy = Strategy::DataShards;
        options.ensemble = true;
        const SplitPlan ensemble = makePlan(spec, data, options);
        QCOMPARE(planStrategyName(ensemble), std::string("ensemble"));
        QCOMPARE(ensemble.strategy, Strategy::DataShards);
        QCOMPARE(ensemble.rule().strategy, Strategy::DataShards);  // averaged, saved and exported as shards
        QCOMPARE(ensemble.submodelCount(), 3);
        for (const SubmodelPlan& s : ensemble.submodels) {
            QCOMPARE(long(s.rows.size()), data.samples);
            QCOMPARE(s.rows.front(), 0);
            QCOMPARE(s.rows.back(), int(data.samples) - 1);
            QVERIFY(s.role.find("all 300 samples") != std::string::npos);
        }
        QVERIFY(ensemble.factor > 1);
        // The closest total the widths allow: one unit wider or narrower would be further off.
        const std::int64_t target = totalParams(groups), got = totalParams(ensemble);
        QVERIFY2(std::llabs(got - target) < target / 20,
                 (std::to_string(got) + " vs " + std::to_string(target)).c_str());
        const auto totalAt = [&](double f) { return 3 * paramCount(shrinkSpec(spec, f, Task::Classification, 10)); };
        QCOMPARE(totalAt(ensemble.factor), got);
        for (double f = 1; f < 40; f += 0.01) {
            std::int64_t total = 0;
            try {
                total = totalAt(f);
            } catch (const Error&) {
                continue;  // a layer below 2 units
            }
            QVERIFY2(std::llabs(total - target) >= std::llabs(got - target), std::to_string(f).c_str());
        }
        QCOMPARE(planSummary(ensemble).substr(0, 8), std::string("ensemble"));

        options.dataShardFactor = 2.0;
        QCOMPARE(makePlan(spec, data, options).factor, 2.0);
        options.dataShardFactor.reset();
        options.strategy = Strategy::ClassGroups;
        VERIFY_CONTAINS(errorOf([&] { makePlan(spec, data, options); }), "the ensemble is planned as data shards");
    }

    // Every run of the study is the train command it names: the same metric, bit for bit, and the
    // summary's paired difference is the mean of the per-seed differences of those numbers.
    void studyAgreesWithTrainRunByRun() {
        QTemporaryDir dir;
        const QString out = dir.filePath("study");
        const CliRun r = runCli(studyArgs(out, {"--submodels", "3", "--seeds", "1,2"}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.err.toStdString(), "study: 6 runs (3 configurations x 2 seeds)");
        VERIFY_CONTAINS(r.out.toStdString(), "Recommended");
        const QJsonObject study = readJson(out + "/study.json");
        QCOMPARE(study["runs"].toArray().size(), 6);

        struct Single {
            QString run;
            QStringList split;
        };
        for (const Single& s :
             {Single{"N1-seed1", {"--seed", "1"}}, Single{"N3-seed2", {"--submodels", "3", "--seed", "2"}},
              Single{"N3-ensemble-seed1", {"--submodels", "3", "--strategy", "ensemble", "--seed", "1"}}}) {
            const QString report = dir.filePath(s.run + ".json");
            const CliRun t = runCli(QStringList{"train"} + trainOptions() + s.split + QStringList{"--report", report});
            QVERIFY2(t.exitCode == 0, qPrintable(t.err));
            const QJsonObject alone = readJson(report), inStudy = runNamed(study, s.run);
            QCOMPARE(inStudy["status"].toString(), QString("finished"));
            QCOMPARE(inStudy["metric_name"].toString(), QString("accuracy"));
            QCOMPARE(inStudy["metric"].toDouble(), alone["test_accuracy"].toDouble());
        }
        const QJsonObject ensemble = runNamed(study, "N3-ensemble-seed1");
        QCOMPARE(ensemble["strategy"].toString(), QString("ensemble"));
        QCOMPARE(ensemble["S"].toInt(), 3);
        const QJsonObject original = runNamed(study, "N1-seed1");
        QCOMPARE(original["strategy"].toString(), QString("original"));
        QCOMPARE(original["S"].toInt(), 1);
        for (const char* key : {"wall_seconds", "slowest_submodel_seconds", "cpu_seconds", "latency_seconds_per_batch"})
            QVERIFY2(original[key].toDouble() > 0, key);
        QVERIFY(original["peak_memory_bytes"].toDouble() > 0);
        QVERIFY(runNamed(study, "N3-seed1")["flops_per_sample"].toDouble() > 0);
        QVERIFY(runNamed(study, "N3-seed1")["predicted_seconds_on_s_machines"].toDouble() > 0);
        QVERIFY(original["predicted_seconds_on_s_machines"].isNull());

        const QJsonObject n3 = configNamed(study, "N3");
        QCOMPARE(n3["runs"].toInt(), 2);
        const QJsonObject diff = n3["difference"].toObject();
        QCOMPARE(diff["pairs"].toInt(), 2);
        const double d1 = runNamed(study, "N3-seed1")["metric"].toDouble() -
                          runNamed(study, "N1-seed1")["metric"].toDouble();
        const double d2 = runNamed(study, "N3-seed2")["metric"].toDouble() -
                          runNamed(study, "N1-seed2")["metric"].toDouble();
        QVERIFY(std::fabs(diff["mean"].toDouble() - (d1 + d2) / 2) < 1e-12);
        // Two pairs: t(0.975, 1) = 12.706 times sd / sqrt(2), sd = |d1 - d2| / sqrt(2).
        const double half = studentTQuantile(0.975, 1) * std::fabs(d1 - d2) / 2;
        QVERIFY(std::fabs(diff["ci95_high"].toDouble() - ((d1 + d2) / 2 + half)) < 1e-12);
        QVERIFY(configNamed(study, "N1")["difference"].isNull());
        const QJsonObject recommendation = study["summary"].toObject()["recommendation"].toObject();
        QVERIFY(!recommendation["this_machine"].toObject()["config"].toString().isEmpty());

        QFile csv(out + "/study.csv"), md(out + "/study.md"), png(out + "/study.png");
        QVERIFY(csv.open(QIODevice::ReadOnly) && md.open(QIODevice::ReadOnly) && png.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 7);
        QVERIFY(lines[0].startsWith("run,config,submodels,S,seed,strategy"));
        QCOMPARE(lines[0].count(','), lines[1].count(','));
        const QString table = QString::fromUtf8(md.readAll());
        QVERIFY(table.contains("| N3-ensemble | 3 | 3 | ensemble |"));
        QVERIFY(table.contains("skynnet-cli study --data"));
        QCOMPARE(png.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    }

    // study --combine: the same trained submodels under each rule, a column each; a run's metric
    // under a rule is what `evaluate --combine` gives its saved model on the test rows.
    void studyComparesRulesWithoutRetraining() {
        QTemporaryDir dir;
        const QString out = dir.filePath("study");
        const CliRun r = runCli(studyArgs(out, {"--submodels", "3", "--seeds", "1,2", "--strategies", "class-groups",
                                                "--no-ensemble", "--combine", "coupling,sum"}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.out.toStdString(), "coupling difference [95% CI]");
        const QJsonObject study = readJson(out + "/study.json");
        const QJsonObject run1 = runNamed(study, "N3-class-groups-seed1");
        const QJsonObject byRule = run1["metric_by_rule"].toObject();
        // The runs combine by the default rule, stacked.
        QCOMPARE(byRule["stacked"].toDouble(), run1["metric"].toDouble());

        const QString model = dir.filePath("n3.skym");
        const CliRun t = runCli(
            QStringList{"train"} + trainOptions() +
            QStringList{"--submodels", "3", "--strategy", "class-groups", "--seed", "1", "--save", model});
        QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        for (const char* rule : {"coupling", "sum"}) {
            const QString report = dir.filePath(QString("evaluate-%1.json").arg(rule));
            const CliRun e = runCli({"evaluate", "--model", model, "--data", "builtin:blobs:samples=400:classes=4",
                                     "--split", "test", "--combine", rule, "--report", report});
            QVERIFY2(e.exitCode == 0, qPrintable(e.err));
            const QJsonObject evaluated = readJson(report);
            QCOMPARE(evaluated["combine"].toString(), QString(rule) + " with an 'other' output");  // the default share
            QCOMPARE(evaluated["accuracy"].toDouble(), byRule[rule].toDouble());
        }
        // The configuration's mean under a rule is over its seeds, paired against the original.
        const QJsonObject n3 = configNamed(study, "N3-class-groups");
        const QJsonArray rules = n3["rules"].toArray();
        QCOMPARE(rules.size(), 2);
        const QJsonObject coupling = rules[0].toObject();
        QCOMPARE(coupling["rule"].toString(), QString("coupling"));
        const double c1 = byRule["coupling"].toDouble(),
                     c2 = runNamed(study, "N3-class-groups-seed2")["metric_by_rule"].toObject()["coupling"].toDouble();
        QVERIFY(std::fabs(coupling["metric_mean"].toDouble() - (c1 + c2) / 2) < 1e-12);
        const double o1 = runNamed(study, "N1-seed1")["metric"].toDouble(),
                     o2 = runNamed(study, "N1-seed2")["metric"].toDouble();
        QVERIFY(std::fabs(coupling["difference_mean"].toDouble() - ((c1 - o1) + (c2 - o2)) / 2) < 1e-12);
        VERIFY_CONTAINS(
            errorOf([&] {
                const CliRun bad = runCli(studyArgs(dir.filePath("bad"), {"--submodels", "3", "--combine", "vote"}));
                if (bad.exitCode != 0) throw Error(bad.err.toStdString());
            }),
            "--combine");
    }

    // The "other" output on and off and the sqrt epochs in one study: each run trains what its
    // configuration names (its report's plan says so), the ensemble without "other".
    void studyComparesOtherShareAndSqrtEpochs() {
        QTemporaryDir dir;
        const QString out = dir.filePath("study");
        const CliRun r = runCli(studyArgs(out, {"--submodels", "3", "--seeds", "1", "--strategies", "class-groups",
                                                "--other-share", "0,0.5", "--scale-epochs", "sqrt,off"}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject study = readJson(out + "/study.json");
        for (const char* scale : {"sqrt", "off"})
            for (const char* share : {"0", "0.5"}) {
                const QString name = QString("N3-class-groups-scale-%1-other-%2-seed1").arg(scale, share);
                QCOMPARE(runNamed(study, name)["epoch_scaling"].toString(), QString(scale));
                const QJsonObject plan = readJson(out + "/runs/" + name + ".json")["plan"].toObject();
                QCOMPARE(plan["epoch_scaling"].toString(), QString(scale));
                QCOMPARE(plan["other_share"].toDouble(), QString(share).toDouble());
            }
        const QJsonObject ensemble = readJson(out + "/runs/N3-ensemble-scale-sqrt-seed1.json")["plan"].toObject();
        QCOMPARE(ensemble["strategy"].toString(), QString("ensemble"));
        QVERIFY(!QFile::exists(out + "/runs/N3-ensemble-scale-sqrt-other-0.5-seed1.json"));
    }

    // SIGINT after the first run: the running child is stopped and gone, finished runs are kept,
    // and the same command continues to the study an uninterrupted one makes.
    void cancelledStudyResumes() {
        QTemporaryDir dir;
        const QString out = dir.filePath("cancelled");
        const QStringList args = studyArgs(out, {"--submodels", "3", "--seeds", "1,2,3", "--no-ensemble"}, 30);
        QProcess study;
        study.start(QStringLiteral(SKYNNET_CLI_PATH), args);
        QVERIFY(study.waitForStarted());
        QElapsedTimer waited;
        waited.start();
        while (!QFile::exists(out + "/runs/N1-seed1.json") && waited.elapsed() < hangGuardMs(60000)) QThread::msleep(5);
        QVERIFY(QFile::exists(out + "/runs/N1-seed1.json"));
        ::kill(pid_t(study.processId()), SIGINT);
        QVERIFY(study.waitForFinished(hangGuardMs(60000)));
        const QString err = QString::fromUtf8(study.readAllStandardError());
        QCOMPARE(study.exitCode(), 130);
        VERIFY_CONTAINS(err.toStdString(), "interrupted by SIGINT");
        VERIFY_CONTAINS(err.toStdString(), "run the same command again to continue the study");
        QCOMPARE(processesMentioning(out), 0);
        QVERIFY(!QFile::exists(out + "/study.json"));
        const int kept = int(QDir(out + "/runs").entryList({"*.json"}).size());
        QVERIFY(kept >= 1 && kept < 6);

        const CliRun resumed = runCli(args);
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        VERIFY_CONTAINS(resumed.err.toStdString(), std::to_string(kept) + " already done");
        const CliRun whole = runCli(
            studyArgs(dir.filePath("whole"), {"--submodels", "3", "--seeds", "1,2,3", "--no-ensemble"}, 30));
        QVERIFY2(whole.exitCode == 0, qPrintable(whole.err));
        const QJsonArray a = readJson(out + "/study.json")["runs"].toArray(),
                         b = readJson(dir.filePath("whole") + "/study.json")["runs"].toArray();
        QCOMPARE(a.size(), 6);
        QCOMPARE(b.size(), 6);
        for (int i = 0; i < 6; ++i)
            for (const char* key :
                 {"run", "config", "seed", "S", "strategy", "status", "metric", "params", "flops_per_sample"})
                QCOMPARE(a[i].toObject()[key], b[i].toObject()[key]);
        int reused = 0;
        for (const QJsonValue& v : a) reused += v.toObject()["reused"].toBool();
        QCOMPARE(reused, kept);
    }

    // --progress json: only events on stdout, one per line, for the app to draw; a run that fails
    // is recorded and named, and the others still make the study.
    void progressEventsAndFailedRuns() {
        QTemporaryDir dir;
        const QString out = dir.filePath("events");
        const CliRun r = runCli(
            studyArgs(out, {"--submodels", "3", "--seeds", "1,2", "--strategies", "class-groups,binary-shards",
                            "--no-ensemble", "--machines", "2", "--progress", "json"}));
        QCOMPARE(r.exitCode, 1);
        VERIFY_CONTAINS(r.err.toStdString(),
                        "2 of 6 runs failed (N3-binary-shards-seed1: exit status 1: the binary-shards "
                        "strategy needs a binary task");
        QStringList kinds;
        QJsonObject plan, summary, error;
        for (const QString& line : r.out.split('\n', Qt::SkipEmptyParts)) {
            QJsonParseError parse;
            const QJsonObject e = QJsonDocument::fromJson(line.toUtf8(), &parse).object();
            QVERIFY2(parse.error == QJsonParseError::NoError && e.contains("event"), qPrintable(line));
            kinds << e["event"].toString();
            if (kinds.last() == "plan") plan = e;
            if (kinds.last() == "summary") summary = e;
            if (kinds.last() == "error") error = e;
        }
        QCOMPARE(kinds.first(), QString("plan"));
        QCOMPARE(plan["runs"].toArray().size(), 6);
        QCOMPARE(kinds.count("run_started"), 6);
        QCOMPARE(kinds.count("run_finished"), 6);
        QCOMPARE(kinds.count("summary"), 1);
        QCOMPARE(kinds.last(), QString("error"));
        VERIFY_CONTAINS(error["message"].toString().toStdString(), "2 of 6 runs failed");
        QCOMPARE(summary["summary"].toObject()["configurations"].toArray().size(),
                 2);  // the failed configuration has none

        const QJsonObject study = readJson(out + "/study.json");
        const QJsonObject failed = runNamed(study, "N3-binary-shards-seed2");
        QCOMPARE(failed["status"].toString(), QString("failed"));
        VERIFY_CONTAINS(failed["error"].toString().toStdString(), "runs/N3-binary-shards-seed2.log");
        // On 2 machines, 3 submodels scheduled longest first: the longest alone, the other two together.
        for (const char* name : {"N3-class-groups-seed1", "N3-class-groups-seed2"}) {
            const QJsonObject run = runNamed(study, name);
            std::vector<double> t;
            for (const QJsonValue& v : run["submodel_seconds"].toArray()) t.push_back(v.toDouble());
            QCOMPARE(int(t.size()), 3);
            std::sort(t.begin(), t.end(), std::greater<>());
            QCOMPARE(run["machines_seconds"].toDouble(), std::max(t[0], t[1] + t[2]));
            QCOMPARE(run["slowest_submodel_seconds"].toDouble(), t[0]);
        }
    }

    void badOptions_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        const QStringList base = QStringList{"study"} + trainOptions();
        QTest::newRow("unknown option") << (base + QStringList{"--submodels", "2", "--bogus", "--out", "x"}) << 2
                                        << "unknown option '--bogus'";
        QTest::newRow("N below 1") << (base + QStringList{"--submodels", "1,0", "--out", "x"}) << 2
                                   << "--submodels: N must be at least 1, got '0'";
        QTest::newRow("N not a number") << (base + QStringList{"--submodels", "3x", "--out", "x"}) << 2
                                        << "--submodels: expected positive whole numbers, got '3x'";
        QTest::newRow("no submodels") << (base + QStringList{"--out", "x"}) << 2 << "--submodels is required";
        QTest::newRow("empty seeds") << (base + QStringList{"--submodels", "2", "--seeds", "", "--out", "x"}) << 2
                                     << "--seeds: expects a non-empty value";
        QTest::newRow("empty seed item") << (base + QStringList{"--submodels", "2", "--seeds", "1,,2", "--out", "x"})
                                         << 2
                                         << "--seeds: expects a comma-separated list without empty items, got '1,,2'";
        QTest::newRow("seed twice") << (base + QStringList{"--submodels", "2", "--seeds", "1,2,1", "--out", "x"}) << 2
                                    << "--seeds: '1' is given twice";
        QTest::newRow("--seed") << (base + QStringList{"--submodels", "2", "--seed", "3", "--out", "x"}) << 2
                                << "--seed: the study sets each run's seed: use --seeds LIST";
        QTest::newRow("--save") << (base + QStringList{"--submodels", "2", "--save", "m.skym", "--out", "x"}) << 2
                                << "--save: the study saves each run's model in --out DIR/runs";
        QTest::newRow("bad strategy") << (base +
                                          QStringList{"--submodels", "2", "--strategies", "halves", "--out", "x"})
                                      << 2 << "--strategies: unknown split strategy 'halves'";
        QTest::newRow("bad scale") << (base +
                                       QStringList{"--submodels", "2", "--scale-epochs", "on,maybe", "--out", "x"})
                                   << 2 << "--scale-epochs: expected a list of on, off and sqrt, got 'maybe'";
        QTest::newRow("bad other share") << (base +
                                             QStringList{"--submodels", "2", "--other-share", "0,-1", "--out", "x"})
                                         << 2 << "--other-share: expected numbers of at least 0, got '-1'";
        QTest::newRow("bad train option") << (base + QStringList{"--submodels", "2", "--batch", "0", "--out", "x"}) << 2
                                          << "--batch: expected a positive integer, got '0'";
        QTest::newRow("no test set") << (base + QStringList{"--submodels", "2", "--test-fraction", "0", "--out", "x"})
                                     << 2 << "--test-fraction: a study compares test metrics: it needs a test set";
        QTest::newRow("no out") << (base + QStringList{"--submodels", "2"}) << 2 << "--out is required";
        QTest::newRow("machines") << (base + QStringList{"--submodels", "2", "--machines", "0", "--out", "x"}) << 2
                                  << "--machines: expected a positive integer, got '0'";
    }

    void badOptions() {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.start(QStringLiteral(SKYNNET_CLI_PATH), args);
        QVERIFY(p.waitForFinished(hangGuardMs(60000)));
        QCOMPARE(p.exitCode(), status);
        VERIFY_CONTAINS(QString::fromUtf8(p.readAllStandardError()).toStdString(), message.toStdString());
        QVERIFY(!QFile::exists(dir.filePath("x")));  // nothing created for a refused command line
    }

    // An --out that cannot be a folder, and a folder that holds another study, each named.
    void badFolders() {
        QTemporaryDir dir;
        QFile file(dir.filePath("plain-file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const CliRun underFile = runCli(
            studyArgs(dir.filePath("plain-file/study"), {"--submodels", "2", "--seeds", "1"}));
        QCOMPARE(underFile.exitCode, 1);
        VERIFY_CONTAINS(underFile.err.toStdString(),
                        "--out " + dir.filePath("plain-file/study").toStdString() + ": cannot create the folder");

        const QString out = dir.filePath("one");
        const CliRun first = runCli(studyArgs(out, {"--submodels", "2", "--seeds", "1", "--no-ensemble"}));
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        const CliRun other = runCli(studyArgs(out, {"--submodels", "2", "--seeds", "1,2", "--no-ensemble"}));
        QCOMPARE(other.exitCode, 1);
        VERIFY_CONTAINS(other.err.toStdString(), "holds a study made with other options (--seeds: 1 there, 1,2 here;");
        const CliRun again = runCli(studyArgs(out, {"--submodels", "2", "--seeds", "1", "--no-ensemble"}));
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        VERIFY_CONTAINS(again.err.toStdString(), "2 already done");
    }

    // study --project: each run is `train --project` of the project with the run's seed (data split,
    // split and batch order) and N, without the baseline; N=1 is the project's network on all its
    // rows. The same options continue; a changed project is refused, as are train options.
    void projectStudyRunsAreTheProjectsTraining() {
        QTemporaryDir dir;
        const std::string project = dir.filePath("p.skynnet").toStdString();
        saveProject(project, blobsProject());
        const QString out = dir.filePath("study");
        const QStringList args = {"study", "--project", dir.filePath("p.skynnet"), "--submodels", "3", "--seeds", "1,2",
                                  "--out", out};
        const CliRun r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.err.toStdString(), "study: 6 runs (3 configurations x 2 seeds)");
        const QJsonObject study = readJson(out + "/study.json");
        QCOMPARE(study["runs"].toArray().size(), 6);

        struct Alone {
            QString run;
            std::uint64_t seed;
            int n;
            bool ensemble;
        };
        for (const Alone& a :
             {Alone{"N1-seed1", 1, 1, false}, Alone{"N3-seed2", 2, 3, false}, Alone{"N3-ensemble-seed1", 1, 3, true}}) {
            ProjectData p = blobsProject();
            p.data.seed = p.split.seed = p.training.config.seed = a.seed;
            p.training.trainBaseline = false;
            p.split.requested = a.n;
            if (a.n == 1 || a.ensemble) p.split.strategy = Strategy::DataShards;
            p.split.ensemble = a.ensemble;
            const std::string copy = dir.filePath(a.run + ".skynnet").toStdString();
            saveProject(copy, p);
            const QString report = dir.filePath(a.run + ".json");
            const CliRun t = runCli({"train", "--project", QString::fromStdString(copy), "--report", report});
            QVERIFY2(t.exitCode == 0, qPrintable(t.err));
            const QJsonObject alone = readJson(report), inStudy = runNamed(study, a.run);
            QCOMPARE(inStudy["status"].toString(), QString("finished"));
            QCOMPARE(inStudy["metric"].toDouble(), alone["combined"].toDouble());
            QCOMPARE(alone["evaluated_on"].toString(), QString("test"));
            const ProjectData trained = loadProject(copy);
            QCOMPARE(inStudy["S"].toInt(), trained.runs.back().plan.submodelCount());
            QVERIFY(!trained.runs.back().results->baseline);
        }
        const QJsonObject original = runNamed(study, "N1-seed1");
        QCOMPARE(original["strategy"].toString(), QString("original"));
        QCOMPARE(original["S"].toInt(), 1);
        QVERIFY(original["latency_seconds_per_batch"].toDouble() > 0);
        QCOMPARE(runNamed(study, "N3-seed1")["strategy"].toString(), QString("class-groups"));
        QCOMPARE(runNamed(study, "N3-seed1")["S"].toInt(), 3);
        QCOMPARE(runNamed(study, "N3-ensemble-seed1")["strategy"].toString(), QString("ensemble"));
        QCOMPARE(runNamed(study, "N3-ensemble-seed1")["S"].toInt(), 3);
        QVERIFY(QFile::exists(out + "/runs/N3-seed1.skym"));

        const CliRun again = runCli(args);
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        VERIFY_CONTAINS(again.err.toStdString(), "6 already done");

        ProjectData changed = blobsProject();
        changed.training.config.epochs = 5;
        saveProject(project, changed);
        const CliRun refused = runCli(args);
        QCOMPARE(refused.exitCode, 1);
        VERIFY_CONTAINS(refused.err.toStdString(),
                        "holds a study made with other options (--project: the project's path, data, "
                        "network, split or training differ;");

        const CliRun withData = runCli({"study", "--project", dir.filePath("p.skynnet"), "--data", "x.csv",
                                        "--submodels", "3", "--out", dir.filePath("other")});
        QCOMPARE(withData.exitCode, 2);
        VERIFY_CONTAINS(withData.err.toStdString(),
                        "--data: cannot be combined with --project (the project holds its data, network and settings)");
        ProjectData untested = blobsProject();
        untested.data.testFraction = 0;
        saveProject(project, untested);
        const CliRun noTest = runCli(
            {"study", "--project", dir.filePath("p.skynnet"), "--submodels", "3", "--out", dir.filePath("other")});
        QCOMPARE(noTest.exitCode, 1);
        VERIFY_CONTAINS(noTest.err.toStdString(), "the project has no test set (a study compares test metrics)");
        QVERIFY(!QFile::exists(dir.filePath("other")));
    }

    void help() {
        const CliRun r = runCli({"study", "--help"});
        QCOMPARE(r.exitCode, 0);
        VERIFY_CONTAINS(r.out.toStdString(), "Usage: skynnet-cli study");
        VERIFY_CONTAINS(r.out.toStdString(), "--seeds LIST");
    }
};

QTEST_GUILESS_MAIN(TestStudy)
#include "tst_study.moc"
