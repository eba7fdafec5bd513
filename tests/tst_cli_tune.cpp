// `skynnet-cli tune` as a user runs it: the routes measured for a network's products kept in the
// cache, shown by --show, followed and recorded by train, and a resume under other routes refused.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_support.h"

namespace {

// The cache with every route of this machine sent to another backend: what a later tuning that
// chose differently would leave.
bool flipRoutes(const QString& path) {
    QFile in(path);
    if (!in.open(QIODevice::ReadOnly)) return false;
    QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
    in.close();
    QJsonArray machines = doc["machines"].toArray();
    QJsonObject machine = machines[0].toObject();
    QJsonArray routes = machine["routes"].toArray();
    for (int i = 0; i < routes.size(); ++i) {
        QJsonObject r = routes[i].toObject();
        r["backend"] = r["backend"].toString() == "eigen" ? "openblas" : "eigen";
        routes[i] = r;
    }
    machine["routes"] = routes;
    machines[0] = machine;
    doc["machines"] = machines;
    QFile out(path);
    return out.open(QIODevice::WriteOnly) && out.write(QJsonDocument(doc).toJson()) > 0;
}

}  // namespace

class TestCliTune : public QObject {
    Q_OBJECT
private slots:
    void tunesTrainsUnderTheRoutesAndRefusesOthersOnResume() {
        QTemporaryDir tmp;
        const QString cache = tmp.filePath("routing.json"), checkpoints = tmp.filePath("ck");
        QProcessEnvironment env;
        env.insert("SKYNNET_GEMM_CACHE", cache);
        const QStringList network{"--data",      "builtin:blobs:classes=6",
                                  "--layers",    "dense:48:relu,dense:24:relu",
                                  "--submodels", "3",
                                  "--epochs",    "3"};

        CliRun r = runCli(QStringList{"tune", "--seconds", "0.005"} + network, 120000, env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QRegularExpression("\\d+ shapes measured in [0-9.]+ s, kept in " +
                                                   QRegularExpression::escape(cache))),
                 qPrintable(r.out));
        const QJsonObject doc = readJson(cache);
        QCOMPARE(doc["kind"].toString(), QString("skynnet-gemm-routing"));
        const QJsonArray routes = doc["machines"].toArray()[0].toObject()["routes"].toArray();
        QVERIFY(routes.size() >= 6);  // forward, weight and input gradients of several layers
        // The original's first layer (48 units on blobs' 2 features) and its 6-class output, and a
        // submodel's narrower first layer.
        QStringList shapes;
        for (const QJsonValue& route : routes) shapes << route.toObject()["shape"].toString();
        QVERIFY2(shapes.filter(QRegularExpression("^NN \\d+x48x2$")).size() >= 1, qPrintable(shapes.join(", ")));
        QVERIFY2(shapes.filter(QRegularExpression("^NN \\d+x6x24$")).size() >= 1, qPrintable(shapes.join(", ")));
        QVERIFY2(shapes.filter(QRegularExpression("^NN \\d+x(?!48x)\\d+x2$")).size() >= 1,
                 qPrintable(shapes.join(", ")));

        r = runCli({"tune", "--show"}, 30000, env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QString("%1 shapes").arg(routes.size())));
        QVERIFY(r.out.contains(shapes.first() + " -> "));

        // train follows the routes and records them; the same cache trains the same bits.
        const QString report = tmp.filePath("r.json"), report2 = tmp.filePath("r2.json");
        r = runCli(QStringList{"train", "--quiet", "--report", report, "--checkpoint", checkpoints} + network, 120000,
                   env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray used = readJson(report)["gemm_routes"].toArray();
        QVERIFY(!used.isEmpty());
        int measured = 0;
        for (const QJsonValue& u : used) {
            const QJsonObject o = u.toObject();
            QVERIFY(QStringList({"eigen", "openblas", "blis", "onednn"}).contains(o["backend"].toString()));
            if (o["measured"].toBool()) {
                ++measured;
                QVERIFY2(shapes.contains(o["shape"].toString()), qPrintable(o["shape"].toString()));
            }
        }
        QVERIFY2(measured >= 6, "the tuned shapes are the ones training ran");
        r = runCli(QStringList{"train", "--quiet", "--report", report2} + network, 120000, env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readJson(report2)["test_loss"].toDouble(), readJson(report)["test_loss"].toDouble());

        // A later tuning that routes those products elsewhere: the checkpoints are refused.
        QFile saved(cache);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        const QByteArray tuned = saved.readAll();
        saved.close();
        QVERIFY(flipRoutes(cache));
        r = runCli(QStringList{"train", "--quiet", "--checkpoint", checkpoints, "--resume"} + network, 120000, env);
        QVERIFY(r.exitCode != 0);
        VERIFY_CONTAINS(r.err.toStdString(), "was made under other matrix-product routes: the product ");
        VERIFY_CONTAINS(r.err.toStdString(), "Restore that cache, or train afresh without resuming");
        // The cache as it was: resumed (the finished submodels are loaded, not trained again).
        QFile restore(cache);
        QVERIFY(restore.open(QIODevice::WriteOnly) && restore.write(tuned) == tuned.size());
        restore.close();
        r = runCli(QStringList{"train", "--checkpoint", checkpoints, "--resume"} + network, 120000, env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.err.toStdString(), "3 of 3 submodels finished");
    }

    void aDamagedCacheIsNamedAndTheRulesApply() {
        QTemporaryDir tmp;
        const QString cache = tmp.filePath("routing.json");
        QFile f(cache);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"kind\": \"skynnet-gemm-routing\", \"version\": 1, \"machines\": [{\"machine\": 3}]}");
        f.close();
        QProcessEnvironment env;
        env.insert("SKYNNET_GEMM_CACHE", cache);
        const QString report = tmp.filePath("r.json");
        const CliRun r = runCli({"train", "--data", "builtin:spirals", "--epochs", "2", "--quiet", "--report", report},
                                60000, env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        VERIFY_CONTAINS(r.err.toStdString(), "warning: the GEMM routing cache is ignored: " + cache.toStdString());
        VERIFY_CONTAINS(r.err.toStdString(), "machines[0].machine");
        for (const QJsonValue& u : readJson(report)["gemm_routes"].toArray())
            QVERIFY(!u.toObject()["measured"].toBool());
        QCOMPARE(runCli({"tune", "--seconds", "0"}, 30000, env).exitCode, 2);  // a usage error
    }
};

QTEST_GUILESS_MAIN(TestCliTune)
#include "tst_cli_tune.moc"
