// The C++ header export of sequence models (issue 26): GRU, LSTM, embedding, seqpool and batch norm
// over a sequence, single and combined, and the text tokenizer. Each generated header is compiled
// with the system g++ (-Werror) and must predict what the engine predicts to 1e-4, and encode texts
// as tokenizer rule 1 does.
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <random>

#include "core/error.h"
#include "data/text_vocabulary.h"
#include "export/cpp_export.h"
#include "export/cpp_literals.h"
#include "export/cpp_text_tokenizer.h"
#include "export_support.h"
#include "split/combined_model_file.h"
#include "test_support.h"

using namespace skynnet;
using namespace skynnet::export_test;

namespace {

constexpr double kTolerance = 1e-4;

// Rows of `steps` token ids below `vocabulary`, pre-padded with 0 (row r has r % (steps + 1)
// padding steps: all padding once, none once), then a row with an id that is not in the vocabulary.
Matrix paddedIds(Index rows, int steps, int vocabulary, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> id(1, vocabulary - 1);
    Matrix m = Matrix::Zero(rows, steps);
    for (Index r = 0; r < rows; ++r)
        for (int t = int(r % (steps + 1)); t < steps; ++t) m(r, t) = float(id(rng));
    return m;
}

// The ids the engine gives a text (pre-padded), as the model's raw row holds them.
std::vector<float> encoded(const TextVocabulary& v, const std::string& text) {
    const std::vector<std::int32_t> ids = v.encode(text, v.maxLength);
    return std::vector<float>(ids.begin(), ids.end());
}

void writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// The training texts of the text model and the tokenizer test.
const std::vector<std::string> kTexts = {
    "Don't stop: 3.5 stars!! A great, great film.",
    "A dull film; I stopped at 20 minutes.",
    "Great acting, dull plot. Éric's best? No.",
    "ΑΘΗΝΑ and Привет, мир: films of 1999.",
    "great great great",
};

}  // namespace

class TestCppSequenceExport : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    static TextVocabulary vocabulary() {
        TextVocabulary v = fitVocabulary(kTexts, 24);
        v.maxLength = 7;
        return v;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        dir_.setAutoRemove(qEnvironmentVariableIsEmpty("SKYNNET_KEEP_EXPORTS"));  // to look at the files
        if (QStandardPaths::findExecutable("g++").isEmpty()) SKIP_UNLESS_CI("g++ is not installed");
    }

    // Four models in one program: each header's predict on raw rows against the engine's.
    void sequenceHeadersMatchTheEngine() {
        struct Model {
            QString name;
            SavedCombinedModel saved;
            Matrix raw;
        };
        std::vector<Model> models;
        // A GRU over 7 steps of 5 features: every step's h, batch norm per feature over the steps,
        // an activation over the steps, then the last step of a second GRU and batch norm.
        const NetworkSpec gru = networkOf(Shape::steps(7, 5), "gru:6:sequences,bn,activation:tanh,gru:5,bn",
                                          Task::Classification, 4);
        models.push_back({"gru", singleModel(gru, Task::Classification, 1), uniformRows(20, 35, -2.0f, 2.0f, 2)});
        // An LSTM returning every step, then the mean over the steps (no mask: every step) and a dense layer.
        const NetworkSpec lstm = networkOf(Shape::steps(6, 4), "lstm:5:sequences,seqpool:mean,dense:4:relu",
                                           Task::Regression, 2);
        models.push_back({"lstm", singleModel(lstm, Task::Regression, 3), uniformRows(20, 24, -2.0f, 2.0f, 4)});
        // Text: embedding, the mean over the real steps, dense; padded ids (a row of padding only).
        const int vocab = 30;
        const NetworkSpec text = networkOf(Shape::steps(8, 1), "embedding:6,seqpool:mean,dense:5:tanh", Task::Binary, 1,
                                           vocab);
        Matrix ids = paddedIds(24, 8, vocab, 5);
        ids(23, 7) = 30.0f;  // not in the vocabulary: the header reads it as padding (the engine refuses it)
        models.push_back({"text", singleModel(text, Task::Binary, 6), ids.topRows(23)});
        // Combined: class groups of a GRU and an LSTM over the same embedded ids (the mask through the
        // LSTM's steps and a batch norm over them), and the last step.
        SavedCombinedModel combined;
        combined.rule.strategy = Strategy::ClassGroups;
        combined.rule.task = Task::Classification;
        combined.rule.outputs = 5;
        combined.rule.classes = {{0, 1, 2}, {3, 4}};
        combined.specs = {networkOf(Shape::steps(8, 1), "embedding:5,gru:4", Task::Classification, 3, vocab),
                          networkOf(Shape::steps(8, 1), "embedding:4,lstm:3:sequences,bn,seqpool:mean,dense:4:relu",
                                    Task::Classification, 2, vocab)};
        combined.weights = {handSetWeights(combined.specs[0], 7), handSetWeights(combined.specs[1], 8)};
        models.push_back({"combined", combined, paddedIds(18, 8, vocab, 9)});
        // And seqpool:last after a GRU's steps.
        const NetworkSpec last = networkOf(Shape::steps(5, 3), "gru:4:sequences,seqpool:last", Task::Regression, 3);
        models.push_back({"last", singleModel(last, Task::Regression, 10), uniformRows(10, 15, -2.0f, 2.0f, 11)});

        std::vector<CppHeaderRows> jobs;
        for (const Model& m : models) {
            exportCppHeader(m.saved, dir_.filePath(m.name + ".h").toStdString(), {"m_" + m.name.toStdString()});
            jobs.push_back({m.name, m.raw, m.saved.rule.outputs});
        }
        // The id outside the vocabulary: predicted as padding.
        jobs.push_back({"text", ids.bottomRows(1), 1});
        QString error;
        const std::vector<Matrix> answers = runCppHeaders(dir_.path(), "sequences", jobs, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (std::size_t i = 0; i < models.size(); ++i) {
            const Model& m = models[i];
            const Matrix expected = engine(m.saved, m.raw);
            const double d = maxDifference(answers[i], expected);
            QVERIFY2(d <= kTolerance, qPrintable(m.name + ": the C++ header differs by " + QString::number(d)));
            // The answers vary between samples: the layers did not collapse to a constant.
            QVERIFY2(double((expected.rowwise() - expected.row(0)).cwiseAbs().maxCoeff()) > 1e-3, qPrintable(m.name));
            qInfo("%s: C++ header within %.2g of the engine", qPrintable(m.name), d);
        }
        Matrix asPadding = ids.bottomRows(1);
        asPadding(0, 7) = 0.0f;
        QVERIFY(std::fabs(double(answers.back()(0, 0) - engine(models[2].saved, asPadding)(0, 0))) <= kTolerance);
        QVERIFY_THROWS_EXCEPTION(Error, engine(models[2].saved, ids.bottomRows(1)));
    }

    // The tokenizer alone: the header's encodeText gives rule 1's ids, pre-padded, for every text
    // (Unicode lower-casing, apostrophes, numbers, punctuation, unknown tokens, truncation), and
    // refuses what is not UTF-8.
    void tokenizerHeaderEncodesAsTheEngine() {
        const TextVocabulary v = vocabulary();
        const std::vector<std::string> texts = {kTexts[0],
                                                kTexts[1],
                                                kTexts[2],
                                                kTexts[3],
                                                kTexts[4],
                                                "",
                                                "   \t\n",
                                                "GREAT",
                                                "x",
                                                "ÀÉÎ Ÿ İSTANBUL Ĳssel Łódź",
                                                "ΑΘΗΝΑ ΣΑΣ Ѐ ЁЖИК",
                                                "don\xe2\x80\x99t l'a 'quoted' rock'n'roll",
                                                "3.14.15 1. .5 42",
                                                "emoji 😀😀 and ★ €5 ½",
                                                std::string("nul\0inside", 10),
                                                "no\xc2\xa0"
                                                "break\xe3\x80\x80spaces",
                                                "日本語のテキスト、です。",
                                                "a b c d e f g h i j great film",
                                                "\xff\xfe bad",
                                                "ok \xe2\x82",
                                                "\xed\xa0\x80 surrogate",
                                                "\xc0\xaf overlong"};
        QByteArray input;
        for (const std::string& t : texts) {
            const std::uint32_t n = std::uint32_t(t.size());
            input.append(reinterpret_cast<const char*>(&n), sizeof n);
            input.append(t.data(), qsizetype(t.size()));
        }
        writeBytes(dir_.filePath("texts.bin"), input);
        const std::string header = cppTokenizerHeaderText(v, "tok");
        writeBytes(dir_.filePath("tok.h"), QByteArray::fromStdString(header));
        const QString source = QString(R"(#include <cstdint>
#include <cstdio>
#include <string>
#include "tok.h"
int main() {
    std::FILE* f = std::fopen("%1", "rb");
    std::uint32_t n = 0;
    while (f && std::fread(&n, sizeof n, 1, f) == 1) {
        std::string text(n, '\0');
        if (n > 0 && std::fread(&text[0], 1, n, f) != n) return 2;
        float ids[tok::kTextLength];
        if (!tok::encodeText(text, ids)) {
            std::printf("not utf-8\n");
            continue;
        }
        for (int i = 0; i < tok::kTextLength; ++i) std::printf("%s%g", i ? " " : "", static_cast<double>(ids[i]));
        std::printf("\n");
    }
}
)")
                                   .arg(dir_.filePath("texts.bin"));
        QString error;
        const QList<QByteArray> lines = compileAndRun(dir_.path(), "tokenize", source, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(lines.size() >= qsizetype(texts.size()));
        int unknown = 0, truncated = 0;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            QString expected;
            try {
                const std::vector<float> ids = encoded(v, texts[i]);
                for (std::size_t k = 0; k < ids.size(); ++k) expected += (k ? " " : "") + QString::number(ids[k]);
                unknown += int(std::count(ids.begin(), ids.end(), 1.0f));
                truncated += tokenizeText(texts[i]).size() > std::size_t(v.maxLength);
            } catch (const Error&) {
                expected = "not utf-8";
            }
            QCOMPARE(QString::fromUtf8(lines[qsizetype(i)]), expected);
        }
        QVERIFY(unknown > 0);    // tokens outside the vocabulary were met
        QVERIFY(truncated > 0);  // and texts longer than the length
        VERIFY_CONTAINS(errorOf([&] { cppTokenizerHeaderText(v, "9x"); }), "not a valid C++ namespace");
        TextVocabulary unset = v;
        unset.maxLength = 0;
        VERIFY_CONTAINS(errorOf([&] { cppTokenizerHeaderText(unset, "tok"); }), "maxLength");
    }

    // A text model's header: predict on a string gives the engine's prediction on the text's ids.
    void textModelPredictsOnStrings() {
        const TextVocabulary v = vocabulary();
        const NetworkSpec spec = networkOf(Shape::steps(v.maxLength, 1), "embedding:6,seqpool:mean,dense:5:tanh",
                                           Task::Classification, 3, v.size());
        SavedCombinedModel m = singleModel(spec, Task::Classification, 12);
        m.schema.vocabulary = v;  // a text model: the header gets the tokenizer
        const std::vector<std::string> texts = {kTexts[0], kTexts[1],         kTexts[2],           kTexts[3],
                                                "",        "an unknown word", "GREAT film, great!"};
        Matrix ids(Index(texts.size()), v.maxLength);
        QString calls;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            const std::vector<float> row = encoded(v, texts[i]);
            for (int k = 0; k < v.maxLength; ++k) ids(Index(i), k) = row[std::size_t(k)];
            calls += QString("    print(%1);\n").arg(QString::fromStdString(cppStringLiteral(texts[i])));
        }
        exportCppHeader(m, dir_.filePath("words.h").toStdString(), {"m_words"});
        const QString source =
            R"(#include <cstdio>
#include <string_view>
#include "words.h"
void print(std::string_view text) {
    float out[m_words::kOutputs];
    if (!m_words::predict(text, out)) std::printf("not utf-8\n");
    for (float v : out) std::printf("%.9g\n", static_cast<double>(v));
}
int main() {
)" + calls +
            "    float out[m_words::kOutputs];\n"
            "    std::printf(\"%d\\n\", m_words::predict(std::string_view(\"\\xff\"), out) ? 1 : 0);\n}\n";
        QString error;
        const QList<QByteArray> values = compileAndRun(dir_.path(), "words", source, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const Matrix expected = engine(m, ids);
        Matrix got(expected.rows(), expected.cols());
        for (Index i = 0; i < got.size(); ++i) got.data()[i] = i < values.size() ? values[qsizetype(i)].toFloat() : NAN;
        const double d = maxDifference(got, expected);
        QVERIFY2(d <= kTolerance, qPrintable("predict(text) differs by " + QString::number(d)));
        QCOMPARE(values.value(qsizetype(got.size())), QByteArray("0"));  // not UTF-8: false
        // A vocabulary of another length than the model's input is refused.
        SavedCombinedModel longer = m;
        longer.schema.vocabulary->maxLength = v.maxLength + 1;
        VERIFY_CONTAINS(errorOf([&] { cppHeaderText(longer); }), "token ids");
    }
};

QTEST_GUILESS_MAIN(TestCppSequenceExport)
#include "tst_cpp_sequence_export.moc"
