// The data shards' overlap (--shard-overlap R, issue 28): the plan's extra rows from the other
// shards (the disjoint part and the count exact, the same rows for the same seed), its refusals, the
// project file, the command line, and the holdout regression on the bundled diabetes data, where
// disjoint shards lose R² that an overlap wins back.
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "cli_support.h"
#include "core/error.h"
#include "data/generators.h"
#include "data/prepared_data.h"
#include "project/project_file.h"
#include "project/project_json.h"
#include "split/combined_model_file.h"
#include "split/parallel_trainer.h"
#include "split/split_plan.h"

#include "plan_support.h"
#include "project_round_trip.h"
#include "test_support.h"

using namespace skynnet;

namespace {

NetworkSpec mlp(int inputs, const std::string& layers = "dense:16:relu") {
    NetworkSpec s;
    s.input = Shape::flat(inputs);
    s.layers = parseLayers(layers);
    return s;
}

SplitOptions shards(int n, double overlap, std::uint64_t seed = 1) {
    SplitOptions o;
    o.strategy = Strategy::DataShards;
    o.requested = n;
    o.shardOverlap = overlap;
    o.seed = seed;
    return o;
}

DataInfo regressionInfo(long samples, int columns = 1) {
    DataInfo d;
    d.task = Task::Regression;
    d.targetColumns = columns;
    d.samples = samples;
    return d;
}

// `all` without `part` (both ascending).
std::vector<int> without(const std::vector<int>& all, const std::vector<int>& part) {
    std::vector<int> rest;
    std::set_difference(all.begin(), all.end(), part.begin(), part.end(), std::back_inserter(rest));
    return rest;
}

const QString diabetes = QString::fromStdString(sourcePath("resources/datasets/diabetes.csv"));

// One holdout regression run on diabetes: 3 data shards of an MLP 64-32, 200 epochs at 0.001, as
// the measurement below; its report's test R².
double diabetesR2(const QTemporaryDir& dir, int seed, double overlap) {
    const QString report = dir.filePath(QString("diabetes-%1-%2.json").arg(seed).arg(overlap));
    QStringList args = {"train",
                        "--data",
                        diabetes,
                        "--task",
                        "regression",
                        "--layers",
                        "dense:64:relu,dense:32:relu",
                        "--epochs",
                        "200",
                        "--lr",
                        "0.001",
                        "--submodels",
                        "3",
                        "--strategy",
                        "data-shards",
                        "--threads",
                        "2",
                        "--seed",
                        QString::number(seed),
                        "--quiet",
                        "--report",
                        report};
    if (overlap > 0) args += QStringList{"--shard-overlap", QString::number(overlap)};
    const CliRun r = runCli(args);
    if (r.exitCode != 0) qFatal("%s", qPrintable(r.err));
    const QJsonObject j = readJson(report);
    const QJsonObject combined = j["combined"].toObject();
    if (combined["shard_overlap"].toDouble(-1) != overlap) qFatal("combined.shard_overlap is not %g", overlap);
    return j["test_r2"].toDouble();
}

}  // namespace

class TestShardOverlap : public QObject {
    Q_OBJECT

private slots:
    // R = 0.5: every submodel keeps exactly its disjoint shard and gains round(0.5 x shard) rows of
    // the other shards, none repeated, the whole list ascending; the networks and the epochs are
    // those of disjoint shards; the same seed draws the same rows, another seed others.
    void planAddsRowsOfTheOtherShards() {
        const DataInfo data = regressionInfo(100);  // shards of 34, 33, 33
        const SplitPlan plain = makePlan(mlp(4), data, shards(3, 0));
        const SplitPlan plan = makePlan(mlp(4), data, shards(3, 0.5));
        QCOMPARE(plan.shardOverlap, 0.5);
        QCOMPARE(plan.submodelCount(), 3);
        QCOMPARE(plan.effectiveEpochs, plain.effectiveEpochs);
        std::vector<int> every(100);
        std::iota(every.begin(), every.end(), 0);
        for (int i = 0; i < 3; ++i) {
            const SubmodelPlan& s = plan.submodels[std::size_t(i)];
            const SubmodelPlan& own = plain.submodels[std::size_t(i)];
            QCOMPARE(own.overlapRows, 0);
            const long expected = std::lround(0.5 * double(own.rows.size()));  // 17 of 34, 17 of 33
            QCOMPARE(long(s.overlapRows), expected);
            QCOMPARE(long(s.rows.size()), long(own.rows.size()) + expected);
            QVERIFY(std::is_sorted(s.rows.begin(), s.rows.end()));
            QVERIFY(std::adjacent_find(s.rows.begin(), s.rows.end()) == s.rows.end());
            QVERIFY(std::includes(s.rows.begin(), s.rows.end(), own.rows.begin(), own.rows.end()));
            // The rows beyond its own are the other shards' rows, and only those.
            const std::vector<int> borrowed = without(s.rows, own.rows);
            QCOMPARE(long(borrowed.size()), expected);
            const std::vector<int> others = without(every, own.rows);
            QVERIFY(std::includes(others.begin(), others.end(), borrowed.begin(), borrowed.end()));
            QCOMPARE(s.role, own.role);  // "shard 1 of 3 (34 samples)": its own shard
            QCOMPARE(s.spec, own.spec);
            QCOMPARE(s.params, own.params);
            QCOMPARE(s.seed, own.seed);
        }
        // Each submodel draws from its own stream: not the same rows twice.
        QVERIFY(without(plan.submodels[1].rows, plain.submodels[1].rows) !=
                without(plan.submodels[2].rows, plain.submodels[2].rows));
        const SplitPlan again = makePlan(mlp(4), data, shards(3, 0.5));
        const SplitPlan reseeded = makePlan(mlp(4), data, shards(3, 0.5, 2));
        for (int i = 0; i < 3; ++i) QCOMPARE(again.submodels[std::size_t(i)].rows, plan.submodels[std::size_t(i)].rows);
        const SplitPlan reseededPlain = makePlan(mlp(4), data, shards(3, 0, 2));
        QVERIFY(without(reseeded.submodels[0].rows, reseededPlain.submodels[0].rows) !=
                without(plan.submodels[0].rows, plain.submodels[0].rows));
        VERIFY_CONTAINS(planSummary(plan), "51 samples (17 overlap)");
    }

    // R = 0 is the plan of before, bit for bit; R = N - 1 gives every submodel every row (its own
    // shard plus all the others, the draw capped by what the other shards hold).
    void overlapBounds() {
        const DataInfo data = regressionInfo(100);
        const SplitPlan off = makePlan(mlp(4), data, shards(4, 0));
        for (const SubmodelPlan& s : off.submodels) QCOMPARE(s.overlapRows, 0);
        const SplitPlan full = makePlan(mlp(4), data, shards(4, 3));
        std::vector<int> every(100);
        std::iota(every.begin(), every.end(), 0);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(full.submodels[std::size_t(i)].rows, every);
            QCOMPARE(full.submodels[std::size_t(i)].overlapRows, 75);
            QCOMPARE(off.submodels[std::size_t(i)].rows.size(), std::size_t(25));
        }
        // Regression with the fallback to data shards takes the overlap too.
        SplitOptions fallback = shards(3, 1);
        fallback.strategy = Strategy::Auto;
        fallback.regressionFallbackToShards = true;
        const SplitPlan fell = makePlan(mlp(4), data, fallback);
        QCOMPARE(fell.strategy, Strategy::DataShards);
        QCOMPARE(fell.submodels[0].overlapRows, 34);
    }

    // A negative or non-finite overlap, one above N - 1, and an overlap with any strategy but data
    // shards (the ensemble included) are refused by name; 0 with another strategy is simply off.
    void refusals() {
        const DataInfo data = regressionInfo(60, 4);
        QCOMPARE(errorText([&] { makePlan(mlp(4), data, shards(3, -0.5)); }),
                 QString("shard overlap -0.5: must be a number of at least 0 (0 keeps the shards disjoint)"));
        QCOMPARE(errorText([&] { makePlan(mlp(4), data, shards(3, std::numeric_limits<double>::infinity())); }),
                 QString("shard overlap inf: must be a number of at least 0 (0 keeps the shards disjoint)"));
        QCOMPARE(errorText([&] { makePlan(mlp(4), data, shards(3, 2.5)); }),
                 QString("data shards: shard overlap 2.5 is more than N-1 = 2 (there every submodel already sees "
                         "every row)"));
        QCOMPARE(errorText([&] { makePlan(mlp(4), data, shards(1, 0.1)); }),
                 QString("data shards: shard overlap 0.1 is more than N-1 = 0 (a single shard already holds every "
                         "row)"));
        SplitOptions ensemble = shards(3, 0.5);
        ensemble.ensemble = true;
        QCOMPARE(errorText([&] { makePlan(mlp(4), data, ensemble); }),
                 QString("shard overlap 0.5: only for the data-shards strategy, the ensemble already trains every "
                         "submodel on every row"));
        SplitOptions split = shards(3, 0.5);
        split.strategy = Strategy::OutputSplit;
        QCOMPARE(errorText([&] { makePlan(mlp(4), data, split); }),
                 QString("shard overlap 0.5: only for the data-shards strategy, this plan uses output-split"));
        split.regressionFallbackToShards = true;  // 4 columns: no fallback with N = 3
        QCOMPARE(errorText([&] { makePlan(mlp(4), data, split); }),
                 QString("shard overlap 0.5: only for the data-shards strategy, this plan uses output-split"));
        SplitOptions groups = classGroups(3);
        groups.shardOverlap = 0.5;
        QCOMPARE(errorText([&] { makePlan(mlp(4), classInfo(3, 10), groups); }),
                 QString("shard overlap 0.5: only for the data-shards strategy, this plan uses class-groups"));
        DataInfo binary = classInfo(2, 20);
        binary.task = Task::Binary;
        SplitOptions automatic = shards(2, 0.5);
        automatic.strategy = Strategy::Auto;
        QCOMPARE(errorText([&] { makePlan(mlp(4), binary, automatic); }),
                 QString("shard overlap 0.5: only for the data-shards strategy, this plan uses binary-shards"));
        automatic.shardOverlap = 0;
        QCOMPARE(makePlan(mlp(4), binary, automatic).shardOverlap, 0.0);
    }

    // Classification data shards: a shard of one class is refused as before, but the rows a
    // submodel learns from, its overlap included, are what counts.
    void twoClassesCountTheOverlap() {
        DataInfo sorted = classInfo(2, 10);
        std::sort(sorted.labels.begin(), sorted.labels.end());  // ten of class 0, then ten of class 1
        SplitOptions o = shards(2, 0);
        o.shuffleShards = false;  // shards of one class each
        VERIFY_CONTAINS(errorText([&] { makePlan(mlp(4), sorted, o); }).toStdString(),
                        "has training rows of class 0 only");
        o.shardOverlap = 0.5;
        const SplitPlan plan = makePlan(mlp(4), sorted, o);
        QCOMPARE(plan.submodels[0].rows.size(), std::size_t(15));
    }

    // A project with overlapping shards reopens with them: the options, the run's plan (its rows
    // and the count of overlap rows). Without an overlap no field is written.
    void projectKeepsTheOverlap() {
        QTemporaryDir dir;
        const Dataset data = makeBlobs(3, 30, 3, 0.8f, 3);
        NetworkSpec net = mlp(3);
        SplitOptions o = shards(3, 0.75, 9);
        o.epochs = 2;
        const auto [plan, back] = trainSaveAndReload(net, data, o, dir.filePath("overlap.skynnet").toStdString(),
                                                     "overlapping");
        QCOMPARE(back.split.shardOverlap, 0.75);
        QVERIFY(back.split == o);
        const SplitPlan& again = back.runs.at(0).plan;
        QCOMPARE(again.shardOverlap, 0.75);
        for (int i = 0; i < plan.submodelCount(); ++i) {
            QCOMPARE(again.submodels[std::size_t(i)].rows, plan.submodels[std::size_t(i)].rows);
            QCOMPARE(again.submodels[std::size_t(i)].overlapRows, plan.submodels[std::size_t(i)].overlapRows);
            QCOMPARE(again.submodels[std::size_t(i)].overlapRows, 23);  // round(0.75 x 30)
        }

        // Off: the fields are absent, so older projects read and write as before.
        QVERIFY(toJson(o).contains("shardOverlap"));
        QVERIFY(!toJson(shards(3, 0)).contains("shardOverlap"));
        BlockWriter blocks;
        const Json plain = toJson(makePlan(net, data, shards(3, 0)), blocks);
        QVERIFY(!plain.contains("shardOverlap"));
        QVERIFY(!plain.at("submodels").at(0).contains("overlapRows"));
        Json bad = toJson(o);
        bad["shardOverlap"] = -1;
        QCOMPARE(errorText([&] { splitOptionsFromJson(JsonField(bad, "p.skynnet", "split")); }),
                 QString("p.skynnet: split.shardOverlap must be a number of at least 0"));
    }

    // The command line: plan shows the overlap and each submodel's overlap rows; the option is
    // checked by name.
    void planOnTheCommandLine() {
        const QStringList plan = {"plan",        "--data", diabetes,     "--task",     "regression",
                                  "--submodels", "3",      "--strategy", "data-shards"};
        CliRun r = runCli(plan + QStringList{"--shard-overlap", "0.5"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.out.toStdString(), "data-shards: N=3 gives S=3 submodels, F=1.732, shard overlap 0.5\n");
        VERIFY_CONTAINS(r.out.toStdString(), " overlap)");
        r = runCli(plan + QStringList{"--shard-overlap", "0.5", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["shard_overlap"].toDouble(), 0.5);
        int own = 0;
        for (const auto& v : j["submodels"].toArray()) {
            const QJsonObject s = v.toObject();
            const int all = s["samples"].toInt(), overlap = s["overlap_samples"].toInt();
            QCOMPARE(overlap, int(std::lround(0.5 * (all - overlap))));
            own += all - overlap;
        }
        QCOMPARE(own, j["samples"].toInt());  // the disjoint parts cover the training rows once

        r = runCli(plan + QStringList{"--shard-overlap", "-1"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(), "--shard-overlap: expected a non-negative number, got '-1'");
        r = runCli(plan + QStringList{"--shard-overlap", "3"});
        QCOMPARE(r.exitCode, 1);
        VERIFY_CONTAINS(r.err.toStdString(),
                        "data shards: shard overlap 3 is more than N-1 = 2 (there every submodel already sees every "
                        "row)");
        const QStringList auto3 = {"plan", "--data", diabetes, "--task", "regression", "--submodels", "3"};
        r = runCli(auto3 + QStringList{"--shard-overlap", "1"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(),
                        "--shard-overlap: only applies to the data-shards strategy, this plan uses output-split");
        r = runCli(auto3 + QStringList{"--shard-overlap", "1", "--regression-fallback"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.out.toStdString(), "shard overlap 1");
        r = runCli(auto3 + QStringList{"--shard-overlap", "1", "--strategy", "ensemble"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(), "--shard-overlap: only applies to the data-shards strategy, the "
                                             "ensemble already trains every submodel on every row");
        const QString wine = QString::fromStdString(sourcePath("resources/datasets/wine.csv"));
        r = runCli({"plan", "--data", wine, "--submodels", "3", "--shard-overlap", "1"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(),
                        "--shard-overlap: only applies to the data-shards strategy, this plan uses class-groups");
        r = runCli({"train", "--data", wine, "--shard-overlap", "1"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(), "--shard-overlap: needs --submodels");
        r = runCli({"train", "--help"});
        VERIFY_CONTAINS(r.out.toStdString(), "--shard-overlap R");
    }

    // The holdout regression (diabetes, 442 rows, 20% test): 3 disjoint data shards lose about
    // 0.05 R² to the original; with --shard-overlap 1 (each submodel twice its share) they win most
    // of it back. Measured on this build over seeds 1-10 (mean R²): original 0.462, disjoint 0.417,
    // overlap 1 0.462; overlap minus disjoint +0.045 on average, above 0 on 9 seeds of 10 (seed 2:
    // -0.02). Asserted: a mean gain of at least 0.02 and a gain on at least 7 seeds of 10.
    void overlapBeatsDisjointShardsOnDiabetes() {
        QTemporaryDir dir;
        double gain = 0;
        int better = 0;
        QString seen;
        for (int seed = 1; seed <= 10; ++seed) {
            const double disjoint = diabetesR2(dir, seed, 0), overlapping = diabetesR2(dir, seed, 1);
            gain += (overlapping - disjoint) / 10;
            better += overlapping > disjoint ? 1 : 0;
            seen += QString(" %1: %2 -> %3").arg(seed).arg(disjoint, 0, 'f', 4).arg(overlapping, 0, 'f', 4);
        }
        qInfo("R2 disjoint -> overlap 1 by seed:%s; mean gain %.4f", qPrintable(seen), gain);
        QVERIFY2(gain >= 0.02, qPrintable(seen));
        QVERIFY2(better >= 7, qPrintable(seen));
    }
};

QTEST_GUILESS_MAIN(TestShardOverlap)
#include "tst_shard_overlap.moc"
