// `skynnet-cli train --task reconstruction` as a user runs it: an autoencoder on IDX images without
// labels, its report (test_mse, test_r2), its model saved, evaluated and predicting; the default
// loss rule; the output split; the strategies that do not apply refused.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_support.h"
#include "reconstruction_support.h"

class TestCliReconstruction : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString bars_;
    QString path(const QString& name) const { return dir_.filePath(name); }
    QStringList training(const QStringList& more) const {
        return QStringList{"train", "--data", bars_,     "--task", "reconstruction", "--layers", "dense:24:relu",
                           "--lr",  "0.01",   "--batch", "32",     "--threads",      "2",        "--quiet"} +
               more;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        bars_ = path("bars-images-idx3-ubyte");  // no labels file beside it
        QVERIFY(writeBarIdx(barImages(800, 3), bars_));
    }

    void trainSaveEvaluatePredict() {
        CliRun r = runCli(training({"--epochs", "25", "--save", path("ae.skynnet"), "--report", path("ae.json")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject j = readJson(path("ae.json"));
        QCOMPARE(j["task"].toString(), QString("reconstruction"));
        QCOMPARE(j["network"].toObject()["output_activation"].toString(), QString("sigmoid"));
        QCOMPARE(j["settings"].toObject()["loss"].toString(), QString("binary_cross_entropy"));
        QCOMPARE(j["data"].toObject()["outputs"].toInt(), 64);
        QVERIFY(!j.contains("test_accuracy"));
        const double mse = j["test_mse"].toDouble(-1), r2 = j["test_r2"].toDouble(-1);
        QVERIFY2(mse >= 0 && mse < 0.02, qPrintable(QString::number(mse)));
        QVERIFY2(r2 > 0.7, qPrintable(QString::number(r2)));
        QCOMPARE(j["test_samples"].toInt(), 160);

        r = runCli({"evaluate", "--model", path("ae.skynnet"), "--data", bars_, "--split", "test", "--report",
                    path("eval.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject e = readJson(path("eval.json"));
        QCOMPARE(e["samples"].toInt(), 160);
        QVERIFY(qAbs(e["mse"].toDouble() - mse) <= 1e-6 * mse);
        QVERIFY(qAbs(e["r2"].toDouble() - r2) <= 1e-6);

        r = runCli({"predict", "--model", path("ae.skynnet"), "--data", bars_, "--output", path("pred.csv")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList rows = readLines(path("pred.csv"));
        QCOMPARE(rows.size(), 801);
        const QStringList header = rows[0].split(',');
        QCOMPARE(header.size(), 64);
        QCOMPARE(header.front(), QString("pixel_0_0"));
        QCOMPARE(header.back(), QString("pixel_7_7"));
        // Reconstructions in pixel units (0..255), like the file's own values.
        double largest = 0;
        for (const QString& v : rows[1].split(',')) largest = std::max(largest, v.toDouble());
        QVERIFY2(largest > 100 && largest <= 255, qPrintable(rows[1]));
    }

    void mseGivesLinearOutputs() {
        const CliRun r = runCli(training({"--epochs", "2", "--loss", "mse", "--report", path("mse.json")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject j = readJson(path("mse.json"));
        QCOMPARE(j["network"].toObject()["output_activation"].toString(), QString("linear"));
        QCOMPARE(j["settings"].toObject()["loss"].toString(), QString("mse"));
        QVERIFY(j.contains("test_mse") && j.contains("test_r2"));
    }

    // Binary cross-entropy by default when every scaled input is in [0, 1] (pixel-range, minmax),
    // MSE otherwise (standardize); asking for it outside [0, 1] is refused naming --loss.
    void defaultLossFollowsTheScaledInputs() {
        CliRun r = runCli(training({"--epochs", "1", "--scaling", "standardize", "--report", path("std.json")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readJson(path("std.json"))["settings"].toObject()["loss"].toString(), QString("mse"));
        QCOMPARE(readJson(path("std.json"))["network"].toObject()["output_activation"].toString(), QString("linear"));
        r = runCli(training({"--epochs", "1", "--scaling", "minmax", "--report", path("minmax.json")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readJson(path("minmax.json"))["settings"].toObject()["loss"].toString(),
                 QString("binary_cross_entropy"));
        r = runCli(training({"--epochs", "1", "--scaling", "standardize", "--loss", "binary_cross_entropy"}));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--loss: the loss binary_cross_entropy reconstructs targets in [0, 1]"),
                 qPrintable(r.err));
        r = runCli(training({"--epochs", "1", "--loss", "cross_entropy"}));
        QVERIFY2(r.err.contains("the loss cross_entropy does not fit the reconstruction task (use "
                                "binary_cross_entropy or mse)"),
                 qPrintable(r.err));
    }

    void outputSplitSavesAndPredicts() {
        CliRun r = runCli(training({"--epochs", "2", "--submodels", "3", "--strategy", "output-split", "--save",
                                    path("split.skynnet"), "--report", path("split.json")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject j = readJson(path("split.json"));
        QVERIFY(j.contains("test_mse") && j.contains("test_r2"));
        r = runCli({"predict", "--model", path("split.skynnet"), "--data", bars_, "--output", path("split.csv")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList rows = readLines(path("split.csv"));
        QCOMPARE(rows.size(), 801);
        QCOMPARE(rows[0].split(',').size(), 64);
        r = runCli({"evaluate", "--model", path("split.skynnet"), "--data", bars_, "--split", "test", "--report",
                    path("split_eval.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(qAbs(readJson(path("split_eval.json"))["mse"].toDouble() - j["test_mse"].toDouble()) <=
                1e-6 * j["test_mse"].toDouble());
        r = runCli(training({"--epochs", "1", "--submodels", "3", "--strategy", "class-groups"}));
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("the class-groups strategy needs a multiclass classification task, this dataset's "
                                "task is reconstruction (use output-split or data-shards)"),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliReconstruction)
#include "tst_cli_reconstruction.moc"
