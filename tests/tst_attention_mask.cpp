// Self-attention over padded text (issue 27): with a step mask (the embedding's, 0 where the id is
// padding), padding keys get no weight, as PyTorch's key_padding_mask. A worked example of 2 real
// tokens and 1 padding token, numeric gradient checks with padding (2 heads, causal or not, the
// encoder block, a text chain), real steps blind to what the padding steps hold, a text of padding
// alone staying finite, the same answer however much padding a text has, the same bits on 1 and 2
// kernel threads, data-parallel slices, and a padded text classifier that learns.
#include <QtTest>

#include <cmath>
#include <memory>
#include <random>

#include "core/parallel.h"
#include "layer_chain.h"
#include "layers/attention.h"
#include "layers/dense.h"
#include "layers/embedding.h"
#include "layers/encoder_block.h"
#include "layers/sequence_pool.h"
#include "losses/loss.h"
#include "matrix_support.h"
#include "model/gradient_check.h"
#include "model/network.h"
#include "test_support.h"
#include "train/batch_split.h"
#include "train/trainer.h"

using namespace skynnet;
using skynnet::layer_test::Chain;

namespace {

// The weight softmax gives `self` against one `other` score.
double softmaxWeight(double self, double other) { return 1 / (1 + std::exp(other - self)); }

void randomizeParams(Layer& layer, std::uint64_t seed) {
    for (const Param& p : layer.params())
        *p.value = randomMatrix(p.value->rows(), p.value->cols(), seed++, -0.8f, 0.8f);
}

std::string describe(const GradientCheckResult& r) { return r.worst + " ratio " + std::to_string(r.worstRatio); }

// Step masks of 5 steps, pre-padded as the text encoder pads: some padding, none, one real step,
// and padding alone (an empty text).
Matrix paddedMask() { return rows(4, 5, {0, 0, 1, 1, 1, /**/ 1, 1, 1, 1, 1, /**/ 0, 0, 0, 0, 1, /**/ 0, 0, 0, 0, 0}); }

// Pre-padded token ids in [1, vocabulary): row r has r % (steps + 1) padding steps, so every
// amount of padding shows, padding alone included.
Matrix paddedIds(Index count, int steps, int vocabulary, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> id(1, vocabulary - 1);
    Matrix ids = Matrix::Zero(count, steps);
    for (Index r = 0; r < count; ++r)
        for (int t = int(r % (steps + 1)); t < steps; ++t) ids(r, t) = float(id(rng));
    return ids;
}

bool finite(const Matrix& m) { return m.allFinite(); }

std::unique_ptr<Layer> makeLayer(int kind, bool causal, float dropout = 0.0f) {
    if (kind == 0) return std::make_unique<MultiHeadAttention>(2, causal, dropout);
    if (kind == 1) return std::make_unique<SelfAttention>(2, causal, dropout);
    return std::make_unique<EncoderBlock>(2, 8, dropout);
}

// A network of the given layers built in place of a spec's (their spec kinds come separately).
Network networkOf(Shape input, int outputs, std::vector<std::unique_ptr<Layer>> list, std::uint64_t seed) {
    NetworkSpec spec;
    spec.input = input;
    spec.outputs = outputs;
    Network net(spec, 1);
    Rng rng(seed);
    auto& layers = net.layers();
    layers.clear();
    for (auto& l : list) {
        l->build(input, rng);
        input = l->outputShape();
        layers.push_back(std::move(l));
    }
    return net;
}

}  // namespace

class TestAttentionMask : public QObject {
    Q_OBJECT

private slots:
    // Steps: padding x0 = (5 -1), then x1 = (1 2), x2 = (3 0); two heads of one feature each,
    // Q = K = V = x, Wout = I. Head 0 reads the values (5 1 3), head 1 (-1 2 0); every query
    // attends to keys 1 and 2 alone: query 0 of head 0 scores (5, 15) over the values (1, 3), and
    // so on. Causal: query 0 sees no real key, so it keeps its own (weight 1); query 1 sees key 1
    // alone. A second sample of padding alone attends to every step, as without a mask.
    void paddingKeysOfTwoTokensByHand() {
        for (bool causal : {false, true}) {
            SelfAttention layer(2, causal, 0.0f);
            Rng rng(1);
            layer.build(Shape::steps(3, 2), rng);
            MultiHeadAttention& core = layer.core();
            core.inWeights() << Matrix::Identity(2, 2), Matrix::Identity(2, 2), Matrix::Identity(2, 2);
            core.outWeights() = Matrix::Identity(2, 2);
            const Matrix x = rows(2, 6, {5, -1, 1, 2, 3, 0, /**/ 1, 0, 0, 1, 2, 2});
            const Matrix mask = rows(2, 3, {0, 1, 1, /**/ 0, 0, 0});
            layer.setStepMask(&mask);
            QVERIFY(layer.outputStepMask() == &mask);  // the same steps: the input's mask goes on
            const Matrix& y = layer.forward(x, false);
            const Matrix out = y;

            const double a0 = softmaxWeight(5, 15), a1 = softmaxWeight(1, 3), a2 = softmaxWeight(3, 9);  // head 0
            const double b0 = softmaxWeight(-2, 0), b1 = softmaxWeight(4, 0), b2 = 0.5;                  // head 1
            const double h00 = causal ? 5 : a0 * 1 + (1 - a0) * 3, h10 = causal ? -1 : b0 * 2;
            const double h01 = causal ? 1 : a1 * 1 + (1 - a1) * 3, h11 = causal ? 2 : b1 * 2;
            const double h02 = a2 * 1 + (1 - a2) * 3, h12 = b2 * 2;
            expectNear(out.row(0), rows(1, 6, {5 + h00, -1 + h10, 1 + h01, 2 + h11, 3 + h02, h12}), 1e-6);
            // The weights (heads, queries, keys): the padding key's is exactly 0 for real queries.
            const Matrix& w = core.attentionWeights();
            const Matrix expectedWeights =
                causal ? rows(1, 18, {1, 0, 0, 0, 1, 0, 0, a2, 1 - a2, /**/ 1, 0, 0, 0, 1, 0, 0, b2, 1 - b2})
                       : rows(1, 18,
                              {0, a0, 1 - a0, 0, a1, 1 - a1, 0, a2, 1 - a2,  //
                               0, b0, 1 - b0, 0, b1, 1 - b1, 0, b2, 1 - b2});
            expectNear(w.row(0), expectedWeights, 1e-6);
            for (Index h = 0; h < 2; ++h)
                for (Index i = 1; i < 3; ++i) QCOMPARE(w(0, (h * 3 + i) * 3), Scalar(0));

            // Padding alone: every step attends as without a mask, and stays finite.
            QVERIFY(finite(out));
            MultiHeadAttention plain(2, causal, 0.0f);
            plain.build(Shape::steps(3, 2), rng);
            for (std::size_t i = 0; i < 4; ++i) *plain.params()[i].value = *core.params()[i].value;
            expectNear(out.row(1), x.row(1) + plain.forward(x.row(1), false), 1e-6);
            // And the mask matters: without it, sample 0's real steps read the padding.
            const Matrix unmasked = x.row(0) + plain.forward(x.row(0), false);
            QVERIFY((unmasked.rightCols(2) - out.row(0).rightCols(2)).cwiseAbs().maxCoeff() > 1e-3);
        }
    }

    void maskedGradientsMatchFiniteDifferences_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("causal");
        QTest::newRow("core") << 0 << false;
        QTest::newRow("core causal") << 0 << true;
        QTest::newRow("attention") << 1 << false;
        QTest::newRow("attention causal") << 1 << true;
        QTest::newRow("encoder") << 2 << false;
    }
    void maskedGradientsMatchFiniteDifferences() {
        QFETCH(int, kind);
        QFETCH(bool, causal);
        auto layer = makeLayer(kind, causal);
        Rng rng(11);
        layer->build(Shape::steps(5, 6), rng);
        randomizeParams(*layer, 12);
        const Matrix x = randomMatrix(4, 30, 13);
        const Matrix mask = paddedMask();
        layer->setStepMask(&mask);
        GradientCheckOptions options;
        options.maxEntriesPerTensor = 100000;
        const GradientCheckResult r = checkLayer(*layer, x, true, 14, options);
        QCOMPARE(r.checked, int(x.size() + layer->paramCount()));
        QVERIFY2(r.passed(), describe(r).c_str());
    }

    // Token ids through the blocks to the masked mean: padding steps do not reach the loss, so
    // the padding row of the embedding (never given a gradient) must have a zero numeric gradient
    // too, which holds only when no real step reads padding.
    void textChainMatchesFiniteDifferences() {
        Chain text(std::make_unique<Embedding>(6, 9), std::make_unique<EncoderBlock>(2, 8, 0.0f),
                   std::make_unique<SelfAttention>(2, true, 0.0f),
                   std::make_unique<SequencePool>(SequencePoolMode::Mean));
        Rng rng(21);
        text.build(Shape::steps(5, 1), rng);
        randomizeParams(text, 22);
        dynamic_cast<Embedding&>(text.at(0)).weights().row(0).setZero();
        GradientCheckOptions options;
        options.maxEntriesPerTensor = 100000;
        const GradientCheckResult r = checkLayer(text, paddedIds(6, 5, 9, 23), true, 24, options);
        QCOMPARE(r.checked, int(text.paramCount()));
        QVERIFY2(r.passed(), describe(r).c_str());
    }

    // What the padding steps hold changes neither the real steps' outputs nor, with no gradient
    // coming back at the padding steps (as from seqpool:mean), the parameters' gradients.
    void realStepsIgnoreThePaddingValues() {
        for (int kind : {0, 1, 2})
            for (bool causal : {false, true}) {
                if (kind == 2 && causal) continue;  // the block has no causal mask
                auto layer = makeLayer(kind, causal);
                Rng rng(31);
                layer->build(Shape::steps(5, 4), rng);
                randomizeParams(*layer, 32);
                const Matrix mask = paddedMask();
                layer->setStepMask(&mask);
                Matrix x = randomMatrix(4, 20, 33);
                Matrix gradOut = randomMatrix(4, 20, 34);
                for (Index n = 0; n < 4; ++n)
                    for (Index t = 0; t < 5; ++t)
                        if (mask(n, t) == 0) gradOut.row(n).segment(t * 4, 4).setZero();
                const Matrix before = layer->forward(x, true);
                layer->backward(gradOut, true);
                std::vector<Matrix> grads;
                for (const Param& p : layer->params()) grads.push_back(*p.grad);
                for (Index n = 0; n < 4; ++n)
                    for (Index t = 0; t < 5; ++t)
                        if (mask(n, t) == 0) x.row(n).segment(t * 4, 4) = randomMatrix(1, 4, 35 + n * 5 + t, -9, 9);
                const Matrix after = layer->forward(x, true);
                layer->backward(gradOut, true);
                const std::string what = layer->kind() + (causal ? " causal" : "");
                for (Index n = 0; n < 3; ++n)  // the rows with a real step
                    for (Index t = 0; t < 5; ++t) {
                        if (mask(n, t) == 0) continue;
                        QVERIFY2(sameBits(after.row(n).segment(t * 4, 4), before.row(n).segment(t * 4, 4)),
                                 (what + ": sample " + std::to_string(n) + " step " + std::to_string(t)).c_str());
                    }
                QVERIFY(!sameBits(after.row(0).leftCols(8), before.row(0).leftCols(8)));  // padding's own do change
                const auto params = layer->params();
                for (std::size_t i = 0; i < params.size(); ++i) expectNear(*params[i].grad, grads[i], 1e-6);
            }
    }

    // A text of padding alone: finite outputs and gradients, with dropout too.
    void paddingAloneStaysFinite() {
        for (int kind : {0, 1, 2})
            for (bool causal : {false, true}) {
                auto layer = makeLayer(kind, causal, 0.2f);
                Rng rng(41);
                layer->build(Shape::steps(4, 6), rng);
                const Matrix mask = Matrix::Zero(3, 4);
                layer->setStepMask(&mask);
                const Matrix& y = layer->forward(randomMatrix(3, 24, 42), true);
                QVERIFY(finite(y));
                const Matrix* g = layer->backward(randomMatrix(3, 24, 43), true);
                QVERIFY(g && finite(*g));
                for (const Param& p : layer->params()) QVERIFY(finite(*p.grad));
            }
        Chain text(std::make_unique<Embedding>(4, 5), std::make_unique<EncoderBlock>(2, 8, 0.0f),
                   std::make_unique<SelfAttention>(2, true, 0.0f),
                   std::make_unique<SequencePool>(SequencePoolMode::Mean));
        Rng rng(44);
        text.build(Shape::steps(6, 1), rng);
        const Matrix& pooled = text.forward(Matrix::Zero(2, 6), false);
        QVERIFY(finite(pooled));
        QVERIFY(pooled.isZero(0));  // the mean over no real step
    }

    // Without positions, padding is invisible end to end: a text of 3 tokens pre-padded to 8
    // steps gives what the same weights give it unpadded, through blocks and causal attention.
    void paddingDoesNotChangeTheAnswer() {
        const auto chain = [] {
            return std::make_unique<Chain>(std::make_unique<Embedding>(6, 11),
                                           std::make_unique<EncoderBlock>(2, 8, 0.0f),
                                           std::make_unique<SelfAttention>(2, true, 0.0f),
                                           std::make_unique<EncoderBlock>(3, 5, 0.0f),
                                           std::make_unique<SequencePool>(SequencePoolMode::Mean));
        };
        auto padded = chain(), unpadded = chain();
        Rng rng(51);
        padded->build(Shape::steps(8, 1), rng);
        unpadded->build(Shape::steps(3, 1), rng);
        randomizeParams(*padded, 52);
        const auto from = padded->params(), to = unpadded->params();
        QCOMPARE(from.size(), to.size());
        for (std::size_t i = 0; i < from.size(); ++i) *to[i].value = *from[i].value;
        const Matrix texts = paddedIds(4, 3, 11, 53).topRows(1);  // 3 real tokens
        Matrix ids = Matrix::Zero(3, 8);
        ids.row(0).rightCols(3) = texts;
        ids.row(1).rightCols(3) = rows(1, 3, {4, 7, 2});
        ids.row(2).rightCols(3) = rows(1, 3, {10, 10, 1});
        Matrix short3(3, 3);
        for (Index r = 0; r < 3; ++r) short3.row(r) = ids.row(r).rightCols(3);
        expectNear(padded->forward(ids, false), unpadded->forward(short3, false), 1e-5);
    }

    void sameBitsOnOneAndTwoKernelThreads() {
        const Matrix x = randomMatrix(12, 8 * 16, 61);
        const Matrix gradOut = randomMatrix(12, 8 * 16, 62);
        Matrix mask = Matrix::Ones(12, 8);
        for (Index n = 0; n < 12; ++n) mask.row(n).leftCols(n % 9).setZero();
        std::vector<Matrix> results[2];
        for (int threads : {1, 2}) {
            KernelThreadScope scope(threads);
            Chain blocks(std::make_unique<EncoderBlock>(4, 32, 0.1f), std::make_unique<SelfAttention>(4, true, 0.1f));
            Rng rng(63);
            blocks.build(Shape::steps(8, 16), rng);
            blocks.setStepMask(&mask);
            std::vector<Matrix>& out = results[threads - 1];
            blocks.setBatchOrigin(2, 0);
            out.push_back(blocks.forward(x, true));
            out.push_back(*blocks.backward(gradOut, true));
            for (const Param& p : blocks.params()) out.push_back(*p.grad);
        }
        QCOMPARE(results[0].size(), std::size_t(2 + 12 + 4));
        for (std::size_t i = 0; i < results[0].size(); ++i)
            QVERIFY2(sameBits(results[0][i], results[1][i]), ("result " + std::to_string(i)).c_str());
    }

    // Each replica masks its own slice's rows: the gradients of 3 slices on 2 threads equal one
    // pass over the whole batch, up to rounding, and a slice predicts what the whole batch does.
    void dataParallelSlicesGiveTheWholeBatchGradients() {
        std::vector<std::unique_ptr<Layer>> list;
        list.push_back(std::make_unique<Embedding>(8, 13));
        list.push_back(std::make_unique<EncoderBlock>(2, 12, 0.0f));
        list.push_back(std::make_unique<SelfAttention>(4, true, 0.0f));
        list.push_back(std::make_unique<SequencePool>(SequencePoolMode::Mean));
        list.push_back(std::make_unique<Dense>(3, Init::Glorot));
        Network net = networkOf(Shape::steps(6, 1), 3, std::move(list), 71);
        const Matrix ids = paddedIds(12, 6, 13, 72);
        const Matrix y = randomMatrix(12, 3, 73);
        const Matrix whole = net.forward(ids, false);
        expectNear(net.forward(ids.middleRows(4, 5), false), whole.middleRows(4, 5), 1e-6);
        const auto loss = makeLoss(LossKind::MeanSquaredError);
        std::vector<Matrix> grads[2];
        for (int split : {0, 1}) {
            Network copy(net);
            BatchSplit parallel;
            parallel.computeGradients(copy, *loss, Task::Regression, ids, y, 0, split ? 3 : 1, split ? 2 : 1);
            for (const Param& p : copy.params()) grads[split].push_back(*p.grad);
        }
        QCOMPARE(grads[0].size(), std::size_t(1 + 12 + 4 + 2));
        for (std::size_t i = 0; i < grads[0].size(); ++i) expectNear(grads[1][i], grads[0][i], 1e-5);
        QVERIFY(grads[0][0].row(0).isZero(0));  // the padding id never learns
    }

    // embedding -> encoder -> seqpool:mean learns whether a padded text holds token 2 (texts of 1
    // to 10 tokens in 10 steps): the loss falls and the answers become right.
    void paddedTextClassifierLearns() {
        const int steps = 10, vocabulary = 12, count = 256;
        std::mt19937 rng(81);
        std::uniform_int_distribution<int> length(1, steps), other(3, vocabulary - 1), place(0, steps - 1);
        Matrix ids = Matrix::Zero(count, steps), y = Matrix::Zero(count, 2);
        for (int r = 0; r < count; ++r) {
            const int n = length(rng), label = r % 2;
            for (int t = steps - n; t < steps; ++t) ids(r, t) = float(other(rng));
            if (label) ids(r, steps - 1 - place(rng) % n) = 2;
            y(r, label) = 1;
        }
        NetworkSpec spec;
        spec.input = Shape::steps(steps, 1);
        spec.layers = parseLayers("embedding:16,encoder:2:32,seqpool:mean");
        spec.bindVocabulary(vocabulary);
        spec.setOutputFor(Task::Classification, 2);
        Network net(spec, 3);
        TrainConfig c;
        c.epochs = 12;
        c.batchSize = 32;
        c.optimizer.kind = OptimizerKind::Adam;
        c.optimizer.learningRate = 0.01f;
        c.threads = 1;
        const TrainResult result = Trainer(net, c, Task::Classification).fit(ids, y);
        QVERIFY(result.status == TrainStatus::Completed);
        const double first = result.history.front().loss, last = result.history.back().loss;
        qInfo("loss %.4f -> %.4f, accuracy %.3f", first, last, result.history.back().metric);
        QVERIFY2(last < 0.3 * first, (std::to_string(first) + " -> " + std::to_string(last)).c_str());
        QVERIFY2(result.history.back().metric > 0.95, std::to_string(result.history.back().metric).c_str());
    }
};

QTEST_APPLESS_MAIN(TestAttentionMask)
#include "tst_attention_mask.moc"
