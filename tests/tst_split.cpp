// The Skynnet method: plans, combination rules, parallel training with cancellation, end to end.
#include <QDir>
#include <QThread>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

#include "core/error.h"
#include "core/rng.h"
#include "data/dataset.h"
#include "split/combination.h"
#include "split/core_share.h"
#include "split/parallel_trainer.h"
#include "split/plan_totals.h"
#include "split/schedule.h"
#include "split/split_plan.h"
#include "split/sub_problem.h"
#include "split/thread_backend.h"
#include "train/batch_split.h"
#include "train/metrics.h"

#include "plan_support.h"
#include "test_support.h"

using namespace skynnet;

namespace {

std::vector<int> range(int begin, int end) {
    std::vector<int> v;
    for (int i = begin; i < end; ++i) v.push_back(i);
    return v;
}

NetworkSpec mlp(const std::string& layers, int inputs) {
    NetworkSpec s;
    s.input = Shape::flat(inputs);
    s.layers = parseLayers(layers);
    return s;
}

SplitOptions options(Strategy strategy, int n) {
    SplitOptions o;
    o.strategy = strategy;
    o.requested = n;
    return o;
}

// Gaussian blobs: `classes` seeded centres in [-3, 3]^dims, unit spread; train and test drawn
// from the same centres with different seeds.
std::pair<Dataset, Dataset> blobs(int classes, int trainPerClass, int testPerClass, int dims) {
    Rng centresRng(2024);
    Matrix centres(classes, dims);
    for (Index i = 0; i < centres.size(); ++i) centres.data()[i] = centresRng.uniform(-3.f, 3.f);
    const auto draw = [&](int perClass, std::uint64_t seed) {
        Rng rng(seed);
        Dataset d;
        d.source = "blobs";
        d.task = Task::Classification;
        d.sampleShape = Shape::flat(dims);
        for (int c = 0; c < classes; ++c) d.classNames.push_back("blob " + std::to_string(c));
        d.features.resize(Index(classes) * perClass, dims);
        for (Index r = 0; r < d.features.rows(); ++r) {
            const int c = int(r % classes);
            d.labels.push_back(c);
            for (int j = 0; j < dims; ++j) d.features(r, j) = centres(c, j) + rng.normal(0.f, 1.f);
        }
        return d;
    };
    return {draw(trainPerClass, 1), draw(testPerClass, 2)};
}

// Regression: y_j = a_j . x + 0.5 sin(b_j . x), 6 inputs in [-1, 1], `outputs` columns.
std::pair<Dataset, Dataset> smoothRegression(int trainSamples, int testSamples, int outputs) {
    Rng coef(77);
    Matrix a(outputs, 6), b(outputs, 6);
    for (Index i = 0; i < a.size(); ++i) a.data()[i] = coef.uniform(-1.f, 1.f), b.data()[i] = coef.uniform(-2.f, 2.f);
    const auto draw = [&](int n, std::uint64_t seed) {
        Rng rng(seed);
        Dataset d;
        d.task = Task::Regression;
        d.sampleShape = Shape::flat(6);
        d.features.resize(n, 6);
        d.targets.resize(n, outputs);
        for (Index i = 0; i < d.features.size(); ++i) d.features.data()[i] = rng.uniform(-1.f, 1.f);
        for (Index r = 0; r < n; ++r)
            for (int j = 0; j < outputs; ++j)
                d.targets(r, j) = a.row(j).dot(d.features.row(r)) + 0.5f * std::sin(b.row(j).dot(d.features.row(r)));
        return d;
    };
    return {draw(trainSamples, 3), draw(testSamples, 4)};
}

// Binary: inside or outside a circle of radius sqrt(2.5) in [-2, 2]^2 (about half on each side).
std::pair<Dataset, Dataset> disc(int trainSamples, int testSamples) {
    const auto draw = [](int n, std::uint64_t seed) {
        Rng rng(seed);
        Dataset d;
        d.task = Task::Binary;
        d.sampleShape = Shape::flat(2);
        d.classNames = {"outside", "inside"};
        d.features.resize(n, 2);
        for (Index r = 0; r < n; ++r) {
            const float x = rng.uniform(-2.f, 2.f), y = rng.uniform(-2.f, 2.f);
            d.features.row(r) << x, y;
            d.labels.push_back(x * x + y * y < 2.5f ? 1 : 0);
        }
        return d;
    };
    return {draw(trainSamples, 5), draw(testSamples, 6)};
}

TrainConfig config(LossKind loss, int batchSize = 64) {
    TrainConfig c;
    c.batchSize = batchSize;
    c.loss = loss;
    c.optimizer.learningRate = 3e-3f;
    c.seed = 7;
    return c;
}

// The worked example's submodel probabilities: the named classes get the given values, the rest
// of the mass is spread evenly over the submodel's other classes.
Matrix exampleProbs(const std::vector<int>& owned, const std::map<int, float>& given) {
    Matrix p(1, Index(owned.size()));
    float rest = 1.f;
    for (const auto& [c, v] : given) rest -= v;
    const float each = rest / float(owned.size() - given.size());
    for (std::size_t k = 0; k < owned.size(); ++k) p(0, Index(k)) = given.count(owned[k]) ? given.at(owned[k]) : each;
    return p;
}

// The process's thread ids.
QSet<QString> threadsOfProcess() {
    const QStringList ids = QDir("/proc/self/task").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    return QSet<QString>(ids.begin(), ids.end());
}

}  // namespace

class TstSplit : public QObject {
    Q_OBJECT

private slots:
    void strategyNames() {
        for (Strategy s : {Strategy::Auto, Strategy::ClassGroups, Strategy::BinaryShards, Strategy::OutputSplit,
                           Strategy::DataShards})
            QCOMPARE(parseStrategy(strategyName(s)), s);
        QCOMPARE(strategyName(Strategy::ClassGroups), std::string("class-groups"));
        VERIFY_CONTAINS(errorOf([] { parseStrategy("pairs"); }), "unknown split strategy 'pairs' (expected auto,");
        QCOMPARE(parseBinaryCombine("average"), BinaryCombine::Average);
        VERIFY_CONTAINS(errorOf([] { parseBinaryCombine("max"); }), "'max'");
    }

    void workedExample() {
        const SplitPlan plan = makePlan(mlp("dense:64", 4), classInfo(10, 3), options(Strategy::Auto, 3));
        QCOMPARE(plan.strategy, Strategy::ClassGroups);
        QCOMPARE(plan.groups, 3);
        QCOMPARE(plan.submodelCount(), 3);
        QCOMPARE(plan.factor, 1.5);
        QCOMPARE(plan.groupClasses, (std::vector<std::vector<int>>{{0, 1, 2, 3}, {4, 5, 6}, {7, 8, 9}}));
        QCOMPARE(plan.submodels[0].classes, range(0, 7));
        QCOMPARE(plan.submodels[1].classes, (std::vector<int>{0, 1, 2, 3, 7, 8, 9}));
        QCOMPARE(plan.submodels[2].classes, range(4, 10));
        QVERIFY(plan.warnings.empty());

        const std::vector<Matrix> probs = {
            exampleProbs(plan.submodels[0].classes, {{3, 0.6f}, {5, 0.3f}}),
            exampleProbs(plan.submodels[1].classes, {{3, 0.5f}, {8, 0.4f}}),
            exampleProbs(plan.submodels[2].classes, {{5, 0.2f}, {8, 0.7f}}),
        };
        const Matrix raw = rawProductScores(probs, plan.rule());
        QVERIFY(std::abs(raw(0, 3) - 0.30f) < 1e-6f);
        QVERIFY(std::abs(raw(0, 5) - 0.06f) < 1e-6f);
        QVERIFY(std::abs(raw(0, 8) - 0.28f) < 1e-6f);
        QCOMPARE(predictedClasses(raw)[0], 3);
        const Matrix combined = combineClassGroups(probs, plan.rule());
        QCOMPARE(predictedClasses(combined)[0], 3);
        QVERIFY(std::abs(combined.sum() - 1.f) < 1e-5f);
        // Normalised = raw / sum(raw): the ratios of the example survive.
        QVERIFY(std::abs(combined(0, 3) / combined(0, 8) - 0.30f / 0.28f) < 1e-4f);
        QVERIFY(std::abs(combined(0, 3) - raw(0, 3) / raw.sum()) < 1e-5f);
    }

    void groupCounts_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("submodels");
        QTest::addColumn<double>("factor");
        QTest::addColumn<QString>("warning");
        QTest::newRow("N=1") << 1 << 1 << 1.0 << "";
        QTest::newRow("N=2") << 2 << 1 << 1.0 << "N=2 gives 1 submodel (2 groups): the original model";
        QTest::newRow("N=3") << 3 << 3 << 1.5 << "";
        QTest::newRow("N=4") << 4 << 3 << 1.5 << "N=4 gives 3 submodels (3 groups)";
        QTest::newRow("N=6") << 6 << 6 << 2.0 << "";
        QTest::newRow("N=10") << 10 << 10 << 2.5 << "";
        QTest::newRow("N=50") << 50 << 45 << 5.0 << "N=50 gives 45 submodels (10 groups)";
        // 11 groups would fit in N=60, but there are only 10 classes.
        QTest::newRow("N=60") << 60 << 45 << 5.0
                              << "N=60 gives 45 submodels (10 groups): with 10 classes that is the most";
    }
    void groupCounts() {
        QFETCH(int, n);
        QFETCH(int, submodels);
        QFETCH(double, factor);
        QFETCH(QString, warning);
        const SplitPlan plan = makePlan(mlp("dense:512,dense:256", 8), classInfo(10, 2),
                                        options(Strategy::ClassGroups, n));
        QCOMPARE(plan.submodelCount(), submodels);
        QCOMPARE(plan.factor, factor);
        if (warning.isEmpty()) QVERIFY(plan.warnings.empty());
        else QCOMPARE(QString::fromStdString(plan.warnings.at(0)), warning);
        // Every class is owned by g-1 submodels; the sizes follow floor(C/g), first C mod g one more.
        std::vector<int> owners(10, 0);
        for (const auto& s : plan.submodels)
            for (int c : s.classes) ++owners[std::size_t(c)];
        for (int o : owners) QCOMPARE(o, plan.groups - 1);
        for (std::size_t i = 0; i < plan.groupClasses.size(); ++i)
            QCOMPARE(int(plan.groupClasses[i].size()), 10 / plan.groups + (int(i) < 10 % plan.groups ? 1 : 0));
        if (n <= 2) {  // one submodel with F=1: the original model
            QCOMPARE(plan.submodels[0].spec, plan.original);
            QCOMPARE(plan.submodels[0].rows.size(), std::size_t(20));
        }
    }

    void declaredClassesNotShifted() {
        // Class 5 never occurs in the training labels: the groups still follow the declared list.
        DataInfo info = classInfo(10, 4, {5});
        info.classNames = {"c0", "c1", "c2", "c3", "c4", "five", "c6", "c7", "c8", "c9"};
        const SplitPlan plan = makePlan(mlp("dense:32", 4), info, options(Strategy::ClassGroups, 3));
        QCOMPARE(plan.groupClasses, (std::vector<std::vector<int>>{{0, 1, 2, 3}, {4, 5, 6}, {7, 8, 9}}));
        QCOMPARE(plan.submodels[0].classes, range(0, 7));
        QCOMPARE(plan.submodels[0].rows.size(), std::size_t(6 * 4));
        // A warning per submodel that owns the class (g-1 = 2 of them), naming both.
        QCOMPARE(plan.warnings.size(), std::size_t(2));
        VERIFY_CONTAINS(plan.warnings[0],
                        "submodel 1 (groups 0+1: classes 0-6) has no training sample of class 'five' (5)");
        VERIFY_CONTAINS(plan.warnings[1], "submodel 3 (groups 1+2: classes 4-9)");

        // A submodel left without any sample cannot train: refused, naming it.
        const std::string e = errorOf([] {
            makePlan(mlp("dense:32", 4), classInfo(4, 5, {2, 3}), options(Strategy::ClassGroups, 6));
        });
        VERIFY_CONTAINS(e, "submodel 6 (groups 2+3: classes 2-3) has no training sample");
    }

    void longestFirstOrdersByCost() {
        // Class 5 is absent: the three submodels learn from 24, 28 and 20 rows.
        const SplitPlan plan = makePlan(mlp("dense:32", 4), classInfo(10, 4, {5}), options(Strategy::ClassGroups, 3));
        QCOMPARE(plan.submodels[1].rows.size(), std::size_t(28));
        QCOMPARE(submodelCost(plan, 1), double(plan.submodels[1].flopsPerSample) * 28.0 * double(plan.effectiveEpochs));
        QCOMPARE(longestFirst(plan), (std::vector<int>{1, 0, 2}));
        // Equal costs keep plan order; a cost counts FLOPs as well as rows.
        SplitPlan same = plan;
        for (auto& s : same.submodels) {
            s.rows = range(0, 10);
            s.flopsPerSample = 100;
        }
        QCOMPARE(longestFirst(same), (std::vector<int>{0, 1, 2}));
        same.submodels[2].flopsPerSample = 101;
        same.submodels[0].rows = range(0, 9);
        QCOMPARE(longestFirst(same), (std::vector<int>{2, 1, 0}));
        QCOMPARE(submodelCost(same, 0), 900.0 * double(same.effectiveEpochs));
    }

    // The split's totals against the original (plan_totals.h): sums, largest, and the schedule.
    void planTotalsAgainstTheOriginal() {
        // Class 5 is absent: the three submodels learn from 24, 28 and 20 rows.
        const SplitPlan plan = makePlan(mlp("dense:32", 4), classInfo(10, 4, {5}), options(Strategy::ClassGroups, 3));
        const PlanTotals one = planTotals(plan, 1), all = planTotals(plan, 8);
        QCOMPARE(one.submodels, 3);
        QCOMPARE(one.workers, 1);
        QCOMPARE(all.workers, 3);  // never more at once than there are submodels
        std::int64_t params = 0, flops = 0, largest = 0;
        double work = 0, slowest = 0;
        for (int i = 0; i < 3; ++i) {
            const SubmodelPlan& s = plan.submodels[std::size_t(i)];
            params += s.params;
            flops += s.flopsPerSample;
            largest = std::max(largest, s.memoryBytes);
            work += submodelCost(plan, i);
            slowest = std::max(slowest, submodelCost(plan, i));
        }
        QCOMPARE(one.combinedParams, params);
        QVERIFY(one.combinedParams > plan.originalParams);  // three submodels at 1/1.5 of the widths
        QCOMPARE(one.originalParams, plan.originalParams);
        QCOMPARE(one.inferenceFlops, flops);
        QCOMPARE(one.originalInferenceFlops, plan.originalFlopsPerSample);
        QCOMPARE(one.machineMemoryBytes, largest);
        QCOMPARE(one.concurrentMemoryBytes, largest);
        std::int64_t together = 0;
        for (const SubmodelPlan& s : plan.submodels) together += s.memoryBytes;
        QCOMPARE(all.concurrentMemoryBytes, together);
        QCOMPARE(one.originalMemoryBytes, plan.originalMemoryBytes);
        QCOMPARE(one.work, work);
        QCOMPARE(one.slowestWork, slowest);
        QCOMPARE(one.slowestWork, submodelCost(plan, 1));  // the 28 rows
        QCOMPARE(one.thisMachineWork, work);               // one at a time: all of it
        QCOMPARE(all.thisMachineWork, slowest);            // all at once: the largest
        QCOMPARE(planTotals(plan, 2).thisMachineWork,
                 longestFirstMakespan({submodelCost(plan, 0), submodelCost(plan, 1), submodelCost(plan, 2)}, 2));
        QCOMPARE(originalCost(plan), double(plan.originalFlopsPerSample) * double(plan.samples) * double(plan.epochs));
        QCOMPARE(one.originalWork, originalCost(plan));
    }

    void longestFirstMakespanSchedules() {
        QCOMPARE(longestFirstMakespan({}, 2), 0.0);
        QCOMPARE(longestFirstMakespan({3, 2, 2, 3, 2}, 5), 3.0);  // one each: the largest
        // 3 and 3 first, then each 2 to the machine free first: 5, 5, then 7.
        QCOMPARE(longestFirstMakespan({2, 3, 2, 2, 3}, 2), 7.0);
        QCOMPARE(longestFirstMakespan({2, 3, 2}, 1), 7.0);
        QCOMPARE(longestFirstMakespan({2, 3, 2}, 0), 7.0);  // no machine counts as one
    }

    // A run's measured speed: its submodels' CPU seconds over their costs; on S machines, the
    // largest cost at that speed (the command line's "on S machines" figure).
    void measuredSpeedPredictsTimeOnMachines() {
        const SplitPlan plan = makePlan(mlp("dense:32", 4), classInfo(10, 4, {5}), options(Strategy::ClassGroups, 3));
        const double c0 = submodelCost(plan, 0), c1 = submodelCost(plan, 1), c2 = submodelCost(plan, 2);
        const std::vector<double> cpu{1.0, 2.0, 0.5};
        const std::optional<double> rate = secondsPerWork(plan, cpu);
        QVERIFY(rate);
        QCOMPARE(*rate, 3.5 / (c0 + c1 + c2));
        QCOMPARE(trainingSecondsOnMachines(plan, cpu), c1 * (3.5 / (c0 + c1 + c2)));
        QVERIFY(!secondsPerWork(plan, {}));
        QVERIFY(!secondsPerWork(plan, {0.0, 0.0, 0.0}));
        QCOMPARE(trainingSecondsOnMachines(plan, {}), 0.0);
    }

    void outputSplitChunks() {
        DataInfo info;
        info.task = Task::Regression;
        info.targetColumns = 10;
        info.samples = 50;
        const SplitPlan plan = makePlan(mlp("dense:40,dense:20", 6), info, options(Strategy::Auto, 4));
        QCOMPARE(plan.strategy, Strategy::OutputSplit);
        QCOMPARE(plan.factor, 4.0);
        QCOMPARE(plan.submodelCount(), 4);
        const std::vector<std::pair<int, int>> expected = {{0, 3}, {3, 6}, {6, 8}, {8, 10}};
        QCOMPARE(plan.rule().columns, expected);
        for (const auto& s : plan.submodels) {
            QCOMPARE(s.rows, range(0, 50));
            QCOMPARE(s.spec.outputs, s.columnEnd - s.columnBegin);
            QCOMPARE(std::get<DenseSpec>(s.spec.layers[0]).units, 10);
        }
        QVERIFY(!plan.epochsScaled());  // off by default for regression
        QCOMPARE(plan.effectiveEpochs, plan.epochs);

        info.targetColumns = 3;
        VERIFY_CONTAINS(errorOf([&] { makePlan(mlp("dense:40", 6), info, options(Strategy::OutputSplit, 4)); }),
                        "the target has 3 columns, fewer than N=4");
        SplitOptions fallback = options(Strategy::OutputSplit, 4);
        fallback.regressionFallbackToShards = true;
        const SplitPlan shards = makePlan(mlp("dense:40", 6), info, fallback);
        QCOMPARE(shards.strategy, Strategy::DataShards);
        QCOMPARE(shards.factor, 2.0);  // sqrt(4)
        QCOMPARE(shards.submodels[0].spec.outputs, 3);
        VERIFY_CONTAINS(shards.warnings.at(0), "using 4 data shards with averaged predictions");
    }

    void shrinking() {
        NetworkSpec spec = mlp("dense:512,dropout:0.2,dense:256,dense:100", 784);
        std::get<DenseSpec>(spec.layers[3]).scalable = false;
        const SplitPlan p3 = makePlan(spec, classInfo(10, 1), options(Strategy::ClassGroups, 3));
        const NetworkSpec& s = p3.submodels[0].spec;
        QCOMPARE(std::get<DenseSpec>(s.layers[0]).units, 342);  // ceil(512 / 1.5)
        QCOMPARE(s.layers[1], spec.layers[1]);
        QCOMPARE(std::get<DenseSpec>(s.layers[2]).units, 171);  // ceil(256 / 1.5)
        QCOMPARE(std::get<DenseSpec>(s.layers[3]).units, 100);  // not scalable
        QCOMPARE(s.outputs, 7);
        QCOMPARE(s.outputActivation, Activation::Softmax);
        QCOMPARE(p3.submodels[0].params, paramCount(s));
        QCOMPARE(p3.submodels[0].flopsPerSample, flopsPerSample(s));
        QCOMPARE(p3.submodels[0].memoryBytes, trainingMemoryBytes(s, 128, 2));
        QCOMPARE(p3.original.outputs, 10);
        const SplitPlan p10 = makePlan(spec, classInfo(10, 1), options(Strategy::ClassGroups, 10));
        QCOMPARE(std::get<DenseSpec>(p10.submodels[0].spec.layers[0]).units, 205);  // ceil(512 / 2.5)
        QCOMPARE(std::get<DenseSpec>(p10.submodels[0].spec.layers[2]).units, 103);  // ceil(256 / 2.5)
        QCOMPARE(shrinkWidth(300, 1.5), 200);
        QCOMPARE(shrinkWidth(3, 2.5), 2);

        // ceil(2 / 2.5) = 1 < 2: refused before training, naming the layer.
        const std::string e = errorOf(
            [] { makePlan(mlp("dense:64,dense:2", 4), classInfo(10, 1), options(Strategy::ClassGroups, 10)); });
        VERIFY_CONTAINS(e, "layer 2 (dense 2 relu): width 2 / F=2.5 rounds up to 1, below the minimum width of 2");
        // Marked not scalable, the same layer is fine.
        NetworkSpec fixed = mlp("dense:64,dense:2", 4);
        std::get<DenseSpec>(fixed.layers[1]).scalable = false;
        QCOMPARE(std::get<DenseSpec>(
                     makePlan(fixed, classInfo(10, 1), options(Strategy::ClassGroups, 10)).submodels[0].spec.layers[1])
                     .units,
                 2);
    }

    void shrinkingConvFilters() {
        // Filters shrink like units, and the dense layer after the flatten takes the smaller input.
        NetworkSpec cnn;
        cnn.input = Shape{1, 28, 28};
        cnn.layers = parseLayers("conv:32:3x3:relu,maxpool:2,conv:64:3x3:relu,bn,maxpool:2,flatten,dense:128:relu");
        const SplitPlan p3 = makePlan(cnn, classInfo(10, 1), options(Strategy::ClassGroups, 3));
        const NetworkSpec& s = p3.submodels[0].spec;
        QCOMPARE(std::get<ConvSpec>(s.layers[0]).filters, 22);  // ceil(32 / 1.5)
        QCOMPARE(std::get<ConvSpec>(s.layers[2]).filters, 43);  // ceil(64 / 1.5)
        QCOMPARE(std::get<DenseSpec>(s.layers[6]).units, 86);   // ceil(128 / 1.5)
        const auto f = describe(s);
        QCOMPARE(f[3].params, std::int64_t(2 * 43));  // the bn follows the conv's new width
        QCOMPARE(f[6].params, std::int64_t(43 * 5 * 5 * 86 + 86));
        QCOMPARE(p3.submodels[0].params, paramCount(s));
        // The reference keeps a conv net's epochs.
        QVERIFY(!p3.epochsScaled());
        QVERIFY(makePlan(mlp("dense:32,bn", 4), classInfo(10, 1), options(Strategy::ClassGroups, 3)).epochsScaled());

        // Not scalable: kept; too few filters for F: refused naming the layer.
        std::get<ConvSpec>(cnn.layers[0]).scalable = false;
        QCOMPARE(std::get<ConvSpec>(
                     makePlan(cnn, classInfo(10, 1), options(Strategy::ClassGroups, 3)).submodels[0].spec.layers[0])
                     .filters,
                 32);
        NetworkSpec thin = cnn;
        thin.layers[2] = parseLayers("conv:2:3x3:relu")[0];
        VERIFY_CONTAINS(errorOf([&] { makePlan(thin, classInfo(10, 1), options(Strategy::ClassGroups, 10)); }),
                        "layer 3 (conv 2 3x3 relu): filters 2 / F=2.5 rounds up to 1, below the minimum width of 2");
    }

    // Messages name a class by its label, with the index only where the label is not it.
    void classNamesInMessages() {
        DataInfo info;
        info.classNames = {"cat", "", "2"};
        QCOMPARE(info.className(0), std::string("'cat' (0)"));
        QCOMPARE(info.className(1), std::string("1"));
        QCOMPARE(info.className(2), std::string("2"));  // not "'2' (2)"
        QCOMPARE(info.className(7), std::string("7"));
    }

    void epochScaling() {
        SplitOptions o = options(Strategy::ClassGroups, 3);
        o.epochs = 20;
        // Automatic: epochs / sqrt(F) for classes with dense layers only (issue 28's study).
        const SplitPlan automatic = makePlan(mlp("dense:32", 4), classInfo(10, 1), o);
        QCOMPARE(automatic.epochScaling, EpochScaling::Sqrt);
        QCOMPARE(automatic.effectiveEpochs, 17);  // ceil(20 / sqrt(1.5))
        DataInfo binary = classInfo(2, 40);
        binary.task = Task::Binary;
        SplitOptions two = options(Strategy::Auto, 4);
        two.epochs = 20;
        QCOMPARE(makePlan(mlp("dense:32", 4), binary, two).effectiveEpochs, 10);  // ceil(20 / sqrt(4))
        // A conv net and values keep their epochs.
        NetworkSpec cnn;
        cnn.input = Shape{1, 8, 8};
        cnn.layers = parseLayers("conv:8:3x3:relu,flatten,dense:16:relu");
        QCOMPARE(makePlan(cnn, classInfo(10, 1), o).epochScaling, EpochScaling::Off);
        DataInfo values;
        values.task = Task::Regression;
        values.targetColumns = 4;
        values.samples = 40;
        QCOMPARE(makePlan(mlp("dense:32", 4), values, two).effectiveEpochs, 20);
        o.scaleEpochs = EpochScaling::On;
        const SplitPlan on = makePlan(mlp("dense:32", 4), classInfo(10, 1), o);
        QVERIFY(on.epochsScaled());
        QCOMPARE(on.effectiveEpochs, 14);  // ceil(20 / 1.5)
        o.requested = 10;
        o.epochs = 3;
        QCOMPARE(makePlan(mlp("dense:32", 4), classInfo(10, 1), o).effectiveEpochs, 2);  // ceil(1.2)
        o.scaleEpochs = EpochScaling::Off;
        QCOMPARE(makePlan(mlp("dense:32", 4), classInfo(10, 1), o).effectiveEpochs, 3);
        // The middle setting: epochs / sqrt(F), rounded up.
        o.scaleEpochs = EpochScaling::Sqrt;
        o.epochs = 20;
        const SplitPlan sqrt10 = makePlan(mlp("dense:32", 4), classInfo(10, 1), o);
        QCOMPARE(sqrt10.factor, 2.5);
        QVERIFY(sqrt10.epochsScaled());
        QCOMPARE(sqrt10.effectiveEpochs, 13);  // ceil(20 / 1.5811)
        o.requested = 3;
        QCOMPARE(makePlan(mlp("dense:32", 4), classInfo(10, 1), o).effectiveEpochs, 17);  // ceil(20 / 1.2247)
        o.epochs = 1;
        QCOMPARE(makePlan(mlp("dense:32", 4), classInfo(10, 1), o).effectiveEpochs, 1);
        QCOMPARE(parseEpochScaling("sqrt"), EpochScaling::Sqrt);
        QCOMPARE(epochScalingName(EpochScaling::On), std::string("on"));
        VERIFY_CONTAINS(errorOf([] { parseEpochScaling("half"); }),
                        "unknown epoch scaling 'half' (expected on, off or sqrt)");
    }

    void binaryShards() {
        DataInfo info;
        info.task = Task::Binary;
        info.classCount = 2;
        for (int i = 0; i < 101; ++i) info.labels.push_back(i % 2);
        info.samples = 101;
        const auto shardsOf = [&](int n, std::uint64_t seed) {
            SplitOptions o = options(Strategy::Auto, n);
            o.seed = seed;
            return makePlan(mlp("dense:64", 3), info, o);
        };
        const SplitPlan a = shardsOf(3, 1), same = shardsOf(3, 1), other = shardsOf(3, 2);
        QCOMPARE(a.strategy, Strategy::BinaryShards);
        QCOMPARE(a.factor, 3.0);
        QCOMPARE(std::get<DenseSpec>(a.submodels[0].spec.layers[0]).units, 22);  // ceil(64 / 3)
        QCOMPARE(a.submodels[0].spec.outputs, 1);
        QCOMPARE(a.epochScaling, EpochScaling::Sqrt);  // automatic: two classes, dense layers
        std::vector<int> all;
        for (int i = 0; i < 3; ++i) {
            const auto& rows = a.submodels[std::size_t(i)].rows;
            QCOMPARE(int(rows.size()), i < 2 ? 34 : 33);  // 101 = 34 + 34 + 33
            QCOMPARE(rows, same.submodels[std::size_t(i)].rows);
            all.insert(all.end(), rows.begin(), rows.end());
        }
        std::sort(all.begin(), all.end());
        QCOMPARE(all, range(0, 101));  // disjoint and covering
        QVERIFY(a.submodels[0].rows != other.submodels[0].rows);
        QVERIFY(a.submodels[0].rows != range(0, 34));  // shuffled, not file order
        SplitOptions fileOrder = options(Strategy::BinaryShards, 2);
        fileOrder.shuffleShards = false;
        QCOMPARE(makePlan(mlp("dense:64", 3), info, fileOrder).submodels[1].rows, range(51, 101));

        VERIFY_CONTAINS(errorOf([&] { shardsOf(1, 1); }), "at least 2 shards");
        VERIFY_CONTAINS(errorOf([&] { makePlan(mlp("dense:64", 3), info, options(Strategy::ClassGroups, 3)); }),
                        "the class-groups strategy needs a multiclass classification task, this dataset's task is "
                        "binary");
    }

    void oneClassSubmodelsAreRefused() {
        // A file sorted by class, sharded in file order: the first shard holds class 'no' only.
        DataInfo sorted;
        sorted.task = Task::Binary;
        sorted.classCount = 2;
        sorted.classNames = {"no", "yes"};
        for (int i = 0; i < 100; ++i) sorted.labels.push_back(i < 50 ? 0 : 1);
        sorted.samples = 100;
        SplitOptions fileOrder = options(Strategy::BinaryShards, 2);
        fileOrder.shuffleShards = false;
        QCOMPARE(errorText([&] { makePlan(mlp("dense:64", 3), sorted, fileOrder); }),
                 QString(
                     "binary shards: submodel 1 (shard 1 of 2 (50 samples)) has training rows of class 'no' (0) only, "
                     "so it cannot learn to tell classes apart (request fewer submodels, or shuffle the shards)"));
        // Shuffled, the shards mix the classes: planned, without a warning.
        const SplitPlan shuffled = makePlan(mlp("dense:64", 3), sorted, options(Strategy::BinaryShards, 2));
        QCOMPARE(shuffled.submodelCount(), 2);
        QVERIFY(shuffled.warnings.empty());

        // Data shards of a classification set: one row per shard is one class per shard.
        const std::string single = errorOf(
            [] { makePlan(mlp("dense:16", 4), classInfo(3, 1), options(Strategy::DataShards, 3)); });
        VERIFY_CONTAINS(single, "data shards: submodel 1 (shard 1 of 3 (1 sample)) has training rows of class ");
        VERIFY_CONTAINS(single, " only, so it cannot learn to tell classes apart (request fewer submodels)");
        // Regression shards have no classes to lack.
        DataInfo reg;
        reg.task = Task::Regression;
        reg.targetColumns = 1;
        reg.samples = 3;
        QCOMPARE(makePlan(mlp("dense:16", 4), reg, options(Strategy::DataShards, 3)).submodelCount(), 3);

        // Class groups {0} {1} {2} {3} without rows of class 1: the pair 0+1 sees class 0 alone.
        QCOMPARE(errorText(
                     [] { makePlan(mlp("dense:32", 4), classInfo(4, 5, {1}), options(Strategy::ClassGroups, 6)); }),
                 QString("class groups: submodel 1 (groups 0+1: classes 0-1) has training rows of class 0 only, so it "
                         "cannot "
                         "learn to tell classes apart (the other classes of its groups have no training rows; request "
                         "fewer "
                         "submodels, so that each group holds more classes)"));
        // With N=1 the one submodel holds both classes: planned.
        QCOMPARE(makePlan(mlp("dense:32", 4), classInfo(4, 5, {1}), options(Strategy::ClassGroups, 1)).submodelCount(),
                 1);
    }

    void refusals() {
        const NetworkSpec spec = mlp("dense:16", 4);
        VERIFY_CONTAINS(errorOf([&] { makePlan(spec, classInfo(3, 2), options(Strategy::Auto, 0)); }),
                        "number of submodels N=0: must be at least 1");
        VERIFY_CONTAINS(errorOf([&] { makePlan(spec, classInfo(3, 2), options(Strategy::DataShards, 7)); }),
                        "N=7 shards but only 6 training samples");
        SplitOptions f = options(Strategy::DataShards, 2);
        f.dataShardFactor = 0.5;
        VERIFY_CONTAINS(errorOf([&] { makePlan(spec, classInfo(3, 2), f); }), "F=0.5 must be at least 1");
        VERIFY_CONTAINS(errorOf([&] { makePlan(spec, classInfo(3, 2), options(Strategy::OutputSplit, 2)); }),
                        "the output-split strategy needs a regression or reconstruction task");
        DataInfo reg;
        reg.task = Task::Regression;
        reg.targetColumns = 2;
        reg.samples = 10;
        VERIFY_CONTAINS(errorOf([&] { makePlan(spec, reg, options(Strategy::ClassGroups, 3)); }),
                        "this dataset's task is regression (use output-split or data-shards)");
        DataInfo bad = classInfo(3, 2);
        bad.labels[4] = 3;
        VERIFY_CONTAINS(errorOf([&] { makePlan(spec, bad, options(Strategy::Auto, 3)); }), "sample 5 has label 3");

        // Data shards on classification: F = sqrt(N) by default, user-set otherwise. Ten rows a
        // shard, so that none holds a single class (refused: oneClassSubmodelsAreRefused).
        const SplitPlan shards = makePlan(mlp("dense:100", 4), classInfo(3, 30), options(Strategy::DataShards, 9));
        QCOMPARE(shards.factor, 3.0);
        QCOMPARE(std::get<DenseSpec>(shards.submodels[0].spec.layers[0]).units, 34);
        QCOMPARE(shards.submodels[0].spec.outputs, 3);
    }

    void normalisedCombination() {
        // C=10, N=6: g=4; random probability rows for each submodel.
        const SplitPlan plan = makePlan(mlp("dense:8", 2), classInfo(10, 1), options(Strategy::ClassGroups, 6));
        const CombinationRule rule = plan.rule();
        Rng rng(5);
        std::vector<Matrix> probs;
        for (const auto& owned : rule.classes) {
            Matrix p(200, Index(owned.size()));
            for (Index i = 0; i < p.size(); ++i) p.data()[i] = rng.uniform(0.01f, 1.f);
            for (Index r = 0; r < p.rows(); ++r) p.row(r) /= p.row(r).sum();
            probs.push_back(p);
        }
        const Matrix combined = combine(probs, rule);
        QCOMPARE(combined.cols(), Index(10));
        for (Index r = 0; r < combined.rows(); ++r) QVERIFY(std::abs(combined.row(r).sum() - 1.f) < 1e-5f);
        QCOMPARE(predictedClasses(combined), predictedClasses(rawProductScores(probs, rule)));
        // A hard zero does not produce NaN.
        probs[0].row(0).setZero();
        probs[0](0, 0) = 1;
        QVERIFY(combineClassGroups(probs, rule).allFinite());
        probs[1].resize(200, 3);
        VERIFY_CONTAINS(errorOf([&] { combine(probs, rule); }), "submodel 2 gave 3 columns for its 5 classes");
    }

    void otherCombinations() {
        Matrix a(3, 1), b(3, 1);
        a << 0.9f, 0.45f, 0.2f;
        b << 0.3f, 0.05f, 0.7f;
        Matrix confident(3, 1), mean(3, 1);
        confident << 0.9f, 0.05f, 0.2f;  // |2p-1|: 0.8>0.4, 0.1<0.9, 0.6>0.4
        mean << 0.6f, 0.25f, 0.45f;
        QVERIFY(combineBinary({a, b}, BinaryCombine::MostConfident).isApprox(confident));
        QVERIFY(combineBinary({a, b}, BinaryCombine::Average).isApprox(mean));
        Matrix l(2, 2), r(2, 1), cat(2, 3);
        l << 1, 2, 4, 5;
        r << 3, 6;
        cat << 1, 2, 3, 4, 5, 6;
        QCOMPARE(concatenateColumns({l, r}), cat);
        QCOMPARE(averageOutputs({l, l * 3}), Matrix(l * 2));
    }

    void kernelThreadBudget() {
        QCOMPARE(ThreadBackend::kernelThreadsPerWorker(3, 2), (std::vector<int>{1, 1}));
        QCOMPARE(ThreadBackend::kernelThreadsPerWorker(1, 4), (std::vector<int>{4}));
        QCOMPARE(ThreadBackend::kernelThreadsPerWorker(3, 8), (std::vector<int>{3, 3, 2}));
        QCOMPARE(ThreadBackend::kernelThreadsPerWorker(8, 8), std::vector<int>(8, 1));
        QCOMPARE(ThreadBackend(3).workers(10), 3);
    }

    void coreShareHandsFreedCores() {
        CoreShare share({2, 1, 1});
        share.retire(0);  // one core each to the two with the fewest
        QCOMPARE(share.threadsOf(0), 0);
        QCOMPARE(share.threadsOf(1), 2);
        QCOMPARE(share.threadsOf(2), 2);
        share.retire(2);
        QCOMPARE(share.threadsOf(1), 4);
        share.retire(2);  // twice is once
        QCOMPARE(share.threadsOf(1), 4);
        share.retire(1);  // nobody left to take them
        QCOMPARE(share.threadsOf(1), 0);
    }

    void freedCoresKeepTheCombinedModel() {
        // S = 3 on budgets of 1, 2 and 3 threads. The last submodel waits after its first batch
        // until the other two have finished, so their workers retire while it runs and it trains
        // on the whole budget from then on; the combined model is the same bit for bit.
        const auto [train, test] = blobs(6, 300, 50, 16);
        SplitOptions o = options(Strategy::ClassGroups, 3);
        o.epochs = 4;
        const SplitPlan plan = makePlan(mlp("dense:256,dense:256", 16), train, o);
        QCOMPARE(longestFirst(plan), (std::vector<int>{0, 1, 2}));
        QVERIFY(BatchSplit::slicesFor(192, plan.submodels[2].flopsPerSample) >= 3);
        TrainConfig c = config(LossKind::SoftmaxCrossEntropy, 192);
        c.batchReportSeconds = 0;  // every batch reports
        const auto run = [&](int budget) {
            auto backend = std::make_shared<ThreadBackend>(budget);
            std::mutex mutex;
            std::condition_variable othersDone;
            int finished = 0;
            bool waited = false;
            SubmodelEvents events;
            events.onBatch = [&](int i, const BatchProgress& p) {
                if (i != 2 || p.epoch != 1 || p.batch != 1) return;
                std::unique_lock lock(mutex);
                waited = othersDone.wait_for(lock, std::chrono::seconds(60), [&] { return finished == 2; });
            };
            events.onSubmodelFinished = [&](int i, const TrainResult&) {
                const std::lock_guard lock(mutex);
                if (i != 2) ++finished;
                othersDone.notify_all();
            };
            ParallelResult r = ParallelTrainer(plan, c, backend).train(train, &test, events);
            return std::make_tuple(std::move(r), waited, backend->peakKernelThreads());
        };
        auto [one, oneWaited, onePeaks] = run(1);
        QVERIFY(oneWaited);
        QCOMPARE(one.status, TrainStatus::Completed);
        QCOMPARE(onePeaks, (std::vector<int>{1, 1, 1}));
        const Matrix expected = one.model.predict(test.features);
        for (int budget : {2, 3}) {
            auto [other, waited, peaks] = run(budget);
            QVERIFY(waited);
            QCOMPARE(other.status, TrainStatus::Completed);
            QCOMPARE(peaks[2], budget);
            if (budget == 2) QCOMPARE(peaks, (std::vector<int>{1, 1, 2}));
            QVERIFY2(other.model.predict(test.features) == expected, std::to_string(budget).c_str());
            for (int i = 0; i < 3; ++i)
                QVERIFY(other.model.submodel(i).flatWeights() == one.model.submodel(i).flatWeights());
        }
    }

    void cancelStopsEveryWorker() {
        const auto [train, test] = blobs(6, 400, 1, 8);
        SplitOptions o = options(Strategy::ClassGroups, 3);
        o.epochs = 500;  // minutes of work if nothing stopped it
        TrainConfig c = config(LossKind::SoftmaxCrossEntropy, 16);
        c.batchReportSeconds = 0;  // every batch reports
        ParallelTrainer trainer(makePlan(mlp("dense:256,dense:256", 8), train, o), c,
                                std::make_shared<ThreadBackend>(2));
        CancelToken cancel;
        std::atomic<int> batches{0}, finished{0}, callbacks{0};
        SubmodelEvents events;
        events.onBatch = [&](int, const BatchProgress&) {
            ++callbacks;
            if (++batches == 10) cancel.cancel();
        };
        events.onEpoch = [&](int, const EpochStats&) { ++callbacks; };
        events.onResources = [&](int, const ResourceSample&) { ++callbacks; };
        events.onSubmodelFinished = [&](int, const TrainResult&) {
            ++callbacks;
            ++finished;
        };
        const QSet<QString> threadsBefore = threadsOfProcess();
        const ParallelResult r = trainer.train(train, nullptr, events, &cancel);
        QCOMPARE(r.status, TrainStatus::Cancelled);
        // Each worker stops at its next batch boundary: the other one ends at most its batch in flight.
        QVERIFY2(batches.load() <= 10 + 1, std::to_string(batches.load()).c_str());
        QCOMPARE(finished.load(), 3);
        for (const auto& s : r.submodels) QCOMPARE(s.status, TrainStatus::Cancelled);
        // Every worker joined: no thread started since is left (an OpenMP team a worker started
        // may take a moment to go; a thread an earlier test left may go meanwhile, under load).
        QTRY_VERIFY_WITH_TIMEOUT(threadsBefore.contains(threadsOfProcess()), 5000);
        const int atReturn = callbacks.load();
        QThread::msleep(300);
        QCOMPARE(callbacks.load(), atReturn);  // nothing calls back after the return
        QCOMPARE(r.model.submodelCount(), 3);
    }

    // A pause inside the split run is nobody's training time: the run's wall time, each
    // submodel's and each epoch's leave it out, so with the pause they fit in the call's duration.
    void pausedTimeIsNotSplitTime() {
        const auto [train, test] = blobs(6, 100, 1, 8);
        SplitOptions o = options(Strategy::ClassGroups, 3);
        o.epochs = 4;
        o.scaleEpochs = EpochScaling::Off;
        ParallelTrainer trainer(makePlan(mlp("dense:16", 8), train, o), config(LossKind::SoftmaxCrossEntropy, 32),
                                std::make_shared<ThreadBackend>(2));
        CancelToken cancel;
        std::mutex mutex;
        std::thread resumer;
        bool paused = false;
        SubmodelEvents events;
        events.onEpoch = [&](int, const EpochStats& s) {
            std::lock_guard lock(mutex);
            if (paused || s.epoch != 1) return;
            paused = true;
            cancel.pause();  // every worker waits at its next batch boundary
            resumer = std::thread([&cancel] {
                std::this_thread::sleep_for(std::chrono::milliseconds(400));
                cancel.resume();
            });
        };
        const auto start = std::chrono::steady_clock::now();
        const ParallelResult r = trainer.train(train, nullptr, events, &cancel);
        const double call = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        resumer.join();
        QCOMPARE(r.status, TrainStatus::Completed);
        const double pause = cancel.pausedSeconds();
        QVERIFY(pause >= 0.4);
        QVERIFY2(r.wallSeconds + pause <= call + 1e-6,
                 (std::to_string(r.wallSeconds) + " + " + std::to_string(pause) + " > " + std::to_string(call))
                     .c_str());
        for (std::size_t i = 0; i < r.submodels.size(); ++i) {
            QVERIFY2(r.submodelWallSeconds[i] + pause <= call + 1e-6, std::to_string(r.submodelWallSeconds[i]).c_str());
            double epochs = 0;
            for (const EpochStats& e : r.submodels[i].history) epochs += e.seconds;
            QVERIFY(epochs <= r.submodelWallSeconds[i] + 1e-6);
        }
        QVERIFY(r.cpuSeconds > 0);
    }

    void failureNamesTheSubmodel() {
        const auto [train, test] = blobs(6, 50, 10, 8);
        SplitOptions o = options(Strategy::ClassGroups, 3);
        o.epochs = 3;
        const SplitPlan plan = makePlan(mlp("dense:16", 8), train, o);
        ParallelTrainer trainer(plan, config(LossKind::SoftmaxCrossEntropy), std::make_shared<ThreadBackend>(1));
        SubmodelEvents events;
        events.onEpoch = [](int i, const EpochStats&) {
            if (i == 1) throw Error("handler broke");
        };
        const ParallelResult r = trainer.train(train, nullptr, events);
        QCOMPARE(r.status, TrainStatus::Failed);
        QCOMPARE(r.error, std::string("submodel 2: handler broke"));
        QCOMPARE(r.submodels[0].status, TrainStatus::Completed);
        QCOMPARE(r.submodels[2].status, TrainStatus::Cancelled);  // one worker: never started after the failure
        // The plan belongs to its training data: other data is refused before any thread starts.
        VERIFY_CONTAINS(errorOf([&] { trainer.train(test); }), "does not fit the plan");
    }

    void failureCancelsTheRunningSiblings() {
        const auto [train, test] = blobs(6, 200, 10, 8);
        SplitOptions o = options(Strategy::ClassGroups, 3);
        o.epochs = 500;  // minutes of work for the sibling if nothing stopped it
        o.scaleEpochs = EpochScaling::Off;
        const SplitPlan plan = makePlan(mlp("dense:64", 8), train, o);
        ParallelTrainer trainer(plan, config(LossKind::SoftmaxCrossEntropy), std::make_shared<ThreadBackend>(2));
        SubmodelEvents events;
        events.onEpoch = [](int i, const EpochStats& s) {
            if (i == 0 && s.epoch == 2) throw Error("disk full");
        };
        ParallelResult r = trainer.train(train, nullptr, events);
        QCOMPARE(r.status, TrainStatus::Failed);
        QCOMPARE(r.error, std::string("submodel 1: disk full"));
        CancelToken stopped;
        stopped.cancel();
        QVERIFY(r.model.evaluate(test, &stopped).cancelled);  // evaluation honours cancel as well
        // Submodel 2 was running on the other worker: it stops at its next batch boundary.
        QCOMPARE(r.submodels[1].status, TrainStatus::Cancelled);
        QVERIFY2(r.submodels[1].history.size() < 500, std::to_string(r.submodels[1].history.size()).c_str());
        QCOMPARE(r.submodels[2].status, TrainStatus::Cancelled);
    }

    void classGroupsEndToEnd() {
        const auto [train, test] = blobs(6, 500, 200, 8);
        SplitOptions o = options(Strategy::Auto, 3);
        o.epochs = 12;  // 10 after the automatic scaling by sqrt(F=1.5)
        o.seed = 11;
        const SplitPlan plan = makePlan(mlp("dense:48,dense:24", 8), train, o);
        QCOMPARE(plan.effectiveEpochs, 10);
        const TrainConfig c = config(LossKind::SoftmaxCrossEntropy);
        ParallelTrainer trainer(plan, c, std::make_shared<ThreadBackend>(2));
        std::atomic<int> epochs{0}, resources{0}, badIndex{0};
        SubmodelEvents events;
        events.onEpoch = [&](int i, const EpochStats&) {
            ++epochs;
            badIndex += i < 0 || i > 2;
        };
        events.onResources = [&](int i, const ResourceSample& s) {
            ++resources;
            badIndex += i < 0 || i > 2 || s.modelBytes <= 0;
        };
        ParallelResult r = trainer.train(train, &test, events);
        QCOMPARE(r.status, TrainStatus::Completed);
        QCOMPARE(epochs.load(), 3 * 10);
        QVERIFY(resources.load() >= 3 * 10);  // at least one per epoch
        QCOMPARE(badIndex.load(), 0);
        QCOMPARE(r.workers, 2);
        QVERIFY(r.submodels[0].history.back().hasValidation);
        QVERIFY(r.peakSubmodelBytes > 0 && r.peakConcurrentBytes >= r.peakSubmodelBytes);
        // Each submodel's peak counts its own rows: features and targets, training and validation.
        for (int i = 0; i < 3; ++i) {
            const SubmodelPlan& s = plan.submodels[std::size_t(i)];
            const std::int64_t rows = std::int64_t(s.rows.size() + ownRows(plan.rule(), i, test).size());
            QCOMPARE(r.submodels[std::size_t(i)].dataBytes,
                     rows * (train.features.cols() + s.spec.outputs) * std::int64_t(sizeof(Scalar)));
            QCOMPARE(r.submodels[std::size_t(i)].peakBytes(),
                     r.submodels[std::size_t(i)].peakModelBytes + r.submodels[std::size_t(i)].dataBytes);
        }

        const CombinedEvaluation e = r.model.evaluate(test);
        BaselineResult base = trainBaseline(plan, train, &test, c, 2);
        const double baseAccuracy = headlineMetric(Task::Classification, base.network.predict(test.features),
                                                   test.targetMatrix());
        qInfo("class groups N=3: combined accuracy %.3f (baseline %.3f), wall %.2fs", e.metric, baseAccuracy,
              r.wallSeconds);
        QVERIFY2(e.metric >= 0.9, std::to_string(e.metric).c_str());  // chance is 0.17
        QCOMPARE(e.metricName, std::string("accuracy"));
        QVERIFY(std::isfinite(e.loss) && e.loss < 0.5);
        QCOMPARE(e.submodels.size(), std::size_t(3));
        QCOMPARE(e.submodels[0].samples, long(4 * 200));  // groups {0,1}+{2,3}, 200 test samples each
        for (const auto& s : e.submodels) QVERIFY(s.metric >= 0.9);
        // The combination does the work: one submodel knows 4 of the 6 classes, so alone it cannot
        // pass 4/6 even when mapped back to global classes.
        const auto owned = plan.submodels[0].classes;
        std::vector<int> alone = predictedClasses(r.model.submodel(0).predict(test.features));
        for (int& k : alone) k = owned[std::size_t(k)];
        QVERIFY(classificationMetrics(trueClasses(test.targetMatrix()), alone, 6).accuracy < 0.7);
        const Matrix p = r.model.predict(test.features.topRows(5));
        for (Index row = 0; row < p.rows(); ++row) QVERIFY(std::abs(p.row(row).sum() - 1.f) < 1e-5f);
    }

    void oneSubmodelIsTheBaseline() {
        const auto [train, test] = blobs(6, 100, 1, 8);
        SplitOptions o = options(Strategy::ClassGroups, 1);
        o.epochs = 2;
        const SplitPlan plan = makePlan(mlp("dense:16", 8), train, o);
        const TrainConfig c = config(LossKind::SoftmaxCrossEntropy);
        ParallelResult r = ParallelTrainer(plan, c, std::make_shared<ThreadBackend>(2)).train(train);
        const BaselineResult base = trainBaseline(plan, train, nullptr, c, 2);
        QCOMPARE(r.model.submodel(0).flatWeights(), base.network.flatWeights());
    }

    void outputSplitEndToEnd() {
        const auto [train, test] = smoothRegression(2000, 500, 4);
        SplitOptions o = options(Strategy::Auto, 2);
        o.epochs = 30;
        const SplitPlan plan = makePlan(mlp("dense:64,dense:32", 6), train, o);
        QCOMPARE(plan.strategy, Strategy::OutputSplit);
        ParallelResult r =
            ParallelTrainer(plan, config(LossKind::MeanSquaredError), std::make_shared<ThreadBackend>(2)).train(train);
        QCOMPARE(r.status, TrainStatus::Completed);
        const CombinedEvaluation e = r.model.evaluate(test);
        qInfo("output split N=2: combined r2 %.3f", e.metric);
        QVERIFY2(e.metric >= 0.9, std::to_string(e.metric).c_str());
        QCOMPARE(r.model.predict(test.features).cols(), Index(4));
        for (const auto& s : e.submodels) QVERIFY(s.metric >= 0.85);
    }

    void binaryShardsEndToEnd() {
        const auto [train, test] = disc(3000, 1000);
        for (BinaryCombine how : {BinaryCombine::MostConfident, BinaryCombine::Average}) {
            SplitOptions o = options(Strategy::Auto, 2);
            o.epochs = 30;
            o.binaryCombine = how;
            const SplitPlan plan = makePlan(mlp("dense:64,dense:32", 2), train, o);
            ParallelResult r = ParallelTrainer(plan, config(LossKind::BinaryCrossEntropy, 32),
                                               std::make_shared<ThreadBackend>(2))
                                   .train(train);
            QCOMPARE(r.status, TrainStatus::Completed);
            const CombinedEvaluation e = r.model.evaluate(test);
            qInfo("binary shards N=2 (%s): combined accuracy %.3f", binaryCombineName(how).c_str(), e.metric);
            QVERIFY2(e.metric >= 0.93, std::to_string(e.metric).c_str());  // chance is about 0.5
            QCOMPARE(r.model.predict(test.features).cols(), Index(1));
        }
    }
};

QTEST_APPLESS_MAIN(TstSplit)
#include "tst_split.moc"
