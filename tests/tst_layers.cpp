// Layers and losses: exact values on small worked examples, and the numeric gradient check for
// every layer kind, every loss, both fused output paths and whole networks.
#include <QtTest>

#include <algorithm>

#include "layers/activation.h"
#include "layers/dense.h"
#include "layers/dropout.h"
#include "layers/flatten.h"
#include "core/error.h"
#include "losses/loss.h"
#include "losses/task_losses.h"
#include "model/gradient_check.h"
#include "model/network.h"
#include "test_support.h"

using namespace skynnet;

namespace {

Matrix randomMatrix(Index rows, Index cols, std::uint64_t seed, float lo = -1, float hi = 1) {
    Rng rng(seed);
    Matrix m(rows, cols);
    for (Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(lo, hi);
    return m;
}

// Inputs kept away from 0 so a finite difference never straddles the kink of (leaky) ReLU.
Matrix awayFromZero(Index rows, Index cols, std::uint64_t seed) {
    Matrix m = randomMatrix(rows, cols, seed);
    for (Index i = 0; i < m.size(); ++i) m.data()[i] += m.data()[i] >= 0 ? 0.1f : -0.1f;
    return m;
}

Matrix oneHot(const std::vector<int>& labels, int classes) {
    Matrix y = Matrix::Zero(Index(labels.size()), classes);
    for (std::size_t i = 0; i < labels.size(); ++i) y(Index(i), labels[i]) = 1;
    return y;
}

void expectPassed(const GradientCheckResult& r) {
    QVERIFY2(r.checked > 0, "nothing was checked");
    QVERIFY2(r.passed(), (r.worst + " ratio " + std::to_string(r.worstRatio)).c_str());
}

}  // namespace

class TestLayers : public QObject {
    Q_OBJECT
private slots:
    void denseForwardWorkedExample() {
        Rng rng(1);
        Dense d(2, Init::Glorot);
        d.build(Shape::flat(3), rng);
        d.weights() << 1, 2, 3, 4, 5, 6;  // (3 inputs x 2 units)
        d.bias() << 0.5f, -1;
        Matrix x(2, 3);
        x << 1, 0, -1, 2, 1, 0;
        const Matrix& y = d.forward(x, false);
        QCOMPARE(y(0, 0), 1 - 5 + 0.5f);
        QCOMPARE(y(0, 1), 2 - 6 - 1.0f);
        QCOMPARE(y(1, 0), 2 + 3 + 0.5f);
        QCOMPARE(y(1, 1), 4 + 4 - 1.0f);
        QCOMPARE(d.paramCount(), std::int64_t(8));
        QCOMPARE(d.flopsPerSample(), std::int64_t(12));
    }

    void initialisationIsSeededAndScaled() {
        Rng a(5), b(5), c(6);
        Dense d1(256, Init::He), d2(256, Init::He), d3(256, Init::He);
        d1.build(Shape::flat(512), a);
        d2.build(Shape::flat(512), b);
        d3.build(Shape::flat(512), c);
        QVERIFY(d1.weights() == d2.weights());
        QVERIFY(d1.weights() != d3.weights());
        // He: variance 2 / fan_in.
        const double var = d1.weights().cast<double>().array().square().mean();
        QVERIFY(std::abs(var - 2.0 / 512) < 0.05 * 2.0 / 512);
        Rng g(5);
        Dense glorot(100, Init::Glorot);
        glorot.build(Shape::flat(300), g);
        const float limit = std::sqrt(6.0f / 400);
        QVERIFY(glorot.weights().maxCoeff() <= limit && glorot.weights().minCoeff() >= -limit);
        QVERIFY(glorot.weights().maxCoeff() > 0.9f * limit);
    }

    void activationsWorkedExample() {
        Matrix x(1, 4);
        x << -2, -0.5f, 0.5f, 3;
        ReLU relu;
        QVERIFY(relu.forward(x, false) == (Matrix(1, 4) << 0, 0, 0.5f, 3).finished());
        LeakyReLU leaky(0.1f);
        QVERIFY(leaky.forward(x, false).isApprox((Matrix(1, 4) << -0.2f, -0.05f, 0.5f, 3).finished()));
        Sigmoid sig;
        QCOMPARE(sig.forward(x, false)(0, 3), 1.0f / (1.0f + std::exp(-3.0f)));
        Tanh tanh;
        QCOMPARE(tanh.forward(x, false)(0, 0), std::tanh(-2.0f));
        Softmax softmax;
        Matrix big(2, 3);
        big << 1000, 1001, 1002, 0, 0, 0;  // stable for huge logits
        const Matrix& p = softmax.forward(big, false);
        QVERIFY(std::abs(p.row(0).sum() - 1) < 1e-6f);
        QVERIFY(std::abs(p(0, 2) - 0.66524096f) < 1e-6f);
        QVERIFY(std::abs(p(1, 1) - 1.0f / 3) < 1e-6f);
    }

    void gradientCheckEveryLayer_data() {
        QTest::addColumn<QString>("kind");
        for (const char* k : {"dense", "relu", "leaky_relu", "sigmoid", "tanh", "softmax", "dropout", "flatten"})
            QTest::newRow(k) << QString(k);
    }
    void gradientCheckEveryLayer() {
        QFETCH(QString, kind);
        std::unique_ptr<Layer> layer;
        const std::string k = kind.toStdString();
        if (k == "dense") layer = std::make_unique<Dense>(5, Init::Glorot);
        else if (k == "dropout") layer = std::make_unique<Dropout>(0.3f);
        else if (k == "flatten") layer = std::make_unique<Flatten>();
        else layer = makeActivation(parseActivation(k));
        Rng rng(3);
        layer->build(Shape{2, 2, 2}, rng);
        const bool training = true;
        if (auto* d = dynamic_cast<Dropout*>(layer.get())) d->freezeMask(true);
        expectPassed(checkLayer(*layer, awayFromZero(4, 8, 11), training, 17));
    }

    void dropoutMasksFollowTheRowsNotTheCaller() {
        Dropout whole(0.5f);
        Rng rng(6);
        whole.build(Shape::flat(64), rng);
        Dropout slices = whole;  // a replica, as the batch split makes them
        const Matrix x = Matrix::Ones(8, 64);
        whole.setBatchOrigin(5, 0);
        const Matrix all = whole.forward(x, true);
        slices.setBatchOrigin(5, 0);
        const Matrix top = slices.forward(x.topRows(4), true);
        slices.setBatchOrigin(5, 4);
        const Matrix bottom = slices.forward(x.bottomRows(4), true);
        QVERIFY(top == all.topRows(4));
        QVERIFY(bottom == all.bottomRows(4));
        QVERIFY(top != bottom);  // equal-size slices get their own rows' masks
        whole.setBatchOrigin(6, 0);
        QVERIFY(whole.forward(x, true) != all);  // and every step new ones
        const Matrix next = whole.forward(x, true);  // without an origin: the step after
        QVERIFY(next != whole.forward(x, true));
    }

    void dropoutScalesAndIsIdentityAtInference() {
        Dropout d(0.5f);
        Rng rng(2);
        d.build(Shape::flat(1000), rng);
        const Matrix x = Matrix::Ones(4, 1000);
        QVERIFY(d.forward(x, false) == x);
        const Matrix& y = d.forward(x, true);
        const long zeros = (y.array() == 0).count();
        QVERIFY(zeros > 1800 && zeros < 2200);
        QVERIFY(((y.array() == 0) || (y.array() == 2)).all());
    }

    void lossesWorkedExample() {
        Matrix p(2, 3), y(2, 3);
        p << 0.7f, 0.2f, 0.1f, 0.1f, 0.1f, 0.8f;
        y << 1, 0, 0, 0, 1, 0;
        QVERIFY(std::abs(SoftmaxCrossEntropy().value(p, y) - (-(std::log(0.7) + std::log(0.1)) / 2)) < 1e-6);
        Matrix q(2, 1), t(2, 1);
        q << 0.9f, 0.2f;
        t << 1, 0;
        QVERIFY(std::abs(BinaryCrossEntropy().value(q, t) - (-(std::log(0.9) + std::log(0.8)) / 2)) < 1e-6);
        Matrix a(1, 2), b(1, 2);
        a << 1, 4;
        b << 3, 3;
        QCOMPARE(MeanSquaredError().value(a, b), 2.5);
        QCOMPARE(MeanAbsoluteError().value(a, b), 1.5);
        // A confident wrong answer gives a large, finite loss.
        Matrix zero(1, 2), hot(1, 2);
        zero << 0, 1;
        hot << 1, 0;
        QVERIFY(std::isfinite(SoftmaxCrossEntropy().value(zero, hot)));
    }

    // Every (loss, task) pair: cross-entropy for classification, binary cross-entropy for
    // binary, MSE or MAE for regression; anything else refused naming the loss, the task and
    // what would fit.
    void lossesFitTheirTasks_data() {
        QTest::addColumn<int>("loss");
        QTest::addColumn<int>("task");
        QTest::addColumn<QString>("error");  // empty: fits
        const QString useCe = "(use cross_entropy)", useBce = "(use binary_cross_entropy)", useReg = "(use mse or mae)";
        const struct {
            LossKind loss;
            Task task;
            QString use;  // empty: fits
        } pairs[] = {
            {LossKind::SoftmaxCrossEntropy, Task::Classification, {}}, {LossKind::SoftmaxCrossEntropy, Task::Binary, useBce},
            {LossKind::SoftmaxCrossEntropy, Task::Regression, useReg}, {LossKind::BinaryCrossEntropy, Task::Classification, useCe},
            {LossKind::BinaryCrossEntropy, Task::Binary, {}},          {LossKind::BinaryCrossEntropy, Task::Regression, useReg},
            {LossKind::MeanSquaredError, Task::Classification, useCe}, {LossKind::MeanSquaredError, Task::Binary, useBce},
            {LossKind::MeanSquaredError, Task::Regression, {}},        {LossKind::MeanAbsoluteError, Task::Classification, useCe},
            {LossKind::MeanAbsoluteError, Task::Binary, useBce},       {LossKind::MeanAbsoluteError, Task::Regression, {}},
        };
        for (const auto& p : pairs) {
            const QString loss = QString::fromStdString(lossName(p.loss)), task = QString::fromStdString(taskName(p.task));
            QTest::newRow(qPrintable(loss + "/" + task))
                << int(p.loss) << int(p.task)
                << (p.use.isEmpty() ? QString() : "the loss " + loss + " does not fit the " + task + " task " + p.use);
        }
    }
    void lossesFitTheirTasks() {
        QFETCH(int, loss);
        QFETCH(int, task);
        QFETCH(QString, error);
        QCOMPARE(lossFitsTask(LossKind(loss), Task(task)), error.isEmpty());
        const std::string thrown = errorOf([&] { checkLossFitsTask(LossKind(loss), Task(task)); });
        QCOMPARE(QString::fromStdString(thrown), error.isEmpty() ? QString("(no error)") : error);
        const std::vector<LossKind> fitting = lossesForTask(Task(task));
        QCOMPARE(std::find(fitting.begin(), fitting.end(), LossKind(loss)) != fitting.end(), error.isEmpty());
    }

    void gradientCheckEveryLoss() {
        const Matrix probs = [] {
            Matrix logits = randomMatrix(6, 4, 21), p;
            softmaxRows(logits, p);
            return p;
        }();
        const Matrix labels = oneHot({0, 3, 1, 2, 2, 0}, 4);
        expectPassed(checkLoss(SoftmaxCrossEntropy(), probs, labels));
        const Matrix sig = randomMatrix(6, 2, 22, 0.1f, 0.9f);
        const Matrix bits = (randomMatrix(6, 2, 23).array() > 0).cast<Scalar>();
        expectPassed(checkLoss(BinaryCrossEntropy(), sig, bits));
        const Matrix out = randomMatrix(6, 3, 24), target = randomMatrix(6, 3, 25);
        expectPassed(checkLoss(MeanSquaredError(), out, target));
        expectPassed(checkLoss(MeanAbsoluteError(), out, target));
        expectPassed(checkFusedLoss(SoftmaxCrossEntropy(), randomMatrix(6, 4, 26, -3, 3), labels));
        expectPassed(checkFusedLoss(BinaryCrossEntropy(), randomMatrix(6, 2, 27, -3, 3), bits));
    }

    void gradientCheckWholeNetworks_data() {
        QTest::addColumn<int>("task");
        QTest::addColumn<QString>("layers");
        QTest::addColumn<int>("loss");
        QTest::newRow("softmax-ce tanh") << int(Task::Classification) << "dense:6:tanh,dense:5:sigmoid" << int(LossKind::SoftmaxCrossEntropy);
        QTest::newRow("softmax-ce leaky+dropout") << int(Task::Classification) << "dense:6:leaky_relu,dropout:0.2,dense:5:tanh" << int(LossKind::SoftmaxCrossEntropy);
        QTest::newRow("sigmoid-bce") << int(Task::Binary) << "dense:7:tanh" << int(LossKind::BinaryCrossEntropy);
        QTest::newRow("linear-mse") << int(Task::Regression) << "dense:6:sigmoid,dense:4:tanh" << int(LossKind::MeanSquaredError);
        QTest::newRow("linear-mae") << int(Task::Regression) << "dense:6:tanh" << int(LossKind::MeanAbsoluteError);
    }
    void gradientCheckWholeNetworks() {
        QFETCH(int, task);
        QFETCH(QString, layers);
        QFETCH(int, loss);
        NetworkSpec spec;
        spec.input = Shape::flat(5);
        spec.layers = parseLayers(layers.toStdString());
        spec.setOutputFor(Task(task), Task(task) == Task::Binary ? 1 : 3);
        Network net(spec, 9);
        for (auto& l : net.layers())
            if (auto* d = dynamic_cast<Dropout*>(l.get())) d->freezeMask(true);
        const Matrix x = randomMatrix(5, 5, 31);
        Matrix y;
        if (Task(task) == Task::Classification) y = oneHot({0, 1, 2, 1, 0}, 3);
        else if (Task(task) == Task::Binary) y = (Matrix(5, 1) << 1, 0, 0, 1, 1).finished();
        else y = randomMatrix(5, 3, 32);
        expectPassed(checkNetwork(net, *makeLoss(LossKind(loss)), x, y));
    }

    void gradientCheckCatchesAWrongGradient() {
        // The checker itself must fail on a broken layer: a ReLU whose backward passes everything.
        struct BrokenRelu final : public ActivationLayer {
            std::string kind() const override { return "broken"; }
            const Matrix& forward(const Matrix& x, bool) override {
                y_ = x.cwiseMax(0);
                return y_;
            }
            std::unique_ptr<Layer> clone() const override { return std::make_unique<BrokenRelu>(*this); }
            void inputGradient(const Matrix& g) override { gradInput_ = g; }
        } broken;
        QVERIFY(!checkLayer(broken, awayFromZero(4, 6, 41), true, 5).passed());
    }

    void specParsingAndFigures() {
        NetworkSpec spec;
        spec.input = Shape{1, 28, 28};
        spec.layers = parseLayers("dense:512:relu, dense:256:relu");
        spec.setOutputFor(Task::Classification, 10);
        QCOMPARE(paramCount(spec), std::int64_t(784 * 512 + 512 + 512 * 256 + 256 + 256 * 10 + 10));
        QCOMPARE(flopsPerSample(spec), std::int64_t(2 * (784 * 512 + 512 * 256 + 256 * 10)));
        QCOMPARE(spec.widthsSummary(), std::string("784-512-256-10"));
        Network net(spec, 1);
        QCOMPARE(net.paramCount(), paramCount(spec));
        QCOMPARE(formatLayers(spec.layers), std::string("dense:512:relu,dense:256:relu"));
        for (const char* bad : {"dense:0:relu", "dense:abc", "conv:3", "dropout:1.5", "dense:12:swish", ""}) {
            bool threw = false;
            try {
                parseLayers(bad);
            } catch (const Error& e) {
                threw = true;
                if (std::string(bad).size() > 0) QVERIFY2(std::string(e.what()).find("layer 1") != std::string::npos, e.what());
            }
            QVERIFY2(threw, bad);
        }
    }

    void figuresOfEachKind() {
        // dense 784 -> 512: W is 784 x 512 plus 512 biases; one multiply and one add per weight.
        const LayerFigures dense = figures(DenseSpec{512, Activation::ReLU, true}, Shape{1, 28, 28});
        QCOMPARE(dense.description, std::string("dense 512 relu"));
        QCOMPARE(dense.output, Shape::flat(512));
        QCOMPARE(dense.params, std::int64_t(401920));
        QCOMPARE(dense.flopsPerSample, std::int64_t(802816));
        QCOMPARE(dense.bufferValuesPerSample, std::int64_t(4 * 512));  // its output and input gradient, its activation's two

        const LayerFigures dropout = figures(DropoutSpec{0.25f}, Shape{3, 4, 5});
        QCOMPARE(dropout.description, std::string("dropout 0.25"));
        QCOMPARE(dropout.output, (Shape{3, 4, 5}));  // keeps the shape it gets
        QCOMPARE(dropout.params, std::int64_t(0));
        QCOMPARE(dropout.flopsPerSample, std::int64_t(0));
        QCOMPARE(dropout.bufferValuesPerSample, std::int64_t(4 * 60));

        const LayerFigures flatten = figures(FlattenSpec{}, Shape{3, 4, 5});
        QCOMPARE(flatten.description, std::string("flatten"));
        QCOMPARE(flatten.output, Shape::flat(60));
        QCOMPARE(flatten.params, std::int64_t(0));
        QCOMPARE(flatten.flopsPerSample, std::int64_t(0));
        QCOMPARE(flatten.bufferValuesPerSample, std::int64_t(4 * 60));

        // The variant dispatches to the same figures.
        QCOMPARE(figures(LayerSpec(DenseSpec{512, Activation::ReLU, true}), Shape{1, 28, 28}).params, dense.params);
        QCOMPARE(figures(LayerSpec(FlattenSpec{}), Shape{3, 4, 5}).output, flatten.output);
        QCOMPARE(kindName(DropoutSpec{}), std::string("dropout"));
        QCOMPARE(layerKindList(), std::string("dense, dropout, flatten, conv, maxpool, avgpool, gap, bn or activation"));
        QVERIFY(std::holds_alternative<FlattenSpec>(layerOfKind("flatten")));
        QCOMPARE(errorText([] { layerOfKind("lstm"); }),
                 QString("unknown layer type 'lstm' (expected dense, dropout, flatten, conv, maxpool, avgpool, gap, bn or "
                         "activation)"));
    }

    void specFiguresAddUpPerLayer() {
        // 784 -> dense 512 relu -> dropout -> output 10 softmax, batch 32, Adam's two slots.
        NetworkSpec spec;
        spec.input = Shape{1, 28, 28};
        spec.layers = parseLayers("dense:512:relu,dropout:0.2");
        spec.setOutputFor(Task::Classification, 10);
        const auto f = describe(spec);
        QCOMPARE(f.size(), std::size_t(3));
        QCOMPARE(f[2].description, std::string("output 10 softmax"));
        QCOMPARE(f[2].params, std::int64_t(512 * 10 + 10));
        QCOMPARE(paramCount(spec), std::int64_t(401920 + 5130));
        QCOMPARE(paramCountUpTo(spec, 1000), std::int64_t(1001));
        QCOMPARE(flopsPerSample(spec), std::int64_t(802816 + 10240));
        // Weights, gradients and two slots per parameter; 4 values per output value and sample of
        // each layer; the input batch.
        const std::int64_t values = 407050 * 4 + 32 * 4 * (512 + 512 + 10) + 32 * 784;
        QCOMPARE(trainingMemoryBytes(spec, 32, 2), values * 4);
    }

    void networkMatchesItsSpecFigures_data() {
        QTest::addColumn<int>("channels");
        QTest::addColumn<QString>("layers");
        QTest::newRow("dense") << 1 << "dense:7:tanh,dense:3:linear";
        QTest::newRow("dropout on an image") << 2 << "dropout:0.5,dense:6";
        QTest::newRow("flatten an image") << 2 << "flatten,dense:4:sigmoid";
        QTest::newRow("every kind") << 3 << "dense:5:leaky_relu,dropout:0.1,flatten,dense:4,dropout:0.3";
    }
    void networkMatchesItsSpecFigures() {
        QFETCH(int, channels);
        QFETCH(QString, layers);
        NetworkSpec full;
        full.input = Shape{channels, 3, 2};
        full.layers = parseLayers(layers.toStdString());
        full.setOutputFor(Task::Classification, 3);
        // Every prefix of the hidden layers: the output layer then takes exactly the shape the last
        // of them has in describe(), whatever its kind.
        for (std::size_t k = 0; k <= full.layers.size(); ++k) {
            NetworkSpec spec = full;
            spec.layers.resize(k);
            Network net(spec, 5);
            QCOMPARE(net.paramCount(), paramCount(spec));
            QCOMPARE(std::int64_t(net.flatWeights().size()), paramCount(spec));
            const auto f = describe(spec);
            const Shape hiddenOut = k == 0 ? spec.input : f[k - 1].output;
            const Layer* outputDense = nullptr;
            for (const auto& l : net.layers())
                if (dynamic_cast<const Dense*>(l.get())) outputDense = l.get();
            QVERIFY(outputDense);
            QCOMPARE(outputDense->inputShape(), hiddenOut);
            QCOMPARE(net.layers().back()->outputShape(), f.back().output);
            std::int64_t flops = 0;
            for (const auto& l : net.layers()) flops += l->flopsPerSample();
            QCOMPARE(flops, flopsPerSample(spec));
        }
    }
};

QTEST_APPLESS_MAIN(TestLayers)
#include "tst_layers.moc"
