// Text data from file to token ids (issue 26): a CSV text column and a folder of .txt files, the
// vocabulary fitted on the training rows only, pre-padding, located errors, the vocabulary saved
// with a model, and --as-sequence rows.
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "data/prepared_data.h"
#include "data/text_data.h"
#include "data/text_summary.h"
#include "model/network.h"
#include "model/saved_model.h"
#include "project/data_reference.h"
#include "run/run_data.h"
#include "test_support.h"

using namespace skynnet;

namespace {

void writeText(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

std::string path(const QTemporaryDir& dir, const char* name) { return dir.filePath(name).toStdString(); }

// One row's ids, e.g. "0 0 2 8".
QString rowIds(const Dataset& d, Index r) {
    QStringList out;
    for (Index c = 0; c < d.features.cols(); ++c) out << QString::number(double(d.features(r, c)));
    return out.join(' ');
}

// Every row's ids with its class, sorted: the split shuffles the rows.
QStringList sortedRows(const Dataset& d) {
    QStringList out;
    for (Index r = 0; r < d.size(); ++r)
        out << rowIds(d, r) + " : " + QString::fromStdString(d.classNames[std::size_t(d.labels[std::size_t(r)])]);
    out.sort();
    return out;
}

QString joined(const std::vector<std::string>& items) {
    QStringList out;
    for (const std::string& s : items) out << QString::fromStdString(s);
    return out.join(" | ");
}

// The training file of the CSV tests: an id column that is not used, texts with a comma and a line
// break inside quotes. Tokens by count: great 3, awful 3, film 2, then , cast plot fun once each.
const QByteArray reviewsCsv = "id,text,label\n"
                              "1,\"Great film, great cast\",pos\n"
                              "2,\"Awful film\nawful plot\",neg\n"
                              "3,great fun,pos\n"
                              "4,awful,neg\n";

RunData textRun(const std::string& train, const std::string& test, const std::string& column, int length) {
    RunData run;
    run.train.path = train;
    run.train.textColumn = column;
    if (!test.empty()) {
        run.test = run.train;
        run.test->path = test;
    }
    run.preparation.validationFraction = 0;
    run.preparation.testFraction = 0;
    run.preparation.separateTestFile = run.test.has_value();
    run.preparation.scaling = Scaling::Standardize;  // asked for, and never applied to token ids
    run.preparation.text.maxLength = length;
    return run;
}

}  // namespace

class TstTextData : public QObject {
    Q_OBJECT

private slots:
    void csvTextColumnGivesExactIds() {
        QTemporaryDir dir;
        writeText(dir.filePath("train.csv"), reviewsCsv);
        writeText(dir.filePath("test.csv"), "id,text,label\n9,\"great zebra\",pos\n");
        const PreparedData p = prepareRunData(textRun(path(dir, "train.csv"), path(dir, "test.csv"), "text", 4),
                                              DataUse::Training);
        QVERIFY(p.schema.isText());
        QCOMPARE(joined(p.schema.vocabulary->tokens), QString("great | awful | film | , | cast | plot | fun"));
        QCOMPARE(p.schema.vocabulary->maxLength, 4);
        QCOMPARE(p.schema.textColumn, std::string("text"));
        QCOMPARE(p.schema.sampleShape, Shape::steps(4, 1));
        QCOMPARE(networkInputShape(p), Shape::steps(4, 1));
        QCOMPARE(p.task(), Task::Binary);
        // Truncated to the first 4 tokens, or padded in front; the ids reach the network unscaled.
        QCOMPARE(sortedRows(p.train),
                 QStringList({"0 0 0 3 : neg", "0 0 2 8 : pos", "2 4 5 2 : pos", "3 4 3 7 : neg"}));
        QCOMPARE(p.train.sampleShape, Shape::steps(4, 1));
        // "zebra" is only in the test file: unknown (1).
        QCOMPARE(sortedRows(p.test), QStringList({"0 0 2 1 : pos"}));
        QCOMPARE(p.preprocessing.scaling, Scaling::None);
    }

    void vocabularyIsFittedOnTrainingRowsOnly() {
        // Every row has a word of its own: only the training rows' words may be in the vocabulary.
        QTemporaryDir dir;
        QByteArray csv = "text,label\n";
        for (int k = 1; k <= 20; ++k) csv += "common " + QByteArray(k, 'z') + "," + (k % 2 ? "odd" : "even") + "\n";
        writeText(dir.filePath("words.csv"), csv);
        RunData run = textRun(path(dir, "words.csv"), "", "text", 3);
        run.preparation.validationFraction = 0.2;
        run.preparation.testFraction = 0.2;
        const PreparedData p = prepareRunData(run, DataUse::Training);
        QCOMPARE(p.train.size() + p.validation.size() + p.test.size(), Index(20));
        QVERIFY(p.validation.size() > 0 && p.test.size() > 0);
        const TextVocabulary& v = *p.schema.vocabulary;
        QCOMPARE(v.tokens.size(), std::size_t(1 + p.train.size()));  // common, and one word per training row
        QCOMPARE(v.tokens.front(), std::string("common"));
        for (Index r = 0; r < p.train.size(); ++r) QVERIFY(p.train.features(r, 2) >= 3);
        for (const Dataset* held : {&p.validation, &p.test})
            for (Index r = 0; r < held->size(); ++r) QCOMPARE(rowIds(*held, r), QString("0 2 1"));
    }

    void textFolderWithTestFolder() {
        QTemporaryDir dir;
        writeText(dir.filePath("train/pos/a.txt"), "Great fun!");
        writeText(dir.filePath("train/pos/b.txt"), "\xEF\xBB\xBFgreat, GREAT");  // a BOM is not text
        writeText(dir.filePath("train/neg/c.txt"), "dull\nand dull");
        writeText(dir.filePath("train/neg/notes.md"), "not a text of the set");
        writeText(dir.filePath("test/pos/d.txt"), "fun and new");
        writeText(dir.filePath("test/neg/e.txt"), "dull");
        QCOMPARE(dataKind(path(dir, "train")), DataKind::TextFolder);
        QCOMPARE(defaultScalingFor(path(dir, "train")), Scaling::None);
        const PreparedData p = prepareRunData(textRun(path(dir, "train"), path(dir, "test"), "", 3));
        // great 3, dull 2, fun !  , and 1 each, in order of first appearance (neg's file first).
        QCOMPARE(joined(p.schema.vocabulary->tokens), QString("great | dull | and | fun | ! | ,"));
        QCOMPARE(joined(p.schema.classNames), QString("neg | pos"));
        QCOMPARE(p.schema.textColumn, std::string());
        QCOMPARE(sortedRows(p.train), QStringList({"2 5 6 : pos", "2 7 2 : pos", "3 4 3 : neg"}));
        QCOMPARE(sortedRows(p.test), QStringList({"0 0 3 : neg", "5 4 1 : pos"}));
    }

    void badInputIsLocated() {
        QTemporaryDir dir;
        const std::string csv = path(dir, "bad.csv");
        const auto load = [&](const QByteArray& text, const std::string& column, const std::string& target = "") {
            writeText(QString::fromStdString(csv), text);
            DataRequest r;
            r.path = csv;
            r.textColumn = column;
            r.target = target;
            return errorOf([&] { loadTrainingData(r); });
        };
        QCOMPARE(load("id,text,label\n1,fine,a\n2,\"bad \xff here\",b\n", "text"),
                 csv + ":3: column 'text' (1): text is not UTF-8 (byte 0xff at column 5)");
        QCOMPARE(load("id,text,label\n1,fine,a\n2,\"multi\nline\",b\n3,\"  \",a\n", "text"),
                 csv + ":5: column 'text' (1): text is empty");
        QCOMPARE(load("id,text,label\n1,fine,a\n", "body"),
                 csv + ": no text column named 'body' (columns: id, text, label)");
        QCOMPARE(load("id,label,text\n1,a,fine\n2,b,good\n", "text"),
                 csv + ": the text column 'text' (2) is also the target column (the last column; name the target "
                       "with --target)");
        // The target is named: "text" no longer needs to be the last column.
        QCOMPARE(load("id,label,text\n1,a,fine\n2,b,good\n", "text", "label"), std::string("(no error)"));

        writeText(dir.filePath("folder/pos/a.txt"), "fine");
        writeText(dir.filePath("folder/pos/b.txt"), "caf\xe9");
        writeText(dir.filePath("folder/neg/c.txt"), "good");
        DataRequest folder;
        folder.path = path(dir, "folder");
        QCOMPARE(errorOf([&] { loadTrainingData(folder); }),
                 path(dir, "folder/pos/b.txt") + ": text is not UTF-8 (byte 0xe9 at column 4)");
        writeText(dir.filePath("folder/pos/b.txt"), " \n");
        QCOMPARE(errorOf([&] { loadTrainingData(folder); }), path(dir, "folder/pos/b.txt") + ": text is empty");
        // A huge file is refused by its size before it is read (sparse: it takes no disk space, and
        // reading its 64 GB would run out of memory).
        std::filesystem::resize_file(path(dir, "folder/pos/b.txt"), std::uintmax_t(64) << 30);
        QCOMPARE(errorOf([&] { loadTrainingData(folder); }),
                 path(dir, "folder/pos/b.txt") + ": 68719476736 bytes is more than a text may hold");

        // The request's own mistakes name their option.
        folder.textColumn = "text";
        QCOMPARE(errorOf([&] { checkDataRequest(folder); }),
                 "--text-column: only applies to CSV files, and " + folder.path +
                     " is not one (a folder of texts has one subfolder of .txt files per class)");
        folder.textColumn.clear();
        folder.sequenceRows = true;
        QCOMPARE(errorOf([&] { checkDataRequest(folder); }),
                 "--as-sequence: rows applies to images, and " + folder.path +
                     " holds texts (already read as sequences of token ids)");
    }

    void savedModelKeepsItsVocabulary() {
        QTemporaryDir dir;
        writeText(dir.filePath("train.csv"), reviewsCsv);
        const PreparedData p = prepareRunData(textRun(path(dir, "train.csv"), "", "text", 4));
        SavedModel m;
        m.schema = p.schema;
        m.spec.input = networkInputShape(p);
        m.spec.layers = {};
        m.spec.setOutputFor(p.task(), p.train.outputCount());
        m.weights.assign(std::size_t(weightCount(m.spec)), 0.25f);
        m.preprocessing = p.preprocessing;
        const std::string file = path(dir, "text.skym");
        saveModel(file, m);
        const SavedModel back = loadModel(file);
        QVERIFY(back.schema.isText());
        QCOMPARE(*back.schema.vocabulary, *p.schema.vocabulary);
        QCOMPARE(back.schema.textColumn, std::string("text"));
        QCOMPARE(back.schema.sampleShape, Shape::steps(4, 1));
        QCOMPARE(back.preprocessing.scaling, Scaling::None);

        // New texts (no label column) are tokenised with the saved vocabulary and rule.
        writeText(dir.filePath("new.csv"), "text\n\"Great plot, zebra!\"\nawful\n");
        DataRequest r;
        r.path = path(dir, "new.csv");
        const Dataset rows = loadLike(r, back.schema, false);
        QCOMPARE(rowIds(rows, 0), QString("2 7 5 1"));
        QCOMPARE(rowIds(rows, 1), QString("0 0 0 3"));
        QVERIFY(back.preprocessing.apply(rows.features) == rows.features);  // ids reach the network unscaled
        // With labels, mapped onto the model's classes by name.
        writeText(dir.filePath("labelled.csv"), "label,text\npos,great\nneg,dull film\n");
        r.path = path(dir, "labelled.csv");
        r.target = "label";
        const Dataset labelled = loadLike(r, back.schema, true);
        QCOMPARE(labelled.labels, std::vector<int>({1, 0}));
        QCOMPARE(rowIds(labelled, 1), QString("0 0 1 4"));
        r.target.clear();
        r.path = path(dir, "new.csv");
        r.textColumn = "body";
        // "text" over a sentence is a header (csv_loader.h), which does not name the column.
        QCOMPARE(errorOf([&] { loadLike(r, back.schema, false); }),
                 r.path + ": the model reads its texts from column 'body', not in the header (columns: text)");
        writeText(dir.filePath("headless.csv"), "\"Great plot, zebra!\"\nawful\n");
        r.path = path(dir, "headless.csv");
        QCOMPARE(errorOf([&] { loadLike(r, back.schema, false); }),
                 r.path + ": the model reads its texts from column 'body', and the file has no header row naming it");

        // A model file without a vocabulary is not a text model.
        SavedModel plain = back;
        plain.schema.vocabulary.reset();
        plain.schema.textColumn.clear();
        saveModel(path(dir, "plain.skym"), plain);
        QVERIFY(!loadModel(path(dir, "plain.skym")).schema.isText());
    }

    void textSettingsTravelWithTheRequestAndTheProject() {
        RunData run = textRun("/data/reviews.csv", "/data/more.csv", "review", 32);
        run.preparation.text.vocabularySize = 500;
        run.train.sequenceRows = false;
        const Json j = toJson(run);
        const RunData back = runDataFromJson(JsonField(j, "job"));
        QCOMPARE(back, run);
        QCOMPARE(back.test->textColumn, std::string("review"));
        QCOMPARE(back.preparation.text, (TextSettings{500, 32}));

        ProjectDataSource source;
        source.train.path = "builtin:spirals";  // no file to fingerprint
        source.textColumn = "review";
        source.text = {500, 32};
        source.sequenceRows = true;
        const Json saved = toJson(source, "/projects/p");
        const ProjectDataSource reread = dataSourceFromJson(JsonField(saved, "p.skynnet"), "/projects/p", false);
        QCOMPARE(reread.textColumn, std::string("review"));
        QCOMPARE(reread.text, (TextSettings{500, 32}));
        QVERIFY(reread.sequenceRows);
        QCOMPARE(reread.preparation().text, (TextSettings{500, 32}));
        QCOMPARE(reread.trainRequest().textColumn, std::string("review"));
        QCOMPARE(reread.trainRequest().textColumnOption, std::string("project data textColumn"));
        // A project without text writes none of it, so it reads as before everywhere.
        const Json plain = toJson(ProjectDataSource{}, "/projects/p");
        QVERIFY(!plain.contains("textColumn") && !plain.contains("text") && !plain.contains("sequenceRows"));
    }

    void sentenceColumnIsFoundWithItsHeader() {
        QTemporaryDir dir;
        // No column holds numbers below the header: the sentences tell it from the data.
        QByteArray csv = "review,city,label\n";
        for (int k = 0; k < 24; ++k)
            csv += "\"a film of " + QByteArray::number(k) + " scenes\"," + (k % 3 ? "Paris" : "Lyon") + "," +
                   (k % 2 ? "pos" : "neg") + "\n";
        writeText(dir.filePath("reviews.csv"), csv);
        DataRequest request;
        request.path = path(dir, "reviews.csv");
        const Dataset asColumns = loadTrainingData(request);
        QCOMPARE(asColumns.size(), Index(24));
        QCOMPARE(asColumns.featureNames, (std::vector<std::string>{"review", "city"}));
        QCOMPARE(guessTextColumn(asColumns), std::string("review"));
        // Fewer than 20 different values, or one or two words each: not text.
        writeText(dir.filePath("few.csv"), csv.left(csv.indexOf("\"a film of 19 ")));
        request.path = path(dir, "few.csv");
        QCOMPARE(loadTrainingData(request).size(), Index(19));
        QCOMPARE(guessTextColumn(loadTrainingData(request)), std::string());
        writeText(
            dir.filePath("names.csv"), "name,label\n" + [] {
                QByteArray rows;
                for (int k = 0; k < 40; ++k)
                    rows += "Jane Doe" + QByteArray::number(k) + "," + (k % 2 ? "a" : "b") + "\n";
                return rows;
            }());
        request.path = path(dir, "names.csv");
        QCOMPARE(guessTextColumn(loadTrainingData(request)), std::string());
        // Read as text, the column found is the input.
        request.path = path(dir, "reviews.csv");
        request.textColumn = "review";
        QVERIFY(loadTrainingData(request).isText());
    }

    void textLengthsCountTokens() {
        // 1, 3 ("a", ",", "b"), 5 ("don't", "stop", ":", "3.5", "stars") and 2 tokens.
        const TextLengths l = textLengths({"one", "a, b", "Don't stop: 3.5 stars", "two words"});
        QCOMPARE(l.sorted, (std::vector<int>{1, 2, 3, 5}));
        QCOMPARE(l.median(), 2);        // nearest rank: the 2nd of 4
        QCOMPARE(l.percentile90(), 5);  // the 4th of 4
        QCOMPARE(l.longest(), 5);
        QCOMPARE(l.longerThan(2), 2);
        QCOMPARE(l.longerThan(5), 0);
        QCOMPARE(TextLengths{}.median(), 0);
    }

    void fittedVocabularyIsThePreparations() {
        QTemporaryDir dir;
        writeText(dir.filePath("train.csv"), reviewsCsv);
        RunData run = textRun(path(dir, "train.csv"), "", "text", 3);
        run.preparation.validationFraction = 0.25;
        const PreparedData p = prepareRunData(run, DataUse::Training);
        DataRequest request;
        request.path = path(dir, "train.csv");
        request.textColumn = "text";
        const TextVocabulary v = fitTextVocabulary(loadTrainingData(request), run.preparation);
        QCOMPARE(v, *p.schema.vocabulary);
        QCOMPARE(v.maxLength, 3);
        run.preparation.text.maxLength = 0;
        QCOMPARE(errorOf([&] { fitTextVocabulary(loadTrainingData(request), run.preparation); }),
                 std::string("the text length (--max-length) must be between 1 and 1048576, not 0"));
    }

    void imageRowsAsSequence() {
        QTemporaryDir dir;
        // 6 one-channel 2x3 "images" as CSV rows.
        QByteArray csv = "a,b,c,d,e,f,label\n";
        for (int k = 0; k < 6; ++k)
            csv += QByteArray("1,2,3,4,5,") + QByteArray::number(k) + "," + (k % 2 ? "x" : "y") + "\n";
        writeText(dir.filePath("images.csv"), csv);
        RunData run;
        run.train.path = path(dir, "images.csv");
        run.train.sampleShape = Shape{1, 2, 3};
        run.train.sequenceRows = true;
        run.preparation.validationFraction = 0;
        run.preparation.testFraction = 0.34;
        const PreparedData p = prepareRunData(run);
        QCOMPARE(p.schema.sampleShape, Shape::steps(2, 3));
        QCOMPARE(networkInputShape(p), Shape::steps(2, 3));
        QCOMPARE(p.train.sampleShape, Shape::steps(2, 3));
        QCOMPARE(p.train.features.cols(), Index(6));  // the same values, H steps of W features
        // The layout travels in the request's JSON (an MPI job's).
        const Json j = toJson(run);
        QCOMPARE(runDataFromJson(JsonField(j, "job")), run);

        run.train.sampleShape = Shape{3, 1, 2};
        QCOMPARE(errorOf([&] { prepareRunData(run); }),
                 "--as-sequence: rows reads a one-channel image (1 x H x W) as H steps of W features, but " +
                     run.train.path +
                     " holds images of 3 channels (3x1x2), whose rows are not one sequence of features (--channels 1 "
                     "reads an image folder in gray)");
    }
};

QTEST_GUILESS_MAIN(TstTextData)
#include "tst_text_data.moc"
