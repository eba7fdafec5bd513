// The recurrent layers' math (GRU, LSTM): forward values worked by hand, numeric gradient checks
// of the input and every parameter through time, and the same bits on any kernel thread count.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <memory>

#include "core/error.h"
#include "core/parallel.h"
#include "layers/gru.h"
#include "layers/lstm.h"
#include "matrix_support.h"
#include "model/gradient_check.h"
#include "test_support.h"

using namespace skynnet;

namespace {

Matrix row(std::initializer_list<Scalar> values) {
    Matrix m(1, Index(values.size()));
    Index i = 0;
    for (Scalar v : values) m(0, i++) = v;
    return m;
}

std::unique_ptr<RecurrentLayer> makeRecurrent(const QString& kind, int units, int steps, bool sequences) {
    if (kind == "gru") return std::make_unique<Gru>(units, steps, sequences);
    return std::make_unique<Lstm>(units, steps, sequences);
}

// Built, with every bias drawn too (a fresh layer's are 0 or 1, which would hide a bias mix-up).
std::unique_ptr<RecurrentLayer> builtRecurrent(const QString& kind, int units, int steps, int features, bool sequences,
                                               std::uint64_t seed) {
    auto layer = makeRecurrent(kind, units, steps, sequences);
    Rng rng(seed);
    layer->build(Shape::flat(steps * features), rng);
    layer->inputBias() = randomMatrix(1, layer->inputBias().cols(), seed + 1, -0.5f, 0.5f);
    layer->recurrentBias() = randomMatrix(1, layer->recurrentBias().cols(), seed + 2, -0.5f, 0.5f);
    return layer;
}

const float ln3 = std::log(3.0f);  // sigmoid(ln 3) = 3/4, sigmoid(-ln 3) = 1/4

}  // namespace

class TestRecurrent : public QObject {
    Q_OBJECT

private slots:
    void shapesFollowTheReturnMode() {
        Rng rng(1);
        Gru all(5, 4, true);
        all.build(Shape::flat(12), rng);
        QCOMPARE(all.features(), Index(3));
        QCOMPARE(all.outputShape().size(), Index(20));
        QCOMPARE(all.inputWeights().rows(), Index(3));
        QCOMPARE(all.inputWeights().cols(), Index(15));
        QCOMPARE(all.recurrentWeights().rows(), Index(5));
        QCOMPARE(all.paramCount(), std::int64_t(3 * 15 + 5 * 15 + 2 * 15));
        Lstm last(5, 4, false);
        last.build(Shape::flat(12), rng);
        QCOMPARE(last.outputShape().size(), Index(5));
        QCOMPARE(last.inputWeights().cols(), Index(20));
        // The forget gate's input bias starts at 1, the other gates' at 0.
        expectNear(last.inputBias(), row({0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), 0);
        QCOMPARE(last.forward(randomMatrix(7, 12, 2), false).rows(), Index(7));
        QCOMPARE(last.forward(randomMatrix(7, 12, 2), false).cols(), Index(5));
    }

    void inputsThatDoNotSplitIntoStepsAreRefused() {
        Rng rng(1);
        Gru gru(2, 4, false);
        QVERIFY(errorOf([&] { gru.build(Shape::flat(10), rng); }).find("equal steps") != std::string::npos);
        Lstm lstm(2, 2, false);
        lstm.build(Shape::flat(6), rng);
        QVERIFY(errorOf([&] { lstm.forward(Matrix::Zero(2, 5), false); }).find("rows of 6") != std::string::npos);
    }

    // 1 unit, 1 feature, 2 steps, x = (1, 0.5). Weights (gate blocks r, z, n): W_x = (0, 0, 1),
    // W_h = (0, 0, 2), b_x = (0, ln 3, 0), b_h = (-ln 3, 0, 1). So r = 1/4 and z = 3/4 at every step.
    // Step 1 (h = 0): h W_hn + b_hn = 1, n = tanh(1 + 1/4 * 1) = tanh(1.25) = 0.848284,
    //   h1 = 1/4 * 0.848284 + 3/4 * 0 = 0.212071.
    // Step 2: h W_hn + b_hn = 2 * 0.212071 + 1 = 1.424142, n = tanh(0.5 + 1/4 * 1.424142)
    //   = tanh(0.856035) = 0.694209, h2 = 1/4 * 0.694209 + 3/4 * 0.212071 = 0.332606.
    // (Resetting before the product, as Keras's reset_after = False, would give step 1's
    //  n = tanh(1 + 2 * (1/4 * 0) + 1) = tanh(2) instead: the bias b_hn tells them apart.)
    void gruForwardMatchesHandWorkedValues() {
        for (bool sequences : {true, false}) {
            Gru gru(1, 2, sequences);
            Rng rng(1);
            gru.build(Shape::flat(2), rng);
            gru.inputWeights() = row({0, 0, 1});
            gru.recurrentWeights() = row({0, 0, 2});
            gru.inputBias() = row({0, ln3, 0});
            gru.recurrentBias() = row({-ln3, 0, 1});
            const Matrix x = row({1, 0.5f});
            expectNear(gru.forward(x, false), sequences ? row({0.212071f, 0.332606f}) : row({0.332606f}), 2e-6);
        }
    }

    // 1 unit, 1 feature, 2 steps, x = (1, 0.5). Weights (gate blocks i, f, g, o): W_x = (0, 0, 1, 0),
    // W_h = (0, 0, 1, 0), b_x = (ln 3, 0, 0, 0), b_h = (0, 0, 0, -ln 3). So i = 3/4, f = 1/2, o = 1/4.
    // Step 1 (h = c = 0): g = tanh(1) = 0.761594, c1 = 3/4 * 0.761594 = 0.571196,
    //   h1 = 1/4 * tanh(0.571196) = 1/4 * 0.516237 = 0.129059.
    // Step 2: g = tanh(0.5 + 0.129059) = tanh(0.629059) = 0.557404,
    //   c2 = 1/2 * 0.571196 + 3/4 * 0.557404 = 0.703651, h2 = 1/4 * tanh(0.703651) = 0.151670.
    void lstmForwardMatchesHandWorkedValues() {
        for (bool sequences : {true, false}) {
            Lstm lstm(1, 2, sequences);
            Rng rng(1);
            lstm.build(Shape::flat(2), rng);
            lstm.inputWeights() = row({0, 0, 1, 0});
            lstm.recurrentWeights() = row({0, 0, 1, 0});
            lstm.inputBias() = row({ln3, 0, 0, 0});
            lstm.recurrentBias() = row({0, 0, 0, -ln3});
            const Matrix x = row({1, 0.5f});
            expectNear(lstm.forward(x, false), sequences ? row({0.129059f, 0.151670f}) : row({0.151670f}), 2e-6);
        }
    }

    // Samples are independent: a batch's rows equal the rows computed one sample at a time.
    void batchRowsAreIndependent() {
        for (const QString kind : {"gru", "lstm"}) {
            auto layer = builtRecurrent(kind, 3, 4, 2, true, 5);
            const Matrix x = randomMatrix(4, 8, 6);
            const Matrix whole = layer->forward(x, false);
            for (Index i = 0; i < x.rows(); ++i) {
                const Matrix one = x.row(i);
                expectNear(layer->forward(one, false), whole.row(i), 1e-6);
            }
        }
    }

    void gradientsMatchFiniteDifferences_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("sequences");
        QTest::addColumn<int>("steps");
        for (const char* kind : {"gru", "lstm"})
            for (bool sequences : {true, false})
                for (int steps : {1, 4})
                    QTest::newRow(
                        (std::string(kind) + (sequences ? " sequence " : " last ") + std::to_string(steps) + " steps")
                            .c_str())
                        << QString(kind) << sequences << steps;
    }
    void gradientsMatchFiniteDifferences() {
        QFETCH(QString, kind);
        QFETCH(bool, sequences);
        QFETCH(int, steps);
        const int units = 3, features = 2, batch = 3;
        auto layer = builtRecurrent(kind, units, steps, features, sequences, 11);
        const Matrix x = randomMatrix(batch, steps * features, 12);
        GradientCheckOptions options;
        options.maxEntriesPerTensor = 1000;  // every entry of the input and of the four parameters
        const GradientCheckResult r = checkLayer(*layer, x, true, 13, options);
        QVERIFY2(r.checked == int(x.size() + layer->paramCount()), std::to_string(r.checked).c_str());
        QVERIFY2(r.passed(), (r.worst + " ratio " + std::to_string(r.worstRatio)).c_str());
    }

    void sameBitsOnOneAndTwoKernelThreads() {
        for (const QString kind : {"gru", "lstm"})
            for (bool sequences : {true, false}) {
                const int steps = 5, features = 6, units = 16;
                const Matrix x = randomMatrix(32, steps * features, 21);
                const Matrix gradOut = randomMatrix(32, sequences ? steps * units : units, 22);
                std::vector<Matrix> results[2];
                for (int threads : {1, 2}) {
                    KernelThreadScope scope(threads);
                    auto layer = builtRecurrent(kind, units, steps, features, sequences, 23);
                    std::vector<Matrix>& out = results[threads - 1];
                    out.push_back(layer->forward(x, true));
                    out.push_back(*layer->backward(gradOut, true));
                    for (const Param& p : layer->params()) out.push_back(*p.grad);
                }
                QCOMPARE(results[0].size(), std::size_t(6));
                for (std::size_t i = 0; i < results[0].size(); ++i)
                    QVERIFY2(sameBits(results[0][i], results[1][i]),
                             (kind.toStdString() + " result " + std::to_string(i)).c_str());
            }
    }

    // A clone computes the same, from its own buffers.
    void cloneComputesTheSame() {
        auto layer = builtRecurrent("lstm", 3, 3, 2, false, 31);
        const Matrix x = randomMatrix(2, 6, 32);
        const Matrix y = layer->forward(x, false);
        auto copy = layer->clone();
        QCOMPARE(copy->kind(), std::string("lstm"));
        QVERIFY(sameBits(copy->forward(x, false), y));
    }
};

QTEST_APPLESS_MAIN(TestRecurrent)
#include "tst_recurrent.moc"
