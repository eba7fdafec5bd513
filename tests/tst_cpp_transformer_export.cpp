// The C++ header export of the transformer kinds (issue 27): patch embedding (with and without the
// class token, one and two channels), layernorm over tokens and over a flat sample, attention
// (causal and not) and the encoder block (its dropout off at inference), single models, a text
// model whose step mask crosses the blocks (padding keys masked) to seqpool:mean, and class groups
// of ViTs. Each header
// is compiled with the system g++ (-Werror) and must predict what the engine predicts to 1e-5.
#include <QTemporaryDir>
#include <QtTest>

#include <random>

#include "export/cpp_export.h"
#include "export_support.h"
#include "split/combined_model_file.h"
#include "test_support.h"

using namespace skynnet;
using namespace skynnet::export_test;

namespace {

constexpr double kTolerance = 1e-5;
constexpr Shape kImage{2, 8, 8};

// Class groups of three ViTs over the same image: the class token, causal attention after a block
// with dropout, and the mean over 16 patches without a class token.
SavedCombinedModel combinedVits() {
    SavedCombinedModel m;
    m.rule.strategy = Strategy::ClassGroups;
    m.rule.task = Task::Classification;
    m.rule.outputs = 6;
    m.rule.classes = {{0, 3}, {1, 4}, {2, 5}};
    m.specs = {networkOf(kImage, "patch:4:8:cls,encoder:2:16,layernorm,seqpool:cls", Task::Classification, 2),
               networkOf(kImage, "patch:4:6:cls,encoder:2:12:0.1,attention:2:causal,layernorm,seqpool:cls",
                         Task::Classification, 2),
               networkOf(kImage, "patch:2:8,encoder:4:12,layernorm,seqpool:mean", Task::Classification, 2)};
    m.weights = {handSetWeights(m.specs[0], 7), handSetWeights(m.specs[1], 8), handSetWeights(m.specs[2], 9)};
    return m;
}

// Rows of `steps` token ids in [1, vocabulary), pre-padded with 0 (row r has r % (steps + 1)
// padding steps, padding alone included), so that the step mask matters to attention (padding
// keys get no weight) and to seqpool:mean.
Matrix paddedIds(Index rows, int steps, int vocabulary, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> id(1, vocabulary - 1);
    Matrix m = Matrix::Zero(rows, steps);
    for (Index r = 0; r < rows; ++r)
        for (int t = int(r % (steps + 1)); t < steps; ++t) m(r, t) = float(id(rng));
    return m;
}

}  // namespace

class TestCppTransformerExport : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SKYNNET_KEEP_EXPORTS"));  // to look at the files
        if (QStandardPaths::findExecutable("g++").isEmpty()) SKIP_UNLESS_CI("g++ is not installed");
    }

    // Six models in one program: each header's predict on raw rows against the engine's.
    void transformerHeadersMatchTheEngine() {
        struct Model {
            QString name;
            SavedCombinedModel saved;
            Matrix raw;
        };
        const Matrix images = uniformRows(20, kImage.size(), -2.0f, 2.0f, 1);
        std::vector<Model> models;
        // The small ViT: two channels, a class token, a block, causal attention, the final LayerNorm,
        // the class token's features and a dense head.
        models.push_back({"vit",
                          singleModel(networkOf(kImage,
                                                "patch:4:8:cls,encoder:2:16,attention:2:causal,layernorm,seqpool:cls,"
                                                "dense:8:relu",
                                                Task::Classification, 3),
                                      Task::Classification, 2),
                          images});
        // No class token: the mean over the patches, then a LayerNorm over a flat sample.
        models.push_back(
            {"mean",
             singleModel(networkOf(kImage, "patch:4:8,encoder:2:16,layernorm,seqpool:mean,layernorm,dense:6:gelu",
                                   Task::Regression, 2),
                         Task::Regression, 3),
             images});
        // Small patches of a 4 x 4 image, four heads, attention that is not causal, an encoder's dropout
        // (none at inference), the last token.
        models.push_back(
            {"heads",
             singleModel(networkOf(Shape{2, 4, 4}, "patch:2:8:cls,attention:4,encoder:4:12:0.2,seqpool:last",
                                   Task::Classification, 3),
                         Task::Classification, 4),
             uniformRows(20, 32, -2.0f, 2.0f, 5)});
        // Text: token ids through the blocks, whose attention gives padding keys no weight;
        // seqpool:mean reads the embedding's step mask. The padding id's row of the seeded weights
        // is not zero, so padding steps hold values that a real step must not read: the same model
        // with another padding row must give the same answers.
        const int vocab = 20;
        const SavedCombinedModel text =
            singleModel(networkOf(Shape::steps(6, 1), "embedding:8,encoder:2:16,attention:2:causal,seqpool:mean",
                                  Task::Binary, 1, vocab),
                        Task::Binary, 6);
        SavedCombinedModel otherPadding = text;
        for (int d = 0; d < 8; ++d) otherPadding.weights[0][std::size_t(d)] += 1.5f;  // the embedding's row 0
        const Matrix ids = paddedIds(18, 6, vocab, 7);
        models.push_back({"text", text, ids});
        models.push_back({"text_padding", otherPadding, ids});
        models.push_back({"groups", combinedVits(), images});

        std::vector<CppHeaderRows> jobs;
        for (const Model& m : models) {
            exportCppHeader(m.saved, dir_.filePath(m.name + ".h").toStdString(), {"m_" + m.name.toStdString()});
            jobs.push_back({m.name, m.raw, m.saved.rule.outputs});
        }
        QString error;
        const std::vector<Matrix> answers = runCppHeaders(dir_.path(), "transformers", jobs, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (std::size_t i = 0; i < models.size(); ++i) {
            const Model& m = models[i];
            const Matrix expected = engine(m.saved, m.raw);
            const double d = maxDifference(answers[i], expected);
            QVERIFY2(d <= kTolerance, qPrintable(m.name + ": the C++ header differs by " + QString::number(d)));
            // The answers vary between samples: the layers did not collapse to a constant.
            QVERIFY2(double((expected.rowwise() - expected.row(0)).cwiseAbs().maxCoeff()) > 1e-3, qPrintable(m.name));
            qInfo("%s: C++ header within %.2g of the engine", qPrintable(m.name), d);
        }
        // Padding is invisible in the engine and in the header alike.
        QVERIFY(maxDifference(engine(models[3].saved, ids), engine(models[4].saved, ids)) <= kTolerance);
        QVERIFY(maxDifference(answers[3], answers[4]) <= kTolerance);
    }

    // The table names each kind and its parameter arrays in Network::flatWeights() order, and the
    // scratch holds the largest attention's work.
    void headerShowsTheLayers() {
        const std::string text = cppHeaderText(combinedVits());
        for (const char* part :
             {"patchLayer(2, 8, 8, 4, 8, kSub1Layer1W, kSub1Layer1B, kSub1Layer1Positions, "
              "kSub1Layer1ClassToken)",
              "patchLayer(2, 8, 8, 2, 8, kSub3Layer1W, kSub3Layer1B, kSub3Layer1Positions, nullptr)",
              "encoderLayer(5, 8, 16,", "Norm{kSub1Layer2Ln1Gamma, kSub1Layer2Ln1Beta, 9.99999975e-06f}",
              "Attention{2, false, kSub1Layer2Win, kSub1Layer2Bin, kSub1Layer2Wout, kSub1Layer2Bout}",
              "kSub1Layer2W1, kSub1Layer2B1, kSub1Layer2W2, kSub1Layer2B2)",
              "attentionLayer(5, 6, Attention{2, true, kSub2Layer3Win",
              "overSteps(layerNormLayer(1, 5, 8, kSub1Layer3Gamma, kSub1Layer3Beta, 9.99999975e-06f))",
              "kSub1Layer1Positions[40]", "kSub3Layer1Positions[128]",
              // Submodel 3's block: 16 tokens of 8, MLP 12: 16*8 + 12 + (16*3*8 + 16*8 + 16).
              "kWorkWidth = 668;"})
            VERIFY_CONTAINS(text, part);
    }
};

QTEST_GUILESS_MAIN(TestCppTransformerExport)
#include "tst_cpp_transformer_export.moc"
