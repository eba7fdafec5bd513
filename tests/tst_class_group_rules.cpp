// The class-group combination rules (split/class_group_rules.h) on worked examples whose answers
// are worked out by hand below, as fractions: product, sum and coupling, with and without an
// "other" output; the rule in the model file and the shape checks.
#include <QtTest>

#include "core/error.h"
#include "split/class_group_rules.h"
#include "split/combination.h"
#include "split/combined_model_file.h"

using namespace skynnet;

namespace {

Matrix row(std::initializer_list<double> values) {
    Matrix m(1, Index(values.size()));
    Index k = 0;
    for (double v : values) m(0, k++) = Scalar(v);
    return m;
}

// Three classes, one per group, so three pairwise submodels: {0,1}, {0,2}, {1,2}.
const std::vector<std::vector<int>> pairs{{0, 1}, {0, 2}, {1, 2}};

void compareRow(const Matrix& got, std::initializer_list<double> expected, double tolerance = 1e-6) {
    QCOMPARE(got.rows(), Index(1));
    QCOMPARE(got.cols(), Index(expected.size()));
    Index k = 0;
    for (double e : expected) {
        QVERIFY2(std::abs(double(got(0, k)) - e) < tolerance,
                 qPrintable(QStringLiteral("class %1: got %2, expected %3").arg(k).arg(double(got(0, k))).arg(e)));
        ++k;
    }
}

CombinationRule classGroups(std::vector<std::vector<int>> classes, int count, ClassCombine how, bool other = false) {
    CombinationRule r;
    r.strategy = Strategy::ClassGroups;
    r.outputs = count;
    r.classes = std::move(classes);
    r.classCombine = how;
    r.otherOutput = other;
    return r;
}

}  // namespace

class TestClassGroupRules : public QObject {
    Q_OBJECT

private slots:
    // Votes consistent with p = (1/2, 3/10, 1/5): each pair's softmax is p renormalised over the
    // pair, r{0,1} = (5/8, 3/8), r{0,2} = (5/7, 2/7), r{1,2} = (3/5, 2/5).
    void consistentVotes() {
        const std::vector<Matrix> probs{row({5.0 / 8, 3.0 / 8}), row({5.0 / 7, 2.0 / 7}), row({3.0 / 5, 2.0 / 5})};
        // Coupling: every term (p_i - r_si (p_i + p_j))^2 is 0 at p itself, the minimum.
        compareRow(combineClassProbabilities(probs, pairs, 3, false, ClassCombine::Coupling), {0.5, 0.3, 0.2});
        // Product: 5/8 * 5/7 = 25/56, 3/8 * 3/5 = 9/40, 2/7 * 2/5 = 4/35; over 280: 125, 63, 32,
        // which sum to 220.
        compareRow(combineClassProbabilities(probs, pairs, 3, false, ClassCombine::Product),
                   {125.0 / 220, 63.0 / 220, 32.0 / 220});
        // Sum: each class's mean over its two owners, (5/8 + 5/7) / 2 = 75/112, (3/8 + 3/5) / 2 =
        // 39/80, (2/7 + 2/5) / 2 = 12/35, which sum to 3/2: 25/56, 13/40, 8/35.
        compareRow(combineClassProbabilities(probs, pairs, 3, false, ClassCombine::Sum),
                   {25.0 / 56, 13.0 / 40, 8.0 / 35});
    }

    // Votes no p agrees with: r{0,1} = (1/2, 1/2), r{0,2} = (1/2, 1/2), r{1,2} = (4/5, 1/5). For a
    // pair the two terms are 2 (r_j p_i - r_i p_j)^2, so coupling minimises
    //   (p0 - p1)^2 / 4 + (p0 - p2)^2 / 4 + (p1 / 5 - 4 p2 / 5)^2   with p0 + p1 + p2 = 1.
    // Setting each partial derivative to the same multiplier L:
    //   (2 p0 - p1 - p2) / 2 = L,  -p0 / 2 + 0.58 p1 - 0.32 p2 = L,  -p0 / 2 - 0.32 p1 + 1.78 p2 = L,
    // solved by p = (27, 35, 15) / 77 (L = 2/77): check, 54 - 35 - 15 = 4; -13.5 + 20.3 - 4.8 = 2;
    // -13.5 - 11.2 + 26.7 = 2.
    void inconsistentVotes() {
        const std::vector<Matrix> probs{row({0.5, 0.5}), row({0.5, 0.5}), row({0.8, 0.2})};
        compareRow(combineClassProbabilities(probs, pairs, 3, false, ClassCombine::Coupling),
                   {27.0 / 77, 35.0 / 77, 15.0 / 77});
        // The product ranks class 1 first too: 1/4, 2/5, 1/10 over 3/4.
        compareRow(combineClassProbabilities(probs, pairs, 3, false, ClassCombine::Product),
                   {1.0 / 3, 8.0 / 15, 2.0 / 15});
    }

    // Two submodels over four classes, each with an "other" output: s1 owns {0, 1}, s2 owns {2, 3}.
    // A row of class 2: s1 says (0.1, 0.1, other 0.8), s2 says (0.6, 0.2, other 0.2).
    void otherOutputStopsVotesAgainstUnseenClasses() {
        const std::vector<std::vector<int>> halves{{0, 1}, {2, 3}};
        const std::vector<Matrix> probs{row({0.1, 0.1, 0.8}), row({0.6, 0.2, 0.2})};
        // Product: s1 spreads 0.8 over classes 2 and 3 (0.4 each), s2 spreads 0.2 over 0 and 1:
        // 0.1 * 0.1, 0.1 * 0.1, 0.4 * 0.6, 0.4 * 0.2 = 0.01, 0.01, 0.24, 0.08, over 0.34.
        compareRow(combineClassProbabilities(probs, halves, 4, true, ClassCombine::Product),
                   {1.0 / 34, 1.0 / 34, 24.0 / 34, 8.0 / 34});
        // Sum: every submodel votes on every class: (0.1 + 0.1) / 2, (0.1 + 0.1) / 2, (0.4 + 0.6) / 2,
        // (0.4 + 0.2) / 2 = 0.1, 0.1, 0.5, 0.3, which sum to 1.
        compareRow(combineClassProbabilities(probs, halves, 4, true, ClassCombine::Sum), {0.1, 0.1, 0.5, 0.3});
        // Without the other output's say, the product of the owners alone cannot tell the halves
        // apart: s1 renormalised is (1/2, 1/2), s2 (3/4, 1/4); classes nobody else owns get 1.
        const std::vector<Matrix> own{row({0.5, 0.5}), row({0.75, 0.25})};
        compareRow(combineClassProbabilities(own, halves, 4, false, ClassCombine::Product), {0.25, 0.25, 0.375, 0.125});
    }

    // combine() checks the columns a submodel gives against its classes and the "other" output.
    void shapesAreChecked() {
        CombinationRule rule = classGroups(pairs, 3, ClassCombine::Coupling, true);
        const std::vector<Matrix> withoutOther{row({0.5, 0.5}), row({0.5, 0.5}), row({0.8, 0.2})};
        try {
            combine(withoutOther, rule);
            QFAIL("a submodel without its 'other' column was combined");
        } catch (const Error& e) {
            QCOMPARE(QString(e.what()), QStringLiteral("submodel 1 gave 2 columns for its 2 classes and 'other'"));
        }
        rule.otherOutput = false;
        QCOMPARE(combine(withoutOther, rule).cols(), Index(3));
        QVERIFY_THROWS_EXCEPTION(Error, parseClassCombine("stacking"));
        for (ClassCombine c : {ClassCombine::Product, ClassCombine::Coupling, ClassCombine::Sum})
            QCOMPARE(parseClassCombine(classCombineName(c)), c);
    }

    // The rule and the "other" output travel in the model file; a file from before them reads as
    // the product without "other".
    void ruleRoundTripsThroughTheModelFile() {
        const CombinationRule rule = classGroups(pairs, 3, ClassCombine::Sum, true);
        const Json j = ruleToJson(rule);
        QCOMPARE(QString::fromStdString(j.at("classCombine").get<std::string>()), QStringLiteral("sum"));
        const CombinationRule back = ruleFromJson(JsonField(j, "model.skym", "combination"), Task::Classification);
        QCOMPARE(back.classCombine, ClassCombine::Sum);
        QVERIFY(back.otherOutput);
        QCOMPARE(back.classes, rule.classes);
        Json old = j;
        old.erase("classCombine");
        old.erase("otherOutput");
        const CombinationRule older = ruleFromJson(JsonField(old, "model.skym", "combination"), Task::Classification);
        QCOMPARE(older.classCombine, ClassCombine::Product);
        QVERIFY(!older.otherOutput);
        Json bad = j;
        bad["classCombine"] = "vote";
        try {
            ruleFromJson(JsonField(bad, "model.skym", "combination"), Task::Classification);
            QFAIL("an unknown rule was read");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("classCombine") && QString(e.what()).contains("'vote'"), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestClassGroupRules)
#include "tst_class_group_rules.moc"
