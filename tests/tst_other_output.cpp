// The "other" output of class-group submodels (method.md §6, issue 28): the plan's extra rows and
// unit, the "other" targets, the evaluation of a submodel on its (|I_s|+1)-way task, the model
// file and the project file, and the command line end to end (train, plan, evaluate --combine).
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <set>

#include "cli_support.h"
#include "core/error.h"
#include "data/generators.h"
#include "data/prepared_data.h"
#include "project/project_file.h"
#include "project/project_json.h"
#include "split/combined_model.h"
#include "split/combined_model_file.h"
#include "split/parallel_trainer.h"
#include "split/split_plan.h"
#include "split/sub_problem.h"

#include "plan_support.h"
#include "project_round_trip.h"
#include "test_support.h"

using namespace skynnet;

namespace {

bool sameBits(const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           (a.size() == 0 || std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0);
}

NetworkSpec mlp(int inputs, const std::string& layers = "dense:16:relu") {
    NetworkSpec s;
    s.input = Shape::flat(inputs);
    s.layers = parseLayers(layers);
    return s;
}

SplitOptions withOther(int n, double share, std::uint64_t seed = 1) {
    SplitOptions o = classGroups(n);
    o.otherShare = share;
    o.seed = seed;
    return o;
}

// The rows of `plan`'s submodel s that are of a class it does not own.
std::vector<int> otherRowsOf(const SubmodelPlan& s, const DataInfo& data) {
    const std::set<int> owned(s.classes.begin(), s.classes.end());
    std::vector<int> others;
    for (int r : s.rows)
        if (!owned.count(data.labels[std::size_t(r)])) others.push_back(r);
    return others;
}

// Six classes of 10 samples each, labels 0..5 in turn (row r has class r % 6).
Dataset sixClasses() {
    Dataset d;
    d.task = Task::Classification;
    d.sampleShape = Shape::flat(2);
    d.classNames = {"a", "b", "c", "d", "e", "f"};
    d.features = Matrix::Zero(60, 2);
    for (int r = 0; r < 60; ++r) d.labels.push_back(r % 6);
    return d;
}

// Overlapping enough that the split loses a little (about 0.90 test accuracy, the original 0.92).
const QString blobs6 = "builtin:blobs:classes=6:features=3";
// Class groups N=3 on six blobs: three submodels of four classes each (groups {0,1}, {2,3}, {4,5}).
QStringList splitTraining(const QString& model, const QString& report) {
    return {"train",       "--data", blobs6,     "--layers",  "dense:32:relu,dense:32:relu",
            "--submodels", "3",      "--epochs", "20",        "--batch",
            "16",          "--seed", "3",        "--threads", "2",
            "--save",      model,    "--report", report,      "--combine",
            "product"};
}

}  // namespace

class TestOtherOutput : public QObject {
    Q_OBJECT

private slots:
    // R = 0.5: every submodel keeps all its own rows and gains round(0.5 x own) rows of the classes
    // it does not own (or all of them, when fewer), none repeated, the whole list ascending; the
    // same seed draws the same rows, another seed others; its output layer has one more unit.
    void planDrawsTheOtherRows() {
        const DataInfo data = classInfo(6, 21);  // 126 rows; N=6: 4 groups {0,1} {2,3} {4} {5}
        const SplitPlan plain = makePlan(mlp(4), data, classGroups(6));
        const SplitPlan plan = makePlan(mlp(4), data, withOther(6, 0.5, 7));
        QCOMPARE(plan.submodelCount(), 6);
        QCOMPARE(plan.otherShare, 0.5);
        QVERIFY(plan.rule().otherOutput);
        QVERIFY(!plain.rule().otherOutput);
        bool sampled = false;  // some submodel has more "other" rows than it takes
        for (int i = 0; i < plan.submodelCount(); ++i) {
            const SubmodelPlan& s = plan.submodels[std::size_t(i)];
            const SubmodelPlan& p = plain.submodels[std::size_t(i)];
            QCOMPARE(s.classes, p.classes);
            QCOMPARE(p.otherRows, 0);
            const long own = long(p.rows.size());
            const long available = 126 - own;
            const long expected = std::min(std::lround(0.5 * double(own)), available);
            sampled = sampled || expected < available;
            QCOMPARE(long(s.rows.size()), own + expected);
            QCOMPARE(long(s.otherRows), expected);
            QVERIFY(std::is_sorted(s.rows.begin(), s.rows.end()));
            QVERIFY(std::adjacent_find(s.rows.begin(), s.rows.end()) == s.rows.end());  // none repeated
            QVERIFY(std::includes(s.rows.begin(), s.rows.end(), p.rows.begin(), p.rows.end()));
            QCOMPARE(long(otherRowsOf(s, data).size()), expected);
            // One more output unit, the "other" column, and the figures that follow from it.
            QCOMPARE(s.spec.outputs, int(s.classes.size()) + 1);
            QCOMPARE(p.spec.outputs, int(s.classes.size()));
            QVERIFY(s.params > p.params);
            QVERIFY(s.flopsPerSample > p.flopsPerSample);
            QVERIFY(s.memoryBytes > p.memoryBytes);
        }
        QVERIFY(sampled);
        // Submodel 1 (groups {0,1} and {2,3}) owns 84 rows and takes all 42 others; submodel 2
        // (groups {0,1} and {4}) owns 63 and takes round(31.5) = 32 of its 63: a half rounds up.
        QCOMPARE(plan.submodels[0].otherRows, 42);
        QCOMPARE(plan.submodels[1].otherRows, 32);

        const SplitPlan same = makePlan(mlp(4), data, withOther(6, 0.5, 7));
        const SplitPlan other = makePlan(mlp(4), data, withOther(6, 0.5, 8));
        bool differs = false;
        for (int i = 0; i < plan.submodelCount(); ++i) {
            QCOMPARE(same.submodels[std::size_t(i)].rows, plan.submodels[std::size_t(i)].rows);
            QCOMPARE(other.submodels[std::size_t(i)].otherRows, plan.submodels[std::size_t(i)].otherRows);
            differs = differs || other.submodels[std::size_t(i)].rows != plan.submodels[std::size_t(i)].rows;
        }
        QVERIFY(differs);
        // The summary counts them.
        VERIFY_CONTAINS(planSummary(plan), "95 samples (32 other)");
    }

    // An R that asks for more rows than the other classes hold takes them all: every row.
    void largeShareTakesEveryRow() {
        const DataInfo data = classInfo(6, 10);
        const SplitPlan plan = makePlan(mlp(4), data, withOther(3, 10));
        for (const SubmodelPlan& s : plan.submodels) {
            QCOMPARE(s.rows.size(), std::size_t(60));
            QCOMPARE(s.otherRows, 20);
        }
        // R = 0 is off: the plan of before, bit for bit.
        const SplitPlan off = makePlan(mlp(4), data, withOther(3, 0));
        const SplitPlan plain = makePlan(mlp(4), data, classGroups(3));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(off.submodels[std::size_t(i)].rows, plain.submodels[std::size_t(i)].rows);
            QCOMPARE(off.submodels[std::size_t(i)].spec.outputs, 4);
        }
        QVERIFY(!off.rule().otherOutput);
    }

    // A negative or non-finite share, and a share with another strategy, are refused by name.
    void refusals() {
        const DataInfo data = classInfo(6, 10);
        QCOMPARE(errorText([&] { makePlan(mlp(4), data, withOther(3, -0.25)); }),
                 QString("other share -0.25: must be a number of at least 0 (0 turns the 'other' output off)"));
        QCOMPARE(errorText([&] { makePlan(mlp(4), data, withOther(3, std::numeric_limits<double>::quiet_NaN())); }),
                 QString("other share nan: must be a number of at least 0 (0 turns the 'other' output off)"));
        SplitOptions shards = withOther(3, 0.3);
        shards.strategy = Strategy::DataShards;
        QCOMPARE(errorText([&] { makePlan(mlp(4), data, shards); }),
                 QString("other share 0.3: the 'other' output is only for the class-groups strategy, this plan uses "
                         "data-shards"));
        shards.ensemble = true;
        QCOMPARE(errorText([&] { makePlan(mlp(4), data, shards); }),
                 QString("other share 0.3: the 'other' output is only for the class-groups strategy, this plan uses "
                         "ensemble"));
        DataInfo binary = classInfo(2, 20);
        binary.task = Task::Binary;
        SplitOptions automatic = withOther(2, 0.3);
        automatic.strategy = Strategy::Auto;
        QCOMPARE(errorText([&] { makePlan(mlp(4), binary, automatic); }),
                 QString("other share 0.3: the 'other' output is only for the class-groups strategy, this plan uses "
                         "binary-shards"));
        // A share of 0 with another strategy is simply off.
        shards.otherShare = 0;
        QCOMPARE(makePlan(mlp(4), data, shards).otherShare, 0.0);
    }

    // The defaults the study chose: the command line and new projects start from them, while
    // SplitOptions{} (files written before) keeps the product, no "other" and the task's scaling.
    // The default share is dropped, not refused, where the task resolves to another strategy.
    void measuredDefaultsFitEveryTask() {
        const SplitOptions measured = withMeasuredDefaults({});
        QCOMPARE(measured.classCombine, ClassCombine::Stacked);
        QCOMPARE(measured.otherShare, measuredOtherShare);
        QVERIFY(!measured.scaleEpochs);  // automatic: by network and task
        QCOMPARE(SplitOptions{}.classCombine, ClassCombine::Product);
        QCOMPARE(SplitOptions{}.otherShare, 0.0);
        SplitOptions three = measured;
        three.requested = 3;
        three.epochs = 10;
        const SplitPlan classes = makePlan(mlp(4), classInfo(6, 21), withOtherShareFor(three, Task::Classification));
        QCOMPARE(classes.otherShare, measuredOtherShare);
        QCOMPARE(classes.submodels[0].spec.outputs, 5);      // four classes and "other"
        QCOMPARE(classes.epochScaling, EpochScaling::Sqrt);  // a multiclass network of dense layers
        QCOMPARE(classes.effectiveEpochs, 9);                // ceil(10 / sqrt(1.5))
        DataInfo binary = classInfo(2, 20);
        binary.task = Task::Binary;
        QVERIFY(!errorText([&] { makePlan(mlp(4), binary, three); }).isEmpty());  // as given: refused
        const SplitPlan shards = makePlan(mlp(4), binary, withOtherShareFor(three, Task::Binary));
        QCOMPARE(shards.strategy, Strategy::BinaryShards);
        QCOMPARE(shards.otherShare, 0.0);
        QCOMPARE(shards.effectiveEpochs, 6);  // ceil(10 / sqrt(F=3)): two classes, dense layers
        QCOMPARE(withOtherShareFor(three, Task::Regression).otherShare, 0.0);
        QCOMPARE(withOtherShareFor(three, Task::Classification).otherShare, measuredOtherShare);
    }

    // A row of a class the submodel does not own is "other": the last column of its one-hot. Its
    // own sub-problem, for evaluation, is then every row.
    void otherTargetsAreTheLastColumn() {
        const Dataset d = sixClasses();
        CombinationRule rule;
        rule.strategy = Strategy::ClassGroups;
        rule.outputs = 6;
        rule.classes = {{0, 1, 2, 3}, {0, 1, 4, 5}, {2, 3, 4, 5}};
        const Matrix own = submodelTargets(rule, 1, d, {0, 4, 5});
        QCOMPARE(own.cols(), Index(4));
        QCOMPARE(own(1, 2), 1.0f);  // class 4 is local 2
        QCOMPARE(errorText([&] { submodelTargets(rule, 1, d, {2}); }),
                 QString("row 3 has class 2, which submodel 2 does not own"));
        QCOMPARE(ownRows(rule, 1, d).size(), std::size_t(40));

        rule.otherOutput = true;
        const Matrix y = submodelTargets(rule, 1, d, {0, 2, 3, 4});  // classes 0, 2, 3, 4
        QCOMPARE(y.cols(), Index(5));
        Matrix expected = Matrix::Zero(4, 5);
        expected(0, 0) = 1;  // class 0: local 0
        expected(1, 4) = 1;  // class 2: "other"
        expected(2, 4) = 1;  // class 3: "other"
        expected(3, 2) = 1;  // class 4: local 2
        QVERIFY(y == expected);
        std::vector<int> every(60);
        std::iota(every.begin(), every.end(), 0);
        QCOMPARE(ownRows(rule, 1, d), every);
        QCOMPARE(subProblem(rule, 1, d, every).y.col(4).sum(), 20.0f);
    }

    // Trained with "other", saved and loaded: the same bits; each submodel judged on every row, and
    // the combined model at least as good as a stated floor, by every rule.
    void trainedModelRoundTrips() {
        QTemporaryDir dir;
        Dataset data = makeBlobs(6, 60, 4, 1.0f, 5);
        const SplitPlan plan = makePlan(mlp(4, "dense:24:relu"), data, withOther(3, 0.3, 4));
        TrainConfig config;
        config.epochs = 30;
        config.batchSize = 16;
        config.optimizer.learningRate = 0.01f;
        config.seed = 4;
        ParallelResult split = ParallelTrainer(plan, config).train(data);
        QCOMPARE(split.status, TrainStatus::Completed);
        QVERIFY(split.model.rule().otherOutput);

        const CombinedEvaluation e = split.model.evaluate(data);
        QVERIFY2(e.metric >= 0.85, qPrintable(QString::number(e.metric)));
        for (const SubmodelEvaluation& s : e.submodels) {
            QCOMPARE(s.samples, 360L);  // every row: its own classes, or "other"
            QVERIFY2(s.metric >= 0.8, qPrintable(QString::number(s.metric)));
        }
        for (ClassCombine how : {ClassCombine::Coupling, ClassCombine::Sum}) {
            CombinedModel other = split.model;
            other.setClassCombine(how);
            const double metric = other.evaluate(data).metric;
            QVERIFY2(metric >= 0.85,
                     qPrintable(QString::fromStdString(classCombineName(how)) + " " + QString::number(metric)));
        }

        const std::string path = dir.filePath("other.skym").toStdString();
        saveCombinedModel(path, toSaved(split.model, Preprocessing{}, {}));
        const SavedCombinedModel loaded = loadCombinedModel(path);
        QVERIFY(loaded.rule.otherOutput);
        QCOMPARE(loaded.specs[0].outputs, 5);
        CombinedModel built = buildCombinedModel(loaded);
        QVERIFY(sameBits(predictRaw(built, loaded, data.features), split.model.predict(data.features)));
    }

    // A project with the "other" output reopens with it: the options, the run's plan (its rows and
    // the count of "other" rows) and the model's rule. Without it, no field is written.
    void projectKeepsTheShare() {
        QTemporaryDir dir;
        const Dataset data = makeBlobs(6, 30, 3, 0.8f, 3);
        NetworkSpec net = mlp(3);
        SplitOptions o = withOther(3, 0.4, 9);
        o.epochs = 2;
        const auto [plan, back] = trainSaveAndReload(net, data, o, dir.filePath("other.skynnet").toStdString(),
                                                     "with other");
        QCOMPARE(back.split.otherShare, 0.4);
        QVERIFY(back.split == o);
        const SplitPlan& again = back.runs.at(0).plan;
        QCOMPARE(again.otherShare, 0.4);
        QVERIFY(again.rule().otherOutput);
        for (int i = 0; i < plan.submodelCount(); ++i) {
            QCOMPARE(again.submodels[std::size_t(i)].rows, plan.submodels[std::size_t(i)].rows);
            QCOMPARE(again.submodels[std::size_t(i)].otherRows, plan.submodels[std::size_t(i)].otherRows);
            QVERIFY(again.submodels[std::size_t(i)].otherRows > 0);
        }
        QVERIFY(back.runs.at(0).results->model->rule.otherOutput);

        // Off: the fields are absent, so older projects read and write as before.
        QVERIFY(toJson(o).contains("otherShare"));
        QVERIFY(!toJson(classGroups(3)).contains("otherShare"));
        BlockWriter blocks;
        const Json plain = toJson(makePlan(net, data, classGroups(3)), blocks);
        QVERIFY(!plain.contains("otherShare"));
        QVERIFY(!plain.at("submodels").at(0).contains("otherRows"));
        Json bad = toJson(o);
        bad["otherShare"] = -1;
        QCOMPARE(errorText([&] { splitOptionsFromJson(JsonField(bad, "p.skynnet", "split")); }),
                 QString("p.skynnet: split.otherShare must be a number of at least 0"));
    }

    // The command line: plan shows the extra rows and unit, the option is checked by name.
    void planOnTheCommandLine() {
        const QStringList plan = {"plan",        "--data", blobs6,      "--layers", "dense:32:relu",
                                  "--submodels", "3",      "--combine", "product"};
        CliRun r = runCli(plan + QStringList{"--other-share", "0.5"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.out.toStdString(), "combined by product with an 'other' output (other share 0.5)");
        // Each submodel's samples count its "other" rows; its widths end in 4 classes + "other".
        VERIFY_CONTAINS(r.out.toStdString(), "other)");
        VERIFY_CONTAINS(r.out.toStdString(), "-5 ");
        r = runCli(plan + QStringList{"--other-share", "0.5", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["other_share"].toDouble(), 0.5);
        for (const auto& v : j["submodels"].toArray()) {
            const QJsonObject s = v.toObject();
            const int all = s["samples"].toInt(), other = s["other_samples"].toInt();
            QCOMPARE(other, int(std::lround(0.5 * (all - other))));
            QVERIFY(s["widths"].toString().endsWith("-5"));
        }

        r = runCli(plan + QStringList{"--other-share", "-1"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(), "--other-share: expected a non-negative number, got '-1'");
        r = runCli(plan + QStringList{"--other-share", "0.3", "--strategy", "data-shards"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(),
                        "--other-share: only applies to the class-groups strategy, this plan uses data-shards");
        r = runCli(plan + QStringList{"--other-share", "0.3", "--strategy", "ensemble"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(),
                        "--other-share: only applies to the class-groups strategy, this plan uses ensemble");
        r = runCli({"plan", "--data", blobs6, "--layers", "dense:32:relu", "--other-share", "0.3"});
        QCOMPARE(r.exitCode, 2);
        r = runCli({"train", "--data", blobs6, "--layers", "dense:32:relu", "--other-share", "0.3"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(), "--other-share: needs --submodels");
        r = runCli({"train", "--help"});
        VERIFY_CONTAINS(r.out.toStdString(), "--other-share");
        r = runCli({"plan", "--help"});
        VERIFY_CONTAINS(r.out.toStdString(), "--other-share R");
    }

    // train N=3 with and without --other-share 0.3: both reach 0.85 test accuracy on six blobs; the
    // saved model evaluates to the report's figure, and evaluate --combine coupling and sum work.
    void trainAndEvaluateOnTheCommandLine() {
        QTemporaryDir dir;
        const QString plainModel = dir.filePath("plain.skym"), otherModel = dir.filePath("other.skym");
        CliRun r = runCli(splitTraining(plainModel, dir.filePath("plain.json")) + QStringList{"--other-share", "0"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli(splitTraining(otherModel, dir.filePath("other.json")) + QStringList{"--other-share", "0.3"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.out.toStdString(), "other)");  // the samples column counts the "other" rows

        const QJsonObject plain = readJson(dir.filePath("plain.json")), other = readJson(dir.filePath("other.json"));
        QVERIFY2(plain["test_accuracy"].toDouble() >= 0.85,
                 qPrintable(QString::number(plain["test_accuracy"].toDouble())));
        QVERIFY2(other["test_accuracy"].toDouble() >= 0.85,
                 qPrintable(QString::number(other["test_accuracy"].toDouble())));
        const QJsonObject combined = other["combined"].toObject();
        QCOMPARE(combined["combine"].toString(), QString("product"));
        QVERIFY(combined["other_output"].toBool());
        QCOMPARE(combined["other_share"].toDouble(), 0.3);
        QVERIFY(!plain["combined"].toObject()["other_output"].toBool());
        QCOMPARE(other["plan"].toObject()["other_share"].toDouble(), 0.3);
        const QJsonArray subs = other["submodels"].toArray(), plainSubs = plain["submodels"].toArray();
        QCOMPARE(subs.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const QJsonObject s = subs[i].toObject(), p = plainSubs[i].toObject();
            const int own = p["train_samples"].toInt();
            QCOMPARE(p["other_train_samples"].toInt(), 0);
            QCOMPARE(s["other_train_samples"].toInt(), int(std::lround(0.3 * own)));
            QCOMPARE(s["train_samples"].toInt(), own + s["other_train_samples"].toInt());
            // Judged on every test row (its classes or "other"), not only on its own classes'.
            QCOMPARE(s["metric_samples"].toInt(), other["test_samples"].toInt());
            QVERIFY(p["metric_samples"].toInt() < plain["test_samples"].toInt());
        }

        // The saved model, loaded again, gives the report's figure exactly.
        const QString evalReport = dir.filePath("eval.json");
        r = runCli({"evaluate", "--model", otherModel, "--data", blobs6, "--split", "test", "--report", evalReport});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.out.toStdString(), "combined by product with an 'other' output");
        QCOMPARE(readJson(evalReport)["accuracy"].toDouble(), other["test_accuracy"].toDouble());
        for (const QString rule : {"coupling", "sum"}) {
            r = runCli({"evaluate", "--model", otherModel, "--data", blobs6, "--split", "test", "--combine", rule,
                        "--report", evalReport});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const QJsonObject ev = readJson(evalReport);
            QCOMPARE(ev["combine"].toString(), rule + " with an 'other' output");
            QVERIFY2(ev["accuracy"].toDouble() >= 0.85,
                     qPrintable(rule + " " + QString::number(ev["accuracy"].toDouble())));
        }
    }
};

QTEST_GUILESS_MAIN(TestOtherOutput)
#include "tst_other_output.moc"
