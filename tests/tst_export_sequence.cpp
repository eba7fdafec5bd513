// ONNX export of the sequence kinds (issue 26): GRU and LSTM as ONNX's operators, the embedding as
// Gather of int64 token ids, the mean over the real steps with the mask carried from the ids, batch
// norm over a sequence's steps. Each model is built from its spec with seeded weights; every file
// passes onnx.checker, and ONNX Runtime (Node.js) must give the engine's predictions to 1e-4.
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include "export/onnx_export.h"
#include "export_support.h"
#include "split/combined_model_file.h"
#include "test_support.h"

using namespace skynnet;
using namespace skynnet::export_test;

namespace {

constexpr double kTolerance = 1e-4;
constexpr int kVocabulary = 23;

// Pre-padded token ids (padding 0 in front, as the text encoder writes them) of every length from
// none (all padding) to the whole row, ids in [1, kVocabulary), as floats the engine reads.
Matrix paddedIds(Index rows, int length, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> id(1, kVocabulary - 1);
    Matrix ids = Matrix::Zero(rows, length);
    for (Index r = 0; r < rows; ++r)
        for (Index t = length - r % (length + 1); t < length; ++t) ids(r, t) = float(id(rng));
    return ids;
}

// The models: GRUs over (5 steps x 4 features) returning every step and the last, with batch norm
// over a sequence and over a vector; an LSTM with seqpool:last; the text models.
SavedCombinedModel gruModel() {
    return singleModel(networkOf(Shape::steps(5, 4), "gru:6:sequences,bn,activation:tanh,gru:5,bn,dense:7:relu",
                                 Task::Classification, 3),
                       Task::Classification, 1);
}
// With a preprocessing in the graph: the scaled rows become the sequence (as --as-sequence rows).
SavedCombinedModel gruSequencesToDense() {
    SavedCombinedModel m = singleModel(networkOf(Shape::steps(5, 4), "gru:3:sequences,dense:6:tanh",
                                                 Task::Classification, 4),
                                       Task::Classification, 2);
    Preprocessing& p = m.preprocessing;
    p.scaling = Scaling::MinMax;
    p.rawColumns = 20;
    for (int i = 0; i < 20; ++i) p.numericColumns.push_back(i);
    p.offset = uniformRows(1, 20, -1.0f, 1.0f, 21);
    p.scale = uniformRows(1, 20, 0.5f, 2.0f, 22);
    return m;
}
SavedCombinedModel lstmModel() {
    return singleModel(networkOf(Shape::steps(6, 3), "lstm:5:sequences,bn,lstm:4:sequences,seqpool:last",
                                 Task::Classification, 3),
                       Task::Classification, 3);
}
SavedCombinedModel embeddingMeanModel() {
    return singleModel(networkOf(Shape::steps(7, 1), "embedding:8,bn,seqpool:mean,dense:6:relu", Task::Classification,
                                 3, kVocabulary),
                       Task::Classification, 4);
}
SavedCombinedModel embeddingLstmModel() {
    return singleModel(networkOf(Shape::steps(7, 1), "embedding:6,lstm:5,dense:4:tanh", Task::Classification, 3,
                                 kVocabulary),
                       Task::Classification, 5);
}
// An embedding that is not first: the graph takes floats and casts the ids to int64 for Gather.
SavedCombinedModel embeddingAfterDropoutModel() {
    return singleModel(networkOf(Shape::steps(7, 1), "dropout:0.3,embedding:5,seqpool:mean", Task::Classification, 3,
                                 kVocabulary),
                       Task::Classification, 9);
}
// Class groups of two text submodels: the mask also passes through a GRU's every step.
SavedCombinedModel combinedTextModel() {
    SavedCombinedModel m;
    m.rule.strategy = Strategy::ClassGroups;
    m.rule.task = Task::Classification;
    m.rule.outputs = 4;
    m.rule.classes = {{0, 2}, {1, 3}};
    m.specs = {networkOf(Shape::steps(7, 1), "embedding:4,lstm:3", Task::Classification, 2, kVocabulary),
               networkOf(Shape::steps(7, 1), "embedding:5,gru:3:sequences,seqpool:mean", Task::Classification, 2,
                         kVocabulary)};
    m.weights = {handSetWeights(m.specs[0], 6), handSetWeights(m.specs[1], 7)};
    return m;
}

}  // namespace

class TestExportSequence : public QObject {
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

    void graphsHaveTheSequenceNodesAndTextTakesInt64Ids() {
        exportOnnx(embeddingMeanModel(), file("text_mean.onnx").toStdString());
        exportOnnx(gruModel(), file("gru.onnx").toStdString());
        QString error;
        run("/usr/bin/python3", {"-c", "import onnx"}, error);
        if (!error.isEmpty()) SKIP_UNLESS_CI("/usr/bin/python3 has no onnx module (Debian: python3-onnx)");
        const QByteArray input = run("/usr/bin/python3",
                                     {"-c",
                                      "import onnx, sys; i = onnx.load(sys.argv[1]).graph.input[0]; "
                                      "print(i.name, i.type.tensor_type.elem_type == onnx.TensorProto.INT64, "
                                      "[d.dim_param or d.dim_value for d in i.type.tensor_type.shape.dim])",
                                      file("text_mean.onnx")},
                                     error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(input.trimmed(), QByteArray("token_ids True ['N', 7]"));
        // Gather by the ids; bn per feature on the [N, F, L] transpose; the mean over the real
        // steps with the mask made from the same ids (id != 0) and the count guarded by Max(., 1).
        QCOMPARE(opsOf(describeGraph(file("text_mean.onnx"), error)),
                 (QStringList{"Gather", "Transpose", "BatchNormalization", "Transpose", "Equal", "Not", "Cast",
                              "Unsqueeze", "Mul", "ReduceSum", "ReduceSum", "Max", "Div", "Gemm", "Relu", "Gemm",
                              "Softmax", "Mean", "Identity"}));
        const QJsonObject gru = describeGraph(file("gru.onnx"), error);
        QCOMPARE(opsOf(gru),
                 (QStringList{"Reshape", "Transpose", "GRU", "Squeeze", "Transpose", "Transpose", "BatchNormalization",
                              "Transpose", "Tanh", "Transpose", "GRU", "Squeeze", "BatchNormalization", "Gemm", "Relu",
                              "Gemm", "Softmax", "Mean", "Identity"}));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // PyTorch's GRU (the reset gate after the recurrent product); 3 gates of 6 units over 4
        // features, then of 5 units over 6; B holds Wb then Rb.
        const QJsonObject gruNode = gru["nodes"].toArray()[2].toObject();
        QCOMPARE(gruNode["attributes"].toObject()["linear_before_reset"].toInt(), 1);
        QCOMPARE(gruNode["attributes"].toObject()["hidden_size"].toInt(), 6);
        const QJsonObject initializers = gru["initializers"].toObject();
        QCOMPARE(intsOf(initializers["sub1/gru1/W"]), (QList<int>{1, 18, 4}));
        QCOMPARE(intsOf(initializers["sub1/gru1/R"]), (QList<int>{1, 18, 6}));
        QCOMPARE(intsOf(initializers["sub1/gru1/B"]), (QList<int>{1, 36}));
        QCOMPARE(intsOf(initializers["sub1/gru2/W"]), (QList<int>{1, 15, 6}));
        exportOnnx(lstmModel(), file("lstm.onnx").toStdString());
        const QJsonObject lstm = describeGraph(file("lstm.onnx"), error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(opsOf(lstm).mid(0, 5), (QStringList{"Reshape", "Transpose", "LSTM", "Squeeze", "Transpose"}));
        QVERIFY(!lstm["nodes"].toArray()[2].toObject()["attributes"].toObject().contains("linear_before_reset"));
        QCOMPARE(intsOf(lstm["initializers"].toObject()["sub1/lstm1/W"]), (QList<int>{1, 20, 3}));
        QCOMPARE(intsOf(lstm["initializers"].toObject()["sub1/lstm1/B"]), (QList<int>{1, 40}));
        // seqpool:last gathers the last of the 6 steps.
        QVERIFY(opsOf(lstm).contains("Gather"));
    }

    void exportsPassTheCheckerAndMatchTheEngine() {
        QString node;
        const QString missing = onnxRuntimeMissing(node);
        if (!missing.isEmpty()) SKIP_UNLESS_CI(qPrintable(missing));
        const Matrix steps54 = uniformRows(20, 20, -2.0f, 2.0f, 11), steps63 = uniformRows(20, 18, -2.0f, 2.0f, 12);
        const Matrix ids = paddedIds(24, 7, 13);
        const SavedCombinedModel combined = combinedTextModel();
        struct Model {
            QString name;
            SavedCombinedModel model;
            Matrix input;
            bool text;
        };
        const std::vector<Model> models{{"gru", gruModel(), steps54, false},
                                        {"gru_sequences_dense", gruSequencesToDense(), steps54, false},
                                        {"lstm", lstmModel(), steps63, false},
                                        {"text_mean", embeddingMeanModel(), ids, true},
                                        {"text_lstm", embeddingLstmModel(), ids, true},
                                        {"float_ids_mean", embeddingAfterDropoutModel(), ids, false},
                                        {"text_combined", combined, ids, true}};
        std::vector<OrtJob> jobs;
        std::vector<Matrix> expected;
        QStringList files;
        for (const Model& m : models) {
            exportOnnx(m.model, file(m.name + ".onnx").toStdString(), {17});
            files << file(m.name + ".onnx");
            jobs.push_back({file(m.name + ".onnx"), m.input, "probabilities", m.text});
            expected.push_back(engine(m.model, m.input));
        }
        // Submodel 2 of the combined model on its own (opset 13: the default).
        exportSubmodelOnnx(combined, 1, file("text_combined_sub2.onnx").toStdString());
        files << file("text_combined_sub2.onnx");
        jobs.push_back({file("text_combined_sub2.onnx"), ids, "outputs", true});
        expected.push_back(buildCombinedModel(combined).submodel(1).predict(ids));

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

    void textModelsThatCannotBeWrittenAreErrors() {
        const std::string path = file("refused.onnx").toStdString();
        // A preprocessing that scales the ids would feed the embeddings other ids than the graph's.
        SavedCombinedModel scaled = embeddingMeanModel();
        scaled.preprocessing.scaling = Scaling::Standardize;
        scaled.preprocessing.rawColumns = 7;
        for (int i = 0; i < 7; ++i) scaled.preprocessing.numericColumns.push_back(i);
        scaled.preprocessing.offset = RowVector::Constant(7, 2.0f);
        scaled.preprocessing.scale = RowVector::Constant(7, 0.5f);
        VERIFY_CONTAINS(errorOf([&] { exportOnnx(scaled, path); }),
                        "cannot export " + path + ": the model's preprocessing changes the token ids");
        // Submodels that disagree on reading token ids.
        SavedCombinedModel mixed = combinedTextModel();
        mixed.specs[1] = networkOf(Shape::steps(7, 1), "gru:3", Task::Classification, 2);
        mixed.weights[1] = handSetWeights(mixed.specs[1], 8);
        VERIFY_CONTAINS(errorOf([&] { exportOnnx(mixed, path); }),
                        "some submodels read token ids (an embedding first) and others not");
        QVERIFY(!QFile::exists(QString::fromStdString(path)));
    }
};

QTEST_GUILESS_MAIN(TestExportSequence)
#include "tst_export_sequence.moc"
