// Reconstruction (autoencoders): the target is the scaled input. The data loads without labels,
// the default loss follows the scaled inputs' range, binary cross-entropy over many sigmoid outputs
// is gradient-checked, an autoencoder learns, and the output split divides the output columns.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "data/data_source.h"
#include "data/prepared_data.h"
#include "losses/task_losses.h"
#include "matrix_support.h"
#include "model/gradient_check.h"
#include "model/saved_model.h"
#include "reconstruction_support.h"
#include "run/runner.h"
#include "split/combined_model_file.h"
#include "split/model_predictions.h"
#include "test_support.h"
#include "train/metrics.h"

using namespace skynnet;

namespace {

Matrix filled(Index rows, Index cols, Scalar lo, Scalar hi) { return randomMatrix(rows, cols, 7, lo, hi); }

// The per-column mean of the training rows, predicted for every test row: what an autoencoder
// must beat by far.
double meanPredictorMse(const Dataset& train, const Dataset& test) {
    const RowVector mean = train.features.colwise().mean();
    return (test.features.rowwise() - mean).array().square().cast<double>().mean();
}

RunRequest barsRequest(const QString& idx, int epochs) {
    RunRequest r;
    RunData d;
    d.train.path = idx.toStdString();
    d.train.task = Task::Reconstruction;
    d.preparation.scaling = Scaling::PixelRange;
    d.preparation.validationFraction = 0.1;
    d.preparation.testFraction = 0.2;
    r.data = d;
    r.network.layers = parseLayers("dense:24:relu");
    r.config.epochs = epochs;
    r.config.batchSize = 32;
    r.config.optimizer.learningRate = 0.01;
    r.config.loss = LossKind::BinaryCrossEntropy;
    r.threads = 2;
    return r;
}

}  // namespace

class TestReconstruction : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }
    QString bars_;  // 1000 bar images without a labels file

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        bars_ = path("bars-images-idx3-ubyte");
        QVERIFY(writeBarIdx(barImages(1000, 1), bars_));
    }

    void taskNameRoundTrips() {
        QCOMPARE(taskName(Task::Reconstruction), std::string("reconstruction"));
        QVERIFY(parseTask("reconstruction") == Task::Reconstruction);
        QVERIFY(predictsValues(Task::Reconstruction) && predictsValues(Task::Regression));
        QVERIFY(!predictsValues(Task::Classification) && !predictsValues(Task::Binary));
    }

    // Mean over every output of every sample, as a hand computation in double says.
    void binaryCrossEntropyOverManyOutputs() {
        const Matrix p = filled(5, 7, 0.05f, 0.95f);
        const Matrix y = randomMatrix(5, 7, 9, 0, 1);
        double sum = 0;
        for (Index i = 0; i < p.size(); ++i) {
            const double q = p.data()[i], t = y.data()[i];
            sum -= t * std::log(q) + (1 - t) * std::log(1 - q);
        }
        const BinaryCrossEntropy bce;
        QVERIFY(std::abs(bce.value(p, y) - sum / 35.0) < 1e-6);
        // Saturated sigmoids give a large finite loss, never inf or NaN.
        Matrix saturated(1, 2);
        saturated << 1.0f, 0.0f;
        Matrix wrong(1, 2);
        wrong << 0.0f, 1.0f;
        QVERIFY(std::isfinite(bce.value(saturated, wrong)) && bce.value(saturated, wrong) > 10);
    }

    void binaryCrossEntropyGradientsCheck() {
        const BinaryCrossEntropy bce;
        const Matrix y = randomMatrix(4, 6, 11, 0, 1);  // soft targets, as scaled pixels are
        const GradientCheckResult plain = checkLoss(bce, filled(4, 6, 0.1f, 0.9f), y);
        QVERIFY2(plain.passed(), plain.worst.c_str());
        const GradientCheckResult fused = checkFusedLoss(bce, randomMatrix(4, 6, 12, -4, 4), y);
        QVERIFY2(fused.passed(), fused.worst.c_str());
        // A whole autoencoder, sigmoid outputs fused with the loss as the Trainer computes them.
        NetworkSpec spec;
        spec.input = Shape::flat(6);
        spec.layers = parseLayers("dense:3:tanh");
        spec.outputActivation = outputActivationFor(Task::Reconstruction, LossKind::BinaryCrossEntropy);
        spec.setOutputFor(Task::Reconstruction, 6);
        QVERIFY(spec.outputActivation == Activation::Sigmoid);
        Network net(spec, 3);
        const GradientCheckResult whole = checkNetwork(net, bce, y, y);
        QVERIFY2(whole.passed(), whole.worst.c_str());
    }

    // BCE exactly when every scaled training input is in [0, 1] (0 and 1 included), else MSE.
    void defaultLossRule() {
        Matrix m = filled(3, 4, 0, 1);
        m(0, 0) = 0;
        m(2, 3) = 1;
        QVERIFY(defaultLossFor(Task::Reconstruction, m) == LossKind::BinaryCrossEntropy);
        m(1, 1) = 1.0001f;
        QVERIFY(defaultLossFor(Task::Reconstruction, m) == LossKind::MeanSquaredError);
        m(1, 1) = -1e-6f;
        QVERIFY(defaultLossFor(Task::Reconstruction, m) == LossKind::MeanSquaredError);
        QVERIFY(defaultLossFor(Task::Regression, m) == LossKind::MeanSquaredError);
        QVERIFY(defaultLossFor(Task::Classification, m) == LossKind::SoftmaxCrossEntropy);
        QVERIFY(outputActivationFor(Task::Reconstruction, LossKind::MeanSquaredError) == Activation::None);
        QVERIFY(lossesForTask(Task::Reconstruction) ==
                (std::vector<LossKind>{LossKind::BinaryCrossEntropy, LossKind::MeanSquaredError}));
        for (LossKind refused : {LossKind::SoftmaxCrossEntropy, LossKind::MeanAbsoluteError})
            QCOMPARE(errorText([&] { checkLossFitsTask(refused, Task::Reconstruction); }),
                     QString::fromStdString("the loss " + lossName(refused) +
                                            " does not fit the reconstruction task (use binary_cross_entropy or mse)"));
        QCOMPARE(errorText([&] { checkLossFitsData(LossKind::BinaryCrossEntropy, Task::Reconstruction, m); }),
                 QString("the loss binary_cross_entropy reconstructs targets in [0, 1], but the scaled training "
                         "inputs hold values from -1e-06 to 1 (scale them to [0, 1] with minmax or pixel-range "
                         "scaling, or use the mse loss)"));
        // The rule on real preparation: pixel-range puts images in [0, 1], standardisation does not.
        DataRequest request;
        request.path = bars_.toStdString();
        request.task = Task::Reconstruction;
        const Dataset all = loadTrainingData(request);
        PreparationSettings pixels;
        pixels.scaling = Scaling::PixelRange;
        QVERIFY(defaultLossFor(Task::Reconstruction, prepareData(all, nullptr, pixels).train.features) ==
                LossKind::BinaryCrossEntropy);
        PreparationSettings standard;
        standard.scaling = Scaling::Standardize;
        QVERIFY(defaultLossFor(Task::Reconstruction, prepareData(all, nullptr, standard).train.features) ==
                LossKind::MeanSquaredError);
    }

    // The targets of every part are its scaled features; labels beside the images are ignored.
    void dataHasNoLabelsAndTargetsAreTheScaledInputs() {
        DataRequest request;
        request.path = bars_.toStdString();
        request.task = Task::Reconstruction;
        const Dataset all = loadTrainingData(request);
        QVERIFY(all.task == Task::Reconstruction);
        QCOMPARE(all.size(), Index(1000));
        QVERIFY(all.labels.empty() && all.classNames.empty());
        QCOMPARE(all.outputCount(), 64);
        QCOMPARE(all.targetNames.size(), std::size_t(64));
        QCOMPARE(all.targetNames.front(), std::string("pixel_0_0"));
        PreparationSettings s;
        s.scaling = Scaling::PixelRange;
        const PreparedData p = prepareData(all, nullptr, s);
        for (const Dataset* part : {&p.train, &p.validation, &p.test}) {
            QVERIFY(part->size() > 0);
            QVERIFY(part->targetMatrix() == part->features);
            QVERIFY(part->features.maxCoeff() <= 1 && part->features.minCoeff() >= 0);
        }
        // A labelled IDX file loads the same images, its labels left out.
        const QString labelled = path("lab-images-idx3-ubyte");
        QVERIFY(writeBarIdx(barImages(50, 2), labelled, path("lab-labels-idx1-ubyte")));
        request.path = labelled.toStdString();
        const Dataset withLabels = loadTrainingData(request);
        QVERIFY(withLabels.labels.empty() && withLabels.task == Task::Reconstruction);
        request.task = Task::Classification;
        QCOMPARE(loadTrainingData(request).labels.size(), std::size_t(50));
        // Loaded like a reconstruction model: features only, whether or not labels are asked for.
        DataRequest like;
        like.path = labelled.toStdString();
        const Dataset test = loadLike(like, all.schema(), true);
        QVERIFY(test.task == Task::Reconstruction && test.labels.empty());
        QCOMPARE(test.features.cols(), Index(64));
    }

    // Every column of a CSV is an input, except a --target column (a label, left out); text columns
    // are refused with the column named.
    void csvColumnsAreInputs() {
        {
            std::ofstream f(path("plain.csv").toStdString());
            f << "a,b,c\n1,2,3\n4,5,6\n7,8,9\n10,11,12\n13,14,15\n";
        }
        DataRequest request;
        request.path = path("plain.csv").toStdString();
        request.task = Task::Reconstruction;
        const Dataset plain = loadTrainingData(request);
        QCOMPARE(plain.featureNames, (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(plain.features.cols(), Index(3));
        QCOMPARE(plain.features(4, 2), Scalar(15));
        QCOMPARE(plain.targetNames, plain.featureNames);
        {
            std::ofstream f(path("labelled.csv").toStdString());
            f << "a,kind,b\n1,x,2\n3,y,4\n5,x,6\n7,y,8\n";
        }
        request.path = path("labelled.csv").toStdString();
        VERIFY_CONTAINS(errorOf([&] { loadTrainingData(request); }), "column 'kind' holds text");
        {
            std::ofstream f(path("last.csv").toStdString());
            f << "a,b,kind\n1,2,x\n3,4,y\n5,6,x\n";
        }
        request.path = path("last.csv").toStdString();
        QCOMPARE(errorOf([&] { loadTrainingData(request); }),
                 request.path + ": column 'kind' holds text, which reconstruction cannot reconstruct (it needs "
                                "numeric columns; name a label column with --target to leave it out)");
        request.path = path("labelled.csv").toStdString();
        request.target = "kind";
        const Dataset labelled = loadTrainingData(request);
        QCOMPARE(labelled.featureNames, (std::vector<std::string>{"a", "b"}));
        QVERIFY(labelled.labels.empty());
        QCOMPARE(labelled.features(3, 1), Scalar(8));
    }

    // An autoencoder 64-24-64 on the bars: its test MSE is far below the per-column mean's.
    void autoencoderLearns() {
        RunObserver observer;
        const RunOutcome out = performRun(barsRequest(bars_, 30), observer, CancelToken());
        QVERIFY2(out.status == TrainStatus::Completed, out.message.c_str());
        QVERIFY(out.spec.outputActivation == Activation::Sigmoid);
        QCOMPARE(out.spec.outputs, 64);
        const Dataset& test = out.data->test;
        const RegressionMetrics m = valueMetrics(Task::Reconstruction, out.networkEvaluation->output, test.features);
        const double mean = meanPredictorMse(out.data->train, test);
        qInfo("test MSE %.5f, mean predictor %.5f, R2 %.4f", m.mse, mean, m.r2);
        // Seen: MSE 0.0011 against the mean's 0.12, R² 0.99.
        QVERIFY2(m.mse < 0.01 && m.mse < 0.1 * mean, qPrintable(QString("mse %1 vs mean %2").arg(m.mse).arg(mean)));
        QVERIFY(m.r2 > 0.9);
        QCOMPARE(out.networkEvaluation->metric, m.r2);  // the headline metric is this R²
        // MSE trains a linear output.
        RunRequest linear = barsRequest(bars_, 2);
        linear.config.loss = LossKind::MeanSquaredError;
        const RunOutcome lin = performRun(linear, observer, CancelToken());
        QVERIFY2(lin.status == TrainStatus::Completed, lin.message.c_str());
        QVERIFY(lin.spec.outputActivation == Activation::None);
        // BCE on standardised inputs (outside [0, 1]) is refused before training.
        RunRequest standard = barsRequest(bars_, 1);
        standard.data->preparation.scaling = Scaling::Standardize;
        const RunOutcome refused = performRun(standard, observer, CancelToken());
        QVERIFY(refused.status == TrainStatus::Failed);
        VERIFY_CONTAINS(refused.message, "binary_cross_entropy reconstructs targets in [0, 1]");
    }

    // R² pooled over every output: constant columns do not count against the model.
    void pooledR2() {
        Matrix target(4, 2), output(4, 2);
        target << 0, 1, 0, 2, 0, 3, 0, 4;  // column 0 never varies
        output << 0.5, 1, 0.5, 2, 0.5, 3, 0.5, 5;
        const RegressionMetrics m = reconstructionMetrics(output, target);
        QVERIFY(std::abs(m.r2 - (1.0 - (4 * 0.25 + 1.0) / 5.0)) < 1e-12);
        QVERIFY(std::abs(m.mse - 2.0 / 8.0) < 1e-12);
        QVERIFY(regressionMetrics(output, target).r2 < m.r2);  // the per-column mean counts column 0 as 0
    }

    // Output split N=2..4: the submodels own every column once, in order, and the combined model's
    // outputs are theirs side by side, bit for bit.
    void outputSplitCoversEveryColumn_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("loss");
        for (int n = 2; n <= 4; ++n) {
            QTest::addRow("N=%d bce", n) << n << int(LossKind::BinaryCrossEntropy);
            QTest::addRow("N=%d mse", n) << n << int(LossKind::MeanSquaredError);
        }
    }
    void outputSplitCoversEveryColumn() {
        QFETCH(int, n);
        QFETCH(int, loss);
        RunRequest r = barsRequest(bars_, 2);
        r.config.loss = LossKind(loss);
        SplitOptions split;
        split.strategy = Strategy::OutputSplit;
        split.requested = n;
        r.split = split;
        RunObserver observer;
        const RunOutcome out = performRun(r, observer, CancelToken());
        QVERIFY2(out.status == TrainStatus::Completed, out.message.c_str());
        const SplitPlan& plan = *out.plan;
        QCOMPARE(plan.submodelCount(), n);
        QCOMPARE(plan.outputs, 64);
        std::vector<int> owners(64, 0);
        int next = 0;
        const Activation expected = outputActivationFor(Task::Reconstruction, LossKind(loss));
        for (const SubmodelPlan& s : plan.submodels) {
            QCOMPARE(s.columnBegin, next);
            for (int c = s.columnBegin; c < s.columnEnd; ++c) ++owners[std::size_t(c)];
            next = s.columnEnd;
            QCOMPARE(s.spec.outputs, s.columnEnd - s.columnBegin);
            QVERIFY(s.spec.outputActivation == expected);
            QCOMPARE(s.spec.input.size(), Index(64));  // the whole input
        }
        QVERIFY(std::all_of(owners.begin(), owners.end(), [](int k) { return k == 1; }));
        CombinedModel model = out.split->model;
        QVERIFY(model.loss() == LossKind(loss));
        const Matrix& x = out.data->test.features;
        const Matrix combined = model.predict(x);
        QCOMPARE(combined.cols(), Index(64));
        for (int i = 0; i < n; ++i) {
            const SubmodelPlan& s = plan.submodels[std::size_t(i)];
            const Matrix own = model.submodel(i).predict(x);
            QVERIFY(combined.middleCols(s.columnBegin, s.columnEnd - s.columnBegin) == own);
        }
        QVERIFY(out.combined && std::isfinite(out.combined->metric));
    }

    // Class groups have no classes to group here; data shards (and the ensemble) average.
    void otherStrategies() {
        PreparedData p;
        {
            DataRequest request;
            request.path = bars_.toStdString();
            request.task = Task::Reconstruction;
            PreparationSettings s;
            s.scaling = Scaling::PixelRange;
            p = prepareData(loadTrainingData(request), nullptr, s);
        }
        NetworkSpec spec;
        spec.input = networkInputShape(p);
        spec.layers = parseLayers("dense:24:relu");
        spec.outputActivation = Activation::Sigmoid;
        spec.setOutputFor(Task::Reconstruction, 64);
        SplitOptions o;
        o.requested = 3;
        o.strategy = Strategy::ClassGroups;
        QCOMPARE(errorText([&] { makePlan(spec, p.train, o); }),
                 QString("the class-groups strategy needs a multiclass classification task, this dataset's task is "
                         "reconstruction (use output-split or data-shards)"));
        o.strategy = Strategy::BinaryShards;
        VERIFY_CONTAINS(errorOf([&] { makePlan(spec, p.train, o); }), "needs a binary task");
        o.strategy = Strategy::DataShards;
        const SplitPlan shards = makePlan(spec, p.train, o);
        QVERIFY(shards.rule().strategy == Strategy::DataShards);
        for (const SubmodelPlan& s : shards.submodels) QCOMPARE(s.spec.outputs, 64);
        o.strategy = Strategy::Auto;
        QVERIFY(makePlan(spec, p.train, o).strategy == Strategy::OutputSplit);
    }

    // A saved reconstruction network reloads with its names and loss, and predicts in pixel units.
    void savedModelPredictsReconstructions() {
        RunRequest r = barsRequest(bars_, 3);
        RunObserver observer;
        const RunOutcome out = performRun(r, observer, CancelToken());
        QVERIFY2(out.status == TrainStatus::Completed, out.message.c_str());
        SavedModel m;
        m.schema = out.data->schema;
        m.spec = out.network->spec();
        m.weights = out.network->flatWeights();
        m.preprocessing = out.data->preprocessing;
        const std::string file = path("ae.skynnet").toStdString();
        saveModel(file, m);
        const SavedCombinedModel saved = loadAnyModel(file);
        QVERIFY(saved.task() == Task::Reconstruction);
        QVERIFY(saved.loss == LossKind::BinaryCrossEntropy);
        QCOMPARE(saved.schema.targetNames.size(), std::size_t(64));
        CombinedModel model = buildCombinedModel(saved);
        DataRequest request;
        request.path = bars_.toStdString();
        const ModelPredictions predictions = predictData(model, saved, request);
        QCOMPARE(predictions.outputs.rows(), Index(1000));
        const std::string csv = predictionsCsv(saved, predictions);
        QVERIFY(csv.rfind("pixel_0_0,pixel_0_1,", 0) == 0);
        // In pixel units: the pixel range's scaling undone, so every value is within the raw range.
        const Preprocessing& scaling = saved.preprocessing;
        const Scalar low = scaling.offset[0], high = scaling.offset[0] + Scalar(1) / scaling.scale[0];
        QVERIFY(low >= 0 && high <= 255 && high > 200);
        const Scalar first = predictions.outputs(0, 0) / scaling.scale[0] + scaling.offset[0];
        QVERIFY(first >= low && first <= high);
        char expected[32];
        std::snprintf(expected, sizeof expected, "%.6g,", double(first));
        const std::string firstRow = csv.substr(csv.find('\n') + 1);
        QVERIFY2(firstRow.rfind(expected, 0) == 0, (firstRow.substr(0, 40) + " <- " + expected).c_str());
        // The same model as a single network's combined view with MSE: a linear output says mse.
        m.spec.outputActivation = Activation::None;
        QVERIFY(asCombined(m).loss == LossKind::MeanSquaredError);
    }
};

QTEST_GUILESS_MAIN(TestReconstruction)
#include "tst_reconstruction.moc"
