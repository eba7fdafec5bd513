// The layers of the Vision Transformer (issue 27): LayerNorm, multi-head self-attention (its core
// and the layer with its residual), the pre-norm encoder block, the patch embedding and seqpool's
// class token. Worked examples with values computed by hand, numeric gradient checks with several
// heads and steps, dropout tied to the batch origin, deep copies, and the same bits on any kernel
// thread count.
#include <QtTest>

#include <cmath>
#include <memory>

#include "core/error.h"
#include "core/parallel.h"
#include "layer_chain.h"
#include "layers/attention.h"
#include "layers/dense.h"
#include "layers/encoder_block.h"
#include "layers/head_products.h"
#include "layers/layer_norm.h"
#include "layers/patch_embedding.h"
#include "layers/sequence_pool.h"
#include "losses/loss.h"
#include "matrix_support.h"
#include "model/gradient_check.h"
#include "model/network.h"
#include "test_support.h"
#include "train/batch_split.h"

using namespace skynnet;
using skynnet::layer_test::Chain;

namespace {

// A layer whose every forward starts from the same batch origin: its dropout masks stay the same
// from one forward to the next, so the numeric gradient check can run with dropout on.
class FixedOrigin final : public Layer {
public:
    explicit FixedOrigin(std::unique_ptr<Layer> inner) : inner_(std::move(inner)) {}
    std::string kind() const override { return inner_->kind(); }
    void build(Shape input, Rng& rng) override {
        inner_->build(input, rng);
        input_ = input;
        output_ = inner_->outputShape();
    }
    const Matrix& forward(const Matrix& x, bool training) override {
        inner_->setBatchOrigin(7, 0);
        return inner_->forward(x, training);
    }
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override {
        return inner_->backward(gradOut, needInputGrad);
    }
    std::vector<Param> params() override { return inner_->params(); }
    std::unique_ptr<Layer> clone() const override { return std::make_unique<FixedOrigin>(inner_->clone()); }

private:
    std::unique_ptr<Layer> inner_;
};

// Every entry of every tensor, and the input's.
GradientCheckResult checkAll(Layer& layer, const Matrix& x, std::uint64_t seed) {
    GradientCheckOptions options;
    options.maxEntriesPerTensor = 100000;
    return checkLayer(layer, x, true, seed, options);
}

std::string describe(const GradientCheckResult& r) { return r.worst + " ratio " + std::to_string(r.worstRatio); }

// Random values in [lo, hi) for every parameter of a layer (biases and gammas included, so the
// checks do not run at a special point such as zero biases).
void randomizeParams(Layer& layer, std::uint64_t seed, float lo = -0.8f, float hi = 0.8f) {
    for (const Param& p : layer.params()) *p.value = randomMatrix(p.value->rows(), p.value->cols(), seed++, lo, hi);
}

// The identity as a (D, 3D) in-projection: Q = K = V = x.
Matrix identityInProjection(Index D) {
    Matrix w(D, 3 * D);
    w << Matrix::Identity(D, D), Matrix::Identity(D, D), Matrix::Identity(D, D);
    return w;
}

double softmaxWeight(double self, double other) { return 1 / (1 + std::exp(other - self)); }

// Multi-head self-attention computed directly in double, query by query (no residual).
Matrix attentionInDouble(MultiHeadAttention& a, const Matrix& x, bool causal) {
    const Index T = a.steps(), D = a.dim(), H = a.heads(), dh = D / H;
    const Eigen::MatrixXd win = a.inWeights().cast<double>(), wout = a.outWeights().cast<double>();
    const Eigen::RowVectorXd bin = a.inBias().cast<double>(), bout = a.outBias().cast<double>();
    Matrix out(x.rows(), T * D);
    for (Index n = 0; n < x.rows(); ++n) {
        const Eigen::MatrixXd xs = x.row(n).cast<double>().reshaped<Eigen::RowMajor>(T, D);
        const Eigen::MatrixXd qkv = (xs * win).rowwise() + bin;
        Eigen::MatrixXd context(T, D);
        for (Index h = 0; h < H; ++h)
            for (Index i = 0; i < T; ++i) {
                const Index seen = causal ? i + 1 : T;
                Eigen::VectorXd w(seen);
                for (Index j = 0; j < seen; ++j)
                    w(j) = qkv.row(i).segment(h * dh, dh).dot(qkv.row(j).segment(D + h * dh, dh)) /
                           std::sqrt(double(dh));
                w = (w.array() - w.maxCoeff()).exp();
                w /= w.sum();
                context.row(i).segment(h * dh, dh).setZero();
                for (Index j = 0; j < seen; ++j)
                    context.row(i).segment(h * dh, dh) += w(j) * qkv.row(j).segment(2 * D + h * dh, dh);
            }
        const Eigen::MatrixXd y = (context * wout).rowwise() + bout;
        out.row(n) = y.cast<Scalar>().reshaped<Eigen::RowMajor>(1, T * D);
    }
    return out;
}

}  // namespace

class TestTransformerLayers : public QObject {
    Q_OBJECT

private slots:
    // Step 0 (1 2 3 4): mean 2.5, variance 1.25. Step 1 (0 0 4 4): mean 2, variance 4. Then gamma
    // (1 2 0.5 1) and beta (0 1 0 -1) per feature.
    void layerNormOfKnownRows() {
        LayerNorm ln;
        Rng rng(1);
        ln.build(Shape::steps(2, 4), rng);
        QCOMPARE(ln.kind(), std::string("layernorm"));
        QCOMPARE(ln.outputShape(), Shape::steps(2, 4));
        QCOMPARE(ln.features(), Index(4));
        QCOMPARE(ln.paramCount(), std::int64_t(8));
        QVERIFY(sameBits(ln.gamma(), Matrix::Ones(1, 4)));
        QVERIFY(sameBits(ln.beta(), Matrix::Zero(1, 4)));
        QCOMPARE(ln.params().size(), std::size_t(2));
        QVERIFY(!ln.params()[0].decays && !ln.params()[1].decays);
        ln.gamma() = rows(1, 4, {1, 2, 0.5, 1});
        ln.beta() = rows(1, 4, {0, 1, 0, -1});
        const double a = 1 / std::sqrt(1.25 + 1e-5), b = 2 / std::sqrt(4 + 1e-5);
        const Matrix expected = rows(1, 8,
                                     {-1.5 * a, 2 * -0.5 * a + 1, 0.5 * 0.5 * a, 1.5 * a - 1,  //
                                      -b, 2 * -b + 1, 0.5 * b, b - 1});
        expectNear(ln.forward(rows(1, 8, {1, 2, 3, 4, 0, 0, 4, 4}), false), expected, 1e-6);
        // Training computes the same (a row's own statistics, no running state).
        expectNear(ln.forward(rows(1, 8, {1, 2, 3, 4, 0, 0, 4, 4}), true), expected, 1e-6);
        QCOMPARE(ln.flopsPerSample(), std::int64_t(8 * 8));

        // Over a flat input, the whole sample is one row.
        LayerNorm flat;
        flat.build(Shape::flat(4), rng);
        QCOMPARE(flat.features(), Index(4));
        expectNear(flat.forward(rows(2, 4, {1, 2, 3, 4, 0, 0, 4, 4}), false),
                   rows(2, 4, {-1.5 * a, -0.5 * a, 0.5 * a, 1.5 * a, -b, -b, b, b}), 1e-6);
        // An image: every value of the sample.
        LayerNorm image;
        image.build(Shape{2, 2, 2}, rng);
        QCOMPARE(image.features(), Index(8));
        QVERIFY(errorOf([] { LayerNorm(0.0f); }).find("epsilon") != std::string::npos);
    }

    void layerNormMatchesFiniteDifferences() {
        for (Shape shape : {Shape::steps(3, 5), Shape::flat(6)}) {
            LayerNorm ln;
            Rng rng(2);
            ln.build(shape, rng);
            ln.gamma() = randomMatrix(1, ln.features(), 3, 0.5f, 1.5f);
            ln.beta() = randomMatrix(1, ln.features(), 4);
            const GradientCheckResult r = checkAll(ln, randomMatrix(4, shape.size(), 5, -2, 2), 6);
            QCOMPARE(r.checked, int(4 * shape.size() + 2 * ln.features()));
            QVERIFY2(r.passed(), describe(r).c_str());
        }
    }

    // Two tokens x0 = (1 2), x1 = (3 0), two heads of one feature each, Q = K = V = x, Wout = I:
    // head 0 attends over (1, 3), head 1 over (2, 0), with scale 1/sqrt(1). Query 0 of head 0:
    // scores (1, 3), output (1 w + 3 (1 - w)) with w = softmax's first weight; and so on.
    void attentionOfTwoTokensByHand() {
        for (bool causal : {false, true}) {
            SelfAttention layer(2, causal, 0.0f);
            Rng rng(1);
            layer.build(Shape::steps(2, 2), rng);
            MultiHeadAttention& core = layer.core();
            core.inWeights() = identityInProjection(2);
            core.outWeights() = Matrix::Identity(2, 2);
            const Matrix x = rows(1, 4, {1, 2, 3, 0});
            const double w00 = softmaxWeight(1, 3), w01 = softmaxWeight(3, 9);  // head 0, queries 0 and 1
            const double w10 = softmaxWeight(4, 0), w11 = 0.5;                  // head 1
            // Causal: query 0 sees key 0 alone (weight 1), query 1 both, as without the mask.
            const double h00 = causal ? 1 : w00 * 1 + (1 - w00) * 3, h10 = causal ? 2 : w10 * 2;
            const double h01 = w01 * 1 + (1 - w01) * 3, h11 = w11 * 2;
            expectNear(core.forward(x, false), rows(1, 4, {h00, h10, h01, h11}), 1e-6);
            expectNear(layer.forward(x, false), rows(1, 4, {1 + h00, 2 + h10, 3 + h01, h11}), 1e-6);
            // The weights: (heads, queries, keys).
            expectNear(core.attentionWeights(),
                       rows(1, 8,
                            {causal ? 1 : w00, causal ? 0 : 1 - w00, w01, 1 - w01,  //
                             causal ? 1 : w10, causal ? 0 : 1 - w10, w11, 1 - w11}),
                       1e-6);
        }
        // One head of both features: scores x_i . x_j / sqrt(2), plus the biases and Wout used.
        SelfAttention one(1, false, 0.0f);
        Rng rng(1);
        one.build(Shape::steps(2, 2), rng);
        one.core().inWeights() = identityInProjection(2);
        one.core().inBias() = rows(1, 6, {0, 0, 0, 0, 1, -1});  // V = x + (1, -1)
        one.core().outWeights() = rows(2, 2, {0, 1, 1, 0});     // swaps the features
        one.core().outBias() = rows(1, 2, {0.5, 0});
        const double s = 1 / std::sqrt(2.0);
        const double a0 = softmaxWeight(5 * s, 3 * s), a1 = softmaxWeight(3 * s, 9 * s);
        const double c00 = a0 * 2 + (1 - a0) * 4, c01 = a0 * 1 + (1 - a0) * -1;  // query 0's context
        const double c10 = a1 * 2 + (1 - a1) * 4, c11 = a1 * 1 + (1 - a1) * -1;
        expectNear(one.forward(rows(1, 4, {1, 2, 3, 0}), false),
                   rows(1, 4, {1 + c01 + 0.5, 2 + c00, 3 + c11 + 0.5, c10}), 1e-6);
    }

    // Causal: what a later token holds never reaches an earlier one; token 0 sees only itself.
    void causalMaskHidesLaterTokens() {
        MultiHeadAttention causal(2, true, 0.0f), full(2, false, 0.0f);
        Rng rng(3), same(3);
        causal.build(Shape::steps(4, 4), rng);
        full.build(Shape::steps(4, 4), same);
        randomizeParams(causal, 4);
        randomizeParams(full, 4);
        Matrix x = randomMatrix(2, 16, 5);
        const Matrix before = causal.forward(x, false);
        x.rightCols(8) = randomMatrix(2, 8, 6);  // tokens 2 and 3 change
        const Matrix after = causal.forward(x, false);
        QVERIFY(sameBits(after.leftCols(8), before.leftCols(8)));
        QVERIFY(!sameBits(after.rightCols(8), before.rightCols(8)));
        // Token 0's output is its own V through Wout: the same in a sequence of one token.
        MultiHeadAttention single(2, false, 0.0f);
        single.build(Shape::steps(1, 4), rng);
        for (std::size_t i = 0; i < 4; ++i) *single.params()[i].value = *causal.params()[i].value;
        expectNear(single.forward(x.leftCols(4), false), after.leftCols(4), 1e-6);
        // Without the mask, token 0 does see the others.
        const Matrix unmasked = full.forward(x, false);
        QVERIFY((unmasked.leftCols(4) - after.leftCols(4)).cwiseAbs().maxCoeff() > 1e-3);
        // The masked weights are exactly zero, each row still sums to 1.
        const Matrix& w = causal.attentionWeights();
        for (Index n = 0; n < 2; ++n)
            for (Index h = 0; h < 2; ++h)
                for (Index i = 0; i < 4; ++i) {
                    double sum = 0;
                    for (Index j = 0; j < 4; ++j) {
                        const Scalar v = w(n, (h * 4 + i) * 4 + j);
                        if (j > i) QCOMPARE(v, Scalar(0));
                        sum += v;
                    }
                    QVERIFY(std::abs(sum - 1) < 1e-6);
                }
    }

    void attentionMatchesFiniteDifferences_data() {
        QTest::addColumn<bool>("causal");
        QTest::addColumn<bool>("residual");
        QTest::newRow("core") << false << false;
        QTest::newRow("core causal") << true << false;
        QTest::newRow("attention") << false << true;
        QTest::newRow("attention causal") << true << true;
    }
    void attentionMatchesFiniteDifferences() {
        QFETCH(bool, causal);
        QFETCH(bool, residual);
        std::unique_ptr<Layer> layer;
        if (residual) layer = std::make_unique<SelfAttention>(2, causal, 0.0f);
        else layer = std::make_unique<MultiHeadAttention>(2, causal, 0.0f);
        Rng rng(11);
        layer->build(Shape::steps(4, 6), rng);
        randomizeParams(*layer, 12);
        const Matrix x = randomMatrix(3, 24, 13);
        const GradientCheckResult r = checkAll(*layer, x, 14);
        QCOMPARE(r.checked, int(x.size() + layer->paramCount()));
        QVERIFY2(r.passed(), describe(r).c_str());
    }

    // The heads' products against a plain double product, on every tile shape and tail: rows in
    // fours and fewer, columns in two vectors, one and single ones, A as stored or transposed.
    void headProductsMatchAPlainProduct() {
        for (bool transposeA : {false, true})
            for (Index m : {1, 2, 3, 4, 5, 7, 9, 19})
                for (Index n : {1, 3, 8, 16, 17, 35, 40})
                    for (Index k : {1, 5, 16, 19}) {
                        const Matrix a = transposeA ? randomMatrix(k, m + 2, 90 + m) : randomMatrix(m, k + 2, 90 + m);
                        const Matrix b = randomMatrix(k, n + 1, 91 + n);
                        Matrix c = Matrix::Constant(m, n + 3, 7);
                        headProduct(transposeA, m, n, k, a.data(), a.cols(), b.data(), b.cols(), c.data(), c.cols());
                        const Eigen::MatrixXd opA = transposeA
                                                        ? Eigen::MatrixXd(a.leftCols(m).cast<double>().transpose())
                                                        : Eigen::MatrixXd(a.leftCols(k).cast<double>());
                        const Eigen::MatrixXd expected = opA * b.leftCols(n).cast<double>();
                        const double worst = (c.leftCols(n).cast<double>() - expected).cwiseAbs().maxCoeff();
                        QVERIFY2(worst < 1e-5, (std::to_string(m) + " x " + std::to_string(n) + " x " +
                                                std::to_string(k) + ": " + std::to_string(worst))
                                                   .c_str());
                        QVERIFY(c.rightCols(3).isConstant(7, 0));  // nothing written past n
                    }
    }

    // Longer sequences and wider heads than the worked examples (the products' vector tiles).
    void attentionMatchesADirectComputation() {
        for (bool causal : {false, true}) {
            MultiHeadAttention a(2, causal, 0.0f);
            Rng rng(15);
            a.build(Shape::steps(19, 16), rng);
            randomizeParams(a, 16);
            const Matrix x = randomMatrix(3, 19 * 16, 17, -2, 2);
            expectNear(a.forward(x, false), attentionInDouble(a, x, causal), 2e-5);
            GradientCheckOptions options;
            options.maxEntriesPerTensor = 150;
            // The loss sums 608 float outputs: its rounding over 2 epsilon reaches 2e-3 (seen on the
            // key bias, whose exact gradient is 0: softmax ignores a shift shared by all keys).
            options.atol = 5e-3;
            const GradientCheckResult r = checkLayer(a, randomMatrix(2, 19 * 16, 18), true, 19, options);
            QVERIFY2(r.passed(), describe(r).c_str());
        }
    }

    void encoderBlockMatchesFiniteDifferences_data() {
        QTest::addColumn<int>("activation");
        QTest::newRow("gelu") << int(Activation::GELU);
        QTest::newRow("linear") << int(Activation::None);
    }
    void encoderBlockMatchesFiniteDifferences() {
        QFETCH(int, activation);
        EncoderBlock block(2, 6, 0.0f, Activation(activation));
        Rng rng(21);
        block.build(Shape::steps(3, 4), rng);
        randomizeParams(block, 22);
        const Matrix x = randomMatrix(3, 12, 23);
        const GradientCheckResult r = checkAll(block, x, 24);
        QCOMPARE(r.checked, int(x.size() + block.paramCount()));
        QVERIFY2(r.passed(), describe(r).c_str());
    }

    // With the masks held fixed (the same batch origin at every forward), the gradients through
    // every dropout are right too.
    void dropoutGradientsMatchFiniteDifferences() {
        for (int kind : {0, 1}) {
            std::unique_ptr<Layer> inner;
            if (kind == 0) inner = std::make_unique<SelfAttention>(2, false, 0.3f);
            else inner = std::make_unique<EncoderBlock>(2, 6, 0.3f);
            FixedOrigin layer(std::move(inner));
            Rng rng(25);
            layer.build(Shape::steps(3, 4), rng);
            randomizeParams(layer, 26);
            const Matrix x = randomMatrix(3, 12, 27);
            // The masks do drop something: training differs from inference.
            const Matrix inference = layer.forward(x, false);
            QVERIFY((layer.forward(x, true) - inference).cwiseAbs().maxCoeff() > 1e-3);
            const GradientCheckResult r = checkAll(layer, x, 28);
            QVERIFY2(r.passed(), (layer.kind() + ": " + describe(r)).c_str());
        }
    }

    // (The lead's ViT: patch embedding, blocks, a LayerNorm and the class token's pooling.)
    void smallVitMatchesFiniteDifferences() {
        Chain vit(std::make_unique<PatchEmbedding>(2, 4, true), std::make_unique<EncoderBlock>(2, 5, 0.0f),
                  std::make_unique<EncoderBlock>(2, 5, 0.0f), std::make_unique<LayerNorm>(),
                  std::make_unique<SequencePool>(SequencePoolMode::Cls));
        Rng rng(31);
        vit.build(Shape{2, 4, 4}, rng);
        QCOMPARE(vit.outputShape(), Shape::flat(4));
        randomizeParams(vit, 32);
        const Matrix x = randomMatrix(2, 32, 33);
        const GradientCheckResult r = checkAll(vit, x, 34);
        QCOMPARE(r.checked, int(x.size() + vit.paramCount()));
        QVERIFY2(r.passed(), describe(r).c_str());
    }

    // A 1x4x4 image of the values 0..15, patches of 2: (0 1 4 5), (2 3 6 7), (8 9 12 13),
    // (10 11 14 15). W's first column takes a patch's top-left pixel, its second their sum;
    // b = (0.5 -1), position t = (10 t, 100 t), the class token (7 8) at position 0.
    void patchEmbeddingOfASmallImage() {
        PatchEmbedding embed(2, 2, true);
        Rng rng(1);
        embed.build(Shape{1, 4, 4}, rng);
        QCOMPARE(embed.kind(), std::string("patch"));
        QCOMPARE(embed.outputShape(), Shape::steps(5, 2));
        QCOMPARE(embed.patchCount(), 4);
        QCOMPARE(embed.tokens(), 5);
        QCOMPARE(embed.paramCount(), std::int64_t(4 * 2 + 2 + 5 * 2 + 2));
        QCOMPARE(embed.flopsPerSample(), std::int64_t(2 * 4 * 4 * 2));
        const auto params = embed.params();
        QCOMPARE(params.size(), std::size_t(4));
        QVERIFY(params[0].value == &embed.weights() && params[0].decays);
        QVERIFY(params[1].value == &embed.bias() && !params[1].decays);
        QVERIFY(params[2].value == &embed.positions() && !params[2].decays);
        QVERIFY(params[3].value == &embed.classToken() && !params[3].decays);
        QVERIFY(sameBits(embed.classToken(), Matrix::Zero(1, 2)));
        QVERIFY(sameBits(embed.bias(), Matrix::Zero(1, 2)));
        embed.weights() = rows(4, 2, {1, 1, 0, 1, 0, 1, 0, 1});
        embed.bias() = rows(1, 2, {0.5, -1});
        for (Index t = 0; t < 5; ++t) embed.positions().row(t) << Scalar(10 * t), Scalar(100 * t);
        embed.classToken() = rows(1, 2, {7, 8});
        Matrix x(1, 16);
        for (Index i = 0; i < 16; ++i) x(0, i) = Scalar(i);
        QVERIFY(sameBits(embed.forward(x, false), rows(1, 10, {7, 8, 10.5, 109, 22.5, 217, 38.5, 341, 50.5, 449})));
        // Without the class token: the four patch tokens, positions from 0.
        PatchEmbedding plain(2, 2, false);
        plain.build(Shape{1, 4, 4}, rng);
        QCOMPARE(plain.outputShape(), Shape::steps(4, 2));
        QCOMPARE(plain.params().size(), std::size_t(3));
        QVERIFY(plain.classToken().size() == 0);
        plain.weights() = embed.weights();
        plain.bias() = embed.bias();
        for (Index t = 0; t < 4; ++t) plain.positions().row(t) << Scalar(10 * t), Scalar(100 * t);
        QVERIFY(sameBits(plain.forward(x, false), rows(1, 8, {0.5, 9, 12.5, 117, 28.5, 241, 40.5, 349})));
    }

    // Channels: a 2x2x4 image of the values 0..15 (channel 1 holds 8..15) and W = I, so a token is
    // its patch's values as read, (channel, dy, dx): patch 1 is (2 3 6 7 10 11 14 15). The
    // gradient of those tokens goes back to exactly the pixels they came from.
    void patchEmbeddingReadsChannelRowColumn() {
        PatchEmbedding embed(2, 8, false);
        Rng rng(1);
        embed.build(Shape{2, 2, 4}, rng);
        embed.weights() = Matrix::Identity(8, 8);
        embed.positions().setZero();
        Matrix x(2, 16);
        for (Index i = 0; i < 16; ++i) x(0, i) = Scalar(i);
        x.row(1) = -x.row(0);
        const Matrix expected = rows(1, 16, {0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15});
        // Equal values, not bits: -0 and +0 (the first pixel of the negated row) may come out
        // either way, as the build's GEMM sums them.
        const Matrix& y = embed.forward(x, true);
        QVERIFY(y.row(0) == expected);
        QVERIFY(y.row(1) == -expected);
        QVERIFY(*embed.backward(y, true) == x);
    }

    void patchEmbeddingMatchesFiniteDifferences() {
        for (bool cls : {false, true}) {
            PatchEmbedding embed(2, 3, cls);
            Rng rng(41);
            embed.build(Shape{2, 4, 6}, rng);
            randomizeParams(embed, 42);
            const Matrix x = randomMatrix(3, 48, 43);
            const GradientCheckResult r = checkAll(embed, x, 44);
            QCOMPARE(r.checked, int(x.size() + embed.paramCount()));
            QVERIFY2(r.passed(), describe(r).c_str());
        }
    }

    void patchEmbeddingStartsAsDesigned() {
        PatchEmbedding embed(4, 64, true);
        Rng rng(5);
        embed.build(Shape{3, 32, 32}, rng);
        QCOMPARE(embed.outputShape(), Shape::steps(65, 64));
        QCOMPARE(embed.weights().rows(), Index(48));
        const double limit = std::sqrt(6.0 / (48 + 64));
        QVERIFY(embed.weights().cwiseAbs().maxCoeff() <= limit);
        QVERIFY(embed.weights().cwiseAbs().maxCoeff() > 0.9 * limit);
        const Eigen::ArrayXd pos = embed.positions().cast<double>().reshaped().array();
        const double sd = std::sqrt((pos - pos.mean()).square().mean());
        QVERIFY2(std::abs(pos.mean()) < 0.002 && std::abs(sd - 0.02) < 0.001, std::to_string(sd).c_str());
    }

    // Step 0, whatever the mask; its gradient goes to step 0 alone.
    void seqpoolClsTakesStepZero() {
        QCOMPARE(parseSequencePoolMode("cls"), SequencePoolMode::Cls);
        QCOMPARE(sequencePoolModeName(SequencePoolMode::Cls), std::string("cls"));
        QCOMPARE(errorText([] { parseSequencePoolMode("first"); }),
                 QString("seqpool mode 'first': expected mean, last or cls"));
        SequencePool pool(SequencePoolMode::Cls);
        Rng rng(1);
        pool.build(Shape::steps(3, 2), rng);
        QCOMPARE(pool.outputShape(), Shape::flat(2));
        QCOMPARE(pool.flopsPerSample(), std::int64_t(0));
        const Matrix x = rows(2, 6, {1, 2, 3, 4, 5, 6, /**/ 7, 8, 9, 10, 11, 12});
        const Matrix mask = rows(2, 3, {0, 1, 1, 1, 1, 1});
        pool.setStepMask(&mask);
        QVERIFY(sameBits(pool.forward(x, true), rows(2, 2, {1, 2, 7, 8})));
        QVERIFY(sameBits(*pool.backward(rows(2, 2, {3, 4, 5, 6}), true),
                         rows(2, 6, {3, 4, 0, 0, 0, 0, /**/ 5, 6, 0, 0, 0, 0})));
        QVERIFY(pool.backward(rows(2, 2, {3, 4, 5, 6}), false) == nullptr);
        QCOMPARE(dynamic_cast<SequencePool&>(*pool.clone()).mode(), SequencePoolMode::Cls);
    }

    // Parameter order, shapes and counts as the exporters read them, and the figures.
    void encoderBlockParamsAndFigures() {
        EncoderBlock block(2, 6, 0.1f);
        Rng rng(1);
        block.build(Shape::steps(3, 4), rng);
        QCOMPARE(block.kind(), std::string("encoder"));
        QCOMPARE(block.outputShape(), Shape::steps(3, 4));
        QCOMPARE(block.heads(), 2);
        QCOMPARE(block.mlp(), 6);
        QCOMPARE(block.activation(), Activation::GELU);
        QCOMPARE(block.attention().headDim(), Index(2));
        const auto params = block.params();
        const std::vector<std::pair<Index, Index>> shapes{{1, 4}, {1, 4}, {4, 12}, {1, 12}, {4, 4}, {1, 4},
                                                          {1, 4}, {1, 4}, {4, 6},  {1, 6},  {6, 4}, {1, 4}};
        const std::vector<bool> decays{false, false, true, false, true, false, false, false, true, false, true, false};
        QCOMPARE(params.size(), shapes.size());
        std::int64_t total = 0;
        for (std::size_t i = 0; i < params.size(); ++i) {
            QCOMPARE(std::make_pair(params[i].value->rows(), params[i].value->cols()), shapes[i]);
            QCOMPARE(params[i].grad->rows(), shapes[i].first);
            QCOMPARE(params[i].decays, bool(decays[i]));
            total += params[i].value->size();
        }
        QCOMPARE(block.paramCount(), total);
        QCOMPARE(total, std::int64_t(154));
        QVERIFY(params[0].value == &block.norm1().gamma() && params[2].value == &block.attention().inWeights());
        QVERIFY(params[6].value == &block.norm2().gamma() && params[8].value == &block.linear1Weights());
        QVERIFY(params[11].value == &block.linear2Bias());
        // LN 8 per value twice, the projections 2 T D 3D + 2 T D D, the heads' products
        // 2 (2 T^2 D), the MLP 2 (2 T D mlp).
        QCOMPARE(block.flopsPerSample(),
                 std::int64_t(2 * 8 * 12 + 2 * 3 * 4 * 12 + 2 * 3 * 4 * 4 + 4 * 9 * 4 + 4 * 3 * 4 * 6));
        MultiHeadAttention causal(2, true, 0.0f);
        causal.build(Shape::steps(3, 4), rng);
        QCOMPARE(causal.flopsPerSample(), std::int64_t(2 * 3 * 4 * 12 + 2 * 3 * 4 * 4 + 4 * 6 * 4));
        // Initial values: LayerNorms 1 and 0, biases 0, Win within Glorot's limit for (D, 3D).
        QVERIFY(sameBits(block.norm1().gamma(), Matrix::Ones(1, 4)));
        QVERIFY(block.attention().inBias().isZero(0) && block.linear1Bias().isZero(0));
        QVERIFY(block.attention().inWeights().cwiseAbs().maxCoeff() <= std::sqrt(6.0 / 16));
    }

    // The attention weights (batch, heads, T, T) are in the buffers: memory grows with T^2.
    void attentionBuffersHoldTheWeights() {
        std::int64_t bytes[2] = {};
        for (int i = 0; i < 2; ++i) {
            const int T = i == 0 ? 8 : 32;
            SelfAttention layer(4, false, 0.0f);
            Rng rng(1);
            layer.build(Shape::steps(T, 8), rng);
            const Matrix& y = layer.forward(randomMatrix(16, T * 8, 2), true);
            layer.backward(y, true);
            QCOMPARE(layer.core().attentionWeights().rows(), Index(16));
            QCOMPARE(layer.core().attentionWeights().cols(), Index(4 * T * T));
            bytes[i] = layer.bufferBytes();
            QVERIFY(bytes[i] >= std::int64_t(16 * 4 * T * T * sizeof(Scalar)));
        }
        // 4 times the tokens: more than 4 times the memory (what grows with T alone would be 4 times).
        QVERIFY2(bytes[1] > 5 * bytes[0], (std::to_string(bytes[0]) + " " + std::to_string(bytes[1])).c_str());
        EncoderBlock block(4, 16, 0.2f);
        Rng rng(1);
        block.build(Shape::steps(8, 8), rng);
        block.forward(randomMatrix(16, 64, 3), true);
        QVERIFY(block.bufferBytes() > block.attention().bufferBytes() + 2 * 16 * 64 * std::int64_t(sizeof(Scalar)));
    }

    // The buffers of a training step, value by value, as a spec's figures can estimate them: per
    // sample 22 T D + 2 T + 4 T mlp + heads T^2, and with dropout heads T^2 (the mask) + 6 T D +
    // 3 T mlp more (three dropouts' outputs, masks and gradients); once, the parameters' gradients
    // and one head's scratch (dh T + 3 T^2).
    void encoderBlockBuffersValueByValue() {
        const std::int64_t N = 16, T = 8, D = 8, H = 4, mlp = 16, dh = D / H;
        for (float rate : {0.0f, 0.25f}) {
            EncoderBlock block(int(H), int(mlp), rate);
            Rng rng(1);
            block.build(Shape::steps(int(T), int(D)), rng);
            const Matrix x = randomMatrix(N, T * D, 2);
            block.backward(block.forward(x, true), true);
            std::int64_t perSample = 22 * T * D + 2 * T + 4 * T * mlp + H * T * T;
            if (rate > 0) perSample += H * T * T + 6 * T * D + 3 * T * mlp;
            const std::int64_t values = N * perSample + block.paramCount() + dh * T + 3 * T * T;
            QCOMPARE(block.bufferBytes(), values * std::int64_t(sizeof(Scalar)));
        }
    }

    // Dropout changes outputs in training only; the same batch origin gives the same masks, and a
    // slice of the batch that starts at its row gets the same masks as the whole batch there.
    void dropoutFollowsTheBatchOrigin() {
        for (int kind : {0, 1}) {
            const auto make = [&](float rate) -> std::unique_ptr<Layer> {
                if (kind == 0) return std::make_unique<SelfAttention>(2, true, rate);
                return std::make_unique<EncoderBlock>(2, 8, rate);
            };
            auto dropping = make(0.4f), plain = make(0.0f);
            Rng rng(51), same(51);
            dropping->build(Shape::steps(5, 4), rng);
            plain->build(Shape::steps(5, 4), same);  // the same weights: dropout draws nothing else
            const Matrix x = randomMatrix(6, 20, 52);
            const Matrix reference = plain->forward(x, true);
            QVERIFY(sameBits(dropping->forward(x, false), reference));
            dropping->setBatchOrigin(3, 0);
            const Matrix a = dropping->forward(x, true);
            QVERIFY((a - reference).cwiseAbs().maxCoeff() > 1e-2);
            dropping->setBatchOrigin(3, 0);
            QVERIFY(sameBits(dropping->forward(x, true), a));
            // The next step draws new masks.
            const Matrix b = dropping->forward(x, true);
            QVERIFY((b - a).cwiseAbs().maxCoeff() > 1e-2);
            // Rows 2..4 as a replica runs them: the same masks as rows 2..4 of the batch.
            auto replica = dropping->clone();
            replica->setBatchOrigin(3, 2);
            expectNear(replica->forward(x.middleRows(2, 3), true), a.middleRows(2, 3), 1e-5);
        }
    }

    // A copy is deep: changing the original's weights leaves the copy's results as they were.
    void clonesAreDeepCopies() {
        std::vector<std::unique_ptr<Layer>> layers;
        layers.push_back(std::make_unique<LayerNorm>());
        layers.push_back(std::make_unique<SelfAttention>(2, false, 0.0f));
        layers.push_back(std::make_unique<EncoderBlock>(2, 6, 0.0f));
        layers.push_back(std::make_unique<EncoderBlock>(2, 6, 0.0f, Activation::Tanh));
        Rng rng(61);
        const Matrix x = randomMatrix(3, 12, 62);
        for (auto& layer : layers) {
            layer->build(Shape::steps(3, 4), rng);
            randomizeParams(*layer, 63);
            const Matrix before = layer->forward(x, true);
            auto copy = layer->clone();
            QCOMPARE(copy->kind(), layer->kind());
            QCOMPARE(copy->paramCount(), layer->paramCount());
            for (const Param& p : layer->params()) p.value->array() += 0.5f;
            const Matrix& y = copy->forward(x, true);
            QVERIFY2(sameBits(y, before), layer->kind().c_str());
            // And the copy's backward writes its own gradients.
            copy->backward(randomMatrix(3, 12, 64), true);
            const Matrix copyGrad = *copy->params()[0].grad;
            layer->forward(x, true);
            layer->backward(randomMatrix(3, 12, 64), true);
            QVERIFY(!sameBits(*layer->params()[0].grad, copyGrad) || layer->kind() == "layernorm");
            QVERIFY(sameBits(*copy->params()[0].grad, copyGrad));
        }
        PatchEmbedding embed(2, 3, true);
        embed.build(Shape{1, 4, 4}, rng);
        auto copy = embed.clone();
        embed.classToken().setOnes();
        QVERIFY(dynamic_cast<PatchEmbedding&>(*copy).classToken().isZero(0));
    }

    void sameBitsOnOneAndTwoKernelThreads() {
        const Matrix x = randomMatrix(24, 8 * 16, 71);
        const Matrix gradOut = randomMatrix(24, 8 * 16, 72);
        std::vector<Matrix> results[2];
        for (int threads : {1, 2}) {
            KernelThreadScope scope(threads);
            EncoderBlock block(4, 32, 0.1f);
            Rng rng(73);
            block.build(Shape::steps(8, 16), rng);
            std::vector<Matrix>& out = results[threads - 1];
            block.setBatchOrigin(2, 0);
            out.push_back(block.forward(x, true));
            out.push_back(*block.backward(gradOut, true));
            for (const Param& p : block.params()) out.push_back(*p.grad);
        }
        QCOMPARE(results[0].size(), std::size_t(2 + 12));
        for (std::size_t i = 0; i < results[0].size(); ++i)
            QVERIFY2(sameBits(results[0][i], results[1][i]), ("result " + std::to_string(i)).c_str());
    }

    // Data parallelism clones the layers into replicas, each running a slice of the batch: the
    // gradients of 3 slices on 2 threads equal one pass over the whole batch, up to rounding.
    void dataParallelSlicesGiveTheWholeBatchGradients() {
        NetworkSpec spec;
        spec.input = Shape{1, 4, 4};
        spec.outputs = 3;
        Network net(spec, 1);
        Rng rng(81);
        auto& layers = net.layers();
        layers.clear();
        Shape shape = spec.input;
        const auto add = [&](std::unique_ptr<Layer> l) {
            l->build(shape, rng);
            shape = l->outputShape();
            layers.push_back(std::move(l));
        };
        add(std::make_unique<PatchEmbedding>(2, 8, true));
        add(std::make_unique<EncoderBlock>(2, 12, 0.0f));
        add(std::make_unique<SelfAttention>(4, true, 0.0f));
        add(std::make_unique<LayerNorm>());
        add(std::make_unique<SequencePool>(SequencePoolMode::Cls));
        add(std::make_unique<Dense>(3, Init::Glorot));
        const Matrix x = randomMatrix(12, 16, 82);
        const Matrix y = randomMatrix(12, 3, 83);
        const auto loss = makeLoss(LossKind::MeanSquaredError);
        std::vector<Matrix> grads[2];
        for (int split : {0, 1}) {
            Network copy(net);
            BatchSplit parallel;
            parallel.computeGradients(copy, *loss, Task::Regression, x, y, 0, split ? 3 : 1, split ? 2 : 1);
            for (const Param& p : copy.params()) grads[split].push_back(*p.grad);
        }
        QCOMPARE(grads[0].size(), std::size_t(4 + 12 + 4 + 2 + 2));
        for (std::size_t i = 0; i < grads[0].size(); ++i) expectNear(grads[1][i], grads[0][i], 1e-5);
    }

    void errorsNameTheProblem() {
        Rng rng(1);
        SelfAttention attention(3, false, 0.0f);
        QCOMPARE(errorText([&] { attention.build(Shape::steps(5, 8), rng); }),
                 QString("attention: 3 heads do not divide the 8 features of (5 steps x 8) (each head takes "
                         "features / heads of them)"));
        VERIFY_CONTAINS(errorOf([&] { attention.build(Shape::flat(9), rng); }), "attention needs a sequence input");
        EncoderBlock block(3, 16, 0.0f);
        QCOMPARE(errorText([&] { block.build(Shape::steps(4, 16), rng); }),
                 QString("encoder: 3 heads do not divide the 16 features of (4 steps x 16) (each head takes "
                         "features / heads of them)"));
        VERIFY_CONTAINS(errorOf([&] { block.build(Shape{1, 4, 4}, rng); }), "needs a sequence input");
        VERIFY_CONTAINS(errorOf([] { EncoderBlock(2, 0, 0.0f); }), "MLP of at least 1");
        VERIFY_CONTAINS(errorOf([] { SelfAttention(0, false, 0.0f); }), "at least 1 head");
        VERIFY_CONTAINS(errorOf([] { SelfAttention(2, false, 1.0f); }), "dropout must be in [0, 1)");
        PatchEmbedding embed(3, 8, true);
        QCOMPARE(errorText([&] {
                     embed.build(Shape{1, 4, 6}, rng);
                 }),
                 QString("a patch of 3 x 3 pixels does not divide the image of 4 x 6 pixels (1,4,6): its height "
                         "and width must be multiples of the patch size"));
        VERIFY_CONTAINS(errorOf([&] { embed.build(Shape{1, 6, 4}, rng); }), "does not divide the image of 6 x 4");
        VERIFY_CONTAINS(errorOf([&] { embed.build(Shape::steps(6, 6), rng); }), "reads an image");
        VERIFY_CONTAINS(errorOf([] { PatchEmbedding(0, 8, false); }), "patch of at least 1");
        embed.build(Shape{1, 6, 6}, rng);
        VERIFY_CONTAINS(errorOf([&] { embed.forward(Matrix::Zero(2, 35), false); }), "rows of 36 values");
        SelfAttention ok(2, false, 0.0f);
        ok.build(Shape::steps(3, 4), rng);
        VERIFY_CONTAINS(errorOf([&] { ok.forward(Matrix::Zero(2, 10), false); }), "rows of 12 values");
    }
};

QTEST_APPLESS_MAIN(TestTransformerLayers)
#include "tst_transformer_layers.moc"
