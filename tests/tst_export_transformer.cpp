// ONNX export of the transformer kinds (issue 27): the patch embedding as Conv + Reshape + Transpose
// (+ the class token Concat-ed) + positions, attention written with MatMul, Softmax, Transpose and
// Reshape (the causal mask a constant added before the Softmax, and for text the key padding mask
// made from the ids), LayerNormalization at opset 17 and decomposed before it, the encoder block's
// GELU with Erf. Each model is built from its spec with
// seeded weights; every file passes onnx.checker, and ONNX Runtime (Node.js) must give the
// engine's predictions to 1e-4.
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

#include "export/onnx_export.h"
#include "export_support.h"
#include "split/combined_model_file.h"
#include "test_support.h"

using namespace skynnet;
using namespace skynnet::export_test;

namespace {

constexpr double kTolerance = 1e-4;
constexpr Shape kImage{1, 8, 8};

// The small ViT: a class token, an encoder block, causal self-attention, the final LayerNorm and
// the class token's features pooled.
SavedCombinedModel vitModel() {
    return singleModel(networkOf(kImage, "patch:4:16:cls,encoder:2:24,attention:2:causal,layernorm,seqpool:cls",
                                 Task::Classification, 3),
                       Task::Classification, 1);
}
// No class token: the mean over the patches, then a LayerNorm over a flat sample.
SavedCombinedModel meanModel() {
    return singleModel(networkOf(kImage, "patch:4:16,encoder:2:24,layernorm,seqpool:mean,layernorm,dense:8:gelu",
                                 Task::Classification, 3),
                       Task::Classification, 2);
}
// Two channels: Conv's weights from the (c, dy, dx) rows; attention that is not causal.
SavedCombinedModel channelsModel() {
    return singleModel(networkOf(Shape{2, 4, 4}, "patch:2:8:cls,attention:4,encoder:4:12:0.2,seqpool:last",
                                 Task::Classification, 3),
                       Task::Classification, 3);
}
// Text: token ids, pre-padded, through a block and causal attention to the mean of the real
// steps; the key padding mask made from the ids in the graph.
constexpr int kVocabulary = 17;
SavedCombinedModel textModel() {
    NetworkSpec spec = networkOf(Shape::steps(9, 1),
                                 "embedding:16,encoder:2:32,attention:2:causal,seqpool:mean,dense:8:relu",
                                 Task::Classification, 3);
    spec.bindVocabulary(kVocabulary);
    return singleModel(spec, Task::Classification, 7);
}
// Rows of 9 ids in [1, kVocabulary) pre-padded with 0: row r has r % 10 padding steps, so most
// rows have much padding and rows 9 and 19 are padding alone (an empty text).
Matrix paddedIds(Index count, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> id(1, kVocabulary - 1);
    Matrix ids = Matrix::Zero(count, 9);
    for (Index r = 0; r < count; ++r)
        for (Index t = r % 10; t < 9; ++t) ids(r, t) = float(id(rng));
    return ids;
}
// Class groups of three ViT submodels over the same image.
SavedCombinedModel combinedVit() {
    SavedCombinedModel m;
    m.rule.strategy = Strategy::ClassGroups;
    m.rule.task = Task::Classification;
    m.rule.outputs = 6;
    m.rule.classes = {{0, 3}, {1, 4}, {2, 5}};
    m.specs = {networkOf(kImage, "patch:4:16:cls,encoder:2:24,layernorm,seqpool:cls", Task::Classification, 2),
               networkOf(kImage, "patch:4:8:cls,encoder:2:16:0.1,attention:2:causal,layernorm,seqpool:cls",
                         Task::Classification, 2),
               networkOf(kImage, "patch:2:12,encoder:3:20,layernorm,seqpool:mean", Task::Classification, 2)};
    m.weights = {handSetWeights(m.specs[0], 4), handSetWeights(m.specs[1], 5), handSetWeights(m.specs[2], 6)};
    return m;
}

}  // namespace

class TestExportTransformer : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString file(const QString& name) const { return dir_.filePath(name); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SKYNNET_KEEP_EXPORTS"));
        if (!onnxExportAvailable())
            SKIP_UNLESS_CI("this build has no ONNX export (libonnx-dev, libprotobuf-dev missing)");
    }

    void graphsHaveTheTransformerNodes() {
        exportOnnx(vitModel(), file("vit17.onnx").toStdString(), {17});
        exportOnnx(vitModel(), file("vit13.onnx").toStdString());
        QString error;
        run("/usr/bin/python3", {"-c", "import onnx"}, error);
        if (!error.isEmpty()) SKIP_UNLESS_CI("/usr/bin/python3 has no onnx module (Debian: python3-onnx)");
        const QJsonObject vit17 = describeGraph(file("vit17.onnx"), error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList ops = opsOf(vit17);
        // The patches: Conv, to [N, patches, dim], the class token expanded over N and put first.
        QCOMPARE(ops.mid(0, 9), (QStringList{"Reshape", "Conv", "Reshape", "Transpose", "Shape", "Slice", "Concat",
                                             "Expand", "Concat"}));
        QCOMPARE(ops.count("LayerNormalization"), 3);  // the block's two and the final one
        QCOMPARE(ops.count("Softmax"), 3);             // two attentions, then the output layer
        QCOMPARE(ops.count("Erf"), 1);                 // the block's GELU
        QVERIFY(!ops.contains("ReduceMean"));
        const QJsonObject initializers = vit17["initializers"].toObject();
        QCOMPARE(intsOf(initializers["sub1/patch1/conv_W"]), (QList<int>{16, 1, 4, 4}));
        QCOMPARE(intsOf(initializers["sub1/patch1/positions"]), (QList<int>{5, 16}));
        QCOMPARE(intsOf(initializers["sub1/patch1/class_token"]), (QList<int>{1, 1, 16}));
        QCOMPARE(intsOf(initializers["sub1/encoder1/mha/q/W"]), (QList<int>{16, 16}));
        QCOMPARE(intsOf(initializers["sub1/encoder1/linear1/W"]), (QList<int>{16, 24}));
        QCOMPARE(intsOf(initializers["sub1/attention1/mha/causal_mask"]), (QList<int>{5, 5}));
        QVERIFY(!initializers.contains("sub1/encoder1/mha/causal_mask"));
        // Opset 13 has no LayerNormalization: written out with ReduceMean (mean and variance each).
        const QStringList ops13 = opsOf(describeGraph(file("vit13.onnx"), error));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!ops13.contains("LayerNormalization"));
        QCOMPARE(ops13.count("ReduceMean"), 6);
        QCOMPARE(ops13.count("Sqrt"), 3);
        // Text: each attention adds the key padding mask, made from the ids, to its scores; the
        // causal one counts the real keys up to each query, the block's those of the row.
        exportOnnx(textModel(), file("text.onnx").toStdString());
        const QJsonObject text = describeGraph(file("text.onnx"), error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList textOps = opsOf(text);
        QCOMPARE(textOps.count("CumSum"), 1);
        QCOMPARE(textOps.count("Where"), 2);
        QCOMPARE(textOps.count("Softmax"), 3);
        QStringList masked;
        for (const QJsonValue& n : text["nodes"].toArray())
            if (n["op"].toString() == "Add" && n["name"].toString().endsWith("/unpadded_scores"))
                masked << n["name"].toString();
        QCOMPARE(masked, (QStringList{"sub1/encoder1/mha/unpadded_scores", "sub1/attention1/mha/unpadded_scores"}));
    }

    void exportsPassTheCheckerAndMatchTheEngine() {
        QString node;
        const QString missing = onnxRuntimeMissing(node);
        if (!missing.isEmpty()) SKIP_UNLESS_CI(qPrintable(missing));
        const Matrix images = uniformRows(20, 64, -2.0f, 2.0f, 11), small = uniformRows(20, 32, -2.0f, 2.0f, 12);
        const SavedCombinedModel combined = combinedVit();
        struct Model {
            QString name;
            SavedCombinedModel model;
            Matrix input;
            int opset;
            bool text = false;  // int64 token ids
        };
        const std::vector<Model> models{{"vit17", vitModel(), images, 17},
                                        {"vit13", vitModel(), images, 13},
                                        {"mean17", meanModel(), images, 17},
                                        {"mean13", meanModel(), images, 13},
                                        {"channels17", channelsModel(), small, 17},
                                        {"combined17", combined, images, 17},
                                        {"combined13", combined, images, 13},
                                        {"text17", textModel(), paddedIds(20, 13), 17, true},
                                        {"text13", textModel(), paddedIds(20, 13), 13, true}};
        std::vector<OrtJob> jobs;
        std::vector<Matrix> expected;
        QStringList files;
        for (const Model& m : models) {
            exportOnnx(m.model, file(m.name + ".onnx").toStdString(), {m.opset});
            files << file(m.name + ".onnx");
            jobs.push_back({file(m.name + ".onnx"), m.input, "probabilities", m.text});
            expected.push_back(engine(m.model, m.input));
        }
        // Each submodel of the combined model on its own (opset 13: the default).
        for (int i = 0; i < 3; ++i) {
            const QString name = file("combined_sub" + QString::number(i + 1) + ".onnx");
            exportSubmodelOnnx(combined, i, name.toStdString());
            files << name;
            jobs.push_back({name, images, "outputs", false});
            expected.push_back(buildCombinedModel(combined).submodel(i).predict(images));
        }

        QString error;
        const QByteArray checked =
            run("/usr/bin/python3",
                QStringList{QString::fromStdString(sourcePath("tests/export/check_onnx.py"))} + files, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(checked.count("ok "), files.size());

        const std::vector<Matrix> ort = runOnnxRuntime(node, dir_.path(), jobs, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(ort.size(), jobs.size());
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const double d = maxDifference(ort[i], expected[i]);
            QVERIFY2(d <= kTolerance,
                     qPrintable(jobs[i].model + ": ONNX Runtime differs from the engine by " + QString::number(d)));
            // The answers vary between samples: the layers did not collapse to a constant.
            QVERIFY2(double((expected[i].rowwise() - expected[i].row(0)).cwiseAbs().maxCoeff()) > 1e-3,
                     qPrintable(jobs[i].model));
            qInfo("%s: ONNX Runtime within %.2g of the engine", qPrintable(QFileInfo(jobs[i].model).fileName()), d);
        }
    }
};

QTEST_GUILESS_MAIN(TestExportTransformer)
#include "tst_export_transformer.moc"
