// skynnet-cli on text (issue 26): a tiny text classifier trained end to end from a CSV text
// column (embedding + mean pooling), the saved model's predict and evaluate tokenising new texts
// with its vocabulary, a folder of .txt files, predict on single .txt files and flat folders of
// them, and the text options' usage errors.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdint>

#include "cli_support.h"
#include "export/onnx_export.h"
#include "test_support.h"

namespace {

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void writeText(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// A small deterministic generator, so the set is the same on every machine.
struct Lcg {
    std::uint64_t state;
    int below(int n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return int((state >> 33) % std::uint64_t(n));
    }
};

const QList<QByteArray> positive = {"good", "great", "superb", "lovely", "moving", "clever"};
const QList<QByteArray> negative = {"bad", "awful", "dull", "boring", "clumsy", "weak"};
const QList<QByteArray> filler = {"the",  "film",  "movie", "was", "and",    "plot",  "actors", "a",
                                  "it",   "story", "of",    "is",  "scenes", "music", "ending", "this",
                                  "cast", "with",  "but",   "too", "very",   "quite", "at",     "times"};

// One review: 5 to 12 filler words, two words of its class and one of the other class (so a
// single word never decides: the class is which kind of word is in the majority), in random
// order, with a comma and sometimes a line break, which the CSV quotes.
QByteArray review(Lcg& g, bool good) {
    QList<QByteArray> words;
    const int fill = 5 + g.below(8);
    for (int i = 0; i < fill; ++i) words << filler[g.below(int(filler.size()))];
    const auto& own = good ? positive : negative;
    const auto& other = good ? negative : positive;
    for (const QByteArray& w :
         {own[g.below(int(own.size()))], own[g.below(int(own.size()))], other[g.below(int(other.size()))]})
        words.insert(g.below(int(words.size()) + 1), w);
    if (g.below(2)) words[0][0] = char(std::toupper(words[0][0]));  // lower-cased by the tokenizer
    words.insert(1 + g.below(int(words.size()) - 1), g.below(3) ? QByteArray(",") : QByteArray("\n"));
    QByteArray text = words.join(' ');
    return "\"" + text.replace(" ,", ",") + "\"";
}

// id,text,label rows; the id column is not read.
QByteArray reviewsCsv(int rows, std::uint64_t seed) {
    Lcg g{seed};
    QByteArray csv = "id,text,label\n";
    for (int i = 0; i < rows; ++i) {
        const bool good = g.below(2) == 1;
        csv += QByteArray::number(i) + "," + review(g, good) + "," + (good ? "pos" : "neg") + "\n";
    }
    return csv;
}

double metricAfter(const QString& text, const QString& name) {
    const QRegularExpression re(name + " ([0-9.]+)");
    const auto m = re.match(text);
    return m.hasMatch() ? m.captured(1).toDouble() : -1;
}

const QStringList textTraining = {"--layers",  "embedding:16,seqpool:mean",
                                  "--epochs",  "20",
                                  "--lr",      "0.01",
                                  "--batch",   "16",
                                  "--threads", "1",
                                  "--quiet"};

}  // namespace

class TestCliText : public QObject {
    Q_OBJECT
private slots:
    void trainsPredictsAndEvaluatesATextClassifier();
    void textFolderTrains();
    void predictsOnTextFiles();
    void usageErrorsNameTheOption();
    void helpListsTheTextOptions();
};

void TestCliText::trainsPredictsAndEvaluatesATextClassifier() {
    QTemporaryDir dir;
    const QString data = dir.filePath("reviews.csv"), model = dir.filePath("reviews.skym");
    writeText(data, reviewsCsv(500, 7));
    const CliRun r = runCli(QStringList{"train", "--data", data, "--text-column", "text", "--target", "label",
                                        "--max-length", "16", "--save", model} +
                            textTraining);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const double accuracy = metricAfter(r.out, "test accuracy");
    QVERIFY2(accuracy >= 0.9, qPrintable(r.out));

    // New reviews, from another seed: tokenised with the saved vocabulary (label column absent).
    const QString fresh = dir.filePath("fresh.csv");
    writeText(fresh, reviewsCsv(200, 99));
    const CliRun e = runCli({"evaluate", "--model", model, "--data", fresh});
    QVERIFY2(e.exitCode == 0, qPrintable(e.err));
    QVERIFY2(metricAfter(e.out, "accuracy") >= 0.9, qPrintable(e.out));

    const QString texts = dir.filePath("texts.csv"), out = dir.filePath("pred.csv");
    writeText(texts, "text\n\"Superb, clever and moving\"\n\"awful and boring, weak\"\n");
    const CliRun p = runCli({"predict", "--model", model, "--data", texts, "--output", out});
    QVERIFY2(p.exitCode == 0, qPrintable(p.err));
    const QStringList lines = readText(out).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY2(lines[1].startsWith("pos,"), qPrintable(lines[1]));
    QVERIFY2(lines[2].startsWith("neg,"), qPrintable(lines[2]));

    // The ONNX graph takes token ids; the vocabulary that makes them is written beside it.
    if (skynnet::onnxExportAvailable()) {
        const QString onnx = dir.filePath("reviews.onnx"), vocabulary = dir.filePath("reviews.vocab.json");
        const CliRun x = runCli({"export", "--model", model, "--format", "onnx", "--out", onnx});
        QVERIFY2(x.exitCode == 0, qPrintable(x.err));
        QVERIFY2(x.out.contains("wrote the vocabulary (token ids of the graph's input) to " + vocabulary),
                 qPrintable(x.out));
        QVERIFY(QFile::exists(onnx));
        const QJsonObject v = QJsonDocument::fromJson(readText(vocabulary).toUtf8()).object();
        QCOMPARE(v["tokenizerRule"].toInt(), 1);
        QCOMPARE(v["maxLength"].toInt(), 16);
        QVERIFY(v["tokens"].toArray().contains("superb"));
    }

    // A text that is not UTF-8 is refused at its line and column.
    writeText(texts, "text\nfine\n\"caf\xe9\"\n");
    const CliRun bad = runCli({"predict", "--model", model, "--data", texts, "--output", out});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.err.contains(texts + ":3: column 'text' (0): text is not UTF-8 (byte 0xe9 at column 4)"),
             qPrintable(bad.err));
}

void TestCliText::textFolderTrains() {
    QTemporaryDir dir;
    Lcg g{3};
    for (const char* part : {"train", "test"})
        for (int i = 0; i < (part[1] == 'r' ? 200 : 40); ++i) {
            const bool good = i % 2 == 0;
            QByteArray text = review(g, good);
            text = text.mid(1, text.size() - 2);  // the file holds the text itself
            writeText(dir.filePath(QString("%1/%2/%3.txt").arg(part, good ? "pos" : "neg").arg(i)), text);
        }
    const CliRun r = runCli(QStringList{"train", "--data", dir.filePath("train"), "--test-data", dir.filePath("test"),
                                        "--vocab", "40", "--max-length", "16"} +
                            textTraining);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(metricAfter(r.out, "test accuracy") >= 0.9, qPrintable(r.out));
    QVERIFY2(r.out.contains("(40 samples)"), qPrintable(r.out));
}

// A text model predicts on one .txt file and on a flat folder of them exactly as on the same texts
// in a CSV column, each row named by its file; bad files are refused by name.
void TestCliText::predictsOnTextFiles() {
    QTemporaryDir dir;
    const QString data = dir.filePath("reviews.csv"), model = dir.filePath("reviews.skym");
    writeText(data, reviewsCsv(300, 5));
    const CliRun r = runCli(QStringList{"train", "--data", data, "--text-column", "text", "--target", "label",
                                        "--max-length", "12", "--save", model} +
                            textTraining);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));

    // The texts in file-name order: words of both classes, a comma, a line break, quotes, accents
    // and an unknown word; the last file starts with a byte order mark (dropped, as editors write it).
    const QList<QByteArray> texts = {"Superb, clever and moving", "awful and boring\nweak plot",
                                     "the \"cast\" was dull", "Éric's film: lovely, zzyzx!", "good"};
    const QString folder = dir.filePath("new");
    QByteArray csv = "id,text\n";
    for (qsizetype i = 0; i < texts.size(); ++i) {
        writeText(folder + QString("/review%1.txt").arg(i), (i + 1 == texts.size() ? "\xEF\xBB\xBF" : "") + texts[i]);
        csv += QByteArray::number(i) + ",\"" + QByteArray(texts[i]).replace("\"", "\"\"") + "\"\n";
    }
    writeText(folder + "/notes.md", "not a text of the folder");      // only .txt files are read
    writeText(folder + "/.hidden.txt", "hidden files are not read");  // nor hidden ones
    const QString csvPath = dir.filePath("new.csv");
    writeText(csvPath, csv);
    const auto predict = [&](const QString& input, const QString& name) {
        const QString out = dir.filePath(name);
        const CliRun p = runCli({"predict", "--model", model, "--data", input, "--output", out});
        return p.exitCode == 0 ? readText(out).split('\n', Qt::SkipEmptyParts) : QStringList{p.err};
    };
    const QStringList fromCsv = predict(csvPath, "csv.csv");
    QCOMPARE(fromCsv.size(), texts.size() + 1);
    QCOMPARE(fromCsv[0], QString("predicted,probability_neg,probability_pos"));
    QVERIFY(fromCsv[1].startsWith("pos,") && fromCsv[2].startsWith("neg,"));  // they differ

    const QStringList fromFolder = predict(folder, "folder.csv");
    QCOMPARE(fromFolder.size(), texts.size() + 1);
    QCOMPARE(fromFolder[0], "path," + fromCsv[0]);
    for (qsizetype i = 0; i < texts.size(); ++i)
        QCOMPARE(fromFolder[i + 1], folder + QString("/review%1.txt,").arg(i) + fromCsv[i + 1]);

    const QString single = folder + "/review1.txt";
    QCOMPARE(predict(single, "single.csv"), (QStringList{"path," + fromCsv[0], single + "," + fromCsv[2]}));

    // Bad input, named: a file that is not UTF-8, an empty text, a folder without .txt files; and
    // evaluate, which needs labels.
    const auto errorOf = [](const QStringList& args) {
        const CliRun e = runCli(args);
        return QString::number(e.exitCode) + ": " + e.errLines().value(0);
    };
    const QString bad = dir.filePath("bad/latin1.txt");
    writeText(bad, "caf\xe9 au lait");
    QCOMPARE(errorOf({"predict", "--model", model, "--data", bad, "--output", dir.filePath("x.csv")}),
             "1: skynnet-cli: " + bad + ": text is not UTF-8 (byte 0xe9 at column 4)");
    QCOMPARE(errorOf({"predict", "--model", model, "--data", dir.filePath("bad"), "--output", dir.filePath("x.csv")}),
             "1: skynnet-cli: " + bad + ": text is not UTF-8 (byte 0xe9 at column 4)");
    const QString empty = dir.filePath("empty.txt");
    writeText(empty, " \n\t");
    QCOMPARE(errorOf({"predict", "--model", model, "--data", empty, "--output", dir.filePath("x.csv")}),
             "1: skynnet-cli: " + empty + ": text is empty");
    const QString none = dir.filePath("none");
    writeText(none + "/notes.md", "no texts here");
    QCOMPARE(errorOf({"predict", "--model", model, "--data", none, "--output", dir.filePath("x.csv")}),
             "1: skynnet-cli: " + none +
                 ": no .txt files in the folder (a text model predicts on a .txt file, a folder of them, a CSV "
                 "text column or a folder with one subfolder of .txt files per class)");
    QCOMPARE(errorOf({"evaluate", "--model", model, "--data", folder}),
             "1: skynnet-cli: " + folder +
                 ": texts without labels; labelled texts are a CSV with the target column or a folder with one "
                 "subfolder of .txt files per class");
    QVERIFY(!QFile::exists(dir.filePath("x.csv")));
}

void TestCliText::usageErrorsNameTheOption() {
    QTemporaryDir dir;
    const QString data = dir.filePath("reviews.csv");
    writeText(data, reviewsCsv(40, 1));
    const auto errorOf = [](const QStringList& args) {
        const CliRun r = runCli(args);
        return QString::number(r.exitCode) + ": " + r.errLines().value(0);
    };
    QCOMPARE(errorOf({"train", "--data", data, "--vocab", "100"}),
             "2: skynnet-cli: --vocab: only applies to text data (--text-column, or a folder with one subfolder of "
             ".txt "
             "files per class), and " +
                 data + " is not read as text");
    QCOMPARE(errorOf({"train", "--data", data, "--text-column", "text", "--vocab", "2"}),
             QString("2: skynnet-cli: --vocab: expected 3 (padding, unknown and one token) to 16777216, got 2"));
    QCOMPARE(errorOf({"train", "--data", data, "--text-column", "text", "--scaling", "minmax"}),
             QString("2: skynnet-cli: --scaling: text data is read as token ids, which are never scaled (use none or "
                     "leave it out)"));
    QCOMPARE(errorOf({"train", "--data", data, "--text-column", "text", "--as-sequence", "rows"}),
             "2: skynnet-cli: --as-sequence: rows applies to images, and " + data +
                 " holds texts (already read as sequences of token ids)");
    QCOMPARE(errorOf({"train", "--data", data, "--as-sequence", "columns"}),
             QString("2: skynnet-cli: --as-sequence: expected rows, got 'columns'"));
    QCOMPARE(errorOf({"train", "--data", data, "--text-column", "body", "--target", "label"}),
             "1: skynnet-cli: " + data + ": no text column named 'body' (columns: id, text, label)");
}

void TestCliText::helpListsTheTextOptions() {
    const CliRun r = runCli({"train", "--help"});
    QCOMPARE(r.exitCode, 0);
    for (const char* option : {"--text-column NAME", "--vocab N", "--max-length L", "--as-sequence rows"})
        QVERIFY2(r.out.contains(option), option);
    QVERIFY(r.out.contains("the other feature columns are not used"));
    QVERIFY(r.out.contains("(default 20000)"));
    QVERIFY(r.out.contains("(default 200)"));
}

QTEST_GUILESS_MAIN(TestCliText)
#include "tst_cli_text.moc"
