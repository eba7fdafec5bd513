// Files written before the switch to library JSON (tests/fixtures/format_v1, see its README) open
// with today's code, carry the metadata they were written with and predict what they predicted
// then; the predictions CSV the command-line tool writes keeps its layout.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cli_support.h"
#include "data/data_source.h"
#include "data/splits.h"
#include "model/network.h"
#include "model/saved_model.h"
#include "project/project_file.h"
#include "split/combined_model.h"
#include "split/combined_model_file.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// Written on the development machine; another CPU's kernels may round differently.
constexpr double tolerance = 1e-4;

std::string fixture(const std::string& name) { return sourcePath(("tests/fixtures/format_v1/" + name).c_str()); }

std::vector<std::vector<std::string>> readCsv(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> fields;
        std::stringstream s(line);
        for (std::string f; std::getline(s, f, ',');) fields.push_back(f);
        rows.push_back(fields);
    }
    return rows;
}

std::string firstLine(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// The stored predictions against outputs: the same class name (classification) and every
// number within the tolerance. Returns the first difference, empty when there is none.
std::string comparePredictions(const std::vector<std::vector<std::string>>& stored, const Matrix& out,
                               const SavedCombinedModel& model) {
    if (stored.size() != std::size_t(out.rows()) + 1) return "rows: " + std::to_string(stored.size() - 1);
    const bool classes = model.task() != Task::Regression;
    for (Index r = 0; r < out.rows(); ++r) {
        const std::vector<std::string>& row = stored[std::size_t(r) + 1];
        const int first = classes ? 1 : 0;
        if (row.size() != std::size_t(first + out.cols())) return "row " + std::to_string(r) + " has another width";
        Index best = 0;
        for (Index k = 0; k < out.cols(); ++k) {
            if (out(r, k) > out(r, best)) best = k;
            const double v = std::stod(row[std::size_t(first + k)]);
            if (std::abs(v - double(out(r, k))) > tolerance)
                return "row " + std::to_string(r) + " column " + std::to_string(k) + ": " +
                       row[std::size_t(first + k)] + " stored, " + std::to_string(out(r, k)) + " now";
        }
        if (classes && row[0] != model.schema.classNames[std::size_t(best)])
            return "row " + std::to_string(r) + ": " + row[0] + " stored, " +
                   model.schema.classNames[std::size_t(best)] + " now";
    }
    return {};
}

Matrix predictCsv(const SavedCombinedModel& saved, const std::string& csv) {
    DataRequest request;
    request.path = csv;
    const Dataset data = loadLike(request, saved.schema, false);
    CombinedModel model = buildCombinedModel(saved);
    return predictRaw(model, saved, data.features);
}

const std::vector<std::string> classNames = {"blue", "green", "red"};  // the CSV's classes, sorted

}  // namespace

class TstFormats : public QObject {
    Q_OBJECT

private slots:
    void modelsOpenAndPredictAsBefore_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("data");
        QTest::addColumn<int>("submodels");
        QTest::newRow("single network") << "single_classes"
                                        << "classes.csv" << 1;
        QTest::newRow("class groups") << "class_groups"
                                      << "classes.csv" << 3;
        QTest::newRow("data shards, regression") << "data_shards"
                                                 << "values.csv" << 2;
    }

    void modelsOpenAndPredictAsBefore() {
        QFETCH(QString, model);
        QFETCH(QString, data);
        QFETCH(int, submodels);
        const std::string path = fixture(model.toStdString() + ".skym");
        const SavedCombinedModel saved = loadAnyModel(path);
        QCOMPARE(saved.submodelCount(), submodels);
        QCOMPARE(saved.fromSingleFile, submodels == 1);
        if (data == "classes.csv") {
            QCOMPARE(saved.task(), Task::Classification);
            QCOMPARE(saved.schema.classNames, classNames);
            QCOMPARE(saved.schema.featureNames, (std::vector<std::string>{"width", "height", "depth"}));
        } else {
            QCOMPARE(saved.task(), Task::Regression);
            QCOMPARE(saved.schema.targetNames, std::vector<std::string>{"y"});
            QCOMPARE(saved.schema.featureNames, (std::vector<std::string>{"u", "v"}));
            QCOMPARE(saved.rule.strategy, Strategy::DataShards);
        }
        if (submodels == 3) QCOMPARE(saved.rule.strategy, Strategy::ClassGroups);

        const std::string stored = fixture(model.toStdString() + ".predictions.csv");
        const Matrix out = predictCsv(saved, fixture(data.toStdString()));
        const std::string difference = comparePredictions(readCsv(stored), out, saved);
        QVERIFY2(difference.empty(), difference.c_str());

        // The command-line tool: the same layout, header first, and the same predictions.
        QTemporaryDir dir;
        const QString written = dir.filePath("p.csv");
        const CliRun r = runCli({"predict", "--model", QString::fromStdString(path), "--data",
                                 QString::fromStdString(fixture(data.toStdString())), "--output", written});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(firstLine(written.toStdString()), firstLine(stored));
        const std::string cliDifference = comparePredictions(readCsv(written.toStdString()), out, saved);
        QVERIFY2(cliDifference.empty(), cliDifference.c_str());
    }

    void singleModelFileOpensAsSingle() {
        const SavedModel m = loadModel(fixture("single_classes.skym"));
        QCOMPARE(m.schema.task, Task::Classification);
        QCOMPARE(m.schema.classNames, classNames);
        QCOMPARE(m.schema.featureNames, (std::vector<std::string>{"width", "height", "depth"}));
        QCOMPARE(int(m.spec.layers.size()), 1);
        QCOMPARE(m.spec.input.width, 3);
        QCOMPARE(int(m.weights.size()), 3 * 8 + 8 + 8 * 3 + 3);
    }

    void projectOpensAndPredictsAsBefore() {
        const std::string path = fixture("project.skynnet");
        const ProjectData p = loadProject(path);
        // The fingerprint written by the hand-written XXH64 matches libxxhash's.
        QCOMPARE(p.data.train.status, DataFileStatus::Found);
        QCOMPARE(QString::fromStdString(p.data.train.path),
                 QDir::cleanPath(QString::fromStdString(fixture("classes.csv"))));
        QCOMPARE(p.network.input.width, 3);
        QCOMPARE(int(p.network.layers.size()), 1);
        QCOMPARE(p.split.strategy, Strategy::ClassGroups);
        QCOMPARE(p.training.config.epochs, 6);
        QCOMPARE(p.training.config.batchSize, 8);
        QCOMPARE(p.training.config.optimizer.learningRate, 0.05f);
        QCOMPARE(JsonField(p.extra).at("page").asInt(), 0);
        QCOMPARE(int(p.runs.size()), 1);
        const ProjectRun& run = p.runs[0];
        QCOMPARE(run.status, TrainStatus::Completed);
        QCOMPARE(run.plan.submodelCount(), 3);
        QCOMPARE(int(run.submodels.size()), 3);
        // The submodels trained the 6 epochs scaled down by the width factor; the baseline all 6.
        for (const ModelHistory& h : run.submodels) QCOMPARE(int(h.epochs.size()), 4);
        QVERIFY(run.baseline && run.results && run.results->model && run.results->baselineWeights);
        QCOMPARE(int(run.baseline->epochs.size()), 6);
        const ProjectResults& res = *run.results;
        QCOMPARE(res.model->schema.classNames, classNames);
        QCOMPARE(res.model->schema.featureNames, (std::vector<std::string>{"width", "height", "depth"}));

        // The run's test rows, split again from the settings, predicted as they were then.
        const Dataset all = loadTrainingData(p.data.trainRequest());
        const SplitIndices idx = splitIndices(all, p.data.validationFraction, p.data.testFraction, p.data.seed);
        const Dataset test = all.subset(idx.test);
        QCOMPARE(long(test.size()), res.evaluatedSamples);
        QVERIFY((res.testTargets - test.targetMatrix()).cwiseAbs().maxCoeff() == 0);
        CombinedModel model = buildCombinedModel(*res.model);
        const Matrix combined = predictRaw(model, *res.model, test.features);
        QCOMPARE(combined.rows(), res.combinedTestOutput.rows());
        QVERIFY((combined - res.combinedTestOutput).cwiseAbs().maxCoeff() < tolerance);
        Network baseline(run.plan.original, 1);
        baseline.setFlatWeights(*res.baselineWeights);
        const Matrix base = baseline.predict(res.model->preprocessing.apply(test.features));
        QCOMPARE(base.rows(), res.baselineTestOutput.rows());
        QVERIFY((base - res.baselineTestOutput).cwiseAbs().maxCoeff() < tolerance);
    }
};

QTEST_GUILESS_MAIN(TstFormats)
#include "tst_formats.moc"
