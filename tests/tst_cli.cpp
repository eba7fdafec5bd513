// The command-line tool, run as a user would: train, evaluate and predict on bundled and built-in
// data, the report's fields, and bad input (one error line, the right exit status, no output file).
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cmath>

#include "test_support.h"

#ifndef SKYNNET_CLI_PATH  // tests/CMakeLists.txt passes the built tool's path; this is its usual place
#define SKYNNET_CLI_PATH SKYNNET_BINARY_DIR "/app/cli/skynnet-cli"
#endif

namespace {

struct Run {
    int exitCode = -1;
    QString out, err;
    QStringList errLines() const { return err.split('\n', Qt::SkipEmptyParts); }
};

Run runCli(const QStringList& args, int timeoutMs = 60000) {
    QProcess p;
    p.start(QStringLiteral(SKYNNET_CLI_PATH), args);
    Run r;
    if (!p.waitForStarted() || !p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "did not finish: " + args.join(' ');
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QStringList readLines(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
}

void writeLines(const QString& path, const QStringList& lines) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write((lines.join('\n') + '\n').toUtf8());
}

QString iris() { return QString::fromStdString(sourcePath("resources/datasets/iris.csv")); }

// Small, single-threaded runs: fast on a busy 2-core machine and identical on any core count.
const QStringList irisTraining = {"train", "--layers", "dense:16:relu", "--epochs", "40", "--batch", "16", "--lr",
                                  "0.01", "--seed", "3", "--threads", "1"};

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void helpAndVersion();
    void trainIrisReportEvaluatePredict();
    void trainWithSeparateTestFile();
    void regressionOnSine();
    void earlyStopping();
    void badInput_data();
    void badInput();
    void interruptWritesNothing();

private:
    QTemporaryDir dir_;
    QString path(const char* name) const { return dir_.filePath(name); }
};

void TestCli::helpAndVersion() {
    Run r = runCli({"--help"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("Usage: skynnet-cli"));
    r = runCli({"train", "--help"});
    QCOMPARE(r.exitCode, 0);
    for (const char* option : {"--data", "--layers", "--epochs", "--report", "--save", "--early-stopping", "--scaling"})
        QVERIFY2(r.out.contains(option), option);
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
    QVERIFY(j["wall_seconds"].toDouble() > 0 && j["wall_seconds"].toDouble() < 60);
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

void TestCli::earlyStopping() {
    Run r = runCli({"train", "--data", iris(), "--layers", "dense:16:relu", "--epochs", "400", "--lr", "0.05", "--threads",
                    "1", "--early-stopping", "3", "--quiet", "--report", path("early.json")});
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

    const QStringList train = {"train", "--epochs", "2", "--threads", "1"};
    QTest::newRow("missing file") << (QStringList(train) << "--data" << path("nothere.csv")) << 1 << "nothere.csv";
    QTest::newRow("bad layers") << (QStringList(train) << "--data" << iris() << "--layers" << "dense:abc") << 2
                                << "--layers: layer 1";
    QTest::newRow("unknown layer") << (QStringList(train) << "--data" << iris() << "--layers" << "conv:3") << 2
                                   << "unknown layer type 'conv'";
    QTest::newRow("unknown option") << (QStringList(train) << "--data" << iris() << "--frobnicate") << 2
                                    << "unknown option '--frobnicate'";
    QTest::newRow("non-numeric epochs") << QStringList{"train", "--data", iris(), "--epochs", "x"} << 2
                                        << "--epochs: expected a positive integer, got 'x'";
    QTest::newRow("missing value") << (QStringList(train) << "--data" << path("missing.csv")) << 1
                                   << "missing.csv:6: column 'sepal_width' (1): missing value";
    QTest::newRow("no data") << train << 2 << "--data is required";
    QTest::newRow("bad fraction") << (QStringList(train) << "--data" << iris() << "--validation" << "1.5") << 2
                                  << "--validation: expected a fraction";
    QTest::newRow("unknown builtin") << (QStringList(train) << "--data" << "builtin:nope") << 2
                                     << "--data: unknown built-in dataset 'nope'";
    QTest::newRow("unknown command") << QStringList{"trian"} << 2 << "unknown command 'trian'";
    QTest::newRow("not a model") << QStringList{"evaluate", "--model", path("not_a_model.skynnet"), "--data", iris()} << 1
                                 << "not_a_model.skynnet";
    QTest::newRow("missing model") << QStringList{"predict", "--model", path("nope.skynnet"), "--data", iris()} << 1
                                   << "nope.skynnet";
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

void TestCli::interruptWritesNothing() {
    QProcess p;
    const QString report = path("int.json"), model = path("int.skynnet");
    p.start(QStringLiteral(SKYNNET_CLI_PATH),
            {"train", "--data", "builtin:spirals", "--epochs", "100000", "--threads", "1", "--report", report, "--save", model});
    QVERIFY(p.waitForStarted());
    // Interrupt once training is under way: after the first epoch line.
    QString err;
    QElapsedTimer timer;
    timer.start();
    while (!err.contains("epoch ") && timer.elapsed() < 30000) {
        p.waitForReadyRead(200);
        err += QString::fromUtf8(p.readAllStandardError());
    }
    QVERIFY2(err.contains("epoch "), qPrintable(err));
    ::kill(pid_t(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(30000));
    err += QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 130);
    QVERIFY2(err.trimmed().split('\n').last().contains("interrupted"), qPrintable(err));
    QVERIFY(!QFile::exists(report));
    QVERIFY(!QFile::exists(model));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
