// The class-group combination rules in the exports (issue 28): product, sum, coupling and stacked, each
// with and without the "other" output, on hand-set class-group models of 6 classes (N=3: three
// groups of two classes; N=6: four groups, as plan_class_groups.cpp makes them). Every model is
// exported to ONNX (checked by the ONNX checker, run by ONNX Runtime through Node.js) and as a C++
// header (compiled with g++ -Werror), and must predict what the engine predicts to 1e-4.
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

#include "export/cpp_export.h"
#include "export/onnx_export.h"
#include "export_support.h"
#include "split/combined_model_file.h"
#include "split/stacked_rule.h"
#include "test_support.h"

using namespace skynnet;
using namespace skynnet::export_test;

namespace {

constexpr double kTolerance = 1e-4;
constexpr int kClasses = 6;
// Three rules, with and without "other", on N=3 and N=6.
constexpr std::size_t kRuleCases = 12;

// Every pair of groups, in lexicographic order: a submodel owns the classes of two groups.
std::vector<std::vector<int>> pairsOfGroups(const std::vector<std::vector<int>>& groups) {
    std::vector<std::vector<int>> pairs;
    for (std::size_t a = 0; a < groups.size(); ++a)
        for (std::size_t b = a + 1; b < groups.size(); ++b) {
            std::vector<int> both = groups[a];
            both.insert(both.end(), groups[b].begin(), groups[b].end());
            pairs.push_back(both);
        }
    return pairs;
}

// A class-group model over 4 input columns: each submodel a small MLP whose softmax has a column
// per class it owns and, with `other`, one more. Its weights are seeded and scaled up, so that
// the votes range from hesitant to nearly certain and the rules tell apart.
SavedCombinedModel classGroupModel(const std::vector<std::vector<int>>& classes, bool other, unsigned seed) {
    SavedCombinedModel m;
    m.rule.strategy = Strategy::ClassGroups;
    m.rule.task = Task::Classification;
    m.rule.outputs = kClasses;
    m.rule.classes = classes;
    m.rule.otherOutput = other;
    for (std::size_t s = 0; s < m.rule.classes.size(); ++s) {
        NetworkSpec spec;
        spec.input = Shape::flat(4);
        spec.layers = parseLayers("dense:10:tanh");
        spec.setOutputFor(Task::Classification, int(m.rule.classes[s].size()) + (other ? 1 : 0));
        std::vector<float> weights = handSetWeights(spec, seed + unsigned(s));
        for (float& w : weights) w *= 3.0f;
        m.specs.push_back(spec);
        m.weights.push_back(std::move(weights));
    }
    return m;
}

// One exported model: its name (file stem and C++ namespace m_NAME) and the engine's answers.
struct RuleCase {
    QString name;
    SavedCombinedModel saved;
    Matrix expected;
};

}  // namespace

class TestExportRules : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    Matrix raw_;
    std::vector<RuleCase> cases_;
    std::string path(const QString& name) const { return dir_.filePath(name).toStdString(); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SKYNNET_KEEP_EXPORTS"));  // to look at the files
        // Rows in [-2, 2] and a few far out, where softmax columns round to 0 or 1.
        raw_ = uniformRows(48, 4, -2.0f, 2.0f, 3);
        raw_.bottomRows(6) *= 15.0f;
        const std::vector<std::pair<QString, std::vector<std::vector<int>>>> layouts{{"n3", {{0, 1}, {2, 3}, {4, 5}}},
                                                                                     {"n6",
                                                                                      {{0, 1}, {2, 3}, {4}, {5}}}};
        unsigned seed = 10;
        for (const auto& [layout, groups] : layouts)
            for (bool other : {false, true}) {
                seed += 10;
                for (ClassCombine how : {ClassCombine::Product, ClassCombine::Sum, ClassCombine::Coupling}) {
                    // The same weights for each rule.
                    SavedCombinedModel m = classGroupModel(pairsOfGroups(groups), other, seed);
                    m.rule.classCombine = how;
                    const QString name = QString::fromStdString(classCombineName(how)) + "_" + layout +
                                         (other ? "_other" : "");
                    cases_.push_back({name, m, engine(m, raw_)});
                }
            }
        QCOMPARE(cases_.size(), kRuleCases);
        // Not a plan's class groups: two submodels that share no class leave coupling's KKT system
        // singular (any mix of their two answers fits them exactly), where the engine's
        // rank-revealing solve gives the minimum-norm p and the exports' 1e-10 ridge leads to it.
        SavedCombinedModel disjoint = classGroupModel({{0, 1, 2}, {3, 4, 5}}, true, 90);
        disjoint.rule.classCombine = ClassCombine::Coupling;
        cases_.push_back({"coupling_disjoint", disjoint, engine(disjoint, raw_)});
        // The stacked rule on the same submodels as the product of each layout: the product's
        // equivalent weights moved by seeded noise, so that they are nobody's rule but their own.
        std::mt19937 rng(7);
        std::normal_distribution<double> noise(0.0, 0.4);
        for (std::size_t i = 0; i < kRuleCases; i += 3) {
            SavedCombinedModel m = cases_[i].saved;
            StackedWeights w = productStart(m.rule.classes, m.rule.outputs, m.rule.otherOutput);
            for (double& v : w.weights) v += noise(rng);
            for (double& v : w.bias) v += noise(rng);
            m.rule.stacked = w;
            m.rule.classCombine = ClassCombine::Stacked;
            cases_.push_back({QString(cases_[i].name).replace("product", "stacked"), m, engine(m, raw_)});
        }
    }

    // The stacked cases answer otherwise than the product on the same submodels, and in probabilities.
    void stackedDiffersFromTheProduct() {
        for (std::size_t i = 0; i < kRuleCases / 3; ++i) {
            const RuleCase &stacked = cases_[kRuleCases + 1 + i], &product = cases_[3 * i];
            QVERIFY(stacked.name.startsWith("stacked_"));
            QVERIFY2((stacked.expected.rowwise().sum().array() - 1.0f).abs().maxCoeff() < 1e-5f,
                     qPrintable(stacked.name));
            const double d = maxDifference(stacked.expected, product.expected);
            QVERIFY2(d > 0.02, qPrintable(stacked.name + " differs from the product by only " + QString::number(d)));
        }
    }

    // The minimum-norm p of the disjoint model: t a + (1 - t) b with a, b the two submodels' own
    // softmax renormalised, t = |b|^2 / (|a|^2 + |b|^2).
    void singularCouplingGivesTheMinimumNorm() {
        const RuleCase& c = cases_[kRuleCases];
        QCOMPARE(c.name, QString("coupling_disjoint"));
        CombinedModel built = buildCombinedModel(c.saved);
        const Matrix a = built.submodel(0).predict(raw_).leftCols(3), b = built.submodel(1).predict(raw_).leftCols(3);
        Matrix expected(raw_.rows(), kClasses);
        for (Index r = 0; r < raw_.rows(); ++r) {
            const Eigen::RowVectorXd ra = a.row(r).cast<double>() / double(a.row(r).sum()),
                                     rb = b.row(r).cast<double>() / double(b.row(r).sum());
            const double t = rb.squaredNorm() / (ra.squaredNorm() + rb.squaredNorm());
            expected.row(r) << (t * ra).cast<Scalar>(), ((1 - t) * rb).cast<Scalar>();
        }
        const double d = maxDifference(c.expected, expected);
        QVERIFY2(d <= 1e-5, qPrintable("the engine differs from the minimum-norm p by " + QString::number(d)));
    }

    // The three rules give different answers on the same submodels, so an export that wrote one
    // rule for another would fail below; every answer is a probability row.
    void theRulesDifferOnTheSameSubmodels() {
        for (std::size_t i = 0; i < kRuleCases; i += 3) {
            for (std::size_t a = i; a < i + 3; ++a) {
                const Matrix& p = cases_[a].expected;
                QVERIFY2((p.rowwise().sum().array() - 1.0f).abs().maxCoeff() < 1e-5f, qPrintable(cases_[a].name));
                QVERIFY2(p.minCoeff() >= 0.0f, qPrintable(cases_[a].name));
                for (std::size_t b = a + 1; b < i + 3; ++b) {
                    const double d = maxDifference(cases_[a].expected, cases_[b].expected);
                    QVERIFY2(d > 0.02, qPrintable(cases_[a].name + " and " + cases_[b].name + " differ by only " +
                                                  QString::number(d)));
                }
            }
        }
    }

    void onnxRuntimeMatchesTheEngine() {
        QString node;
        const QString missing = onnxRuntimeMissing(node);
        if (!missing.isEmpty()) SKIP_UNLESS_CI(qPrintable(missing));
        std::vector<OrtJob> jobs;
        QStringList files;
        for (const RuleCase& c : cases_) {
            exportOnnx(c.saved, path(c.name + ".onnx"));
            files << dir_.filePath(c.name + ".onnx");
            jobs.push_back({files.back(), raw_, "probabilities"});
        }
        // The newest opset the exporter offers: coupling's Slice and Unsqueeze take their axes as
        // inputs from opset 13 on.
        const RuleCase& coupling = cases_[kRuleCases - 1];
        exportOnnx(coupling.saved, path("coupling_opset17.onnx"), {17});
        files << dir_.filePath("coupling_opset17.onnx");
        jobs.push_back({files.back(), raw_, "probabilities"});

        QString error;
        run("/usr/bin/python3", {"-c", "import onnx"}, error);
        if (!error.isEmpty()) SKIP_UNLESS_CI("/usr/bin/python3 has no onnx module (Debian: python3-onnx)");
        const QByteArray checked =
            run("/usr/bin/python3",
                QStringList{QString::fromStdString(sourcePath("tests/export/check_onnx.py"))} + files, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(checked.count("ok "), files.size());
        // A fixed graph: the coupling's elimination is unrolled, no loop or branch.
        const QStringList ops = opsOf(describeGraph(dir_.filePath("coupling_opset17.onnx"), error));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(ops.contains("Cast") && ops.contains("MatMul"));
        for (const char* flow : {"Loop", "If", "Scan"}) QVERIFY(!ops.contains(flow));

        const std::vector<Matrix> answers = runOnnxRuntime(node, dir_.path(), jobs, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(answers.size(), jobs.size());
        QStringList wrong;  // every model that differs, not only the first
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const RuleCase& c = i < cases_.size() ? cases_[i] : coupling;
            const double d = maxDifference(answers[i], c.expected);
            const QString file = QFileInfo(jobs[i].model).fileName();
            if (!answers[i].allFinite() || !(d <= kTolerance)) wrong << file + " by " + QString::number(d);
            else qInfo("%s: ONNX Runtime within %.2g of the engine", qPrintable(file), d);
        }
        QVERIFY2(wrong.isEmpty(), qPrintable("ONNX Runtime differs from the engine: " + wrong.join(", ")));
    }

    void cppHeadersMatchTheEngine() {
        if (QStandardPaths::findExecutable("g++").isEmpty()) SKIP_UNLESS_CI("g++ is not installed");
        std::vector<CppHeaderRows> jobs;
        for (const RuleCase& c : cases_) {
            exportCppHeader(c.saved, path(c.name + ".h"), {"m_" + c.name.toStdString()});
            jobs.push_back({c.name, raw_, kClasses});
        }
        QString error;
        const std::vector<Matrix> answers = runCppHeaders(dir_.path(), "predict_rules", jobs, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(answers.size(), cases_.size());
        QStringList wrong;
        for (std::size_t i = 0; i < cases_.size(); ++i) {
            const double d = maxDifference(answers[i], cases_[i].expected);
            if (!answers[i].allFinite() || !(d <= kTolerance)) wrong << cases_[i].name + " by " + QString::number(d);
            else qInfo("%s: the C++ header within %.2g of the engine", qPrintable(cases_[i].name), d);
        }
        QVERIFY2(wrong.isEmpty(), qPrintable("the C++ header differs from the engine: " + wrong.join(", ")));
    }
};

QTEST_GUILESS_MAIN(TestExportRules)
#include "tst_export_rules.moc"
