// End to end on real data: the reference MLP on a Fashion-MNIST subset, and the Skynnet split of
// it, must reach stated test accuracies; the split of a real binary CSV likewise. The full figure
// (60,000 samples, 5 epochs: >= 0.86) is measured with skynnet-cli, not here, to keep CI short.
#include <QtTest>

#include "core/parallel.h"
#include "data/csv_loader.h"
#include "data/idx_loader.h"
#include "data/preprocessing.h"
#include "data/splits.h"
#include "split/parallel_trainer.h"
#include "test_support.h"
#include "train/trainer.h"

using namespace skynnet;

namespace {

const char* kTrain = "/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz";
const char* kTest = "/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz";

std::vector<int> firstRows(int n) {
    std::vector<int> rows(std::size_t(n), 0);
    for (int i = 0; i < n; ++i) rows[std::size_t(i)] = i;
    return rows;
}

// Fashion-MNIST: the first `trainRows` training images and `testRows` test images, scaled to
// [0, 1] by a min-max fitted on the training rows.
void fashionSubset(int trainRows, int testRows, Dataset& train, Dataset& test) {
    train = loadIdx(kTrain).subset(firstRows(trainRows));
    test = loadIdx(kTest).subset(firstRows(testRows));
    Preprocessing prep;
    prep.scaling = Scaling::MinMax;
    prep.fit(train);
    train.features = prep.apply(train.features);
    test.features = prep.apply(test.features);
}

NetworkSpec referenceMlp(int classes) {
    NetworkSpec spec;
    spec.input = Shape{1, 28, 28};
    spec.layers = parseLayers("dense:512:relu,dense:256:relu");
    spec.setOutputFor(Task::Classification, classes);
    return spec;
}

// Trains spec (seed 1, Adam, batch 128) on the first trainRows Fashion-MNIST images and returns
// its accuracy on testRows test images; -1 when training did not complete.
double fashionTestAccuracy(const NetworkSpec& spec, int trainRows, int testRows, int epochs) {
    Dataset train, test;
    fashionSubset(trainRows, testRows, train, test);
    Network net(spec, 1);
    TrainConfig config;
    config.epochs = epochs;
    config.batchSize = 128;
    config.seed = 1;
    Trainer trainer(net, config, Task::Classification);
    if (trainer.fit(train.features, train.targetMatrix()).status != TrainStatus::Completed) return -1;
    return trainer.evaluate(test.features, test.targetMatrix()).metric;
}

}  // namespace

class TestEndToEnd : public QObject {
    Q_OBJECT
private slots:
    void referenceMlpOnFashionSubset() {
        if (!fashionMnistInstalled()) SKIP_UNLESS_CI("dataset-fashion-mnist is not installed");
        // A fifth of the data and 3 of the 5 epochs: 0.86 on the full run, 0.82 here.
        const double accuracy = fashionTestAccuracy(referenceMlp(10), 12000, 2000, 3);
        qInfo("reference MLP, 12k Fashion-MNIST samples, 3 epochs: test accuracy %.4f", accuracy);
        QVERIFY2(accuracy >= 0.82, std::to_string(accuracy).c_str());
    }

    void issueCnnOnFashionSubset() {
        // The CNN of issue 10 (28 -> 26 -> 13 -> 11 -> 5), Adam, seed 1, on a twelfth of the
        // training images for 2 epochs: 0.80 here; the full figure (60,000 images, 5 epochs) is
        // measured with skynnet-cli.
        if (!fashionMnistInstalled()) SKIP_UNLESS_CI("dataset-fashion-mnist is not installed");
        NetworkSpec spec;
        spec.input = Shape{1, 28, 28};
        spec.layers = parseLayers("conv:32:3x3:relu,maxpool:2,conv:64:3x3:relu,maxpool:2,flatten,dense:128:relu");
        spec.setOutputFor(Task::Classification, 10);
        const double accuracy = fashionTestAccuracy(spec, 5000, 1000, 2);
        qInfo("issue CNN, 5k Fashion-MNIST samples, 2 epochs: test accuracy %.4f", accuracy);
        QVERIFY2(accuracy >= 0.78, std::to_string(accuracy).c_str());
    }

    void referenceGruOnFashionRows() {
        // The reference's GRU example (each image read as 28 steps of its 28-pixel rows, GRU 64,
        // BatchNorm, dense 10), on a twelfth of the training images for 2 epochs.
        if (!fashionMnistInstalled()) SKIP_UNLESS_CI("dataset-fashion-mnist is not installed");
        NetworkSpec spec;
        spec.input = Shape::steps(28, 28);
        spec.layers = parseLayers("gru:64,bn");
        spec.setOutputFor(Task::Classification, 10);
        const double accuracy = fashionTestAccuracy(spec, 12000, 2000, 3);
        qInfo("reference GRU, 12k Fashion-MNIST samples, 3 epochs: test accuracy %.4f", accuracy);
        QVERIFY2(accuracy >= 0.76, std::to_string(accuracy).c_str());  // 0.794 on Zen 3
    }

    void classGroupsSplitOnFashionSubset() {
        if (!fashionMnistInstalled()) SKIP_UNLESS_CI("dataset-fashion-mnist is not installed");
        Dataset train, test;
        fashionSubset(12000, 2000, train, test);
        SplitOptions options;
        options.strategy = Strategy::ClassGroups;
        options.requested = 3;
        options.epochs = 3;
        options.scaleEpochs = EpochScaling::Off;
        const SplitPlan plan = makePlan(referenceMlp(10), train, options);
        QCOMPARE(plan.submodelCount(), 3);
        TrainConfig config;
        config.batchSize = 128;
        ParallelResult result = ParallelTrainer(plan, config).train(train);
        QCOMPARE(result.status, TrainStatus::Completed);
        const CombinedEvaluation e = result.model.evaluate(test);
        qInfo("class groups N=3, 12k Fashion-MNIST samples, 3 epochs: combined test accuracy %.4f", e.metric);
        QVERIFY2(e.metric >= 0.81, std::to_string(e.metric).c_str());
        for (const auto& s : e.submodels) QVERIFY2(s.metric >= 0.8, std::to_string(s.metric).c_str());
    }

    void binaryShardsOnBreastCancer() {
        Dataset all = loadCsv(sourcePath("resources/datasets/breast_cancer.csv"));
        QCOMPARE(all.task, Task::Binary);
        const SplitIndices idx = splitIndices(all, 0.0, 0.3, 5);
        Dataset train = all.subset(idx.train), test = all.subset(idx.test);
        Preprocessing prep;
        prep.fit(train);
        train.features = prep.apply(train.features);
        test.features = prep.apply(test.features);
        NetworkSpec spec;
        spec.input = Shape::flat(int(train.features.cols()));
        spec.layers = parseLayers("dense:32:relu,dense:16:relu");
        spec.setOutputFor(Task::Binary, 1);
        SplitOptions options;
        options.strategy = Strategy::BinaryShards;
        options.requested = 2;
        options.epochs = 40;
        const SplitPlan plan = makePlan(spec, train, options);
        TrainConfig config;
        config.batchSize = 16;
        config.loss = LossKind::BinaryCrossEntropy;
        ParallelResult result = ParallelTrainer(plan, config).train(train);
        QCOMPARE(result.status, TrainStatus::Completed);
        const double accuracy = result.model.evaluate(test).metric;
        qInfo("binary shards N=2 on breast cancer: combined test accuracy %.4f", accuracy);
        QVERIFY2(accuracy >= 0.93, std::to_string(accuracy).c_str());
    }
};

QTEST_APPLESS_MAIN(TestEndToEnd)
#include "tst_end_to_end.moc"
