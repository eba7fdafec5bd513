// Saved combined models and their exports: the model file round trip and its errors, ONNX files
// checked by the ONNX checker and run by ONNX Runtime (Node.js), and the C++ header compiled with
// the system g++; every export must predict what the engine predicts from the same raw features.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>
#include <tuple>

#include "core/error.h"
#include "data/generators.h"
#include "export/cpp_export.h"
#include "export/onnx_export.h"
#include "export_support.h"
#include "io/container.h"
#include "model/network.h"
#include "split/combined_model_file.h"
#include "split/parallel_trainer.h"
#include "split/split_plan.h"
#include "split/thread_backend.h"
#include "test_support.h"

using namespace skynnet;
using namespace skynnet::export_test;

namespace {

constexpr double kTolerance = 1e-4;

// One exported model and what the engine says about the test inputs.
struct Case {
    QString name;  // also the C++ namespace and the file stem
    SavedCombinedModel saved;
    Matrix raw;                     // test inputs, raw feature columns
    Matrix expected;                // the trained CombinedModel on them
    std::vector<Matrix> submodels;  // each submodel's own outputs on them
};

// Trains `strategy` with N submodels on `raw` (preprocessing fitted here) and saves it as a model.
SavedCombinedModel train(const Dataset& raw, Scaling scaling, const std::string& layers, Strategy strategy, int n,
                         LossKind loss, CombinedModel& trained) {
    Preprocessing p;
    p.scaling = scaling;
    p.fit(raw);
    Dataset data = raw;
    data.features = p.apply(raw.features);
    // Images keep their (C, H, W): the preprocessing scales each column and keeps the columns.
    data.sampleShape = raw.sampleShape.size() == data.features.cols() ? raw.sampleShape
                                                                      : Shape::flat(int(data.features.cols()));
    data.featureNames = p.outputNames(raw.featureNames);
    data.categoricals.clear();
    NetworkSpec spec;
    spec.input = data.sampleShape;
    spec.layers = parseLayers(layers);
    SplitOptions o;
    o.strategy = strategy;
    o.requested = n;
    o.epochs = 6;
    o.seed = 11;
    TrainConfig c;
    c.batchSize = 32;
    c.loss = loss;
    c.optimizer.learningRate = 3e-3f;
    ParallelResult r = ParallelTrainer(makePlan(spec, data, o), c, std::make_shared<ThreadBackend>(2)).train(data);
    if (r.status != TrainStatus::Completed) throw Error("training failed: " + r.error);
    trained = r.model;
    SavedCombinedModel s = toSaved(r.model, p, {});
    s.schema.classNames = raw.classNames;
    s.schema.targetNames = raw.targetNames;
    s.schema.featureNames = raw.featureNames;
    s.extra = Json::object({{"note", "tst_export"}});
    return s;
}

// Every `step`-th row of the data, then the extra rows.
Matrix testRows(const Matrix& features, int step, const std::vector<std::vector<float>>& extra) {
    Matrix out(features.rows() / step + Index(extra.size()), features.cols());
    Index r = 0;
    for (Index i = 0; r < features.rows() / step; i += step) out.row(r++) = features.row(i);
    for (const auto& e : extra) out.row(r++) = Eigen::Map<const RowVector>(e.data(), Index(e.size()));
    return out;
}

NetworkSpec imageSpec(Shape input, const std::string& layers, int outputs) {
    NetworkSpec spec;
    spec.input = input;
    spec.layers = parseLayers(layers);
    spec.setOutputFor(Task::Classification, outputs);
    return spec;
}

// Exports `model` as a C++ header, compiles the runner around it (-Werror) and returns its answers
// on `raw`. Sets `error` when compiling or running fails.
Matrix runCppHeader(const SavedCombinedModel& model, const QString& dir, const QString& name, const Matrix& raw,
                    QString& error) {
    exportCppHeader(model, (dir + "/" + name + ".h").toStdString(), {"m_" + name.toStdString()});
    const std::vector<Matrix> answers = runCppHeaders(dir, name + "_predict", {{name, raw, model.rule.outputs}}, error);
    return answers.empty() ? Matrix() : answers[0];
}

}  // namespace

class TestExport : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::vector<Case> cases_;
    std::string path(const QString& name) const { return dir_.filePath(name).toStdString(); }

    void addCase(const QString& name, const SavedCombinedModel& saved, CombinedModel& model, const Matrix& raw) {
        Case c{name, saved, raw, predictRaw(model, saved, raw), {}};
        const Matrix x = saved.preprocessing.apply(raw);
        for (int i = 0; i < model.submodelCount(); ++i) c.submodels.push_back(model.submodel(i).predict(x));
        cases_.push_back(std::move(c));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SKYNNET_KEEP_EXPORTS"));  // to look at the files
        // Class groups, N=3, on 6 blobs with a categorical column (one-hot in the graph too).
        Dataset blobs = makeBlobs(6, 40, 3, 1.0f, 5);
        Matrix withColour(blobs.size(), 4);
        withColour.leftCols(3) = blobs.features;
        for (Index r = 0; r < blobs.size(); ++r) withColour(r, 3) = float((r * 7) % 3);
        blobs.features = withColour;
        blobs.sampleShape = Shape::flat(4);
        blobs.featureNames = {"x1", "x2", "x3", "colour"};
        blobs.categoricals = {{3, {"red", "green", "blue"}}};
        CombinedModel groups;
        const auto g = train(blobs, Scaling::Standardize, "dense:24:relu,dropout:0.1,dense:16:tanh",
                             Strategy::ClassGroups, 3, LossKind::SoftmaxCrossEntropy, groups);
        QCOMPARE(g.submodelCount(), 3);
        // Unseen (-1) and fractional codes give no one-hot slot; far-off points saturate the softmax.
        addCase("groups", g, groups,
                testRows(blobs.features, 8, {{0.5f, -1, 2, -1}, {1, 1, 1, 1.5f}, {40, -40, 40, 2}, {-60, 60, 0, 0}}));

        // Output split: 4 target columns over N=3 submodels (chunks 2, 1, 1), min-max scaling.
        const Dataset sine = makeSineRegression(240, 4, 0.05f, 3);
        CombinedModel split;
        const auto s = train(sine, Scaling::MinMax, "dense:20:leaky_relu,dense:12:sigmoid", Strategy::OutputSplit, 3,
                             LossKind::MeanSquaredError, split);
        addCase("split", s, split, testRows(sine.features, 10, {{4, -4, 0, 10}}));

        // Binary shards, N=3, most confident; the same weights also combined by the average.
        Dataset two = makeBlobs(2, 60, 3, 1.5f, 9);
        two.task = Task::Binary;
        CombinedModel binary;
        auto b = train(two, Scaling::Standardize, "dense:16:relu,flatten,dense:8:leaky_relu", Strategy::BinaryShards, 3,
                       LossKind::BinaryCrossEntropy, binary);
        QCOMPARE(b.rule.binaryCombine, BinaryCombine::MostConfident);
        const Matrix binaryRows = testRows(two.features, 6, {{0, 0, 0}, {9, -9, 9}});
        addCase("binary", b, binary, binaryRows);
        b.rule.binaryCombine = BinaryCombine::Average;
        CombinedModel averaged = buildCombinedModel(b);
        addCase("binaryAverage", b, averaged, binaryRows);

        // CNNs on (2, 6, 6) samples (4 blobs in 72 values, as two channels of pixels). Class
        // groups N=3 with conv same and stride 2, bias or none, max pooling, batch norm per
        // channel, the global average pool and GELU, ELU, Softplus; data shards N=2 with conv
        // valid, average pooling, batch norm per feature, ReLU6 and flatten.
        Dataset images = makeBlobs(4, 40, 72, 2.0f, 13);
        images.sampleShape = {2, 6, 6};
        CombinedModel cnnGroups;
        const auto cg = train(images, Scaling::Standardize,
                              "conv:4:3x3:same:relu,bn,maxpool:2,conv:6:3x3:s2:same:nobias:gelu,activation:elu,gap,"
                              "dense:8:softplus",
                              Strategy::ClassGroups, 3, LossKind::SoftmaxCrossEntropy, cnnGroups);
        QCOMPARE(cg.submodelCount(), 3);
        addCase("cnnGroups", cg, cnnGroups, testRows(images.features, 5, {}));
        CombinedModel cnnShards;
        const auto cs = train(images, Scaling::MinMax,
                              "conv:4:2x2:relu6,avgpool:2:s1,bn,activation:tanh,conv:3:3x3:s2:linear,flatten,"
                              "dense:6:relu,bn,dropout:0.2",
                              Strategy::DataShards, 2, LossKind::SoftmaxCrossEntropy, cnnShards);
        addCase("cnnShards", cs, cnnShards, testRows(images.features, 5, {}));
    }

    void combinedFileRoundTripIsBitIdentical() {
        for (const Case& c : cases_) {
            const std::string file = path(c.name + ".skynnet");
            saveCombinedModel(file, c.saved);
            for (const SavedCombinedModel& back : {loadCombinedModel(file), loadAnyModel(file)}) {
                QVERIFY(!back.fromSingleFile);
                QCOMPARE(back.rule.strategy, c.saved.rule.strategy);
                QCOMPARE(back.rule.classes, c.saved.rule.classes);
                QCOMPARE(back.rule.columns, c.saved.rule.columns);
                QCOMPARE(back.rule.binaryCombine, c.saved.rule.binaryCombine);
                QCOMPARE(back.loss, c.saved.loss);
                QVERIFY(back.specs == c.saved.specs);
                QVERIFY(back.weights == c.saved.weights);
                QCOMPARE(back.schema.classNames, c.saved.schema.classNames);
                QCOMPARE(back.schema.targetNames, c.saved.schema.targetNames);
                QCOMPARE(back.schema.featureNames, c.saved.schema.featureNames);
                QVERIFY(back.extra == c.saved.extra);
                CombinedModel model = buildCombinedModel(back);
                const Matrix out = predictRaw(model, back, c.raw);
                QCOMPARE(out.rows(), c.expected.rows());
                QCOMPARE(out.cols(), c.expected.cols());
                QVERIFY2(std::memcmp(out.data(), c.expected.data(), std::size_t(out.size()) * sizeof(float)) == 0,
                         qPrintable(c.name));
            }
        }
    }

    void singleNetworkFileLoadsAsCombined() {
        const Case& c = cases_[2];  // binary: its first submodel saved as a single network
        SavedModel single;
        single.schema.task = Task::Binary;
        single.spec = c.saved.specs[0];
        single.weights = c.saved.weights[0];
        single.preprocessing = c.saved.preprocessing;
        single.schema.classNames = c.saved.schema.classNames;
        const std::string file = path("single.skynnet");
        saveModel(file, single);
        const SavedCombinedModel any = loadAnyModel(file);
        QVERIFY(any.fromSingleFile);
        QCOMPARE(any.submodelCount(), 1);
        CombinedModel model = buildCombinedModel(any);
        const Matrix out = predictRaw(model, any, c.raw);
        QVERIFY(std::memcmp(out.data(), c.submodels[0].data(), std::size_t(out.size()) * sizeof(float)) == 0);
        QCOMPARE(errorOf([&] { loadCombinedModel(file); }),
                 file + " holds a model of kind 'single', not a combined model");
    }

    void damagedAndInvalidFilesAreRefused() {
        const Case& c = cases_[0];
        const std::string good = path("good.skynnet");
        saveCombinedModel(good, c.saved);
        QFile f(QString::fromStdString(good));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        f.close();
        const auto writeBytes = [&](const std::string& file, const QByteArray& b) {
            QFile out(QString::fromStdString(file));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(b);
        };
        const std::string cut = path("cut.skynnet");
        writeBytes(cut, bytes.left(bytes.size() / 2));
        QCOMPARE(errorOf([&] { loadAnyModel(cut); }), cut + " is truncated");
        QByteArray flipped = bytes;
        flipped[flipped.size() - 100] = char(flipped[flipped.size() - 100] ^ 0x40);  // inside the weights
        const std::string damaged = path("damaged.skynnet");
        writeBytes(damaged, flipped);
        QCOMPARE(errorOf([&] { loadCombinedModel(damaged); }), damaged + " is damaged (checksum mismatch)");

        // Valid containers whose header is wrong: the error names the file and the field.
        ModelFileContents contents = loadModelFile(good);
        const std::string header = dumpJson(contents.header);
        const auto withHeader = [&](const std::string& from, const std::string& to) {
            std::string text = header;
            const auto at = text.find(from);
            if (at == std::string::npos) throw Error("test setup: '" + from + "' not in the header");
            text.replace(at, from.size(), to);
            const std::string file = path("bad.skynnet");
            const ModelFileContents changed{parseJson(text), contents.blocks, file};
            saveModelFile(file, changed);
            return errorOf([&] { loadAnyModel(file); });
        };
        VERIFY_CONTAINS(withHeader("\"kind\":\"combined\"", "\"kind\":\"banana\""), "kind 'banana'");
        VERIFY_CONTAINS(withHeader("\"strategy\":\"class-groups\"", "\"strategy\":\"auto\""),
                        "bad.skynnet: combination.strategy must be a resolved strategy");
        VERIFY_CONTAINS(withHeader("\"strategy\":\"class-groups\"", "\"strategy\":\"pairs\""),
                        "bad.skynnet: combination.strategy: unknown split strategy 'pairs'");
        const Json& classes = contents.header.at("combination").at("classes");
        const std::string second = dumpJson(classes.at(1));
        VERIFY_CONTAINS(withHeader(second, "[0,99]"), "combination.classes[1][1] is class 99, outside the 6 classes");
        VERIFY_CONTAINS(withHeader("\"weightsBlock\":2", "\"weightsBlock\":7"),
                        "bad.skynnet: submodels[2].weightsBlock must be the index of one of the file's 3 data blocks");
        VERIFY_CONTAINS(withHeader("\"weightsBlock\":2", "\"weightsBlock\":1"),
                        "submodels[2].weightsBlock names a data block");
        VERIFY_CONTAINS(withHeader("\"outputs\":6", "\"outputs\":0"), "combination.outputs must be at least 1");
        VERIFY_CONTAINS(withHeader("\"combination\"", "\"combo\""), "missing field 'combination'");
        VERIFY_CONTAINS(withHeader("\"classNames\":[\"blob 1\",", "\"classNames\":["),
                        "classNames has 5 names for a classification model expecting 6");

        // Inconsistent models are not saved, and no file is left behind.
        SavedCombinedModel wrong = c.saved;
        wrong.weights[1].pop_back();
        const std::string refused = path("refused.skynnet");
        VERIFY_CONTAINS(errorOf([&] { saveCombinedModel(refused, wrong); }),
                        "cannot save " + refused + ": submodels[1].weightsBlock holds");
        wrong = c.saved;
        wrong.specs[0].outputs += 1;
        VERIFY_CONTAINS(errorOf([&] { saveCombinedModel(refused, wrong); }), "submodels[0].network.outputs is");
        QVERIFY(!QFile::exists(QString::fromStdString(refused)));
    }

    void exportErrorsNameThePathAndLeaveNoFile() {
        const Case& c = cases_[0];
        const std::string missingDir = path("no/such/dir/model.onnx");
        VERIFY_CONTAINS(errorOf([&] { exportCppHeader(c.saved, missingDir); }), missingDir);
        const std::string header = path("bad.h");
        VERIFY_CONTAINS(errorOf([&] { exportCppHeader(c.saved, header, {"1bad"}); }),
                        "cannot export " + header + ": '1bad' is not a valid C++ namespace name");
        QVERIFY(!QFile::exists(QString::fromStdString(header)));
        if (!onnxExportAvailable()) {
            VERIFY_CONTAINS(errorOf([&] { exportOnnx(c.saved, path("x.onnx")); }), "no ONNX support");
            return;
        }
        VERIFY_CONTAINS(errorOf([&] { exportOnnx(c.saved, missingDir); }), missingDir);
        const std::string onnx = path("bad.onnx");
        VERIFY_CONTAINS(errorOf([&] { exportSubmodelOnnx(c.saved, 3, onnx); }),
                        "cannot export " + onnx + ": submodel index 3 is outside the 3 submodels");
        VERIFY_CONTAINS(errorOf([&] { exportOnnx(c.saved, onnx, {12}); }), "opset 12 is not supported");
        QVERIFY(!QFile::exists(QString::fromStdString(onnx)));
    }

    void onnxFilesPassTheChecker() {
        if (!onnxExportAvailable())
            SKIP_UNLESS_CI("this build has no ONNX export (libonnx-dev, libprotobuf-dev missing)");
        QStringList files;
        for (const Case& c : cases_) {
            exportOnnx(c.saved, path(c.name + ".onnx"));
            files << dir_.filePath(c.name + ".onnx");
            for (int i = 0; i < c.saved.submodelCount(); ++i) {
                const QString sub = c.name + "_sub" + QString::number(i + 1) + ".onnx";
                exportSubmodelOnnx(c.saved, i, path(sub));
                files << dir_.filePath(sub);
            }
        }
        // The newest opset the exporter offers, and a graph without the preprocessing.
        exportOnnx(cases_[0].saved, path("groups_opset17.onnx"), {17});
        exportOnnx(cases_[2].saved, path("binary_no_preprocessing.onnx"), {13, false});
        files << dir_.filePath("groups_opset17.onnx") << dir_.filePath("binary_no_preprocessing.onnx");
        QString error;
        run("/usr/bin/python3", {"-c", "import onnx"}, error);
        if (!error.isEmpty()) SKIP_UNLESS_CI("/usr/bin/python3 has no onnx module (Debian: python3-onnx)");
        const QByteArray out =
            run("/usr/bin/python3",
                QStringList{QString::fromStdString(sourcePath("tests/export/check_onnx.py"))} + files, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(out.count("ok "), files.size());
    }

    void onnxRuntimeMatchesTheEngine() {
        if (!onnxExportAvailable())
            SKIP_UNLESS_CI("this build has no ONNX export (libonnx-dev, libprotobuf-dev missing)");
        const QString node = QStandardPaths::findExecutable("node");
        if (node.isEmpty()) SKIP_UNLESS_CI("node (Node.js) is not installed: the ONNX Runtime check needs it");
        const QString exportDir = QString::fromStdString(sourcePath("tests/export"));
        QString error;
        if (!QFile::exists(exportDir + "/node_modules/onnxruntime-node/package.json")) {
            // Normally done by tests/export/setup.sh; here so a plain test run works too.
            const QString npm = QStandardPaths::findExecutable("npm");
            if (npm.isEmpty()) SKIP_UNLESS_CI("npm is not installed: cannot install onnxruntime-node");
            run(npm, {"ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"}, error, 300000,
                exportDir);
            if (!error.isEmpty())
                SKIP_UNLESS_CI(qPrintable("cannot install onnxruntime-node (tests/export/setup.sh): " + error));
        }
        // Each job: a model, its input rows, what the engine says, and the output to compare.
        struct Job {
            QString model, input, output;
            Matrix expected;
        };
        std::vector<Job> jobs;
        QJsonArray jobList;
        const auto add = [&](const QString& model, const QString& inputName, const Matrix& input, const QString& output,
                             const Matrix& expected) {
            const QString file = dir_.filePath(inputName + ".bin");
            writeFloats(file, input);
            jobs.push_back({model, file, output, expected});
            jobList.append(QJsonObject{{"model", dir_.filePath(model)},
                                       {"input", file},
                                       {"rows", int(input.rows())},
                                       {"cols", int(input.cols())}});
        };
        for (const Case& c : cases_) {
            const QString output = c.saved.task() == Task::Regression ? "values"
                                   : c.saved.task() == Task::Binary   ? "probability"
                                                                      : "probabilities";
            exportOnnx(c.saved, path(c.name + ".onnx"));
            add(c.name + ".onnx", c.name, c.raw, output, c.expected);
            for (int i = 0; i < c.saved.submodelCount(); ++i) {
                const QString sub = c.name + "_sub" + QString::number(i + 1) + ".onnx";
                exportSubmodelOnnx(c.saved, i, path(sub));
                add(sub, c.name, c.raw, "outputs", c.submodels[std::size_t(i)]);
            }
        }
        // Opset 17; a graph that takes preprocessed columns; a single network (one-submodel rule).
        const Case& groups = cases_[0];
        exportOnnx(groups.saved, path("groups_opset17.onnx"), {17});
        add("groups_opset17.onnx", "groups", groups.raw, "probabilities", groups.expected);
        const Case& binary = cases_[2];
        exportOnnx(binary.saved, path("binary_no_preprocessing.onnx"), {13, false});
        add("binary_no_preprocessing.onnx", "binary_preprocessed", binary.saved.preprocessing.apply(binary.raw),
            "probability", binary.expected);
        SavedModel single;
        single.schema.task = Task::Binary;
        single.spec = binary.saved.specs[1];
        single.weights = binary.saved.weights[1];
        single.preprocessing = binary.saved.preprocessing;
        exportOnnx(asCombined(single), path("single.onnx"));
        add("single.onnx", "binary", binary.raw, "probability", binary.submodels[1]);
        const Case& cnn = cases_[4];  // cnnGroups: its second submodel as a single network
        SavedModel singleCnn;
        singleCnn.spec = cnn.saved.specs[1];
        singleCnn.weights = cnn.saved.weights[1];
        singleCnn.preprocessing = cnn.saved.preprocessing;
        exportOnnx(asCombined(singleCnn), path("single_cnn.onnx"));
        add("single_cnn.onnx", "cnnGroups", cnn.raw, "probabilities", cnn.submodels[1]);

        QFile jobFile(dir_.filePath("jobs.json"));
        QVERIFY(jobFile.open(QIODevice::WriteOnly));
        jobFile.write(QJsonDocument(jobList).toJson());
        jobFile.close();
        const QByteArray out = run(node, {exportDir + "/run_onnx.js", jobFile.fileName()}, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonArray results = QJsonDocument::fromJson(out).object()["results"].toArray();
        QCOMPARE(results.size(), qsizetype(jobs.size()));
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const QJsonObject outputs = results[qsizetype(i)].toObject()["outputs"].toObject();
            const double d = maxDifference(fromJson(outputs[jobs[i].output].toObject()), jobs[i].expected);
            QVERIFY2(d <= kTolerance, qPrintable(jobs[i].model + ": ONNX Runtime differs by " + QString::number(d)));
            qInfo("%s: ONNX Runtime within %.2g of the engine", qPrintable(jobs[i].model), d);
        }
    }

    // CNNs with hand-set weights (the engine builds them from the spec and the flat weights): one
    // network using every image layer kind, and class groups of two CNN submodels. (2, 9, 8) samples: H and W differ,
    // so a swapped axis shows.
    static SavedCombinedModel handSetSingleCnn() {
        SavedModel single;
        single.schema.task = Task::Classification;
        single.spec =
            imageSpec({2, 9, 8},
                      "conv:4:3x3:same:relu,bn,conv:5:4x3:s2:same:nobias:linear,activation:tanh,"
                      "maxpool:2:s1,conv:6:2x2:sigmoid,avgpool:2:s1,flatten,dense:8:leaky_relu,bn,dropout:0.5",
                      5);
        single.weights = handSetWeights(single.spec, 3);
        return asCombined(single);
    }
    // The activations without an ONNX operator of their own in opsets 13 to 17 (GELU), or with
    // one of another name (ReLU6 as Clip), on a dense network and on an image.
    static SavedCombinedModel handSetActivations() {
        SavedModel single;
        single.schema.task = Task::Classification;
        single.spec = imageSpec({1, 2, 3},
                                "conv:2:2x2:same:gelu,activation:relu6,flatten,dense:5:gelu,activation:relu6,"
                                "activation:softplus,dense:4:elu,activation:gelu",
                                3);
        single.weights = handSetWeights(single.spec, 6);
        for (float& w : single.weights) w *= 3.0f;  // large values: ReLU6 clips, Softplus and ELU saturate
        return asCombined(single);
    }
    static SavedCombinedModel handSetCombinedCnn() {
        SavedCombinedModel m;
        m.rule.strategy = Strategy::ClassGroups;
        m.rule.task = Task::Classification;
        m.rule.outputs = 5;
        m.rule.classes = {{0, 1, 2}, {3, 4}};
        m.specs = {imageSpec({2, 9, 8}, "conv:3:3x3:s2:relu,gap", 3),
                   imageSpec({2, 9, 8}, "bn,conv:4:5x5:same:relu,maxpool:3:s2,avgpool:2,gap,bn", 2)};
        m.weights = {handSetWeights(m.specs[0], 4), handSetWeights(m.specs[1], 5)};
        return m;
    }

    void cnnGraphHasTheImageLayersNodes() {
        if (!onnxExportAvailable())
            SKIP_UNLESS_CI("this build has no ONNX export (libonnx-dev, libprotobuf-dev missing)");
        const SavedCombinedModel single = handSetSingleCnn(), combined = handSetCombinedCnn();
        exportOnnx(single, path("cnn_single.onnx"));
        exportOnnx(combined, path("cnn_combined.onnx"));
        QString error;
        run("/usr/bin/python3", {"-c", "import onnx"}, error);
        if (!error.isEmpty()) SKIP_UNLESS_CI("/usr/bin/python3 has no onnx module (Debian: python3-onnx)");
        const auto describeGraph = [&](const QString& file) {
            const QByteArray out = run("/usr/bin/python3",
                                       {QString::fromStdString(sourcePath("tests/export/describe_onnx.py")), file},
                                       error);
            return QJsonDocument::fromJson(out).object();
        };
        const QJsonObject graph = describeGraph(dir_.filePath("cnn_single.onnx"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonArray nodes = graph["nodes"].toArray();
        QStringList ops;
        for (const auto& n : nodes) ops << n.toObject()["op"].toString();
        QCOMPARE(ops,
                 (QStringList{"Reshape", "Conv", "Relu", "BatchNormalization", "Conv", "Tanh", "MaxPool", "Conv",
                              "Sigmoid", "AveragePool", "Flatten", "Gemm", "LeakyRelu", "BatchNormalization", "Gemm",
                              "Softmax", "Mean", "Identity"}));  // Mean: a single network is one data shard
        const auto attribute = [&](int node, const char* name) {
            return nodes[node].toObject()["attributes"].toObject()[name];
        };
        const auto ints = [&](int node, const char* name) {
            QList<int> out;
            for (const auto& v : attribute(node, name).toArray()) out << v.toInt();
            return out;
        };
        const QJsonObject initializers = graph["initializers"].toObject();
        const auto dims = [&](const char* name) {
            QList<int> out;
            for (const auto& v : initializers[name].toArray()) out << v.toInt();
            return out;
        };
        // The samples' rows become [N, C, H, W] (0 keeps N).
        QCOMPARE(dims("sub1/conv1/shape"), QList<int>{4});
        // Same padding 3x3 s1 on 9x8: one on every side.
        QCOMPARE(ints(1, "pads"), (QList<int>{1, 1, 1, 1}));
        QCOMPARE(ints(1, "strides"), (QList<int>{1, 1}));
        QCOMPARE(nodes[1].toObject()["inputs"].toArray().size(), 3);
        QCOMPARE(dims("sub1/conv1/W"), (QList<int>{4, 2, 3, 3}));
        // Per channel: gamma, beta, mean, variance of the 4 filters, the layer's epsilon.
        QCOMPARE(dims("sub1/bn1/running_var"), QList<int>{4});
        QCOMPARE(attribute(3, "epsilon").toDouble(), double(1e-5f));
        // Same padding 4x3 s2 on 9x8 -> 5x4: 3 rows (1 before, 2 after), 1 column (after).
        QCOMPARE(ints(4, "pads"), (QList<int>{1, 0, 2, 1}));
        QCOMPARE(ints(4, "strides"), (QList<int>{2, 2}));
        QCOMPARE(ints(4, "kernel_shape"), (QList<int>{4, 3}));
        QCOMPARE(nodes[4].toObject()["inputs"].toArray().size(), 2);  // nobias
        QCOMPARE(ints(6, "kernel_shape"), (QList<int>{2, 2}));
        QCOMPARE(ints(6, "strides"), (QList<int>{1, 1}));
        QCOMPARE(ints(7, "pads"), (QList<int>{0, 0, 0, 0}));
        QCOMPARE(ints(9, "strides"), (QList<int>{1, 1}));
        QVERIFY(!nodes[9].toObject()["attributes"].toObject().contains("pads"));
        // The dense layer after (6, 2, 1) takes 12 values; bn after it is per feature.
        QCOMPARE(dims("sub1/dense1/W"), (QList<int>{12, 8}));
        QCOMPARE(dims("sub1/bn2/gamma"), QList<int>{8});

        exportOnnx(handSetActivations(), path("activations.onnx"));
        QStringList ops3;
        for (const auto& n : describeGraph(dir_.filePath("activations.onnx"))["nodes"].toArray())
            ops3 << n.toObject()["op"].toString();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList gelu{"Mul", "Erf", "Add", "Mul", "Mul"};  // 0.5 x (1 + erf(x / sqrt 2))
        const QStringList expected = QStringList{"Reshape", "Conv"} + gelu + QStringList{"Clip", "Flatten", "Gemm"} +
                                     gelu + QStringList{"Clip", "Softplus", "Gemm", "Elu"} + gelu +
                                     QStringList{"Gemm", "Softmax", "Mean", "Identity"};
        QCOMPARE(ops3, expected);

        const QJsonObject two = describeGraph(dir_.filePath("cnn_combined.onnx"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList ops2;
        for (const auto& n : two["nodes"].toArray()) ops2 << n.toObject()["op"].toString();
        QCOMPARE(ops2.mid(0, 8), (QStringList{"Reshape", "Conv", "Relu", "GlobalAveragePool", "Flatten", "Gemm",
                                              "Softmax", "Reshape"}));
        QCOMPARE(ops2.mid(8, 9), (QStringList{"BatchNormalization", "Conv", "Relu", "MaxPool", "AveragePool",
                                              "GlobalAveragePool", "BatchNormalization", "Flatten", "Gemm"}));
    }

    void cnnHandSetExportsMatchTheEngine() {
        QString node;
        const QString missing = onnxRuntimeMissing(node);
        if (!missing.isEmpty()) SKIP_UNLESS_CI(qPrintable(missing));
        const SavedCombinedModel single = handSetSingleCnn(), combined = handSetCombinedCnn();
        const SavedCombinedModel activations = handSetActivations();
        const Matrix raw = uniformRows(24, single.inputColumns(), -2.0f, 2.0f, 7);
        const Matrix wide = uniformRows(24, activations.inputColumns(), -3.0f, 3.0f, 8);
        exportOnnx(activations, path("activations.onnx"));
        exportOnnx(single, path("cnn_single.onnx"));
        exportOnnx(combined, path("cnn_combined.onnx"), {17});
        exportSubmodelOnnx(combined, 1, path("cnn_combined_sub2.onnx"));
        QString error;
        const QByteArray checked = run("/usr/bin/python3",
                                       {QString::fromStdString(sourcePath("tests/export/check_onnx.py")),
                                        dir_.filePath("cnn_single.onnx"), dir_.filePath("cnn_combined.onnx"),
                                        dir_.filePath("cnn_combined_sub2.onnx")},
                                       error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(checked.count("ok "), 3);
        const std::vector<Matrix> ort = runOnnxRuntime(node, dir_.path(),
                                                       {{dir_.filePath("cnn_single.onnx"), raw, "probabilities"},
                                                        {dir_.filePath("cnn_combined.onnx"), raw, "probabilities"},
                                                        {dir_.filePath("cnn_combined_sub2.onnx"), raw, "outputs"},
                                                        {dir_.filePath("activations.onnx"), wide, "probabilities"}},
                                                       error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(ort.size(), std::size_t(4));
        const Matrix cppSingle = runCppHeader(single, dir_.path(), "cnn_single", raw, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const Matrix cppCombined = runCppHeader(combined, dir_.path(), "cnn_combined", raw, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const Matrix cppActivations = runCppHeader(activations, dir_.path(), "activations", wide, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const auto engine = [](const SavedCombinedModel& m, const Matrix& x) {
            CombinedModel built = buildCombinedModel(m);
            return predictRaw(built, m, x);
        };
        for (const auto& [name, a, b, e] :
             {std::tuple{"single", ort[0], cppSingle, engine(single, raw)},
              std::tuple{"combined", ort[1], cppCombined, engine(combined, raw)},
              std::tuple{"activations", ort[3], cppActivations, engine(activations, wide)}}) {
            const double d = maxDifference(a, e), dc = maxDifference(b, e);
            QVERIFY2(d <= kTolerance,
                     qPrintable(QString(name) + ": ONNX Runtime differs from the engine by " + QString::number(d)));
            QVERIFY2(dc <= kTolerance,
                     qPrintable(QString(name) + ": the C++ header differs from the engine by " + QString::number(dc)));
            // The answers vary between samples: the layers did not collapse to a constant.
            QVERIFY2(double((e.rowwise() - e.row(0)).cwiseAbs().maxCoeff()) > 1e-3, name);
            qInfo("hand-set %s: ONNX Runtime within %.2g, the C++ header within %.2g of the engine", name, d, dc);
        }
        CombinedModel built = buildCombinedModel(combined);
        const Matrix sub2 = built.submodel(1).predict(raw);
        QVERIFY(maxDifference(ort[2], sub2) <= kTolerance);
    }

    void cppHeaderCompilesAndMatchesTheEngine() {
        const QString gxx = QStandardPaths::findExecutable("g++");
        if (gxx.isEmpty()) SKIP_UNLESS_CI("g++ is not installed");
        std::vector<CppHeaderRows> jobs;
        for (const Case& c : cases_) {
            exportCppHeader(c.saved, path(c.name + ".h"), {"m_" + c.name.toStdString()});
            jobs.push_back({c.name, c.raw, c.expected.cols()});
        }
        QString error;
        const std::vector<Matrix> answers = runCppHeaders(dir_.path(), "predict", jobs, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (std::size_t i = 0; i < cases_.size(); ++i) {
            const Case& c = cases_[i];
            const double d = maxDifference(answers[i], c.expected);
            QVERIFY2(d <= kTolerance, qPrintable(c.name + ": the C++ header differs by " + QString::number(d)));
            qInfo("%s: C++ header within %.2g of the engine", qPrintable(c.name), d);
        }
    }
};

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
