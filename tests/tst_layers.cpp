// Layers and losses: exact values on small worked examples, and the numeric gradient check for
// every layer kind, every loss, both fused output paths and whole networks.
#include <QtTest>

#include <algorithm>

#include "core/error.h"
#include "layers/activation.h"
#include "layers/batch_norm.h"
#include "layers/conv2d.h"
#include "layers/dense.h"
#include "layers/dropout.h"
#include "layers/flatten.h"
#include "layers/global_avg_pool.h"
#include "layers/pooling.h"
#include "losses/loss.h"
#include "losses/task_losses.h"
#include "matrix_support.h"
#include "model/gradient_check.h"
#include "model/network.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// Inputs kept away from 0 so a finite difference never straddles the kink of (leaky) ReLU.
Matrix awayFromZero(Index rows, Index cols, std::uint64_t seed) {
    Matrix m = randomMatrix(rows, cols, seed);
    for (Index i = 0; i < m.size(); ++i) m.data()[i] += m.data()[i] >= 0 ? 0.1f : -0.1f;
    return m;
}

// A shuffled ramp over [-1, 1]: values 2 / size apart, more than the gradient check's two
// epsilons for up to 1000 values, so no finite difference reorders a window's maximum.
Matrix distinctValues(Index rows, Index cols, std::uint64_t seed) {
    Rng rng(seed);
    const std::vector<int> order = rng.permutation(int(rows * cols));
    Matrix m(rows, cols);
    for (Index i = 0; i < m.size(); ++i) m.data()[i] = Scalar(order[std::size_t(i)]) * 2.0f / Scalar(m.size()) - 1.0f;
    return m;
}

Matrix row(std::initializer_list<Scalar> values) {
    Matrix m(1, Index(values.size()));
    Index i = 0;
    for (Scalar v : values) m(0, i++) = v;
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
        for (const char* k : {"dense", "relu", "leaky_relu", "sigmoid", "tanh", "softmax", "gelu", "relu6", "softplus",
                              "elu", "dropout", "flatten"})
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

    void newActivationsWorkedExample() {
        const Matrix x = row({-2, -0.5f, 0.5f, 3, 7});
        GELU gelu;  // x * Phi(x), erf form
        expectNear(gelu.forward(x, false), row({-0.0455002639f, -0.154268769f, 0.345731231f, 2.99595031f, 7.0f}), 1e-6);
        ReLU6 relu6;
        QVERIFY(relu6.forward(x, false) == row({0, 0, 0.5f, 3, 6}));
        Softplus softplus;
        expectNear(softplus.forward(x, false),
                   row({0.126928011f, 0.474076984f, 0.974076984f, 3.04858735f, 7.00091147f}), 1e-6);
        // Far out it neither overflows nor loses the tiny value below.
        const Matrix& far = softplus.forward(row({100, -100}), false);
        QCOMPARE(far(0, 0), 100.0f);
        QVERIFY(far(0, 1) > 0 && far(0, 1) < 1e-40f);
        ELU elu;
        expectNear(elu.forward(x, false), row({-0.864664717f, -0.39346934f, 0.5f, 3, 7}), 1e-6);

        // Derivatives at points where they are known exactly.
        const Matrix ones = Matrix::Ones(1, 5);
        // GELU's backward reads its input, as Dense does: it must outlive the pass.
        const Matrix zeros = Matrix::Zero(1, 5);
        gelu.forward(zeros, false);
        QVERIFY(*gelu.backward(ones, true) == Matrix::Constant(1, 5, 0.5f));  // Phi(0)
        relu6.forward(x, false);
        QVERIFY(*relu6.backward(ones, true) == row({0, 0, 1, 1, 0}));  // flat above 6
        elu.forward(x, false);
        expectNear(*elu.backward(ones, true), row({0.135335283f, 0.60653066f, 1, 1, 1}), 1e-6);  // e^x below 0
        softplus.forward(row({0, 100, -100, 2, -2}), false);
        expectNear(*softplus.backward(ones, true), row({0.5f, 1, 0, 0.880797078f, 0.119202922f}), 1e-6);  // sigmoid(x)
        QVERIFY(softplus.backward(ones, false) == nullptr);

        for (const char* name : {"gelu", "relu6", "softplus", "elu"}) {
            const Activation a = parseActivation(name);
            QCOMPARE(activationName(a), std::string(name));
            QCOMPARE(makeActivation(a)->kind(), std::string(name));
        }
        QCOMPARE(errorText([] { parseActivation("swish"); }),
                 QString("unknown activation 'swish' (expected relu, leaky_relu, sigmoid, tanh, softmax, gelu, relu6, "
                         "softplus, elu or linear)"));
    }

    void convValidWorkedExample() {
        // Two channels of 3x3: channel 0 holds 1..9, channel 1 holds -1..-9.
        Rng rng(1);
        Conv2D conv(ConvOptions{2, 2, 2, 1, false, true}, Init::He);
        conv.build(Shape{2, 3, 3}, rng);
        QCOMPARE(conv.outputShape(), (Shape{2, 2, 2}));
        QCOMPARE(conv.paramCount(), std::int64_t(2 * 2 * 2 * 2 + 2));
        QCOMPARE(conv.flopsPerSample(), std::int64_t(2 * 16 * 4));
        // Rows are filters laid out [C][kH][kW]: filter 0 sees channel 0 through [1 2; 3 4], filter 1
        // adds the diagonal of channel 1.
        conv.weights() << 1, 2, 3, 4, 0, 0, 0, 0,  //
            0, 0, 0, 0, 1, 0, 0, 1;
        conv.bias() << 0.5f, -1;
        Matrix x(1, 18);
        for (int i = 0; i < 9; ++i) {
            x(0, i) = Scalar(i + 1);
            x(0, 9 + i) = -Scalar(i + 1);
        }
        const Matrix& y = conv.forward(x, false);
        QVERIFY(y == row({37.5f, 47.5f, 67.5f, 77.5f, -7, -9, -13, -15}));

        // Backward of a one-hot output gradient: the filter's weights land on its window, and the
        // weight gradient is that window's input.
        Matrix g = Matrix::Zero(1, 8);
        g(0, 3) = 1;  // filter 0 at (1, 1)
        const Matrix* gx = conv.backward(g, true);
        QVERIFY(gx);
        Matrix expectedGx = Matrix::Zero(1, 18);
        expectedGx(0, 4) = 1, expectedGx(0, 5) = 2, expectedGx(0, 7) = 3, expectedGx(0, 8) = 4;
        QVERIFY(*gx == expectedGx);
        const Matrix gw = *conv.params()[0].grad;
        QVERIFY(gw.row(0) == row({5, 6, 8, 9, -5, -6, -8, -9}));
        QVERIFY(gw.row(1).isZero());
        QVERIFY(*conv.params()[1].grad == row({1, 0}));
        // The first layer skips the input gradient but still writes its weights' gradients.
        conv.params()[0].grad->setZero();
        QVERIFY(conv.backward(g, false) == nullptr);
        QVERIFY(*conv.params()[0].grad == gw);
    }

    void convSamePaddingAndStride() {
        Matrix x(1, 9);
        x << 1, 2, 3, 4, 5, 6, 7, 8, 9;
        Rng rng(1);
        // 3x3, kernel 2, stride 1, same: out 3x3, the one padding row and column after (SAME_UPPER).
        Conv2D same(ConvOptions{1, 2, 2, 1, true, false}, Init::Glorot);
        same.build(Shape{1, 3, 3}, rng);
        QCOMPARE(same.outputShape(), (Shape{1, 3, 3}));
        QCOMPARE(same.paramCount(), std::int64_t(4));  // no bias
        QCOMPARE(same.params().size(), std::size_t(1));
        same.weights() << 1, 2, 3, 4;
        QVERIFY(same.forward(x, false) == row({37, 47, 21, 67, 77, 33, 23, 26, 9}));
        // Kernel 3, stride 2, same: out ceil(3/2) = 2, one padding row and column on each side.
        Conv2D strided(ConvOptions{1, 3, 3, 2, true, true}, Init::Glorot);
        strided.build(Shape{1, 3, 3}, rng);
        QCOMPARE(strided.outputShape(), (Shape{1, 2, 2}));
        strided.weights().setOnes();
        strided.bias() << 0.25f;
        QVERIFY(strided.forward(x, false) == row({12.25f, 16.25f, 24.25f, 28.25f}));
        // Valid, stride 2 on 5x5 (value 5h + w): out floor((5 - 3) / 2) + 1 = 2, each a window's sum.
        Matrix ramp(1, 25);
        for (int i = 0; i < 25; ++i) ramp(0, i) = Scalar(i);
        Conv2D valid(ConvOptions{1, 3, 3, 2, false, false}, Init::Glorot);
        valid.build(Shape{1, 5, 5}, rng);
        QCOMPARE(valid.outputShape(), (Shape{1, 2, 2}));
        valid.weights().setOnes();
        QVERIFY(valid.forward(ramp, false) == row({54, 72, 144, 162}));
        // Rectangular kernels and inputs, and the floor of a stride that does not fit.
        Conv2D wide(ConvOptions{3, 1, 3, 2, false, true}, Init::He);
        wide.build(Shape{2, 4, 6}, rng);
        QCOMPARE(wide.outputShape(), (Shape{3, 2, 2}));
        QCOMPARE(convOutputLength(4, 3, 2, false), 1);
        QCOMPARE(convOutputLength(5, 2, 2, true), 3);
        QCOMPARE(convPaddingBefore(5, 2, 2, true), 0);  // total 1: all of it after
        QCOMPARE(convPaddingBefore(4, 3, 1, true), 1);  // total 2: one on each side
        QCOMPARE(convPaddingBefore(4, 3, 1, false), 0);
        QCOMPARE(errorText([&] {
                     Conv2D big(ConvOptions{4, 3, 3, 1, false, true}, Init::He);
                     big.build(Shape{1, 2, 2}, rng);
                 }),
                 QString("conv: kernel 3x3 is larger than its 2x2 input"));
    }

    void convInitialisationIsSeededAndScaled() {
        Rng a(3), b(3);
        Conv2D c1(ConvOptions{64, 3, 3, 1, false, true}, Init::He), c2 = c1;
        c1.build(Shape{32, 8, 8}, a);
        c2.build(Shape{32, 8, 8}, b);
        QVERIFY(c1.weights() == c2.weights());
        QCOMPARE(c1.weights().rows(), Index(64));
        QCOMPARE(c1.weights().cols(), Index(32 * 9));
        QVERIFY(c1.bias().isZero());
        // He over the fan-in C * kH * kW = 288.
        const double var = c1.weights().cast<double>().array().square().mean();
        QVERIFY2(std::abs(var - 2.0 / 288) < 0.05 * 2.0 / 288, std::to_string(var).c_str());
        Rng g(3);
        Conv2D glorot(ConvOptions{16, 3, 3, 1, false, true}, Init::Glorot);
        glorot.build(Shape{8, 5, 5}, g);
        const float limit = std::sqrt(6.0f / float(8 * 9 + 16 * 9));  // fan-out counts the window too
        QVERIFY(glorot.weights().maxCoeff() <= limit && glorot.weights().minCoeff() >= -limit);
        QVERIFY(glorot.weights().maxCoeff() > 0.9f * limit);
    }

    void poolingWorkedExample() {
        // One 4x4 channel, then the same plus 100 as a second channel.
        const Matrix plane = row({6, 3, 2, 4, 5, 6, 7, 8, 9, 2, 1, 0, 3, 4, 6, 5});
        Matrix x(1, 32);
        x << plane, (plane.array() + 100).matrix();
        Rng rng(1);
        MaxPool2D max(2, 0);  // stride 0: the size
        max.build(Shape{2, 4, 4}, rng);
        QCOMPARE(max.stride(), 2);
        QCOMPARE(max.outputShape(), (Shape{2, 2, 2}));
        QVERIFY(max.forward(x, false) == row({6, 8, 9, 6, 106, 108, 109, 106}));
        // The gradient goes to each maximum; of two equal values (the 6s of the first window) the first.
        const Matrix* gx = max.backward(row({1, 2, 3, 4, 5, 6, 7, 8}), true);
        Matrix expected = Matrix::Zero(1, 32);
        for (int c = 0; c < 2; ++c) {
            expected(0, 16 * c + 0) = Scalar(1 + 4 * c);
            expected(0, 16 * c + 7) = Scalar(2 + 4 * c);
            expected(0, 16 * c + 8) = Scalar(3 + 4 * c);
            expected(0, 16 * c + 14) = Scalar(4 + 4 * c);
        }
        QVERIFY(*gx == expected);
        QVERIFY(max.backward(row({1, 2, 3, 4, 5, 6, 7, 8}), false) == nullptr);

        // Overlapping windows (3, stride 1) that share a maximum add their gradients there.
        MaxPool2D overlap(3, 1);
        overlap.build(Shape{1, 4, 4}, rng);
        QCOMPARE(overlap.outputShape(), (Shape{1, 2, 2}));
        QVERIFY(overlap.forward(plane, false) == row({9, 8, 9, 8}));
        Matrix shared = Matrix::Zero(1, 16);
        shared(0, 7) = 2, shared(0, 8) = 2;
        QVERIFY(*overlap.backward(Matrix::Ones(1, 4), true) == shared);

        AvgPool2D avg(2, 2);
        avg.build(Shape{2, 4, 4}, rng);
        QVERIFY(avg.forward(x, false) == row({5, 5.25f, 4.5f, 3, 105, 105.25f, 104.5f, 103}));
        const Matrix* ga = avg.backward(row({4, 8, 12, 16, 0, 0, 0, 0}), true);
        Matrix spread = Matrix::Zero(1, 32);
        spread.leftCols(16) = row({1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
        QVERIFY(*ga == spread);
        // A stride that leaves the last column out: floor((5 - 2) / 2) + 1 = 2.
        AvgPool2D ragged(2, 0);
        ragged.build(Shape{1, 5, 5}, rng);
        QCOMPARE(ragged.outputShape(), (Shape{1, 2, 2}));
        QCOMPARE(errorText([&] {
                     MaxPool2D(3, 0).build(Shape{4, 2, 5}, rng);
                 }),
                 QString("maxpool: window 3x3 is larger than its 2x5 input"));
    }

    void maxPoolTwoByTwoTakesTheFirstMaximumOfEveryWindow_data() {
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        // Odd sizes (a row and a column left out); rows of more windows than a vector holds (18
        // windows: a full vector of 16 and 2 more), and of exactly 16.
        QTest::newRow("3x7x5") << 3 << 7 << 5;
        QTest::newRow("2x5x37") << 2 << 5 << 37;
        QTest::newRow("1x4x32") << 1 << 4 << 32;
    }
    void maxPoolTwoByTwoTakesTheFirstMaximumOfEveryWindow() {
        // The 2x2 stride-2 window has a path of its own: check it against every window read out by
        // hand, on values with many ties.
        QFETCH(int, channels);
        QFETCH(int, height);
        QFETCH(int, width);
        const Shape in{channels, height, width};
        Rng rng(4);
        Matrix x(2, in.size());
        for (Index i = 0; i < x.size(); ++i) x.data()[i] = Scalar(rng.below(3));
        MaxPool2D pool(2, 2);
        pool.build(in, rng);
        const int OH = height / 2, OW = width / 2;
        QCOMPARE(pool.outputShape(), (Shape{channels, OH, OW}));
        Matrix expected(2, pool.outputShape().size()), upstream(2, pool.outputShape().size());
        Matrix routed = Matrix::Zero(2, in.size());
        for (Index n = 0; n < 2; ++n)
            for (int c = 0, k = 0; c < channels; ++c)
                for (int oh = 0; oh < OH; ++oh)
                    for (int ow = 0; ow < OW; ++ow, ++k) {
                        int best = (c * height + 2 * oh) * width + 2 * ow;
                        for (int i = 0; i < 2; ++i)
                            for (int j = 0; j < 2; ++j) {
                                const int at = (c * height + 2 * oh + i) * width + 2 * ow + j;
                                if (x(n, at) > x(n, best)) best = at;
                            }
                        expected(n, k) = x(n, best);
                        upstream(n, k) = Scalar(k + 1);
                        routed(n, best) += Scalar(k + 1);
                    }
        QVERIFY(pool.forward(x, true) == expected);
        // A gradient through every window first: the buffer the next pass reuses holds no zero to
        // rely on, so the left-out row and column must be written too.
        pool.backward(Matrix::Constant(2, pool.outputShape().size(), 7), true);
        QVERIFY(*pool.backward(upstream, true) == routed);
    }

    void globalAvgPoolWorkedExample() {
        Rng rng(1);
        GlobalAvgPool gap;
        gap.build(Shape{2, 2, 2}, rng);
        QCOMPARE(gap.outputShape(), (Shape{2, 1, 1}));
        Matrix x(2, 8);
        x << 1, 2, 3, 4, 10, 20, 30, 40,  //
            -1, -1, -1, -1, 0, 0, 0, 8;
        QVERIFY(gap.forward(x, false) == (Matrix(2, 2) << 2.5f, 25, -1, 2).finished());
        Matrix g(2, 2);
        g << 4, 8, 0, -2;
        Matrix expected(2, 8);
        expected << 1, 1, 1, 1, 2, 2, 2, 2,  //
            0, 0, 0, 0, -0.5f, -0.5f, -0.5f, -0.5f;
        QVERIFY(*gap.backward(g, true) == expected);
        QVERIFY(gap.backward(g, false) == nullptr);
    }

    void batchNormPerChannelWorkedExample() {
        // Two samples of (2, 1, 2): channel 0 holds 1, 3 and 5, 7 (mean 4, variance 5, unbiased
        // 20/3); channel 1 holds 1, -1 and 3, -3 (mean 0, variance 5). eps 4 makes each sigma 3.
        BatchNorm bn(0.1f, 4.0f);
        Rng rng(1);
        bn.build(Shape{2, 1, 2}, rng);
        QCOMPARE(bn.outputShape(), (Shape{2, 1, 2}));
        QCOMPARE(bn.paramCount(), std::int64_t(4));
        QCOMPARE(bn.stateCount(), std::int64_t(4));
        QVERIFY(bn.gamma() == row({1, 1}) && bn.beta() == row({0, 0}));
        QVERIFY(bn.runningMean() == row({0, 0}) && bn.runningVar() == row({1, 1}));
        bn.gamma() << 2, 1;
        bn.beta() << 0.5f, 0;
        Matrix x(2, 4);
        x << 1, 3, 1, -1,  //
            5, 7, 3, -3;
        Matrix expected(2, 4);
        expected << 2 * -1.0f + 0.5f, 2 * (-1 / 3.0f) + 0.5f, 1 / 3.0f, -1 / 3.0f,  //
            2 * (1 / 3.0f) + 0.5f, 2 * 1.0f + 0.5f, 1, -1;
        expectNear(bn.forward(x, true), expected);
        // running = 0.9 running + 0.1 batch, with the unbiased variance.
        expectNear(bn.runningMean(), row({0.4f, 0}));
        expectNear(bn.runningVar(), row({0.9f + 2 / 3.0f, 0.9f + 2 / 3.0f}));
        // The parameter gradients of an all-ones output gradient: sum(xhat) = 0 and the count.
        bn.backward(Matrix::Ones(2, 4), true);
        expectNear(*bn.params()[0].grad, row({0, 0}));
        expectNear(*bn.params()[1].grad, row({4, 4}));

        // Inference uses the running values: mean 1 and -1, variance 5 and 12 (+ eps 4: sigma 3, 4).
        bn.runningMean() << 1, -1;
        bn.runningVar() << 5, 12;
        Matrix inference(2, 4);
        inference << 2 * 0 / 3.0f + 0.5f, 2 * 2 / 3.0f + 0.5f, 0.5f, 0,  //
            2 * 4 / 3.0f + 0.5f, 2 * 6 / 3.0f + 0.5f, 1, -0.5f;
        expectNear(bn.forward(x, false), inference);
        QVERIFY(bn.runningMean() == row({1, -1}));  // inference leaves them alone
        // Its input gradient is gamma / sigma.
        expectNear(*bn.backward(Matrix::Ones(2, 4), true),
                   (Matrix(2, 4) << 2 / 3.0f, 2 / 3.0f, 0.25f, 0.25f, 2 / 3.0f, 2 / 3.0f, 0.25f, 0.25f).finished());
        QVERIFY(bn.backward(Matrix::Ones(2, 4), false) == nullptr);
    }

    void batchNormPerFeatureOfFlatInputs() {
        // A dense layer's output (1, 1, 3): each of the 3 features on its own, over the 2 rows.
        BatchNorm bn(0.5f, 1.0f);
        Rng rng(1);
        bn.build(Shape::flat(3), rng);
        QCOMPARE(bn.paramCount(), std::int64_t(6));
        QCOMPARE(bn.state().size(), std::size_t(2));
        Matrix x(2, 3);
        x << 1, 2, 3,  //
            3, 2, 7;
        // means 2, 2, 5; biased variances 1, 0, 4; + eps 1.
        const float a = 1 / std::sqrt(2.0f), b = 2 / std::sqrt(5.0f);
        expectNear(bn.forward(x, true), (Matrix(2, 3) << -a, 0, -b, a, 0, b).finished());
        expectNear(bn.runningMean(), row({1, 1, 2.5f}));
        expectNear(bn.runningVar(), row({1.5f, 0.5f, 4.5f}));  // 0.5 + 0.5 * unbiased (2, 0, 8)
        // A (1, 2, 2) image is one channel over its four positions, not four features.
        BatchNorm image(0.1f, 1e-5f);
        image.build(Shape{1, 2, 2}, rng);
        QCOMPARE(image.paramCount(), std::int64_t(2));
        // A single value per channel leaves the running statistics as they were.
        BatchNorm single(0.5f, 1.0f);
        single.build(Shape::flat(2), rng);
        single.forward(row({3, 4}), true);
        QVERIFY(single.runningMean() == row({0, 0}) && single.runningVar() == row({1, 1}));
    }

    void gradientCheckImageLayers_data() {
        QTest::addColumn<QString>("layer");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("training");
        QTest::newRow("conv valid") << "conv valid" << 2 << 5 << 4 << true;
        QTest::newRow("conv same stride 2") << "conv same s2" << 2 << 5 << 5 << true;
        QTest::newRow("conv same 1x3 no bias") << "conv same 1x3 nobias" << 3 << 4 << 4 << true;
        QTest::newRow("maxpool 2") << "maxpool 2" << 2 << 4 << 5 << true;
        QTest::newRow("maxpool 3 s1") << "maxpool 3 s1" << 2 << 4 << 4 << true;
        QTest::newRow("avgpool 2") << "avgpool 2" << 2 << 5 << 4 << true;
        QTest::newRow("avgpool 3 s2") << "avgpool 3 s2" << 1 << 5 << 5 << true;
        QTest::newRow("gap") << "gap" << 3 << 2 << 3 << true;
        QTest::newRow("bn per channel, training") << "bn" << 3 << 2 << 2 << true;
        QTest::newRow("bn per channel, inference") << "bn" << 3 << 2 << 2 << false;
        QTest::newRow("bn per feature, training") << "bn" << 1 << 1 << 6 << true;
        QTest::newRow("bn per feature, inference") << "bn" << 1 << 1 << 6 << false;
    }
    void gradientCheckImageLayers() {
        QFETCH(QString, layer);
        QFETCH(int, channels);
        QFETCH(int, height);
        QFETCH(int, width);
        QFETCH(bool, training);
        const std::string k = layer.toStdString();
        std::unique_ptr<Layer> l;
        if (k == "conv valid") l = std::make_unique<Conv2D>(ConvOptions{3, 3, 2, 1, false, true}, Init::Glorot);
        else if (k == "conv same s2") l = std::make_unique<Conv2D>(ConvOptions{2, 3, 3, 2, true, true}, Init::Glorot);
        else if (k == "conv same 1x3 nobias")
            l = std::make_unique<Conv2D>(ConvOptions{2, 1, 3, 1, true, false}, Init::He);
        else if (k == "maxpool 2") l = std::make_unique<MaxPool2D>(2, 0);
        else if (k == "maxpool 3 s1") l = std::make_unique<MaxPool2D>(3, 1);
        else if (k == "avgpool 2") l = std::make_unique<AvgPool2D>(2, 0);
        else if (k == "avgpool 3 s2") l = std::make_unique<AvgPool2D>(3, 2);
        else if (k == "gap") l = std::make_unique<GlobalAvgPool>();
        else l = std::make_unique<BatchNorm>(0.1f, 1e-5f);
        Rng rng(4);
        const Shape shape{channels, height, width};
        l->build(shape, rng);
        if (auto* bn = dynamic_cast<BatchNorm*>(l.get())) {
            // Away from gamma 1, beta 0 and the initial running values, so each term counts.
            bn->gamma() = randomMatrix(1, bn->gamma().cols(), 5, 0.5f, 1.5f);
            bn->beta() = randomMatrix(1, bn->beta().cols(), 6);
            bn->runningMean() = randomMatrix(1, bn->gamma().cols(), 7);
            bn->runningVar() = randomMatrix(1, bn->gamma().cols(), 8, 0.5f, 2.0f);
        }
        const Matrix x = distinctValues(4, shape.size(), 12);
        expectPassed(checkLayer(*l, x, training, 19));
        l->forward(x, training);  // the input checkLayer gave it is gone, and layers keep a pointer to theirs
        QVERIFY(l->backward(Matrix::Ones(4, l->outputShape().size()), false) == nullptr);
    }

    void convGradientsAcrossChunks_data() {
        QTest::addColumn<int>("filters");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<bool>("same");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("side");
        QTest::addColumn<bool>("im2col");
        QTest::addColumn<int>("batch");  // 0: two blocks of the direct path and 3 rows
        QTest::addColumn<int>("chunks");
        // im2col: the chunk comes from the shape, (patch + filters) * positions values, 2^17 in all.
        QTest::newRow("3 per chunk, the last of 1")
            << 8 << 3 << 1 << false << 4 << 30 << true << 7 << 3;  // (36 + 8) * 784
        QTest::newRow("stride 2, same, 9 then 1")
            << 6 << 3 << 2 << true << 3 << 40 << false << 10 << 2;                           // (27 + 6) * 400
        QTest::newRow("1 per chunk") << 2 << 3 << 1 << false << 16 << 24 << true << 3 << 3;  // (144 + 2) * 484
        // Direct: blocks of convBlockSamples() samples, the last one part full.
        QTest::newRow("direct, 3 blocks") << 6 << 3 << 1 << false << 3 << 9 << false << 0 << 3;
        QTest::newRow("direct, same, 3 blocks") << 5 << 3 << 1 << true << 2 << 7 << false << 0 << 3;
        QTest::newRow("a batch of 1") << 4 << 3 << 1 << false << 2 << 6 << false << 1 << 1;
    }
    void convGradientsAcrossChunks() {
        QFETCH(int, filters);
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(bool, same);
        QFETCH(int, channels);
        QFETCH(int, side);
        QFETCH(bool, im2col);
        QFETCH(int, batch);
        QFETCH(int, chunks);
        if (batch == 0) batch = 2 * convBlockSamples() + 3;
        ConvOptions options{filters, kernel, kernel, stride, same, true};
        if (im2col) options.path = ConvOptions::Path::Im2col;
        QCOMPARE(convIsDirect(Shape{channels, side, side}, options), !im2col && stride == 1);
        Conv2D conv(options, Init::He);
        Rng rng(8);
        conv.build(Shape{channels, side, side}, rng);
        conv.bias() = randomMatrix(1, filters, 9);
        QCOMPARE((batch + conv.chunkSamples() - 1) / conv.chunkSamples(), Index(chunks));
        const Matrix x = awayFromZero(batch, conv.inputShape().size(), 21);
        // Each row's output is its own, whichever chunk holds it.
        const Matrix all = conv.forward(x, true);
        for (Index n = 0; n < batch; ++n) {
            const Matrix one = x.row(n);
            const Scalar diff = (conv.forward(one, true) - all.row(n)).cwiseAbs().maxCoeff();
            QVERIFY2(diff < 1e-5f, std::to_string(diff).c_str());
        }
        expectPassed(checkLayer(conv, x, true, 23));
        // The weight gradient over all chunks is the sum of each row's own.
        conv.forward(x, true);
        conv.backward(Matrix::Ones(batch, conv.outputShape().size()), false);
        const Matrix whole = *conv.params()[0].grad, wholeBias = *conv.params()[1].grad;
        Matrix sum = Matrix::Zero(whole.rows(), whole.cols()), sumBias = Matrix::Zero(1, filters);
        for (Index n = 0; n < batch; ++n) {
            const Matrix one = x.row(n);
            conv.forward(one, true);
            QVERIFY(conv.backward(Matrix::Ones(1, conv.outputShape().size()), false) == nullptr);
            sum += *conv.params()[0].grad;
            sumBias += *conv.params()[1].grad;
        }
        QVERIFY2((whole - sum).cwiseAbs().maxCoeff() < 1e-4f * (1 + sum.cwiseAbs().maxCoeff()), "weight gradient");
        QVERIFY2((wholeBias - sumBias).cwiseAbs().maxCoeff() < 1e-4f * (1 + sumBias.cwiseAbs().maxCoeff()),
                 "bias gradient");
    }

    void convDirectMatchesIm2col_data() {
        QTest::addColumn<int>("filters");
        QTest::addColumn<int>("kernelH");
        QTest::addColumn<int>("kernelW");
        QTest::addColumn<bool>("same");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("rectified");
        // The two convolutions, then odd counts of filters and channels (not a multiple of
        // the kernels' group of 4), rectangular kernels and images, same padding, and rows wider
        // than a vector.
        QTest::newRow("conv1 of the CNN") << 32 << 3 << 3 << false << 1 << 28 << 28 << true;
        QTest::newRow("conv2 of the CNN") << 64 << 3 << 3 << false << 32 << 13 << 13 << true;
        QTest::newRow("5 filters, 3 channels, 2x3") << 5 << 2 << 3 << false << 3 << 7 << 9 << false;
        QTest::newRow("same, 3x3") << 6 << 3 << 3 << true << 2 << 6 << 5 << true;
        QTest::newRow("same, 4x2, wide") << 3 << 4 << 2 << true << 1 << 5 << 37 << false;
        QTest::newRow("1x1") << 7 << 1 << 1 << false << 5 << 3 << 4 << true;
        // One output position: the input gradient scatters one value per filter to every tap.
        QTest::newRow("one position") << 3 << 3 << 3 << false << 2 << 3 << 3 << false;
        // A second group of channels for the input gradient's passes, with real flipping.
        QTest::newRow("3x3 over 6 channels") << 5 << 3 << 3 << false << 6 << 7 << 9 << true;
        // Rows of 13 columns (tiles of 4, 4 and 5) over 2 rows.
        QTest::newRow("13 columns") << 5 << 3 << 3 << false << 4 << 4 << 15 << true;
    }
    void convDirectMatchesIm2col() {
        QFETCH(int, filters);
        QFETCH(int, kernelH);
        QFETCH(int, kernelW);
        QFETCH(bool, same);
        QFETCH(int, channels);
        QFETCH(int, height);
        QFETCH(int, width);
        QFETCH(bool, rectified);
        ConvOptions options{filters, kernelH, kernelW, 1, same, true};
        const Shape input{channels, height, width};
        ConvOptions forced = options;
        options.path = ConvOptions::Path::Direct;
        forced.path = ConvOptions::Path::Im2col;
        Conv2D direct(options, Init::He), im2col(forced, Init::He);
        Rng a(5), b(5);
        direct.build(input, a);
        im2col.build(input, b);
        QVERIFY(direct.direct() && !im2col.direct());
        // Unforced, stride 1 takes the direct kernels.
        QVERIFY(convIsDirect(input, ConvOptions{filters, kernelH, kernelW, 1, same, true}));
        QVERIFY(direct.weights() == im2col.weights());
        direct.bias() = im2col.bias() = randomMatrix(1, filters, 6);
        if (rectified) {
            direct.rectifyOutput();
            im2col.rectifyOutput();
        }
        // Two full blocks and a part-full one.
        const Index batch = 2 * convBlockSamples() + 3;
        const Matrix x = randomMatrix(batch, input.size(), 7);
        const Matrix g = randomMatrix(batch, direct.outputShape().size(), 8);
        const auto close = [](const Matrix& p, const Matrix& q) {
            return (p - q).cwiseAbs().maxCoeff() <= 1e-5f * (1 + q.cwiseAbs().maxCoeff());
        };
        QVERIFY(close(direct.forward(x, true), im2col.forward(x, true)));
        const Matrix dx = *direct.backward(g, true);
        QVERIFY(close(dx, *im2col.backward(g, true)));
        for (std::size_t i = 0; i < direct.params().size(); ++i)
            QVERIFY(close(*direct.params()[i].grad, *im2col.params()[i].grad));
        // The buffers each path holds are the estimate's (LayerFigures::bufferValuesFixed), plus
        // the output, the input gradient and the parameters' gradients.
        for (Conv2D* conv : {&direct, &im2col}) {
            const std::int64_t perBatch = batch * (input.size() + conv->outputShape().size()) + conv->paramCount();
            QCOMPARE(conv->bufferBytes(),
                     std::int64_t(sizeof(Scalar)) * (convFixedBufferValues(input, conv->options()) + perBatch));
        }
    }

    void convPoolingItsOutputMatchesConvThenMaxPool_data() {
        QTest::addColumn<int>("filters");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<bool>("same");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("im2col");
        QTest::addColumn<bool>("rectified");
        // The two convolutions (conv64's 11 x 11 output leaves a row and a column no
        // window covers), odd filter counts and shapes, no ReLU, same padding, both paths.
        QTest::newRow("conv1 of the CNN, im2col") << 32 << 3 << false << 1 << 28 << 28 << true << true;
        QTest::newRow("conv2 of the CNN, direct") << 64 << 3 << false << 32 << 13 << 13 << false << true;
        QTest::newRow("conv2 of the CNN, im2col") << 64 << 3 << false << 32 << 13 << 13 << true << true;
        QTest::newRow("5 filters, 3 channels, 7x10, direct") << 5 << 3 << false << 3 << 7 << 10 << false << true;
        QTest::newRow("linear, direct") << 6 << 2 << false << 2 << 9 << 8 << false << false;
        QTest::newRow("linear, im2col") << 6 << 2 << false << 2 << 9 << 8 << true << false;
        QTest::newRow("same, direct") << 3 << 3 << true << 2 << 5 << 7 << false << true;
        // An even kernel's same padding is uneven (one more after); 6 channels: two input groups.
        QTest::newRow("same 2x2, 6 channels, direct") << 4 << 2 << true << 6 << 7 << 10 << false << true;
    }
    void convPoolingItsOutputMatchesConvThenMaxPool() {
        QFETCH(int, filters);
        QFETCH(int, kernel);
        QFETCH(bool, same);
        QFETCH(int, channels);
        QFETCH(int, height);
        QFETCH(int, width);
        QFETCH(bool, im2col);
        QFETCH(bool, rectified);
        ConvOptions options{filters, kernel, kernel, 1, same, true};
        options.path = im2col ? ConvOptions::Path::Im2col : ConvOptions::Path::Direct;
        const Shape input{channels, height, width};
        Conv2D fused(options, Init::He), conv(options, Init::He);
        if (rectified) {
            fused.rectifyOutput();
            conv.rectifyOutput();
        }
        fused.poolOutput();
        Rng a(5), b(5), c(5);
        fused.build(input, a);
        conv.build(input, b);
        QCOMPARE(fused.direct(), !im2col);
        QVERIFY(fused.weights() == conv.weights());
        fused.bias() = conv.bias() = randomMatrix(1, filters, 6);
        MaxPool2D pool(2, 2);
        pool.build(conv.outputShape(), c);
        QCOMPARE(fused.pooledShape(), pool.outputShape());
        // Two full blocks and a part-full one; inputs of both signs.
        const Index batch = 2 * convBlockSamples() + 3;
        const Matrix x = randomMatrix(batch, input.size(), 7);
        const Matrix g = randomMatrix(batch, pool.outputShape().size(), 8);
        // The same values, compared in the same order: the same maxima.
        const Matrix y = fused.forward(x, true);
        QVERIFY(y == pool.forward(conv.forward(x, true), true));
        // The ReLU took effect, or there was none. (Not "some maximum is 0": whether a window is
        // wholly negative depends on the batch, which is 11 rows where blocks are of 4 samples.)
        QVERIFY(rectified ? y.minCoeff() >= 0 : y.minCoeff() < 0);
        const Matrix dx = *fused.backward(g, true);
        const auto close = [](const Matrix& p, const Matrix& q) {
            return (p - q).cwiseAbs().maxCoeff() <= 1e-5f * (1 + q.cwiseAbs().maxCoeff());
        };
        QVERIFY(close(dx, *conv.backward(*pool.backward(g, true), true)));
        for (std::size_t i = 0; i < fused.params().size(); ++i)
            QVERIFY(close(*fused.params()[i].grad, *conv.params()[i].grad));
        // The full output is never held: fewer buffers than the two layers'.
        QVERIFY(fused.bufferBytes() < conv.bufferBytes() + pool.bufferBytes());
        // Without the input gradient (the first layer) the weights' gradients are the same.
        const Matrix dw = *fused.params()[0].grad;
        fused.forward(x, true);
        QVERIFY(fused.backward(g, false) == nullptr);
        QVERIFY(close(*fused.params()[0].grad, dw));
    }

    void gradientCheckConvPoolingItsOutput_data() {
        QTest::addColumn<bool>("im2col");
        QTest::addColumn<bool>("rectified");
        QTest::newRow("direct, relu") << false << true;
        QTest::newRow("direct, linear") << false << false;
        QTest::newRow("im2col, relu") << true << true;
        QTest::newRow("im2col, linear") << true << false;
    }
    void gradientCheckConvPoolingItsOutput() {
        QFETCH(bool, im2col);
        QFETCH(bool, rectified);
        // Few windows (2 x 3 of 3 filters on 5 x 6 outputs: an odd row left out): among
        // many, some hold values closer than the check's step, and its differences then jump from
        // one maximum to another (the comparison with conv then maxpool covers the large shapes).
        ConvOptions options{3, 2, 2, 1, false, true};
        options.path = im2col ? ConvOptions::Path::Im2col : ConvOptions::Path::Direct;
        Conv2D fused(options, Init::He);
        if (rectified) fused.rectifyOutput();
        fused.poolOutput();
        Rng rng(4);
        fused.build(Shape{2, 6, 7}, rng);
        fused.bias() = randomMatrix(1, 3, 6);
        QCOMPARE(fused.pooledShape(), (Shape{3, 2, 3}));
        expectPassed(checkLayer(fused, awayFromZero(2, fused.inputShape().size(), 9), true, 10));
    }

    void networkFusesConvReluMaxPool() {
        NetworkSpec spec;
        spec.input = Shape{1, 16, 16};  // 14, 7, 5, 4, 3, 1
        spec.layers = parseLayers(
            "conv:4:3x3:relu,maxpool:2,conv:4:3x3:relu,maxpool:2:s1,conv:2:2x2:tanh,maxpool:2,flatten");
        spec.setOutputFor(Task::Classification, 3);
        Network net(spec, 5);
        std::vector<const Conv2D*> convs;
        for (const auto& l : net.layers())
            if (const auto* conv = dynamic_cast<const Conv2D*>(l.get())) convs.push_back(conv);
        QCOMPARE(convs.size(), std::size_t(3));
        // Only a 2x2 pool of stride 2, after a ReLU or no activation, is taken into the conv.
        QVERIFY(convs[0]->pooled());
        QVERIFY(!convs[1]->pooled());
        QVERIFY(!convs[2]->pooled());
        // The first hands its pooled output to the second as blocks.
        QVERIFY(convs[0]->handsBlocks());
        QVERIFY(!convs[1]->handsBlocks());
        // A whole block and a part-full one.
        const Index rows = convBlockSamples() + 2;
        const Matrix x = awayFromZero(rows, spec.input.size(), 3);
        std::vector<int> labels;
        for (Index r = 0; r < rows; ++r) labels.push_back(int(r % 3));
        expectPassed(checkNetwork(net, SoftmaxCrossEntropy(), x, oneHot(labels, 3)));
    }

    void convHandingBlocksOverMatchesRows_data() {
        QTest::addColumn<int>("batch");  // 0: two whole blocks and 3 rows
        QTest::newRow("whole blocks and a part-full one") << 0;
        QTest::newRow("a part-full block only") << 5;
    }
    void convHandingBlocksOverMatchesRows() {
        QFETCH(int, batch);
        if (batch == 0) batch = 2 * convBlockSamples() + 3;
        // conv8 3x3 on 1 x 12 x 12, pooled to 8 x 5 x 5, then conv4 3x3: as rows, and as blocks.
        ConvOptions first{8, 3, 3, 1, false, true}, second{4, 3, 3, 1, false, true};
        Conv2D a1(first, Init::He), a2(second, Init::He);
        a1.rectifyOutput();
        a1.poolOutput();
        Rng r1(3), r2(4);
        a1.build(Shape{1, 12, 12}, r1);
        a2.build(a1.pooledShape(), r2);
        a1.bias() = randomMatrix(1, 8, 5);
        a2.bias() = randomMatrix(1, 4, 6);
        Conv2D b1 = a1, b2 = a2;
        QVERIFY(b1.handBlocksTo(b2));
        QVERIFY(b1.handsBlocks() && !a1.handsBlocks());
        const Matrix x = randomMatrix(batch, 144, 7);
        const Matrix g = randomMatrix(batch, a2.outputShape().size(), 8);
        // The same values in the same order: the same floats.
        QVERIFY(a2.forward(a1.forward(x, true), true) == b2.forward(b1.forward(x, true), true));
        QVERIFY(a1.backward(*a2.backward(g, true), false) == nullptr);
        QVERIFY(b1.backward(*b2.backward(g, true), false) == nullptr);
        for (std::size_t i = 0; i < 2; ++i) {
            QVERIFY(*a1.params()[i].grad == *b1.params()[i].grad);
            QVERIFY(*a2.params()[i].grad == *b2.params()[i].grad);
        }
        // Not where the layouts differ: filters not a multiple of the group of 4, same padding.
        ConvOptions six{6, 3, 3, 1, false, true}, padded{4, 3, 3, 1, true, true};
        Conv2D c1(six, Init::He), c2(second, Init::He), d1(first, Init::He), d2(padded, Init::He);
        for (Conv2D* c : {&c1, &d1}) c->poolOutput();
        c1.build(Shape{1, 12, 12}, r1);
        c2.build(c1.pooledShape(), r2);
        d1.build(Shape{1, 12, 12}, r1);
        d2.build(d1.pooledShape(), r2);
        QVERIFY(!c1.handBlocksTo(c2));
        QVERIFY(!d1.handBlocksTo(d2));
        QVERIFY(!c1.handsBlocks() && !d1.handsBlocks());
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
        QVERIFY(whole.forward(x, true) != all);      // and every step new ones
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
            {LossKind::SoftmaxCrossEntropy, Task::Classification, {}},
            {LossKind::SoftmaxCrossEntropy, Task::Binary, useBce},
            {LossKind::SoftmaxCrossEntropy, Task::Regression, useReg},
            {LossKind::BinaryCrossEntropy, Task::Classification, useCe},
            {LossKind::BinaryCrossEntropy, Task::Binary, {}},
            {LossKind::BinaryCrossEntropy, Task::Regression, useReg},
            {LossKind::MeanSquaredError, Task::Classification, useCe},
            {LossKind::MeanSquaredError, Task::Binary, useBce},
            {LossKind::MeanSquaredError, Task::Regression, {}},
            {LossKind::MeanAbsoluteError, Task::Classification, useCe},
            {LossKind::MeanAbsoluteError, Task::Binary, useBce},
            {LossKind::MeanAbsoluteError, Task::Regression, {}},
        };
        for (const auto& p : pairs) {
            const QString loss = QString::fromStdString(lossName(p.loss)),
                          task = QString::fromStdString(taskName(p.task));
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
        QTest::newRow("softmax-ce tanh") << int(Task::Classification) << "dense:6:tanh,dense:5:sigmoid"
                                         << int(LossKind::SoftmaxCrossEntropy);
        QTest::newRow("softmax-ce leaky+dropout")
            << int(Task::Classification) << "dense:6:leaky_relu,dropout:0.2,dense:5:tanh"
            << int(LossKind::SoftmaxCrossEntropy);
        QTest::newRow("sigmoid-bce") << int(Task::Binary) << "dense:7:tanh" << int(LossKind::BinaryCrossEntropy);
        QTest::newRow("linear-mse") << int(Task::Regression) << "dense:6:sigmoid,dense:4:tanh"
                                    << int(LossKind::MeanSquaredError);
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

    void batchNormFoldsSlicesAsOneBatch() {
        // The batch split's way: slices on a master and a replica, folded afterwards in row order,
        // move the running values as the whole batch in one forward does.
        Rng rng(2);
        BatchNorm whole(0.3f, 1e-5f);
        whole.build(Shape{3, 2, 2}, rng);
        BatchNorm master = whole, replica = whole, swapped = whole, swappedReplica = whole;
        const Matrix x = randomMatrix(7, 12, 14, -2, 3);
        whole.forward(x, true);
        master.deferStateUpdates(true);
        replica.deferStateUpdates(true);
        master.setBatchOrigin(0, 0);
        master.forward(x.topRows(3), true);
        replica.setBatchOrigin(0, 3);
        replica.forward(x.middleRows(3, 2), true);
        master.setBatchOrigin(0, 5);
        master.forward(x.bottomRows(2), true);
        QVERIFY(master.runningMean().isZero() && master.runningVar().isOnes());  // nothing folded yet
        master.foldDeferredState({&replica});
        expectNear(master.runningMean(), whole.runningMean(), 1e-6);
        expectNear(master.runningVar(), whole.runningVar(), 1e-6);
        QVERIFY(!whole.runningMean().isZero());
        // The same slices taken by the other thread: the same floats, bit for bit.
        swapped.deferStateUpdates(true);
        swappedReplica.deferStateUpdates(true);
        swappedReplica.setBatchOrigin(0, 0);
        swappedReplica.forward(x.topRows(3), true);
        swappedReplica.setBatchOrigin(0, 5);
        swappedReplica.forward(x.bottomRows(2), true);
        swapped.setBatchOrigin(0, 3);
        swapped.forward(x.middleRows(3, 2), true);
        swapped.foldDeferredState({&swappedReplica});
        QVERIFY(swapped.runningMean() == master.runningMean());
        QVERIFY(swapped.runningVar() == master.runningVar());
        // A second fold without new slices changes nothing.
        const Matrix before = master.runningVar();
        master.foldDeferredState({&replica});
        QVERIFY(master.runningVar() == before);
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
                if (std::string(bad).size() > 0)
                    QVERIFY2(std::string(e.what()).find("layer 1") != std::string::npos, e.what());
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
        QCOMPARE(dense.bufferValuesPerSample,
                 std::int64_t(4 * 512));  // its output and input gradient, its activation's two

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
        QCOMPARE(layerKindList(), std::string("dense, dropout, flatten, conv, maxpool, avgpool, gap, bn, activation, "
                                              "embedding, gru, lstm, seqpool, patch, layernorm, attention or encoder"));
        QVERIFY(std::holds_alternative<FlattenSpec>(layerOfKind("flatten")));
        QCOMPARE(errorText([] { layerOfKind("rnn"); }),
                 QString("unknown layer type 'rnn' (expected dense, dropout, "
                         "flatten, conv, maxpool, avgpool, gap, bn, activation, "
                         "embedding, gru, lstm, seqpool, patch, layernorm, attention or encoder)"));
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

    void networkBuildsImageLayersAsTheirFigures_data() {
        QTest::addColumn<QString>("layers");
        QTest::newRow("the issue's CNN") << "conv:8:3x3:relu,maxpool:2,conv:16:3x3:relu,maxpool:2,flatten,dense:12:"
                                            "relu";
        QTest::newRow("same, stride, bias-free linear")
            << "conv:4:3x3:s2:same:linear,bn,activation:gelu,avgpool:2,gap,dense:5:elu";
        QTest::newRow("bn per feature") << "flatten,dense:6:relu6,bn,dense:4:softplus";
        QTest::newRow("overlapping pools") << "conv:3:2x3:tanh,maxpool:3:s1,avgpool:2:s1,bn,flatten";
    }
    void networkBuildsImageLayersAsTheirFigures() {
        QFETCH(QString, layers);
        NetworkSpec spec;
        spec.input = Shape{2, 12, 12};
        spec.layers = parseLayers(layers.toStdString());
        spec.setOutputFor(Task::Classification, 3);
        Network net(spec, 5);
        QCOMPARE(net.paramCount(), paramCount(spec));
        QCOMPARE(net.weightCount(), weightCount(spec));
        QCOMPARE(std::int64_t(net.flatWeights().size()), weightCount(spec));
        std::int64_t flops = 0, state = 0;
        for (const auto& l : net.layers()) {
            flops += l->flopsPerSample();
            state += l->stateCount();
        }
        QCOMPARE(flops, flopsPerSample(spec));
        std::int64_t figuresState = 0;
        for (const auto& f : describe(spec)) figuresState += f.state;
        QCOMPARE(state, figuresState);
        QCOMPARE(net.weightCount(), net.paramCount() + state);
        QCOMPARE(net.layers().back()->outputShape(), Shape::flat(3));
        const Matrix out = net.predict(randomMatrix(3, spec.input.size(), 6));
        QCOMPARE(out.rows(), Index(3));
        QVERIFY(out.allFinite());
    }

    void predictionHoldsABatchsWorthOfBuffers() {
        // Inference chunks follow the layers' buffers per row: the CNN held 2 GB of
        // buffers predicting 1024 rows at a time; a dense network keeps its chunks of 1024.
        NetworkSpec cnn;
        cnn.input = Shape{1, 28, 28};
        cnn.layers = parseLayers("conv:32:3x3:relu,maxpool:2,conv:64:3x3:relu,maxpool:2,flatten,dense:128:relu");
        cnn.setOutputFor(Task::Classification, 10);
        Network net(cnn, 1);
        const Index rows = net.predictChunkRows();
        QVERIFY2(rows >= 64 && rows < 1024, std::to_string(rows).c_str());
        Rng rng(2);
        Matrix x(300, 784);
        for (Index i = 0; i < x.size(); ++i) x.data()[i] = rng.uniform(0.0f, 1.0f);
        const Matrix all = net.predict(x);
        QCOMPARE(all.rows(), Index(300));
        QVERIFY2(net.bufferBytes() < (std::int64_t(40) << 20), std::to_string(net.bufferBytes()).c_str());
        // A row's prediction does not depend on the chunk it fell in (up to the kernels' rounding).
        const Matrix first = net.predict(x.topRows(100));
        QVERIFY((first - all.topRows(100)).cwiseAbs().maxCoeff() < 1e-5f);

        NetworkSpec mlp;
        mlp.input = Shape::flat(784);
        mlp.layers = parseLayers("dense:512:relu,dense:256:relu");
        mlp.setOutputFor(Task::Classification, 10);
        QCOMPARE(Network(mlp, 1).predictChunkRows(), Index(1024));
    }

    void networkRefusesImpossibleImageShapes() {
        NetworkSpec spec;
        spec.input = Shape{1, 4, 4};
        spec.layers = parseLayers("conv:4:3x3:relu,maxpool:2,conv:4:3x3:relu");
        spec.setOutputFor(Task::Classification, 2);
        const std::string e = errorOf([&] { Network(spec, 1); });
        VERIFY_CONTAINS(e, "conv 4 3x3 relu: kernel 3x3 is larger than its 1x1 input");
    }

    void flatWeightsHoldStateAfterParams() {
        // conv 2 3x3 (18 + 2), bn over its 2 channels (gamma, beta; running mean, var), output 3.
        NetworkSpec spec;
        spec.input = Shape{1, 4, 4};
        spec.layers = parseLayers("conv:2:3x3:linear,bn,flatten");
        spec.setOutputFor(Task::Classification, 3);
        Network net(spec, 2);
        QCOMPARE(net.paramCount(), std::int64_t(20 + 4 + 8 * 3 + 3));
        QCOMPARE(net.weightCount(), net.paramCount() + 4);
        QCOMPARE(weightCountText(spec), std::string("51 parameters and 4 state values"));
        auto& bn = dynamic_cast<BatchNorm&>(*net.layers()[1]);
        bn.gamma() << 2, 3;
        bn.beta() << 4, 5;
        bn.runningMean() << 6, 7;
        bn.runningVar() << 8, 9;
        std::vector<Scalar> w = net.flatWeights();
        QCOMPARE(std::vector<Scalar>(w.begin() + 20, w.begin() + 28), (std::vector<Scalar>{2, 3, 4, 5, 6, 7, 8, 9}));
        // Back in through setFlatWeights, state included; a count without the state is refused.
        for (std::size_t i = 0; i < w.size(); ++i) w[i] = Scalar(i);
        Network copy(spec, 3);
        copy.setFlatWeights(w);
        QVERIFY(copy.flatWeights() == w);
        auto& copied = dynamic_cast<BatchNorm&>(*copy.layers()[1]);
        QVERIFY(copied.runningMean() == row({24, 25}) && copied.runningVar() == row({26, 27}));
        w.resize(std::size_t(net.paramCount()));
        QCOMPARE(errorText([&] { copy.setFlatWeights(w); }),
                 QString("weight count 51 does not match the network's 55"));
        // The optimiser never sees the state.
        std::int64_t trained = 0;
        for (const Param& p : copy.params()) trained += p.value->size();
        QCOMPARE(trained, copy.paramCount());
    }

    void gradientCheckWholeCnns_data() {
        QTest::addColumn<QString>("layers");
        QTest::newRow("conv-relu-maxpool-conv-bn-gap")
            << "conv:4:3x3:relu,maxpool:2,conv:5:3x3:linear,bn,activation:tanh,gap,dense:6:tanh";
        QTest::newRow("conv-relu-maxpool-conv-bn-flatten")
            << "conv:3:3x3:relu,maxpool:2,conv:4:2x2:s2:same:linear,bn,flatten,dense:5:gelu,bn";
        QTest::newRow("relu6 and softplus")
            << "conv:3:3x3:relu,maxpool:2,conv:4:3x3:linear,bn,activation:relu6,flatten,"
               "dense:5:softplus,bn";
        // Max pooling is only piecewise smooth: a first-layer weight moved by epsilon may swap a
        // window's maximum. These rows hold none close enough to swap; same-padded ELU before
        // the pool, for one, does (its error shrinks with epsilon, as a kink's does), so it is
        // checked before an average pool, which is smooth.
        QTest::newRow("same elu-avgpool")
            << "conv:3:3x3:same:elu,avgpool:2,conv:4:2x2:s2:linear,bn,flatten,dense:5:gelu,bn";
    }
    void gradientCheckWholeCnns() {
        QFETCH(QString, layers);
        NetworkSpec spec;
        spec.input = Shape{2, 8, 8};
        spec.layers = parseLayers(layers.toStdString());
        spec.setOutputFor(Task::Classification, 3);
        Network net(spec, 9);
        const Matrix x = distinctValues(6, spec.input.size(), 33);
        expectPassed(checkNetwork(net, SoftmaxCrossEntropy(), x, oneHot({0, 1, 2, 1, 0, 2}, 3)));
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
