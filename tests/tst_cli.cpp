// The command-line tool, run as a user would: train, evaluate and predict on bundled and built-in
// data, the report's fields, and bad input (one error line, the right exit status, no output file).
// The Skynnet split: the plan preview, split training with its baseline, combined model files in
// evaluate, predict and export.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <optional>

#include "cli_support.h"
#include "data/idx_loader.h"
#include "export/onnx_export.h"
#include "split/combined_model_file.h"
#include "test_support.h"

namespace {

using Run = CliRun;

void writeLines(const QString& path, const QStringList& lines) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write((lines.join('\n') + '\n').toUtf8());
}

QString iris() { return QString::fromStdString(sourcePath("resources/datasets/iris.csv")); }

// Small, single-threaded runs: fast on a busy 2-core machine and identical on any core count.
const QStringList irisTraining = {"train", "--layers", "dense:16:relu", "--epochs", "40",        "--batch", "16",
                                  "--lr",  "0.01",     "--seed",        "3",        "--threads", "1"};

// Ten well separated classes: class groups of 4, 3 and 3 with N=3. Stratified 70/10/20 split of
// 1200 rows: 84 training rows per class, 24 test rows per class.
const QString blobs10 = "builtin:blobs:classes=10:features=8";
const QStringList blobLayers = {"--layers", "dense:32:relu,dense:32:relu"};

// The table rows of `plan` output that start with `name`, split on runs of spaces.
QList<QStringList> tableRows(const QString& out, const QString& name) {
    QList<QStringList> rows;
    for (const QString& line : out.split('\n'))
        if (line.startsWith(name)) rows << line.split(QRegularExpression("\\s{2,}"), Qt::SkipEmptyParts);
    return rows;
}

QJsonObject parseJson(const QString& text) { return QJsonDocument::fromJson(text.toUtf8()).object(); }

QList<int> ints(const QJsonValue& array) {
    QList<int> out;
    for (const auto& v : array.toArray()) out << v.toInt();
    return out;
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void helpAndVersion();
    void trainIrisReportEvaluatePredict();
    void trainWithSeparateTestFile();
    void regressionOnSine();
    void constantTargetWarns();
    void earlyStopping();
    void badInput_data();
    void badInput();
    void lossesFitTheirTasks_data();
    void lossesFitTheirTasks();
    void interruptWritesNothing();
    void planPreview();
    void planJsonAndWarnings();
    void referenceMethodInOneWord();
    void trainSplitWithBaseline();
    void combinedModelEvaluatePredictExport();
    void cnnExportFromTheCommandLine();

private:
    // The split model both split tests use, trained by whichever runs first: each test also runs alone.
    const Run& blobsSplitRun();

    QTemporaryDir dir_;
    std::optional<Run> blobsSplit_;
    QString path(const char* name) const { return dir_.filePath(name); }
};

const Run& TestCli::blobsSplitRun() {
    if (!blobsSplit_)
        blobsSplit_ = runCli(QStringList{"train",
                                         "--data",
                                         blobs10,
                                         "--submodels",
                                         "3",
                                         "--strategy",
                                         "class-groups",
                                         "--baseline",
                                         "--epochs",
                                         "30",
                                         "--lr",
                                         "0.01",
                                         "--seed",
                                         "2",
                                         "--threads",
                                         "2",
                                         "--reference",  // the layout and epochs these checks count
                                         "--save",
                                         path("blobs.skym"),
                                         "--report",
                                         path("blobs.json")}
                             << blobLayers);
    return *blobsSplit_;
}

void TestCli::helpAndVersion() {
    Run r = runCli({"--help"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("Usage: skynnet-cli"));
    r = runCli({"train", "--help"});
    QCOMPARE(r.exitCode, 0);
    for (const char* option : {"--data", "--layers", "--epochs", "--report", "--save", "--early-stopping", "--scaling"})
        QVERIFY2(r.out.contains(option), option);
    r = runCli({"plan", "--help"});
    QCOMPARE(r.exitCode, 0);
    for (const char* option :
         {"--submodels", "--strategy", "--scale-epochs", "--shard-factor", "--binary-combine", "--json"})
        QVERIFY2(r.out.contains(option), option);
    QVERIFY(!r.out.contains("--save"));
    r = runCli({"train", "--help"});
    for (const char* option : {"--submodels", "--strategy", "--baseline"}) QVERIFY2(r.out.contains(option), option);
    r = runCli({"export", "--help"});
    QCOMPARE(r.exitCode, 0);
    for (const char* option : {"--format", "--out", "--submodel"}) QVERIFY2(r.out.contains(option), option);
    r = runCli({"--version"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith("skynnet-cli "));
    r = runCli({});
    QCOMPARE(r.exitCode, 2);
}

void TestCli::trainIrisReportEvaluatePredict() {
    const QString model = path("iris.skynnet"), report = path("iris.json");
    Run r = runCli(QStringList(irisTraining) << "--data" << iris() << "--save" << model << "--report" << report);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // Progress: one line per epoch on stderr.
    QCOMPARE(r.err.count(QRegularExpression("^epoch +\\d+/40 ", QRegularExpression::MultilineOption)), 40);

    const QJsonObject j = readJson(report);
    QCOMPARE(j["task"].toString(), QString("classification"));
    QCOMPARE(j["status"].toString(), QString("completed"));
    const double accuracy = j["test_accuracy"].toDouble(-1);
    QVERIFY2(accuracy >= 0.9, qPrintable(QString::number(accuracy)));  // iris, 30 test rows
    const QJsonObject data = j["data"].toObject();
    QCOMPARE(data["train_samples"].toInt() + data["validation_samples"].toInt() + data["test_samples"].toInt(), 150);
    QCOMPARE(j["test_samples"].toInt(), 30);
    QCOMPARE(data["classes"].toArray().size(), 3);
    long confusionTotal = 0;
    for (const auto& row : j["test_confusion_matrix"].toArray())
        for (const auto& c : row.toArray()) confusionTotal += c.toInt();
    QCOMPARE(confusionTotal, 30L);
    QCOMPARE(j["test_precision"].toArray().size(), 3);
    QCOMPARE(j["test_recall"].toArray().size(), 3);
    QVERIFY(j["wall_seconds"].toDouble() > 0);
    QVERIFY(j["cpu_seconds"].toDouble() > 0);
    QVERIFY(j["peak_memory_bytes"].toDouble() > 1e6 && j["peak_memory_bytes"].toDouble() < 2e9);
    const QJsonArray history = j["history"].toArray();
    QCOMPARE(history.size(), 40);
    QCOMPARE(j["epochs_run"].toInt(), 40);
    for (int e = 0; e < history.size(); ++e) {
        const QJsonObject h = history[e].toObject();
        QCOMPARE(h["epoch"].toInt(), e + 1);
        QVERIFY(h["loss"].toDouble(-1) > 0 && std::isfinite(h["loss"].toDouble()));
        QVERIFY(h["metric"].toDouble(-1) >= 0 && h["metric"].toDouble() <= 1);
        QVERIFY(h["seconds"].toDouble(-1) >= 0);
        QVERIFY(h["samples_per_second"].toDouble() > 0);
        QVERIFY(h.contains("validation_loss"));
    }
    QVERIFY(history.last().toObject()["loss"].toDouble() < history.first().toObject()["loss"].toDouble());

    // The same seed trains the same network.
    Run again = runCli(QStringList(irisTraining) << "--data" << iris() << "--report" << path("iris2.json"));
    QCOMPARE(again.exitCode, 0);
    const QJsonArray history2 = readJson(path("iris2.json"))["history"].toArray();
    QCOMPARE(history2.size(), history.size());
    for (int e = 0; e < history.size(); ++e)
        for (const char* key : {"loss", "metric", "validation_loss", "validation_metric"})
            QCOMPARE(history2[e].toObject()[key].toDouble(), history[e].toObject()[key].toDouble());

    // evaluate on the rebuilt test split gives the report's figure exactly.
    r = runCli({"evaluate", "--model", model, "--data", iris(), "--split", "test", "--report", path("eval.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("confusion matrix") && r.out.contains("versicolor") && r.out.contains("precision"));
    const QJsonObject ev = readJson(path("eval.json"));
    QCOMPARE(ev["samples"].toInt(), 30);
    QCOMPARE(ev["accuracy"].toDouble(), accuracy);
    QCOMPARE(ev["confusion_matrix"].toArray(), j["test_confusion_matrix"].toArray());

    // predict on the features alone (no species column): one row per sample, probabilities sum to 1.
    QStringList features;
    for (const QString& line : readLines(iris())) features << line.section(',', 0, 3);
    writeLines(path("iris_features.csv"), features);
    r = runCli({"predict", "--model", model, "--data", path("iris_features.csv"), "--output", path("pred.csv")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList rows = readLines(path("pred.csv"));
    QCOMPARE(rows.size(), 151);
    QCOMPARE(rows[0], QString("predicted,probability_setosa,probability_versicolor,probability_virginica"));
    const QStringList classes = {"setosa", "versicolor", "virginica"};
    int agree = 0;
    const QStringList truth = readLines(iris());
    for (int i = 1; i < rows.size(); ++i) {
        const QStringList f = rows[i].split(',');
        QCOMPARE(f.size(), 4);
        double sum = 0, best = -1;
        int argmax = -1;
        for (int k = 0; k < 3; ++k) {
            const double p = f[k + 1].toDouble();
            sum += p;
            if (p > best) best = p, argmax = k;
        }
        QVERIFY2(std::fabs(sum - 1) < 1e-4, qPrintable(rows[i]));
        QCOMPARE(f[0], classes[argmax]);
        agree += f[0] == truth[i].section(',', 4, 4);
    }
    QVERIFY2(agree >= 135, qPrintable(QString::number(agree)));  // >= 90% of all 150 rows

    // The label column present or not, the predictions are the same.
    r = runCli({"predict", "--model", model, "--data", iris(), "--output", path("pred2.csv")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(readLines(path("pred2.csv")), rows);
}

void TestCli::trainWithSeparateTestFile() {
    // Every 5th row is a test row; the test file has its columns in another order.
    const QStringList all = readLines(iris());
    QStringList train = {all[0]}, test = {"species,petal_width,petal_length,sepal_width,sepal_length"};
    for (int i = 1; i < all.size(); ++i) {
        if (i % 5 != 0) {
            train << all[i];
            continue;
        }
        const QStringList f = all[i].split(',');
        test << QStringList{f[4], f[3], f[2], f[1], f[0]}.join(',');
    }
    writeLines(path("train.csv"), train);
    writeLines(path("test.csv"), test);
    const QString model = path("split.skynnet");
    Run r = runCli(QStringList(irisTraining) << "--data" << path("train.csv") << "--test-data" << path("test.csv")
                                             << "--save" << model << "--report" << path("split.json") << "--quiet");
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.err.isEmpty());  // --quiet
    const QJsonObject j = readJson(path("split.json"));
    QCOMPARE(j["test_samples"].toInt(), 30);
    QVERIFY(j["test_accuracy"].toDouble() >= 0.9);
    r = runCli({"evaluate", "--model", model, "--data", path("test.csv"), "--report", path("split_eval.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(readJson(path("split_eval.json"))["accuracy"].toDouble(), j["test_accuracy"].toDouble());
}

void TestCli::regressionOnSine() {
    Run r = runCli({"train", "--data", "builtin:sine", "--layers", "dense:64:tanh,dense:64:tanh", "--epochs", "60",
                    "--lr", "0.01", "--threads", "1", "--report", path("sine.json"), "--save", path("sine.skynnet")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject j = readJson(path("sine.json"));
    QCOMPARE(j["task"].toString(), QString("regression"));
    QVERIFY(!j.contains("test_accuracy"));
    const double r2 = j["test_r2"].toDouble(-1);
    QVERIFY2(r2 >= 0.85, qPrintable(QString::number(r2)));
    QVERIFY(j["test_mse"].toDouble(-1) >= 0 && j["test_mae"].toDouble(-1) >= 0);
    QCOMPARE(j["history"].toArray().size(), 60);

    r = runCli({"evaluate", "--model", path("sine.skynnet"), "--data", "builtin:sine", "--split", "test", "--report",
                path("sine_eval.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(readJson(path("sine_eval.json"))["r2"].toDouble(), r2);
    r = runCli({"predict", "--model", path("sine.skynnet"), "--data", "builtin:sine", "--output", path("sine.csv")});
    QCOMPARE(r.exitCode, 0);
    const QStringList rows = readLines(path("sine.csv"));
    QCOMPARE(rows.size(), 2001);
    QCOMPARE(rows[0], QString("y1"));
}

void TestCli::constantTargetWarns() {
    QStringList lines = {"x,y"};
    for (int i = 0; i < 40; ++i) lines << QString("%1,3.5").arg(i);
    writeLines(path("constant.csv"), lines);
    // A warning, not a refusal: it trains, the model is saved, and --quiet keeps the warning.
    const Run r = runCli({"train", "--data", path("constant.csv"), "--layers", "dense:8:relu", "--epochs", "1",
                          "--threads", "1", "--quiet", "--save", path("constant.skynnet")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(r.errLines(),
             QStringList{"warning: " + path("constant.csv") +
                         ": target column 'y' holds one value only (3.5 in all 40 rows): the model can only "
                         "learn that constant"});
    QVERIFY(QFile::exists(path("constant.skynnet")));
}

void TestCli::earlyStopping() {
    Run r = runCli({"train", "--data", iris(), "--layers", "dense:16:relu", "--epochs", "400", "--lr", "0.05",
                    "--threads", "1", "--early-stopping", "3", "--quiet", "--report", path("early.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject j = readJson(path("early.json"));
    QCOMPARE(j["status"].toString(), QString("early_stopped"));
    const int ran = j["epochs_run"].toInt();
    QVERIFY(ran < 400);
    QCOMPARE(j["history"].toArray().size(), ran);
    QCOMPARE(j["best_epoch"].toInt(), ran - 3);  // patience 3: three epochs without improvement
}

void TestCli::badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");

    // Row 5 of the data (line 6 of the file) lacks its sepal width.
    QStringList lines = readLines(iris());
    lines[5] = "5.0,,1.4,0.2,setosa";
    writeLines(path("missing.csv"), lines);
    writeLines(path("not_a_model.skynnet"), {"hello"});

    // Inputs that cannot support training: refused before anything trains (training_checks.h).
    writeLines(path("oneclass.csv"), {"a,b,label", "1,2,x", "2,3,x", "3,1,x", "4,5,x", "5,5,x"});
    writeLines(path("onerow.csv"), {"a,b,label", "1,2,x"});
    writeLines(path("overflow.csv"),
               {"x1,x2,x3,y", "1,2,3,a", "2,3,4,b", "3,4,5,a", "4,5,6,b", "5,6,7,a", "6,7,3.5e39,b"});
    writeLines(path("infinite.csv"), {"x1,x2,y", "1,2,a", "2,inf,b", "3,4,a", "4,5,b", "5,6,a"});
    writeLines(path("empty_cell.csv"), {"x1,x2,y", "1,2,a", "2,,b", "3,4,a", "4,5,b", "5,6,a"});
    writeLines(path("six.csv"), {"x1,x2,y", "1,2,a", "2,1,b", "3,4,a", "4,3,b", "5,6,a", "6,5,b"});

    const QStringList train = {"train", "--epochs", "2", "--threads", "1"};
    const QStringList dense8 = {"--layers", "dense:8:relu"};
    QTest::newRow("one class") << (QStringList(train) << "--data" << path("oneclass.csv") << "--target"
                                                      << "label" << dense8)
                               << 1
                               << path("oneclass.csv") + ": target column 'label' holds one class only ('x' in all 5 "
                                                         "rows): classification needs at least 2 classes";
    QTest::newRow("one row") << (QStringList(train) << "--data" << path("onerow.csv") << dense8) << 1
                             << path("onerow.csv") +
                                    ": 1 row is too few for training, validation (fraction 0.1) and test "
                                    "(fraction 0.2): at least 5 rows are needed to give each part a row";
    QTest::newRow("one row, nothing held out")
        << (QStringList(train) << "--data" << path("onerow.csv") << "--validation"
                               << "0"
                               << "--test-fraction"
                               << "0" << dense8)
        << 1 << path("onerow.csv") + ": target column 'label' holds one class only ('x' in its only row)";
    QTest::newRow("plan one class") << QStringList{"plan", "--data", path("oneclass.csv"), "--submodels", "3"} << 1
                                    << path("oneclass.csv") + ": target column 'label' holds one class only";
    QTest::newRow("float32 overflow") << (QStringList(train) << "--data" << path("overflow.csv")) << 1
                                      << path("overflow.csv") + ":7: column 'x3' (2): '3.5e39' overflows float32";
    QTest::newRow("infinity") << (QStringList(train) << "--data" << path("infinite.csv")) << 1
                              << path("infinite.csv") + ":3: column 'x2' (1): 'inf' is not a finite number";
    QTest::newRow("empty cell") << (QStringList(train) << "--data" << path("empty_cell.csv")) << 1
                                << path("empty_cell.csv") + ":3: column 'x2' (1): missing value (empty cell)";
    // One training row per shard: every submodel would see a single class.
    const QStringList sixShards = {"--data",     path("six.csv"), "--validation",  "0",           "--test-fraction",
                                   "0",          "--layers",      "dense:64:relu", "--submodels", "6",
                                   "--strategy", "binary-shards"};
    QTest::newRow("plan one-class shard")
        << (QStringList{"plan"} << sixShards) << 1
        << "binary shards: submodel 1 (shard 1 of 6 (1 sample)) has training rows of class";
    QTest::newRow("split one-class shard") << (QStringList(train) << sixShards) << 1
                                           << "so it cannot learn to tell classes apart (request fewer submodels)";
    QTest::newRow("missing file") << (QStringList(train) << "--data" << path("nothere.csv")) << 1 << "nothere.csv";
    QTest::newRow("bad layers") << (QStringList(train) << "--data" << iris() << "--layers"
                                                       << "dense:abc")
                                << 2 << "--layers: layer 1";
    QTest::newRow("unknown layer") << (QStringList(train) << "--data" << iris() << "--layers"
                                                          << "rnn:3")
                                   << 2 << "unknown layer type 'rnn'";
    // A known kind on data it cannot take: refused before training, naming the layer.
    QTest::newRow("recurrent on flat data") << (QStringList(train) << "--data" << iris() << "--layers"
                                                                   << "gru:3")
                                            << 1 << "layer 1: gru 3 needs a sequence input";
    QTest::newRow("unknown option") << (QStringList(train) << "--data" << iris() << "--frobnicate") << 2
                                    << "unknown option '--frobnicate'";
    QTest::newRow("non-numeric epochs") << QStringList{"train", "--data", iris(), "--epochs", "x"} << 2
                                        << "--epochs: expected a positive integer, got 'x'";
    QTest::newRow("missing value") << (QStringList(train) << "--data" << path("missing.csv")) << 1
                                   << "missing.csv:6: column 'sepal_width' (1): missing value";
    QTest::newRow("no data") << train << 2 << "--data is required";
    // A loss must fit the task (losses/task_losses.h): mse no longer trains a classifier.
    QTest::newRow("mse on classification")
        << (QStringList(train) << "--data" << iris() << "--loss"
                               << "mse")
        << 2 << "--loss: the loss mse does not fit the classification task (use cross_entropy)";
    QTest::newRow("bad fraction") << (QStringList(train) << "--data" << iris() << "--validation"
                                                         << "1.5")
                                  << 2 << "--validation: expected a fraction";
    QTest::newRow("unknown builtin") << (QStringList(train) << "--data"
                                                            << "builtin:nope")
                                     << 2 << "--data: unknown built-in dataset 'nope'";
    QTest::newRow("unknown command") << QStringList{"trian"} << 2 << "unknown command 'trian'";
    QTest::newRow("not a model") << QStringList{"evaluate", "--model", path("not_a_model.skynnet"), "--data", iris()}
                                 << 1 << "not_a_model.skynnet";
    QTest::newRow("missing model") << QStringList{"predict", "--model", path("nope.skynnet"), "--data", iris()} << 1
                                   << "nope.skynnet";

    // The split: option mistakes are usage errors; a plan the data or network cannot have is status 1.
    const QStringList split = QStringList(train) << "--data" << blobs10;
    QTest::newRow("bad strategy") << (QStringList(split) << "--submodels"
                                                         << "3"
                                                         << "--strategy"
                                                         << "groups")
                                  << 2 << "--strategy: unknown split strategy 'groups'";
    QTest::newRow("zero submodels") << (QStringList(split) << "--submodels"
                                                           << "0")
                                    << 2 << "--submodels: expected a positive integer, got '0'";
    QTest::newRow("strategy without N") << (QStringList(split) << "--strategy"
                                                               << "class-groups")
                                        << 2 << "--strategy: needs --submodels";
    QTest::newRow("baseline without N") << (QStringList(split) << "--baseline") << 2 << "--baseline: needs --submodels";
    QTest::newRow("bad scale-epochs") << (QStringList(split) << "--submodels"
                                                             << "3"
                                                             << "--scale-epochs"
                                                             << "yes")
                                      << 2 << "--scale-epochs: unknown epoch scaling 'yes' (expected on, off or sqrt)";
    QTest::newRow("unused knob") << (QStringList(split) << "--submodels"
                                                        << "3"
                                                        << "--binary-combine"
                                                        << "average")
                                 << 2 << "--binary-combine: only applies to the binary-shards strategy";
    QTest::newRow("strategy for another task")
        << (QStringList(split) << "--submodels"
                               << "2"
                               << "--strategy"
                               << "output-split")
        << 1 << "output-split strategy needs a regression or reconstruction task";
    QTest::newRow("too narrow to split") << (QStringList(split) << "--layers"
                                                                << "dense:16:relu,dense:2:relu"
                                                                << "--submodels"
                                                                << "6")
                                         << 1 << "layer 2 (dense 2 relu)";
    QTest::newRow("plan too narrow") << QStringList{"plan",         "--data",      blobs10, "--layers",
                                                    "dense:2:relu", "--submodels", "6"}
                                     << 1 << "layer 1 (dense 2 relu): width 2 / F=2 rounds up to 1";
    QTest::newRow("plan without N") << QStringList{"plan", "--data", blobs10} << 2 << "--submodels is required";
    QTest::newRow("plan zero N") << QStringList{"plan", "--data", blobs10, "--submodels", "0"} << 2
                                 << "--submodels: expected a positive integer";
    QTest::newRow("plan bad strategy") << QStringList{"plan", "--data", blobs10, "--submodels", "3", "--strategy", "x"}
                                       << 2 << "--strategy: unknown split strategy 'x'";
    QTest::newRow("export bad format") << QStringList{"export", "--model", path("not_a_model.skynnet"), "--format",
                                                      "zip"}
                                       << 2 << "--format: expected native, onnx or cpp, got 'zip'";
    QTest::newRow("export not a model") << QStringList{"export", "--model", path("not_a_model.skynnet"), "--format",
                                                       "onnx"}
                                        << 1 << "not_a_model.skynnet";
}

void TestCli::badInput() {
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    // Every output option is given, so that none may appear.
    const QString report = path("bad_report.json"), model = path("bad_model.skynnet"), output = path("bad_pred.csv");
    if (args[0] == "train") args << "--report" << report << "--save" << model;
    if (args[0] == "evaluate") args << "--report" << report;
    if (args[0] == "predict") args << "--output" << output;
    if (args[0] == "export") args << "--out" << output;
    const Run r = runCli(args);
    QCOMPARE(r.exitCode, exitCode);
    QCOMPARE(r.errLines().size(), 1);
    QVERIFY2(r.err.startsWith("skynnet-cli: "), qPrintable(r.err));
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
    QVERIFY(!QFile::exists(report));
    QVERIFY(!QFile::exists(model));
    QVERIFY(!QFile::exists(output));
    // No temporary files left behind either.
    const QStringList left = QDir(dir_.path()).entryList({"bad_*"}, QDir::Files);
    QVERIFY2(left.isEmpty(), qPrintable(left.join(' ')));
}

// Every (loss, task) pair, previewed with `plan`, which applies train's rule without training.
void TestCli::lossesFitTheirTasks_data() {
    QTest::addColumn<QStringList>("data");
    QTest::addColumn<QString>("loss");
    QTest::addColumn<QString>("refusal");  // empty: accepted
    const QStringList classes = {"--data", "builtin:blobs:samples=120:classes=3"};
    const QStringList binary = {"--data", "builtin:blobs:samples=120:classes=2", "--task", "binary"};
    const QStringList regression = {"--data", "builtin:sine:samples=120:outputs=2"};
    const struct {
        const char* task;
        QStringList data;
        const char* fits;  // the losses that fit, as the refusal lists them
    } tasks[] = {{"classification", classes, "cross_entropy"},
                 {"binary", binary, "binary_cross_entropy"},
                 {"regression", regression, "mse or mae"}};
    for (const auto& t : tasks)
        for (const QString loss : {"cross_entropy", "binary_cross_entropy", "mse", "mae"}) {
            const bool fits = QString(t.fits).split(" or ").contains(loss);
            QTest::newRow(qPrintable(loss + "/" + t.task))
                << t.data << loss
                << (fits ? QString()
                         : "skynnet-cli: --loss: the loss " + loss + " does not fit the " + t.task + " task (use " +
                               t.fits + ")");
        }
}

void TestCli::lossesFitTheirTasks() {
    QFETCH(QStringList, data);
    QFETCH(QString, loss);
    QFETCH(QString, refusal);
    const Run r = runCli(QStringList{"plan", "--submodels", "2", "--loss", loss} << data);
    if (refusal.isEmpty()) {
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        return;
    }
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err.trimmed(), refusal);
    QVERIFY(r.out.isEmpty());
}

void TestCli::interruptWritesNothing() {
    QProcess p;
    const QString report = path("int.json"), model = path("int.skynnet");
    p.start(QStringLiteral(SKYNNET_CLI_PATH), {"train", "--data", "builtin:spirals", "--epochs", "100000", "--threads",
                                               "1", "--report", report, "--save", model});
    QVERIFY(p.waitForStarted());
    // Interrupt once training is under way: after the first epoch line.
    QString err;
    QElapsedTimer timer;
    timer.start();
    while (!err.contains("epoch ") && timer.elapsed() < hangGuardMs(30000)) {
        p.waitForReadyRead(200);
        err += QString::fromUtf8(p.readAllStandardError());
    }
    QVERIFY2(err.contains("epoch "), qPrintable(err));
    ::kill(pid_t(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(hangGuardMs(30000)));
    err += QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 130);
    QVERIFY2(err.trimmed().split('\n').last().contains("interrupted"), qPrintable(err));
    QVERIFY(!QFile::exists(report));
    QVERIFY(!QFile::exists(model));
}

void TestCli::planPreview() {
    const Run r = runCli(QStringList{"plan", "--data", blobs10, "--submodels", "3", "--threads", "2"} << blobLayers);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.err.isEmpty());
    // The defaults measured in issue 28: the stacked rule, an "other" share of 0.3, epochs kept.
    QVERIFY2(r.out.startsWith("class-groups: N=3 gives S=3 submodels, F=1.5, 3 class groups 0-3 | 4-6 | 7-9, "
                              "combined by stacked with an 'other' output (other share 0.3)"),
             qPrintable(r.out));
    // The original model first, then one row per submodel: name, classes, samples, widths, params,
    // MFLOP/sample, memory. Widths ceil(w / 1.5): 32 -> 22; the output layer is each one's classes
    // and "other". 84 training rows per class; "other" adds round(0.3 x own rows).
    const QList<QStringList> original = tableRows(r.out, "original");
    QCOMPARE(original.size(), 1);
    QCOMPARE(original[0].mid(1, 3), (QStringList{"all (10)", "840", "8-32-32-10"}));
    QCOMPARE(original[0].size(), 7);
    const QList<QStringList> subs = tableRows(r.out, "submodel");
    QCOMPARE(subs.size(), 3);
    const QList<QStringList> expected = {{"submodel 1", "0-6 (7)", "764 (176 other)", "8-22-22-8"},
                                         {"submodel 2", "0-3,7-9 (7)", "764 (176 other)", "8-22-22-8"},
                                         {"submodel 3", "4-9 (6)", "655 (151 other)", "8-22-22-7"}};
    for (int i = 0; i < 3; ++i) {
        const QStringList& row = subs[i];
        QCOMPARE(row.mid(0, 4), expected[i]);
        // params of 8-22-22-k: 8*22+22 + 22*22+22 + 22*k+k
        QCOMPARE(row[4].toInt(), 8 * 22 + 22 + 22 * 22 + 22 + 23 * (i == 2 ? 7 : 8));
        QVERIFY(row[5].toDouble() > 0);
        QVERIFY(row[6].endsWith("KB") || row[6].endsWith("MB"));
    }
    QVERIFY(!r.out.contains("warning:"));
    QVERIFY2(r.out.contains("epochs 10, 9 per submodel"), qPrintable(r.out));  // ceil(10 / sqrt(1.5))
}

// --reference: the published tool's exact choices whatever the defaults, and no knob beside it
// that would contradict them.
void TestCli::referenceMethodInOneWord() {
    const QStringList plan = QStringList{"plan", "--data", blobs10, "--submodels", "6", "--json"} << blobLayers;
    Run r = runCli(QStringList(plan) << "--reference");
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QJsonObject j = parseJson(r.out);
    QCOMPARE(j["combine"].toString(), QString("product"));
    QCOMPARE(j["other_share"].toDouble(), 0.0);
    QCOMPARE(j["epoch_scaling"].toString(), QString("on"));
    QCOMPARE(j["submodel_epochs"].toInt(), 5);  // ceil(10 / 2)
    r = runCli(QStringList{"plan", "--data", "builtin:blobs:classes=2:samples=90", "--submodels", "3", "--json",
                           "--task", "binary", "--reference"}
               << blobLayers);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    j = parseJson(r.out);
    QCOMPARE(j["binary_combine"].toString(), QString("most-confident"));
    QCOMPARE(j["epoch_scaling"].toString(), QString("on"));
    for (const char* knob : {"--combine", "--other-share", "--scale-epochs"}) {
        const QString value = QString(knob) == "--combine" ? "sum" : QString(knob) == "--other-share" ? "0.3" : "off";
        r = runCli(QStringList(plan) << "--reference" << knob << value);
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(),
                        std::string(knob) + ": contradicts --reference, which sets the reference's exact method");
    }
}

void TestCli::planJsonAndWarnings() {
    Run r = runCli(QStringList{"plan", "--data", blobs10, "--submodels", "3", "--json", "--scale-epochs", "off",
                               "--other-share", "0"}
                   << blobLayers);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QJsonObject j = parseJson(r.out);
    QCOMPARE(j["strategy"].toString(), QString("class-groups"));
    QCOMPARE(j["N"].toInt(), 3);
    QCOMPARE(j["S"].toInt(), 3);
    QCOMPARE(j["F"].toDouble(), 1.5);
    QCOMPARE(j["submodel_epochs"].toInt(), 10);
    const QJsonArray groups = j["groups"].toArray();
    QCOMPARE(groups.size(), 3);
    QCOMPARE(ints(groups[0]), (QList<int>{0, 1, 2, 3}));
    QCOMPARE(ints(groups[1]), (QList<int>{4, 5, 6}));
    QCOMPARE(ints(groups[2]), (QList<int>{7, 8, 9}));
    const QJsonArray subs = j["submodels"].toArray();
    QCOMPARE(subs.size(), 3);
    QCOMPARE(ints(subs[1].toObject()["classes"]), (QList<int>{0, 1, 2, 3, 7, 8, 9}));
    QCOMPARE(subs[2].toObject()["widths"].toString(), QString("8-22-22-6"));
    QCOMPARE(subs[2].toObject()["samples"].toInt(), 504);
    QCOMPARE(j["original"].toObject()["widths"].toString(), QString("8-32-32-10"));
    QVERIFY(j["warnings"].toArray().isEmpty());

    // N=4 is not triangular: still 3 submodels, and the plan says so.
    r = runCli(QStringList{"plan", "--data", blobs10, "--submodels", "4"} << blobLayers);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(tableRows(r.out, "submodel").size(), 3);
    QVERIFY2(r.out.contains("warning: N=4 gives 3 submodels (3 groups)"), qPrintable(r.out));
    r = runCli(QStringList{"plan", "--data", blobs10, "--submodels", "4", "--json"} << blobLayers);
    j = parseJson(r.out);
    QCOMPARE(j["S"].toInt(), 3);
    QCOMPARE(j["warnings"].toArray().size(), 1);

    // Regression: the target columns split into chunks, widths divided by N.
    r = runCli({"plan", "--data", "builtin:sine:outputs=5", "--layers", "dense:64:tanh", "--submodels", "2", "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    j = parseJson(r.out);
    QCOMPARE(j["strategy"].toString(), QString("output-split"));
    QCOMPARE(j["F"].toDouble(), 2.0);
    QCOMPARE(ints(j["submodels"].toArray()[0].toObject()["outputs"]), (QList<int>{0, 1, 2}));
    QCOMPARE(j["submodels"].toArray()[1].toObject()["widths"].toString(), QString("4-32-2"));
}

void TestCli::trainSplitWithBaseline() {
    const QString model = path("blobs.skym"), report = path("blobs.json");
    const Run& r = blobsSplitRun();
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // Progress per submodel (30 epochs / F=1.5 = 20 each) and for the baseline (all 30).
    for (int i = 1; i <= 3; ++i)
        QCOMPARE(r.err.count(QRegularExpression(QString("^submodel %1/3: epoch +\\d+/20 ").arg(i),
                                                QRegularExpression::MultilineOption)),
                 20);
    QCOMPARE(r.err.count(QRegularExpression("^baseline: epoch +\\d+/30 ", QRegularExpression::MultilineOption)), 30);
    QVERIFY(r.out.contains(QRegularExpression("^combined test accuracy [01]\\.\\d{4} \\(240 samples\\)$",
                                              QRegularExpression::MultilineOption)));
    QVERIFY(r.out.contains(QRegularExpression("^baseline test accuracy ", QRegularExpression::MultilineOption)));
    QVERIFY(r.out.contains("slowest submodel"));

    const QJsonObject j = readJson(report);
    QCOMPARE(j["mode"].toString(), QString("split"));
    QCOMPARE(j["status"].toString(), QString("completed"));
    const QJsonObject plan = j["plan"].toObject();
    QCOMPARE(plan["strategy"].toString(), QString("class-groups"));
    QCOMPARE(plan["N"].toInt(), 3);
    QCOMPARE(plan["S"].toInt(), 3);
    QCOMPARE(plan["F"].toDouble(), 1.5);
    QCOMPARE(plan["groups"].toArray().size(), 3);

    // Each submodel learns from the training rows of its classes only: 84 per class, and every
    // class is owned by g-1 = 2 submodels.
    const int trainRows = j["data"].toObject()["train_samples"].toInt();
    QCOMPARE(trainRows, 840);
    const QJsonArray subs = j["submodels"].toArray();
    QCOMPARE(subs.size(), 3);
    int owned = 0;
    double slowest = 0;
    for (int i = 0; i < subs.size(); ++i) {
        const QJsonObject s = subs[i].toObject();
        QCOMPARE(s["index"].toInt(), i + 1);
        const int classes = s["classes"].toArray().size();
        QCOMPARE(s["train_samples"].toInt(), classes * 84);
        owned += s["train_samples"].toInt();
        QCOMPARE(s["layers"].toString(), QString("dense:22:relu,dense:22:relu"));
        QCOMPARE(s["params"].toInt(), 8 * 22 + 22 + 22 * 22 + 22 + 23 * classes);
        QVERIFY(s["train_seconds"].toDouble() > 0);
        QVERIFY(s["cpu_seconds"].toDouble() > 0);
        QVERIFY(s["peak_memory_bytes"].toDouble() > 1000 && s["peak_memory_bytes"].toDouble() < 1e8);
        QVERIFY2(s["metric"].toDouble() >= 0.95, qPrintable(QString::number(s["metric"].toDouble())));
        QCOMPARE(s["epochs_run"].toInt(), 20);
        QCOMPARE(s["history"].toArray().size(), 20);
        slowest = std::max(slowest, s["train_seconds"].toDouble());
    }
    QCOMPARE(owned, 2 * trainRows);

    // The combined model's test metrics are the top-level test_* figures.
    const QJsonObject combined = j["combined"].toObject()["metrics"].toObject();
    const double accuracy = combined["accuracy"].toDouble(-1);
    QVERIFY2(accuracy >= 0.95, qPrintable(QString::number(accuracy)));
    QCOMPARE(j["test_accuracy"].toDouble(), accuracy);
    QCOMPARE(combined["samples"].toInt(), 240);
    QCOMPARE(combined["precision"].toArray().size(), 10);
    QCOMPARE(combined["recall"].toArray().size(), 10);
    QCOMPARE(combined["confusion_matrix"].toArray(), j["test_confusion_matrix"].toArray());
    QVERIFY(combined["loss"].toDouble(-1) > 0);
    QCOMPARE(j["combined"].toObject()["slowest_submodel_seconds"].toDouble(), slowest);
    // On S machines: the plan's largest cost (FLOPs per sample x rows x epochs) at the run's CPU
    // seconds per unit of cost.
    const QJsonObject planJ = j["plan"].toObject();
    const QJsonArray planSubs = planJ["submodels"].toArray();
    double cost = 0, cpu = 0, largestCost = 0;
    for (int i = 0; i < subs.size(); ++i) {
        const QJsonObject p = planSubs[i].toObject();
        const double c = p["flops_per_sample"].toDouble() * p["samples"].toDouble() *
                         planJ["submodel_epochs"].toDouble();
        cost += c;
        cpu += subs[i].toObject()["cpu_seconds"].toDouble();
        largestCost = std::max(largestCost, c);
    }
    QVERIFY(largestCost > 0);
    QVERIFY(qAbs(j["combined"].toObject()["predicted_seconds_on_s_machines"].toDouble() - largestCost * cpu / cost) <=
            1e-9 * cpu);

    const QJsonObject baseline = j["baseline"].toObject();
    QVERIFY2(baseline["metrics"].toObject()["accuracy"].toDouble() >= 0.95,
             qPrintable(QString::number(baseline["metrics"].toObject()["accuracy"].toDouble())));
    QCOMPARE(baseline["metrics"].toObject()["samples"].toInt(), 240);
    QVERIFY(baseline["wall_seconds"].toDouble() > 0);
    QVERIFY(baseline["cpu_seconds"].toDouble() > 0);
    QVERIFY(baseline["peak_memory_bytes"].toDouble() > subs[0].toObject()["peak_memory_bytes"].toDouble());
    QCOMPARE(baseline["epochs_run"].toInt(), 30);

    // The whole command's time holds both trainings: ordering, never a wall-clock bound.
    QVERIFY(j["wall_seconds"].toDouble() >= slowest);
    QVERIFY(j["wall_seconds"].toDouble() >= baseline["wall_seconds"].toDouble());
    QVERIFY(j["cpu_seconds"].toDouble() > 0);
    QVERIFY(j["peak_memory_bytes"].toDouble() > 1e6 && j["peak_memory_bytes"].toDouble() < 2e9);
    QVERIFY(QFile::exists(model));
}

void TestCli::combinedModelEvaluatePredictExport() {
    const QString model = path("blobs.skym");
    QVERIFY2(blobsSplitRun().exitCode == 0, qPrintable(blobsSplitRun().err));
    const QJsonObject trained = readJson(path("blobs.json"));

    // evaluate rebuilds the test split and reproduces the report's combined figures exactly.
    Run r = runCli(
        {"evaluate", "--model", model, "--data", blobs10, "--split", "test", "--report", path("blobs_eval.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.startsWith("model: 3 submodels (class-groups)"));
    QVERIFY(r.out.contains("submodel 3: accuracy"));
    const QJsonObject ev = readJson(path("blobs_eval.json"));
    QCOMPARE(ev["model_kind"].toString(), QString("combined"));
    QCOMPARE(ev["samples"].toInt(), 240);
    QCOMPARE(ev["accuracy"].toDouble(), trained["test_accuracy"].toDouble());
    QCOMPARE(ev["confusion_matrix"].toArray(), trained["test_confusion_matrix"].toArray());
    QCOMPARE(ev["submodels"].toArray().size(), 3);

    // predict: one row per sample, combined probabilities summing to 1, the argmax named.
    r = runCli({"predict", "--model", model, "--data", blobs10, "--output", path("blobs_pred.csv")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList rows = readLines(path("blobs_pred.csv"));
    QCOMPARE(rows.size(), 1201);
    QVERIFY(rows[0].startsWith("predicted,probability_blob 1,"));
    int agree = 0;
    for (int i = 1; i < rows.size(); ++i) {
        const QStringList f = rows[i].split(',');
        QCOMPARE(f.size(), 11);
        double sum = 0, best = -1;
        int argmax = -1;
        for (int k = 0; k < 10; ++k) {
            const double p = f[k + 1].toDouble();
            sum += p;
            if (p > best) best = p, argmax = k;
        }
        QVERIFY2(std::fabs(sum - 1) < 1e-4, qPrintable(rows[i]));
        QCOMPARE(f[0], QString("blob %1").arg(argmax + 1));
        agree += f[0] == QString("blob %1").arg((i - 1) / 120 + 1);  // the generator groups rows by class
    }
    QVERIFY2(agree >= 1140, qPrintable(QString::number(agree)));

    // export: a native file evaluate reads with the same figures; ONNX and C++ files written.
    r = runCli({"export", "--model", model, "--format", "native", "--out", path("blobs_copy.skym")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = runCli({"evaluate", "--model", path("blobs_copy.skym"), "--data", blobs10, "--split", "test", "--report",
                path("blobs_copy.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(readJson(path("blobs_copy.json"))["accuracy"].toDouble(), trained["test_accuracy"].toDouble());
    r = runCli({"export", "--model", model, "--format", "cpp", "--out", path("blobs_model.h")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile header(path("blobs_model.h"));
    QVERIFY(header.open(QIODevice::ReadOnly));
    QVERIFY(header.readAll().contains("namespace skynnet_model"));
    for (const QStringList& extra : {QStringList{}, QStringList{"--submodel", "2"}}) {
        const QString out = path(extra.isEmpty() ? "blobs.onnx" : "blobs_2.onnx");
        r = runCli(QStringList{"export", "--model", model, "--format", "onnx", "--out", out} << extra);
        if (!skynnet::onnxExportAvailable()) {  // a build without the ONNX library says so, and writes nothing
            QCOMPARE(r.exitCode, 1);
            QVERIFY(!QFile::exists(out));
            continue;
        }
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFileInfo(out).size() > 1000);
    }
    r = runCli({"export", "--model", model, "--format", "onnx", "--submodel", "4", "--out", path("bad_sub.onnx")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("--submodel: 4 is not one of the model's 3 submodels"));
    QVERIFY(!QFile::exists(path("bad_sub.onnx")));

    // A single-network file stays one when exported natively.
    r = runCli({"train", "--data", blobs10, "--layers", "dense:16:relu", "--epochs", "5", "--threads", "1", "--quiet",
                "--save", path("single.skym"), "--report", path("single.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = runCli({"export", "--model", path("single.skym"), "--format", "native", "--out", path("single_copy.skym")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("a single network 8-16-10"));
    r = runCli({"evaluate", "--model", path("single_copy.skym"), "--data", blobs10, "--split", "test", "--report",
                path("single_eval.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(readJson(path("single_eval.json"))["model_kind"].toString(), QString("single"));
    QCOMPARE(readJson(path("single_eval.json"))["accuracy"].toDouble(),
             readJson(path("single.json"))["test_accuracy"].toDouble());
}

// A CNN trained from the command line on a Fashion-MNIST subset exports to ONNX (checked by the
// ONNX checker) and to a C++ header whose answers on test images are the saved model's.
void TestCli::cnnExportFromTheCommandLine() {
    if (!fashionMnistInstalled()) SKIP_UNLESS_CI("dataset-fashion-mnist is not installed");
    const QString images = "/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz";
    const QString model = path("cnn.skym");
    Run r = runCli({"train", "--data", images, "--test-fraction", "0.97", "--validation", "0", "--layers",
                    "conv:4:3x3:same:relu,maxpool:2,bn,conv:6:3x3:s2:gelu,gap,dense:16:elu", "--epochs", "1",
                    "--threads", "1", "--quiet", "--save", model},
                   300000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = runCli({"export", "--model", model, "--format", "cpp", "--namespace", "fashion", "--out", path("fashion.h")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    if (skynnet::onnxExportAvailable()) {
        r = runCli({"export", "--model", model, "--format", "onnx", "--opset", "17", "--out", path("fashion.onnx")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QProcess check;
        check.start("/usr/bin/python3",
                    {QString::fromStdString(sourcePath("tests/export/check_onnx.py")), path("fashion.onnx")});
        QVERIFY(check.waitForFinished(hangGuardMs(60000)));
        if (check.exitCode() != 3) QVERIFY2(check.exitCode() == 0, check.readAllStandardError().constData());
    }

    // The header on the first 20 test images against the model the CLI saved.
    const skynnet::SavedCombinedModel saved = skynnet::loadAnyModel(model.toStdString());
    skynnet::CombinedModel engine = skynnet::buildCombinedModel(saved);
    const skynnet::Dataset test = skynnet::loadIdx("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz");
    const skynnet::Matrix raw = test.features.topRows(20);
    const skynnet::Matrix expected = skynnet::predictRaw(engine, saved, raw);
    QFile input(path("fashion.bin"));
    QVERIFY(input.open(QIODevice::WriteOnly));
    input.write(reinterpret_cast<const char*>(raw.data()), qint64(raw.size() * sizeof(float)));
    input.close();
    writeLines(path("fashion_main.cpp"),
               {"#include <cstdio>", "#include <vector>", "#include \"fashion.h\"", "int main() {",
                "    std::vector<float> in(20 * fashion::kRawColumns), out(20 * fashion::kOutputs);",
                "    std::FILE* f = std::fopen(\"" + path("fashion.bin") + "\", \"rb\");",
                "    if (!f || std::fread(in.data(), sizeof(float), in.size(), f) != in.size()) return 2;",
                "    fashion::predict(in.data(), 20, out.data());",
                "    for (float v : out) std::printf(\"%.9g\\n\", static_cast<double>(v));", "}"});
    QProcess gxx;
    gxx.start("g++", {"-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-o", path("fashion_predict"),
                      path("fashion_main.cpp")});
    QVERIFY(gxx.waitForFinished(hangGuardMs(120000)));
    QVERIFY2(gxx.exitCode() == 0, gxx.readAllStandardError().constData());
    QProcess predict;
    predict.start(path("fashion_predict"));
    QVERIFY(predict.waitForFinished(hangGuardMs(60000)));
    QCOMPARE(predict.exitCode(), 0);
    const QList<QByteArray> values = predict.readAllStandardOutput().split('\n');
    QVERIFY(values.size() > expected.size());
    double worst = 0;
    for (skynnet::Index i = 0; i < expected.size(); ++i)
        worst = std::max(worst, std::fabs(values[qsizetype(i)].toDouble() - double(expected.data()[i])));
    QVERIFY2(worst <= 1e-4, qPrintable(QString::number(worst)));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
