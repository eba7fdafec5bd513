// The stacked class-group rule (split/stacked_rule.h, issue 28): the fit recovers a known linear
// rule, never ends above the product start, its gradient matches finite differences, it is
// deterministic, it refuses what it cannot fit; the weights in the model file and the project; and
// the command line end to end on the bundled wine data (train --combine stacked, evaluate).
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>

#include "cli_support.h"
#include "core/error.h"
#include "core/parallel.h"
#include "matrix_support.h"
#include "project/project_file.h"
#include "project/recombine.h"
#include "run/runner.h"
#include "split/class_group_rules.h"
#include "split/combination.h"
#include "split/combined_model_file.h"
#include "split/stacked_rule.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// The runner's log lines, one text.
struct CollectingObserver : RunObserver {
    std::string lines;
    void log(const std::string& line) override { lines += line + "\n"; }
    const std::string& text() const { return lines; }
};

using RowMatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

const QString wine = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/wine.csv");

// A random softmax row of `k` columns, each at least about 0.01 (so the 1e-7 clamp never bites).
std::vector<float> randomSoftmax(int k, std::mt19937& rng) {
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    std::vector<double> e(std::size_t(k), 0.0);
    double sum = 0;
    for (double& v : e) sum += (v = std::exp(u(rng)));
    std::vector<float> p;
    for (double v : e) p.push_back(float(v / sum));
    return p;
}

// `rows` rows of random softmax outputs for the layout.
std::vector<Matrix> randomOutputs(const std::vector<std::vector<int>>& classes, bool other, int rows,
                                  std::mt19937& rng) {
    std::vector<Matrix> out;
    for (const auto& owned : classes) {
        const int k = int(owned.size()) + (other ? 1 : 0);
        Matrix m(rows, k);
        for (int r = 0; r < rows; ++r) {
            const std::vector<float> p = randomSoftmax(k, rng);
            for (int c = 0; c < k; ++c) m(r, c) = p[std::size_t(c)];
        }
        out.push_back(std::move(m));
    }
    return out;
}

// Labels that follow the product rule's answer most of the time (so the product is a fair start).
std::vector<int> noisyProductLabels(const std::vector<Matrix>& outs, const std::vector<std::vector<int>>& classes,
                                    int count, bool other, std::mt19937& rng) {
    const Matrix p = combineClassProbabilities(outs, classes, count, other, ClassCombine::Product);
    std::vector<int> labels;
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (Index r = 0; r < p.rows(); ++r) {
        Index best = 0;
        p.row(r).maxCoeff(&best);
        labels.push_back(u(rng) < 0.7 ? int(best) : int(rng() % unsigned(count)));
    }
    return labels;
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

CombinationRule classGroupRule(std::vector<std::vector<int>> classes, int count, bool other) {
    CombinationRule r;
    r.strategy = Strategy::ClassGroups;
    r.outputs = count;
    r.classes = std::move(classes);
    r.otherOutput = other;
    return r;
}

const std::vector<std::vector<int>> pairs{{0, 1}, {0, 2}, {1, 2}};
const std::vector<std::vector<int>> halves{{0, 1}, {2, 3}};

}  // namespace

class TestStackedRule : public QObject {
    Q_OBJECT

private slots:
    // Two submodels, {0,1} and {1,2}: D = 4 features, C = 3 classes. Twelve distinct output rows,
    // each repeated 20000 times with its labels in the proportions a known rule (W*, b*, rows and
    // bias summing to 0 over the classes, the one the penalty picks among equivalent ones) gives
    // them: the fit with a negligible penalty must recover W* and b* within 0.01.
    void recoversAKnownRule() {
        const std::vector<std::vector<int>> layout{{0, 1}, {1, 2}};
        const RowMatrixD wTrue{{1.5, -0.5, 0.2, -1.0}, {-0.5, 1.0, 0.6, 0.3}, {-1.0, -0.5, -0.8, 0.7}};
        const std::vector<double> bTrue{0.4, -0.1, -0.3};
        std::mt19937 rng(7);
        const int patterns = 12, copies = 20000;
        std::vector<Matrix> outs{Matrix(patterns * copies, 2), Matrix(patterns * copies, 2)};
        std::vector<int> labels;
        for (int k = 0; k < patterns; ++k) {
            const std::vector<float> a = randomSoftmax(2, rng), b = randomSoftmax(2, rng);
            const Eigen::Vector4d x(std::log(double(a[0])), std::log(double(a[1])), std::log(double(b[0])),
                                    std::log(double(b[1])));
            Eigen::Vector3d z = wTrue * x + Eigen::Vector3d(bTrue[0], bTrue[1], bTrue[2]);
            z = (z.array() - z.maxCoeff()).exp();
            z /= z.sum();
            int start = int(labels.size());
            for (int c = 0; c < 3; ++c) {
                const int n = c < 2 ? int(std::lround(z(c) * copies)) : start + copies - int(labels.size());
                labels.insert(labels.end(), std::size_t(n), c);
            }
            for (int i = 0; i < copies; ++i) {
                outs[0].row(start + i) << a[0], a[1];
                outs[1].row(start + i) << b[0], b[1];
            }
        }
        StackedFitOptions o;
        o.priorRows = 1e-6;
        o.maxIterations = 2000;
        o.gradientTolerance = 1e-9;
        const StackedFit fit = fitStackedRule(outs, labels, layout, 3, false, o);
        QCOMPARE(fit.weights.classes, 3);
        QCOMPARE(fit.weights.features, 4);
        // Softmax is blind to a shift common to every class, which a negligible penalty barely
        // removes: compare what it sees, each column (and the bias) less its mean over the classes.
        RowMatrixD w = Eigen::Map<const RowMatrixD>(fit.weights.weights.data(), 3, 4);
        w.rowwise() -= w.colwise().mean();
        Eigen::Vector3d b(fit.weights.bias[0], fit.weights.bias[1], fit.weights.bias[2]);
        b.array() -= b.mean();
        for (int c = 0; c < 3; ++c) {
            for (int d = 0; d < 4; ++d)
                QVERIFY2(std::abs(w(c, d) - wTrue(c, d)) < 0.01,
                         qPrintable(QString("W(%1,%2) = %3, expected %4").arg(c).arg(d).arg(w(c, d)).arg(wTrue(c, d))));
            QVERIFY2(std::abs(b(c) - bTrue[std::size_t(c)]) < 0.01,
                     qPrintable(QString("b(%1) = %2, expected %3").arg(c).arg(b(c)).arg(bTrue[std::size_t(c)])));
        }
        QVERIFY(fit.loss < fit.startLoss);
        QVERIFY(!fit.keptStart);
    }

    // The start is the product rule: applied, it gives the product's probabilities, with and
    // without "other" (whose even spread is in the bias).
    void startIsTheProduct() {
        std::mt19937 rng(3);
        for (bool other : {false, true})
            for (const auto& layout : {pairs, halves}) {
                const int count = layout == pairs ? 3 : 4;
                const std::vector<Matrix> outs = randomOutputs(layout, other, 50, rng);
                const Matrix product = combineClassProbabilities(outs, layout, count, other, ClassCombine::Product);
                const Matrix start = applyStackedRule(outs, productStart(layout, count, other));
                QCOMPARE(start.rows(), product.rows());
                QCOMPARE(start.cols(), product.cols());
                QVERIFY2((start - product).cwiseAbs().maxCoeff() < 1e-6,
                         qPrintable(QString::number((start - product).cwiseAbs().maxCoeff())));
            }
        QCOMPARE(stackedFeatureCount(pairs, true), 9);
        QCOMPARE(stackedFeatureCount(pairs, false), 6);
    }

    // Whatever the labels (following the product mostly, or random), the kept weights' validation
    // cross-entropy is never above the product start's, and the start's is the product's.
    void neverAboveTheProductStart() {
        for (unsigned seed = 1; seed <= 6; ++seed) {
            std::mt19937 rng(seed);
            const bool other = seed % 2 == 0;
            const auto& layout = seed <= 3 ? pairs : halves;
            const int count = layout == pairs ? 3 : 4;
            const int rows = 5 + int(seed) * 20;
            const std::vector<Matrix> outs = randomOutputs(layout, other, rows, rng);
            std::vector<int> labels = noisyProductLabels(outs, layout, count, other, rng);
            if (seed == 5)
                for (int& l : labels) l = int(rng() % unsigned(count));
            const StackedFit fit = fitStackedRule(outs, labels, layout, count, other);
            QVERIFY2(fit.loss <= fit.startLoss,
                     qPrintable(QString("seed %1: %2 > %3").arg(seed).arg(fit.loss).arg(fit.startLoss)));
            const double start = stackedObjective(productStart(layout, count, other), stackedFeatures(outs), labels,
                                                  0.0);
            QCOMPARE(fit.startLoss, start);
            QVERIFY(fit.iterations > 0);
        }
    }

    // The objective's gradient against central differences, penalty included.
    void gradientMatchesFiniteDifferences() {
        std::mt19937 rng(11);
        const std::vector<Matrix> outs = randomOutputs(pairs, true, 40, rng);
        const std::vector<int> labels = noisyProductLabels(outs, pairs, 3, true, rng);
        const RowMatrixD x = stackedFeatures(outs);
        StackedWeights w = productStart(pairs, 3, true);
        std::normal_distribution<double> n(0.0, 0.5);
        for (double& v : w.weights) v += n(rng);
        for (double& v : w.bias) v += n(rng);
        StackedWeights g;
        const StackedWeights anchor = productStart(pairs, 3, true);  // the fit's prior pulls toward it
        stackedObjective(w, x, labels, 0.05, &g, &anchor);
        QCOMPARE(g.classes, w.classes);
        QCOMPARE(g.features, w.features);
        const double h = 1e-6;
        const auto check = [&](std::vector<double>& params, const std::vector<double>& grad, const char* what) {
            for (std::size_t i = 0; i < params.size(); ++i) {
                const double saved = params[i];
                params[i] = saved + h;
                const double up = stackedObjective(w, x, labels, 0.05, nullptr, &anchor);
                params[i] = saved - h;
                const double down = stackedObjective(w, x, labels, 0.05, nullptr, &anchor);
                params[i] = saved;
                const double numeric = (up - down) / (2 * h);
                QVERIFY2(std::abs(numeric - grad[i]) < 1e-7 + 1e-5 * std::abs(numeric),
                         qPrintable(
                             QString("%1[%2]: analytic %3, numeric %4").arg(what).arg(i).arg(grad[i]).arg(numeric)));
            }
        };
        check(w.weights, g.weights, "W");
        check(w.bias, g.bias, "b");
    }

    // The same inputs give the same bits, whatever the kernel thread count (rows are summed in
    // fixed chunks, in chunk order).
    void deterministic() {
        std::mt19937 rng(5);
        const std::vector<Matrix> outs = randomOutputs(halves, true, 3000, rng);
        const std::vector<int> labels = noisyProductLabels(outs, halves, 4, true, rng);
        StackedFit one, two;
        {
            const KernelThreadScope threads(1);
            one = fitStackedRule(outs, labels, halves, 4, true);
        }
        {
            const KernelThreadScope threads(2);
            two = fitStackedRule(outs, labels, halves, 4, true);
        }
        QVERIFY(sameBits(one.weights.weights, two.weights.weights));
        QVERIFY(sameBits(one.weights.bias, two.weights.bias));
        QCOMPARE(one.iterations, two.iterations);
        const StackedFit three = fitStackedRule(outs, labels, halves, 4, true);
        QVERIFY(three.weights == one.weights);
    }

    void refusals() {
        std::mt19937 rng(2);
        const std::vector<Matrix> outs = randomOutputs(pairs, false, 10, rng);
        const std::vector<int> labels(10, 1);
        const std::vector<Matrix> none = randomOutputs(pairs, false, 0, rng);
        QCOMPARE(errorText([&] { fitStackedRule(none, {}, pairs, 3, false); }),
                 QString("the stacked rule is fitted on the validation rows, and there are none (a validation "
                         "fraction above 0 gives some)"));
        QCOMPARE(errorText([&] { fitStackedRule(outs, std::vector<int>(9, 0), pairs, 3, false); }),
                 QString("stacked rule: 9 labels for 10 rows"));
        std::vector<int> bad = labels;
        bad[3] = 3;
        QCOMPARE(errorText([&] { fitStackedRule(outs, bad, pairs, 3, false); }),
                 QString("stacked rule: row 4 has class 3, outside the 3 classes"));
        QCOMPARE(errorText([&] { fitStackedRule(outs, labels, pairs, 3, true); }),
                 QString("stacked rule: submodel 1 gave 2 columns, expected 3"));
        QCOMPARE(errorText([&] { applyStackedRule(outs, productStart(pairs, 3, true)); }),
                 QString("the stacked rule's weights take 9 submodel output columns, the submodels gave 6"));
        QVERIFY_THROWS_EXCEPTION(Error, combineClassProbabilities(outs, pairs, 3, false, ClassCombine::Stacked));
        // A rule told to combine by stacked without weights says why.
        CombinationRule rule = classGroupRule(pairs, 3, false);
        rule.classCombine = ClassCombine::Stacked;
        const QString why = errorText([&] { combine(outs, rule); });
        QVERIFY2(why.startsWith("the model has no stacked weights") && why.contains("validation"), qPrintable(why));
        rule.stacked = productStart(pairs, 3, false);
        QCOMPARE(combine(outs, rule).rows(), Index(10));
        QCOMPARE(parseClassCombine("stacked"), ClassCombine::Stacked);
        QCOMPARE(classCombineName(ClassCombine::Stacked), std::string("stacked"));
    }

    // The weights in the model file's rule: an exact round trip, absent when there are none, and
    // the shapes checked.
    void modelFileKeepsTheWeights() {
        std::mt19937 rng(9);
        const std::vector<Matrix> outs = randomOutputs(pairs, true, 60, rng);
        CombinationRule rule = classGroupRule(pairs, 3, true);
        QVERIFY(!ruleToJson(rule).contains("stacked"));  // older files stay as they were
        rule.stacked = fitStackedRule(outs, noisyProductLabels(outs, pairs, 3, true, rng), pairs, 3, true).weights;
        rule.classCombine = ClassCombine::Stacked;
        const Json j = ruleToJson(rule);
        QCOMPARE(QString::fromStdString(j.at("classCombine").get<std::string>()), QStringLiteral("stacked"));
        const Json text = parseJson(dumpJson(j), "rule");
        const CombinationRule back = ruleFromJson(JsonField(text, "m.skym", "combination"), Task::Classification);
        QVERIFY(back.stacked.has_value());
        QVERIFY(*back.stacked == *rule.stacked);  // bit for bit through the text
        QCOMPARE(back.classCombine, ClassCombine::Stacked);

        SavedCombinedModel m;
        m.rule = rule;
        for (const auto& owned : pairs) {
            NetworkSpec s;
            s.input = Shape::flat(2);
            s.outputs = int(owned.size()) + 1;
            m.specs.push_back(s);
            m.weights.push_back(std::vector<float>(std::size_t(weightCount(s)), 0.0f));
        }
        validate(m, "m");
        m.rule.stacked->features = 5;
        QVERIFY(errorText([&] {
                    validate(m, "m");
                }).contains("combination.stacked has weights for 3 classes x 5 submodel outputs, the rule has 3 x 9"));
        m.rule.stacked.reset();
        QCOMPARE(errorText([&] { validate(m, "m"); }),
                 QString("m: combination.classCombine is stacked, but there are no combination.stacked weights"));
        Json bad = j;
        bad["stacked"]["bias"] = Json::array({1.0});
        QVERIFY(errorText([&] {
                    ruleFromJson(JsonField(bad, "m.skym", "combination"), Task::Classification);
                }).contains("combination.stacked.bias"));
    }

    // A run through the engine's runner (every front end's path): the weights are fitted whatever the
    // chosen rule, kept with the run's model through a project save and load, and recombining the
    // run to stacked gives the evaluation's stacked figure. Without validation rows: none, and a run
    // told to combine by stacked combines by the product, saying so in its log.
    void runnerAndProject() {
        RunRequest request;
        request.data.emplace();
        request.data->train.path = "builtin:blobs:classes=6:features=5:samples=240";
        request.data->preparation.validationFraction = 0.2;
        request.data->preparation.testFraction = 0.2;
        request.network.layers = parseLayers("dense:16:relu");
        SplitOptions split;
        split.strategy = Strategy::ClassGroups;
        split.requested = 3;
        request.split = split;
        request.config.epochs = 3;
        request.config.batchSize = 32;
        request.threads = 2;
        RunObserver quiet;
        RunOutcome out = performRun(request, quiet, CancelToken());
        QCOMPARE(out.status, TrainStatus::Completed);
        QVERIFY(out.split->model.rule().stacked.has_value());
        QCOMPARE(out.split->model.rule().stacked->features, stackedFeatureCount(out.plan->rule().classes, false));
        double stackedMetric = -1;
        for (const auto& [how, metric] : out.combined->metricByRule)
            if (how == ClassCombine::Stacked) stackedMetric = metric;
        QVERIFY(stackedMetric >= 0);

        QTemporaryDir dir;
        ProjectData p;
        p.network = request.network;
        p.split = split;
        p.runs.push_back(*out.record);
        const std::string path = dir.filePath("stacked.skynnet").toStdString();
        saveProject(path, p);
        ProjectData back = loadProject(path);
        ProjectResults& results = *back.runs.at(0).results;
        QVERIFY(hasStackedWeights(results));
        QVERIFY(*results.model->rule.stacked == *out.split->model.rule().stacked);
        recombine(results, back.runs.at(0).plan, ClassCombine::Stacked);
        QCOMPARE(results.combinedMetric, stackedMetric);
        QCOMPARE(results.model->rule.classCombine, ClassCombine::Stacked);
        saveProject(path, back);  // the run now combined by stacked reads back so
        QCOMPARE(loadProject(path).runs.at(0).results->classCombine, ClassCombine::Stacked);

        request.data->preparation.validationFraction = 0;
        out = performRun(request, quiet, CancelToken());
        QCOMPARE(out.status, TrainStatus::Completed);
        QVERIFY(!out.split->model.rule().stacked);
        QVERIFY(!hasStackedWeights(*out.record->results));
        const QString why = errorText([&] { recombine(*out.record->results, *out.plan, ClassCombine::Stacked); });
        QVERIFY2(why.startsWith("this run has no stacked weights: ") && why.contains("validation"), qPrintable(why));
        request.split->classCombine = ClassCombine::Stacked;
        const RunOutcome product = out;
        CollectingObserver logged;
        out = performRun(request, logged, CancelToken());
        QCOMPARE(out.status, TrainStatus::Completed);
        QCOMPARE(out.plan->classCombine, ClassCombine::Product);
        QCOMPARE(out.record->results->classCombine, ClassCombine::Product);
        QVERIFY(sameBits(out.record->results->combinedTestOutput, product.record->results->combinedTestOutput));
        VERIFY_CONTAINS(logged.text(),
                        "no validation rows to fit it on, so the class groups are combined by the product");
    }

    // Wine, class groups N=3 trained with --combine stacked (seed 1: 0.97 here, the product 1.0;
    // other seeds vary, 36 test rows): the report names the rule, its test accuracy reaches 0.9 and is the
    // metric_by_rule's stacked figure, and evaluate on the saved model (its rule, or --combine stacked on the same
    // model) gives it exactly. Without validation rows, train refuses before training and evaluate says the model has
    // no weights.
    void commandLineEndToEnd() {
        QTemporaryDir dir;
        const QString model = dir.filePath("wine.skym"), report = dir.filePath("wine.json");
        const QStringList train = {"train",     "--data",     wine,           "--layers", "dense:32:relu",
                                   "--epochs",  "150",        "--batch",      "16",       "--submodels",
                                   "3",         "--strategy", "class-groups", "--seed",   "1",
                                   "--threads", "2",          "--validation", "0.2"};
        CliRun r = runCli(train + QStringList{"--combine", "stacked", "--save", model, "--report", report});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject j = readJson(report);
        const QJsonObject combined = j["combined"].toObject();
        QCOMPARE(combined["combine"].toString(), QString("stacked"));
        const QJsonObject byRule = combined["metric_by_rule"].toObject();
        for (const char* rule : {"product", "coupling", "sum", "stacked"}) QVERIFY2(byRule.contains(rule), rule);
        const double accuracy = j["test_accuracy"].toDouble();
        QVERIFY2(accuracy >= 0.9, qPrintable(QString::number(accuracy)));
        QCOMPARE(byRule["stacked"].toDouble(), accuracy);

        const QString evalReport = dir.filePath("eval.json");
        r = runCli({"evaluate", "--model", model, "--data", wine, "--split", "test", "--report", evalReport});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // The default "other" share (0.3) gives every submodel an "other" output.
        QCOMPARE(readJson(evalReport)["combine"].toString(), QString("stacked with an 'other' output"));
        QCOMPARE(readJson(evalReport)["accuracy"].toDouble(), accuracy);
        r = runCli({"evaluate", "--model", model, "--data", wine, "--split", "test", "--combine", "product", "--report",
                    evalReport});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readJson(evalReport)["accuracy"].toDouble(), byRule["product"].toDouble());
        r = runCli({"evaluate", "--model", model, "--data", wine, "--split", "test", "--combine", "stacked", "--report",
                    evalReport});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readJson(evalReport)["accuracy"].toDouble(), accuracy);

        // No validation rows: refused before training, naming the option.
        const QStringList noValidation = {"train", "--data",      wine, "--layers",   "dense:16:relu", "--epochs",
                                          "2",     "--submodels", "3",  "--strategy", "class-groups",  "--validation",
                                          "0"};
        r = runCli(noValidation + QStringList{"--combine", "stacked"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(), "--combine: stacked is fitted on the validation rows, and there are none: "
                                             "set --validation above 0 (it is 0.00)");
        QVERIFY(!r.out.contains("combined test accuracy"));
        // A model trained without them has no weights: evaluate --combine stacked says so.
        const QString plain = dir.filePath("plain.skym"), plainReport = dir.filePath("plain.json");
        r = runCli(noValidation + QStringList{"--save", plain, "--report", plainReport});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(!readJson(plainReport)["combined"].toObject()["metric_by_rule"].toObject().contains("stacked"));
        // The default rule is stacked: without validation rows the run combines by the product and says so.
        QCOMPARE(readJson(plainReport)["combined"].toObject()["combine"].toString(), QString("product"));
        VERIFY_CONTAINS(r.err.toStdString(), "warning: no validation rows (--validation 0.00), so the class groups are "
                                             "combined by the product instead of the default stacked rule");
        r = runCli({"evaluate", "--model", plain, "--data", wine, "--combine", "stacked"});
        QCOMPARE(r.exitCode, 2);
        VERIFY_CONTAINS(r.err.toStdString(),
                        "has no stacked weights: the stacked rule is fitted on the validation rows");
    }
};

QTEST_GUILESS_MAIN(TestStackedRule)
#include "tst_stacked_rule.moc"
