// The layers of text and sequence models (issue 26): Embedding, SequencePool, BatchNorm over
// sequences, and the step mask that carries padding from the embedding to the pooling, through a
// GRU and through a Network. Worked examples, numeric gradient checks over padded sequences of 3
// or more steps, and the same bits on any kernel thread count.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "core/error.h"
#include "core/parallel.h"
#include "layer_chain.h"
#include "layers/batch_norm.h"
#include "layers/dense.h"
#include "layers/embedding.h"
#include "layers/gru.h"
#include "layers/sequence_pool.h"
#include "losses/loss.h"
#include "matrix_support.h"
#include "model/gradient_check.h"
#include "model/network.h"
#include "optim/optimizer.h"
#include "test_support.h"
#include "train/batch_split.h"

using namespace skynnet;
using skynnet::layer_test::Chain;

namespace {

// Token ids of 4 samples of 5 steps, pre-padded as the text encoder pads them: a short text, a
// full one, one with a single token and one that is all padding. Vocabulary 7.
Matrix paddedIds() { return rows(4, 5, {0, 0, 3, 1, 6, /**/ 2, 5, 4, 4, 1, /**/ 0, 0, 0, 0, 5, /**/ 0, 0, 0, 0, 0}); }

// The numeric check of an embedding's weights inside a chain, every row but padding's, whose
// analytic gradient must be exactly zero: padding steps do reach the loss through a GRU (their
// vectors are row 0's), yet row 0 gets no gradient by design (PyTorch's padding_idx).
GradientCheckResult checkEmbeddingWeights(Chain& chain, Embedding& embedding, const Matrix& ids, std::uint64_t seed) {
    const GradientCheckOptions opt;
    const Matrix r = randomMatrix(chain.forward(ids, true).rows(), chain.forward(ids, true).cols(), seed);
    chain.forward(ids, true);
    chain.backward(r, false);
    const Matrix grad = *embedding.params()[0].grad;
    GradientCheckResult result;
    if (!grad.row(0).isZero(0)) {
        result.worstRatio = 1e9;
        result.worst = "the padding row got a gradient";
        return result;
    }
    const auto loss = [&] {
        return (chain.forward(ids, true).cast<double>().array() * r.cast<double>().array()).sum();
    };
    Matrix& w = embedding.weights();
    for (Index i = w.cols(); i < w.size(); ++i) {
        const Scalar saved = w.data()[i];
        w.data()[i] = Scalar(saved + opt.epsilon);
        const double plus = loss();
        w.data()[i] = Scalar(saved - opt.epsilon);
        const double minus = loss();
        w.data()[i] = saved;
        const double numeric = (plus - minus) / (2 * opt.epsilon), analytic = grad.data()[i];
        const double ratio = std::abs(analytic - numeric) /
                             (opt.atol + opt.rtol * std::max(std::abs(analytic), std::abs(numeric)));
        if (++result.checked == 1 || ratio > result.worstRatio) {
            result.worstRatio = ratio;
            result.worst = "weight " + std::to_string(i) + ": analytic " + std::to_string(analytic) + ", numeric " +
                           std::to_string(numeric);
        }
    }
    return result;
}

// The mean of each sample's steps of h (steps x features) whose id is not 0, worked in double.
Matrix maskedMeanByHand(const Matrix& h, const Matrix& ids, Index features) {
    Matrix out = Matrix::Zero(h.rows(), features);
    for (Index n = 0; n < h.rows(); ++n) {
        Eigen::VectorXd sum = Eigen::VectorXd::Zero(features);
        int real = 0;
        for (Index t = 0; t < ids.cols(); ++t)
            if (ids(n, t) != 0) {
                sum += h.row(n).segment(t * features, features).cast<double>().transpose();
                ++real;
            }
        if (real > 0) out.row(n) = (sum / real).cast<Scalar>().transpose();
    }
    return out;
}

}  // namespace

class TestSequenceLayers : public QObject {
    Q_OBJECT

private slots:
    // Ids (0 2 4) and (1 1 3) over weights whose row i is (i, 10 i, 100 i): the rows, in order.
    void embeddingGathersRowsAndMasksPadding() {
        Embedding e(3, 5);
        Rng rng(1);
        e.build(Shape::steps(3, 1), rng);
        QCOMPARE(e.kind(), std::string("embedding"));
        QCOMPARE(e.outputShape(), Shape::steps(3, 3));
        QCOMPARE(e.paramCount(), std::int64_t(15));
        QCOMPARE(e.params().size(), std::size_t(1));
        QVERIFY(e.params()[0].decays);
        for (Index i = 0; i < 5; ++i) e.weights().row(i) << Scalar(i), Scalar(10 * i), Scalar(100 * i);
        const Matrix ids = rows(2, 3, {0, 2, 4, 1, 1, 3});
        QVERIFY(sameBits(e.forward(ids, false), rows(2, 9,
                                                     {0, 0, 0, 2, 20, 200, 4, 40, 400,  //
                                                      1, 10, 100, 1, 10, 100, 3, 30, 300})));
        QVERIFY(e.outputStepMask() != nullptr);
        QVERIFY(sameBits(*e.outputStepMask(), rows(2, 3, {0, 1, 1, 1, 1, 1})));
        // The mask follows the latest batch.
        e.forward(rows(1, 3, {0, 0, 2}), true);
        QVERIFY(sameBits(*e.outputStepMask(), rows(1, 3, {0, 0, 1})));
    }

    void embeddingStartsNormalWithAZeroPaddingRow() {
        Embedding e(16, 1000);
        Rng rng(3);
        e.build(Shape::steps(4, 1), rng);
        const Matrix& w = e.weights();
        QVERIFY(w.row(0).isZero(0));
        const Eigen::ArrayXd rest = w.bottomRows(999).cast<double>().reshaped().array();
        const double mean = rest.mean(), sd = std::sqrt((rest - mean).square().mean());
        QVERIFY2(std::abs(mean) < 0.03 && std::abs(sd - 1) < 0.03,
                 (std::to_string(mean) + " " + std::to_string(sd)).c_str());
        QCOMPARE(e.flopsPerSample(), std::int64_t(0));
        auto copy = e.clone();
        QCOMPARE(copy->kind(), std::string("embedding"));
        QVERIFY(sameBits(dynamic_cast<Embedding&>(*copy).weights(), w));
    }

    // Ids (0 2 2) and (2 1 0), dim 2: row 2 sums three steps' gradients in order, row 1 gets one,
    // padding's row none; the ids get no gradient.
    void embeddingScatterAddsGradients() {
        Embedding e(2, 4);
        Rng rng(1);
        e.build(Shape::steps(3, 1), rng);
        e.forward(rows(2, 3, {0, 2, 2, 2, 1, 0}), true);
        const Matrix g = rows(2, 6, {9, 9, 1, 2, 3, 4, /**/ 5, 6, 7, 8, 9, 9});
        QVERIFY(e.backward(g, false) == nullptr);
        QVERIFY(sameBits(*e.params()[0].grad, rows(4, 2, {0, 0, 7, 8, 9, 12, 0, 0})));
        const Matrix* gx = e.backward(g, true);
        QVERIFY(gx != nullptr);
        QVERIFY(sameBits(*gx, Matrix::Zero(2, 3)));
        QVERIFY(sameBits(*e.params()[0].grad, rows(4, 2, {0, 0, 7, 8, 9, 12, 0, 0})));  // overwritten, not added
    }

    // Whatever the optimiser and its weight decay, padding's row stays exactly zero.
    void paddingRowStaysZeroThroughTraining() {
        for (OptimizerKind kind :
             {OptimizerKind::SGD, OptimizerKind::Adam, OptimizerKind::AdamW, OptimizerKind::RMSProp}) {
            Chain chain(std::make_unique<Embedding>(4, 7), std::make_unique<Gru>(3, 5, true),
                        std::make_unique<SequencePool>(SequencePoolMode::Mean));
            Rng rng(5);
            chain.build(Shape::steps(5, 1), rng);
            OptimizerConfig config;
            config.kind = kind;
            config.learningRate = 0.1f;
            config.momentum = 0.9f;
            config.weightDecay = 0.01f;
            auto optimizer = makeOptimizer(config);
            const Matrix ids = paddedIds();
            for (int step = 0; step < 3; ++step) {
                const Matrix& out = chain.forward(ids, true);
                chain.backward(randomMatrix(out.rows(), out.cols(), 40 + step), false);
                QVERIFY(chain.params()[0].grad->row(0).isZero(0));
                optimizer->step(chain.params());
            }
            Embedding& e = dynamic_cast<Embedding&>(chain.at(0));
            QVERIFY2(e.weights().row(0).isZero(0), optimizerName(kind).c_str());
            QVERIFY(!e.weights().row(1).isZero(0));
        }
    }

    void badIdsAreErrorsNamingTheIdAndTheVocabulary() {
        Embedding e(2, 5);
        Rng rng(1);
        e.build(Shape::steps(2, 1), rng);
        QCOMPARE(errorText([&] {
                     e.forward(rows(1, 2, {1, 5}), false);
                 }),
                 QString("token id 5 is not in the embedding's vocabulary of 5 ids (0 to 4)"));
        VERIFY_CONTAINS(errorOf([&] { e.forward(rows(1, 2, {-1, 2}), false); }), "token id -1 ");
        VERIFY_CONTAINS(errorOf([&] { e.forward(rows(1, 2, {2.5f, 2}), false); }), "token id 2.5 ");
        VERIFY_CONTAINS(errorOf([&] {
                            e.forward(rows(1, 2, {std::numeric_limits<Scalar>::quiet_NaN(), 2}), false);
                        }),
                        "token id nan ");
        VERIFY_CONTAINS(errorOf([&] { e.forward(rows(1, 3, {1, 2, 3}), false); }), "expects 2 token ids per row");
        Embedding other(2, 5);
        VERIFY_CONTAINS(errorOf([&] { other.build(Shape::flat(4), rng); }), "sequence of token ids");
        VERIFY_CONTAINS(errorOf([&] { other.build(Shape::steps(4, 2), rng); }), "sequence of token ids");
        VERIFY_CONTAINS(errorOf([] { Embedding(0, 5); }), "dimension of at least 1");
        VERIFY_CONTAINS(errorOf([] { Embedding(2, 0); }), "vocabulary");
    }

    void embeddingGradientsMatchFiniteDifferences() {
        // Alone: the loss weighs every step, padding's too.
        {
            Chain chain(std::make_unique<Embedding>(3, 7));
            Rng rng(2);
            chain.build(Shape::steps(5, 1), rng);
            const auto r = checkEmbeddingWeights(chain, dynamic_cast<Embedding&>(chain.at(0)), paddedIds(), 3);
            QCOMPARE(r.checked, 6 * 3);
            QVERIFY2(r.passed(), (r.worst + " ratio " + std::to_string(r.worstRatio)).c_str());
        }
        // Through a GRU over every step and the masked mean or the last step.
        for (SequencePoolMode mode : {SequencePoolMode::Mean, SequencePoolMode::Last}) {
            Chain chain(std::make_unique<Embedding>(3, 7), std::make_unique<Gru>(4, 5, true),
                        std::make_unique<SequencePool>(mode));
            Rng rng(4);
            chain.build(Shape::steps(5, 1), rng);
            const auto r = checkEmbeddingWeights(chain, dynamic_cast<Embedding&>(chain.at(0)), paddedIds(), 5);
            QCOMPARE(r.checked, 6 * 3);
            QVERIFY2(r.passed(),
                     (sequencePoolModeName(mode) + ": " + r.worst + " ratio " + std::to_string(r.worstRatio)).c_str());
        }
    }

    // Embedding -> masked mean: padding steps do not reach the loss, so the check covers every
    // weight, padding's row included (numeric 0, analytic 0).
    void embeddingThenMaskedMeanMatchesFiniteDifferences() {
        Chain chain(std::make_unique<Embedding>(3, 7), std::make_unique<SequencePool>(SequencePoolMode::Mean));
        Rng rng(6);
        chain.build(Shape::steps(5, 1), rng);
        GradientCheckOptions options;
        options.maxEntriesPerTensor = 1000;
        const GradientCheckResult r = checkLayer(chain, paddedIds(), true, 7, options);
        QCOMPARE(r.checked, 7 * 3);
        QVERIFY2(r.passed(), (r.worst + " ratio " + std::to_string(r.worstRatio)).c_str());
    }

    // Every GRU parameter and the GRU's input, through a pooling that reads a padded mask.
    void gruThenPoolingMatchesFiniteDifferences_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("mean") << int(SequencePoolMode::Mean);
        QTest::newRow("last") << int(SequencePoolMode::Last);
    }
    void gruThenPoolingMatchesFiniteDifferences() {
        QFETCH(int, mode);
        Chain chain(std::make_unique<Gru>(3, 5, true), std::make_unique<SequencePool>(SequencePoolMode(mode)));
        Rng rng(8);
        chain.build(Shape::steps(5, 2), rng);
        const Matrix ids = paddedIds();
        const Matrix mask = (ids.array() != 0).cast<Scalar>();
        chain.setStepMask(&mask);
        GradientCheckOptions options;
        options.maxEntriesPerTensor = 1000;
        const Matrix x = randomMatrix(4, 10, 9);
        const GradientCheckResult r = checkLayer(chain, x, true, 10, options);
        QCOMPARE(r.checked, int(x.size() + chain.paramCount()));
        QVERIFY2(r.passed(), (r.worst + " ratio " + std::to_string(r.worstRatio)).c_str());
    }

    // Sequence pooling alone, with padding and an all-padding sample, against finite differences.
    void sequencePoolMatchesFiniteDifferences() {
        const Matrix mask = (paddedIds().array() != 0).cast<Scalar>();
        for (SequencePoolMode mode : {SequencePoolMode::Mean, SequencePoolMode::Last})
            for (const Matrix* m : {&mask, static_cast<const Matrix*>(nullptr)}) {
                SequencePool pool(mode);
                Rng rng(1);
                pool.build(Shape::steps(5, 3), rng);
                pool.setStepMask(m);
                GradientCheckOptions options;
                options.maxEntriesPerTensor = 1000;
                const Matrix x = randomMatrix(4, 15, 11);
                const GradientCheckResult r = checkLayer(pool, x, true, 12, options);
                QCOMPARE(r.checked, int(x.size()));
                QVERIFY2(r.passed(), (r.worst + " ratio " + std::to_string(r.worstRatio)).c_str());
            }
    }

    // 3 steps of 2 features. Sample 1 (1 2 | 3 4 | 5 6), step 0 padding: mean (4, 5). Sample 2
    // (1 1 | 2 2 | 6 9), no padding: mean (3, 4). Sample 3 all padding: zeros. Last: step 2.
    void sequencePoolWorkedExamples() {
        const Matrix x = rows(3, 6, {1, 2, 3, 4, 5, 6, /**/ 1, 1, 2, 2, 6, 9, /**/ 7, 7, 7, 7, 7, 7});
        const Matrix mask = rows(3, 3, {0, 1, 1, 1, 1, 1, 0, 0, 0});
        SequencePool mean(SequencePoolMode::Mean);
        Rng rng(1);
        mean.build(Shape::steps(3, 2), rng);
        QCOMPARE(mean.kind(), std::string("seqpool"));
        QCOMPARE(mean.outputShape(), Shape::flat(2));
        QCOMPARE(mean.paramCount(), std::int64_t(0));
        mean.setStepMask(&mask);
        QVERIFY(sameBits(mean.forward(x, true), rows(3, 2, {4, 5, 3, 4, 0, 0})));
        QVERIFY(mean.outputStepMask() == nullptr);  // flat: no steps left to mask
        const Matrix g = rows(3, 2, {2, 4, 3, 6, 5, 5});
        QVERIFY(sameBits(*mean.backward(g, true),
                         rows(3, 6, {0, 0, 1, 2, 1, 2, /**/ 1, 2, 1, 2, 1, 2, /**/ 0, 0, 0, 0, 0, 0})));
        QVERIFY(mean.backward(g, false) == nullptr);
        // Without a mask: every step.
        mean.setStepMask(nullptr);
        expectNear(mean.forward(x, true), rows(3, 2, {3, 4, 3, 4, 7, 7}), 1e-6);

        SequencePool last(SequencePoolMode::Last);
        last.build(Shape::steps(3, 2), rng);
        last.setStepMask(&mask);
        QVERIFY(sameBits(last.forward(x, true), rows(3, 2, {5, 6, 6, 9, 7, 7})));
        QVERIFY(sameBits(*last.backward(g, true),
                         rows(3, 6, {0, 0, 0, 0, 2, 4, /**/ 0, 0, 0, 0, 3, 6, /**/ 0, 0, 0, 0, 5, 5})));
        auto copy = last.clone();
        QCOMPARE(dynamic_cast<SequencePool&>(*copy).mode(), SequencePoolMode::Last);
    }

    void sequencePoolModesAndErrors() {
        QCOMPARE(parseSequencePoolMode("mean"), SequencePoolMode::Mean);
        QCOMPARE(parseSequencePoolMode("last"), SequencePoolMode::Last);
        QCOMPARE(sequencePoolModeName(SequencePoolMode::Mean), std::string("mean"));
        QCOMPARE(sequencePoolModeName(SequencePoolMode::Last), std::string("last"));
        QCOMPARE(errorText([] { parseSequencePoolMode("max"); }),
                 QString("seqpool mode 'max': expected mean, last or cls"));
        SequencePool pool(SequencePoolMode::Mean);
        Rng rng(1);
        VERIFY_CONTAINS(errorOf([&] { pool.build(Shape::flat(6), rng); }), "seqpool needs a sequence input");
        pool.build(Shape::steps(3, 2), rng);
        const Matrix mask = Matrix::Ones(2, 4);
        pool.setStepMask(&mask);
        VERIFY_CONTAINS(errorOf([&] { pool.forward(Matrix::Zero(2, 6), false); }), "step mask of 2 x 4");
        VERIFY_CONTAINS(errorOf([&] { pool.forward(Matrix::Zero(2, 5), false); }), "rows of 6 values");
    }

    // Which layers pass their input's mask on: those whose output has the same steps.
    void stepMasksFollowTheSteps() {
        const Matrix mask = rows(1, 4, {0, 1, 1, 1});
        Rng rng(1);
        Gru sequences(3, 4, true), last(3, 4, false);
        BatchNorm bn(0.1f, 1e-5f);
        Dense dense(2, Init::Glorot);
        for (Layer* l : std::initializer_list<Layer*>{&sequences, &last, &bn, &dense}) {
            l->build(Shape::steps(4, 2), rng);
            l->setStepMask(&mask);
        }
        QCOMPARE(sequences.outputShape(), Shape::steps(4, 3));
        QVERIFY(sequences.outputStepMask() == &mask);
        QVERIFY(bn.outputStepMask() == &mask);
        QVERIFY(last.outputStepMask() == nullptr);
        QVERIFY(dense.outputStepMask() == nullptr);
        sequences.setStepMask(nullptr);
        QVERIFY(sequences.outputStepMask() == nullptr);
    }

    // bn over a sequence is the flat bn over the (batch * steps, features) view of the same
    // memory: the same bits forward, backward and in the running statistics.
    void batchNormOverStepsIsFlatBatchNormOverTheStepRows() {
        const Index batch = 5, steps = 4, features = 3;
        const Matrix x = randomMatrix(batch, steps * features, 21, -2, 3);
        const Matrix g = randomMatrix(batch, steps * features, 22);
        BatchNorm sequence(0.1f, 1e-5f), flat(0.1f, 1e-5f);
        Rng rng(1);
        sequence.build(Shape::steps(steps, features), rng);
        flat.build(Shape::flat(features), rng);
        QCOMPARE(sequence.paramCount(), std::int64_t(2 * features));
        QCOMPARE(sequence.stateCount(), std::int64_t(2 * features));
        sequence.gamma() = randomMatrix(1, features, 23, 0.5f, 2);
        sequence.beta() = randomMatrix(1, features, 24);
        flat.gamma() = sequence.gamma();
        flat.beta() = sequence.beta();
        const Matrix xRows = x.reshaped<Eigen::RowMajor>(batch * steps, features);
        const Matrix gRows = g.reshaped<Eigen::RowMajor>(batch * steps, features);
        for (bool training : {true, false}) {
            const Matrix y = sequence.forward(x, training);
            const Matrix yRows = flat.forward(xRows, training);
            QVERIFY(sameBits(y.reshaped<Eigen::RowMajor>(batch * steps, features), yRows));
            const Matrix gx = *sequence.backward(g, true);
            QVERIFY(sameBits(gx.reshaped<Eigen::RowMajor>(batch * steps, features), *flat.backward(gRows, true)));
            for (std::size_t i = 0; i < 2; ++i) QVERIFY(sameBits(*sequence.params()[i].grad, *flat.params()[i].grad));
            QVERIFY(sameBits(sequence.runningMean(), flat.runningMean()));
            QVERIFY(sameBits(sequence.runningVar(), flat.runningVar()));
        }
        // The statistics are per feature over all 20 step rows: feature 0's running mean moved a
        // tenth of the way to their mean.
        const double mean0 = xRows.col(0).cast<double>().mean();
        QVERIFY(std::abs(double(sequence.runningMean()(0, 0)) - 0.1 * mean0) < 1e-6);
    }

    void batchNormOverStepsMatchesFiniteDifferences() {
        for (bool training : {true, false}) {
            BatchNorm bn(0.1f, 1e-3f);
            Rng rng(1);
            bn.build(Shape::steps(4, 3), rng);
            bn.gamma() = randomMatrix(1, 3, 31, 0.5f, 2);
            bn.beta() = randomMatrix(1, 3, 32);
            bn.runningMean() = randomMatrix(1, 3, 33);
            bn.runningVar() = randomMatrix(1, 3, 34, 0.5f, 2);
            GradientCheckOptions options;
            options.maxEntriesPerTensor = 1000;
            const Matrix x = randomMatrix(3, 12, 35);
            const GradientCheckResult r = checkLayer(bn, x, training, 36, options);
            QCOMPARE(r.checked, int(x.size() + 6));
            QVERIFY2(r.passed(), (std::string(training ? "training " : "inference ") + r.worst + " ratio " +
                                  std::to_string(r.worstRatio))
                                     .c_str());
        }
        // Through a GRU's sequence and a masked mean, the GRU's weights included.
        Chain chain(std::make_unique<Gru>(3, 5, true), std::make_unique<BatchNorm>(0.1f, 1e-3f),
                    std::make_unique<SequencePool>(SequencePoolMode::Mean));
        Rng rng(2);
        chain.build(Shape::steps(5, 2), rng);
        const Matrix mask = (paddedIds().array() != 0).cast<Scalar>();
        chain.setStepMask(&mask);
        GradientCheckOptions options;
        options.maxEntriesPerTensor = 1000;
        const Matrix x = randomMatrix(4, 10, 37);
        const GradientCheckResult r = checkLayer(chain, x, true, 38, options);
        QCOMPARE(r.checked, int(x.size() + chain.paramCount()));
        QVERIFY2(r.passed(), (r.worst + " ratio " + std::to_string(r.worstRatio)).c_str());
    }

    void sameBitsOnOneAndTwoKernelThreads() {
        const int steps = 6, vocabulary = 50;
        Matrix ids(32, steps);
        Rng draw(51);
        for (Index i = 0; i < ids.size(); ++i) ids.data()[i] = Scalar(draw.below(vocabulary));
        ids.row(3).setZero();
        const Matrix gradOut = randomMatrix(32, 16, 52);
        std::vector<Matrix> results[2];
        for (int threads : {1, 2}) {
            KernelThreadScope scope(threads);
            Chain chain(std::make_unique<Embedding>(8, vocabulary), std::make_unique<Gru>(16, steps, true),
                        std::make_unique<BatchNorm>(0.1f, 1e-5f),
                        std::make_unique<SequencePool>(SequencePoolMode::Mean));
            Rng rng(53);
            chain.build(Shape::steps(steps, 1), rng);
            std::vector<Matrix>& out = results[threads - 1];
            out.push_back(chain.forward(ids, true));
            chain.backward(gradOut, false);
            for (const Param& p : chain.params()) out.push_back(*p.grad);
        }
        QCOMPARE(results[0].size(), std::size_t(8));
        for (std::size_t i = 0; i < results[0].size(); ++i)
            QVERIFY2(sameBits(results[0][i], results[1][i]), ("result " + std::to_string(i)).c_str());
    }

    // The mask flows through a Network: embedding -> gru:sequences -> bn -> seqpool:mean gives the
    // mean of the normalised GRU steps whose id is not padding, worked by hand from the same layers.
    void networkCarriesTheMaskToThePooling() {
        const int steps = 5, vocabulary = 7, dim = 3, units = 4;
        NetworkSpec spec;
        spec.input = Shape::steps(steps, 1);
        spec.outputs = units;
        Network net(spec, 1);
        // Built layer by layer here (their spec kinds come separately), in place of the spec's.
        Rng rng(61);
        auto& layers = net.layers();
        layers.clear();
        Shape shape = spec.input;
        const auto add = [&](std::unique_ptr<Layer> l) {
            l->build(shape, rng);
            shape = l->outputShape();
            layers.push_back(std::move(l));
        };
        add(std::make_unique<Embedding>(dim, vocabulary));
        add(std::make_unique<Gru>(units, steps, true));
        add(std::make_unique<BatchNorm>(0.1f, 1e-5f));
        add(std::make_unique<SequencePool>(SequencePoolMode::Mean));
        QCOMPARE(shape, Shape::flat(units));
        auto& bn = dynamic_cast<BatchNorm&>(*layers[2]);
        bn.runningMean() = randomMatrix(1, units, 62);
        bn.runningVar() = randomMatrix(1, units, 63, 0.5f, 2);

        const Matrix ids = paddedIds();
        const Matrix out = net.forward(ids, false);
        Matrix h = layers[0]->clone()->forward(ids, false);
        h = layers[1]->clone()->forward(h, false);
        h = layers[2]->clone()->forward(h, false);
        const Matrix expected = maskedMeanByHand(h, ids, units);
        expectNear(out, expected, 1e-6);
        QVERIFY(expected.row(3).isZero(0));  // all padding
        // The mask matters: the plain mean of a padded sample's steps is another value.
        SequencePool plain(SequencePoolMode::Mean);
        plain.build(Shape::steps(steps, units), rng);
        QVERIFY((plain.forward(h, false).row(0) - out.row(0)).cwiseAbs().maxCoeff() > 1e-3);
        // A slice of the batch, as data parallelism runs it, masks its own rows the same way.
        const Matrix slice = ids.middleRows(1, 3);
        expectNear(net.forward(slice, false), expected.middleRows(1, 3), 1e-6);
        // And a copy of the network (a replica) carries the mask too.
        Network copy(net);
        expectNear(copy.forward(ids, false), expected, 1e-6);
    }

    // Data parallelism over row slices (batch_split.cpp) gives each replica its own slice's mask:
    // the gradients of 3 slices on 2 threads equal one pass over the whole batch, up to rounding.
    void dataParallelSlicesMaskTheirOwnRows() {
        const int steps = 5, vocabulary = 7;
        NetworkSpec spec;
        spec.input = Shape::steps(steps, 1);
        spec.outputs = 2;
        Network net(spec, 1);
        Rng rng(71);
        auto& layers = net.layers();
        layers.clear();
        Shape shape = spec.input;
        const auto add = [&](std::unique_ptr<Layer> l) {
            l->build(shape, rng);
            shape = l->outputShape();
            layers.push_back(std::move(l));
        };
        add(std::make_unique<Embedding>(3, vocabulary));
        add(std::make_unique<Gru>(4, steps, true));
        add(std::make_unique<SequencePool>(SequencePoolMode::Mean));
        add(std::make_unique<Dense>(2, Init::Glorot));
        Matrix ids(12, steps);
        for (Index i = 0; i < 3; ++i) ids.middleRows(4 * i, 4) = paddedIds();
        ids(5, 0) = 3;
        const Matrix y = randomMatrix(12, 2, 72);
        const auto loss = makeLoss(LossKind::MeanSquaredError);
        std::vector<Matrix> grads[2];
        for (int split : {0, 1}) {
            Network copy(net);
            BatchSplit parallel;
            parallel.computeGradients(copy, *loss, Task::Regression, ids, y, 0, split ? 3 : 1, split ? 2 : 1);
            for (const Param& p : copy.params()) grads[split].push_back(*p.grad);
        }
        QCOMPARE(grads[0].size(), std::size_t(1 + 4 + 2));
        for (std::size_t i = 0; i < grads[0].size(); ++i) expectNear(grads[1][i], grads[0][i], 1e-5);
        QVERIFY(grads[0][0].row(0).isZero(0) && grads[1][0].row(0).isZero(0));
    }
};

QTEST_APPLESS_MAIN(TestSequenceLayers)
#include "tst_sequence_layers.moc"
