// skynnet-cli on image folders: training with --image-size, --channels, --augment and
// --test-data DIR, skipped and strict images, predict on a folder or one file (path, class,
// probabilities), CSV --sample-shape, the options' usage errors and an image-folder project.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_support.h"
#include "image_support.h"
#include "project/project_file.h"
#include "test_support.h"

using namespace skynnet;

namespace {

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Two clearly different pictures (bright left half, bright right half), 24 of each, 8x8 gray.
void writeTrainingFolder(const QString& dir) { writePatternFolder(dir, {"left", "right"}, 24, 8); }

const QStringList denseTraining = {"--layers", "dense:16:relu", "--epochs", "30",     "--lr", "0.01", "--batch",
                                   "8",        "--threads",     "1",        "--quiet"};

}  // namespace

class TestCliImages : public QObject {
    Q_OBJECT
private slots:
    void trainsAndPredictsAnImageFolder();
    void skippedImagesAreWarnedAndStrictRefuses();
    void imageOptionsShapeTheInput();
    void usageErrorsNameTheOption();
    void csvSampleShape();
    void helpListsTheImageOptions();
    void imageFolderProjectTrainsTheSameAfterReopening();
};

void TestCliImages::trainsAndPredictsAnImageFolder() {
    QTemporaryDir dir;
    const QString train = dir.filePath("train"), test = dir.filePath("test"), model = dir.filePath("m.skynnet");
    writeTrainingFolder(train);
    writePatternFolder(test, {"left", "right"}, 4, 16, 100);  // larger: resized to the model's 8x8
    const CliRun r = runCli(QStringList{"train", "--data", train, "--test-data", test, "--save", model} +
                            denseTraining);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("test accuracy 1.0000 (8 samples)"), qPrintable(r.out));

    // Unlabelled: a flat folder of one picture of each kind, in colour and of another size.
    const QString flat = dir.filePath("new");
    writeImage(flat + "/x_right.png", 8, 8, 1, patternPixels(1, 7, 8));
    std::vector<unsigned char> rgb;
    for (unsigned char v : patternPixels(0, 9, 12)) rgb.insert(rgb.end(), {v, v, v});
    writeImage(flat + "/y_left.png", 12, 12, 3, rgb);
    const QString out = dir.filePath("pred.csv");
    const CliRun p = runCli({"predict", "--model", model, "--data", flat, "--output", out});
    QVERIFY2(p.exitCode == 0, qPrintable(p.err));
    QVERIFY(p.out.contains("wrote 2 predictions"));
    const QStringList lines = readText(out).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], QString("path,predicted,probability_left,probability_right"));
    QVERIFY2(lines[1].startsWith(flat + "/x_right.png,right,"), qPrintable(lines[1]));
    QVERIFY2(lines[2].startsWith(flat + "/y_left.png,left,"), qPrintable(lines[2]));
    const QStringList fields = lines[1].split(',');
    QCOMPARE(fields.size(), 4);
    QVERIFY(std::abs(fields[2].toDouble() + fields[3].toDouble() - 1.0) < 1e-5);
    QVERIFY(fields[3].toDouble() > 0.5);

    // One file.
    const CliRun one = runCli({"predict", "--model", model, "--data", flat + "/y_left.png", "--output", out});
    QVERIFY2(one.exitCode == 0, qPrintable(one.err));
    QVERIFY(readText(out).split('\n', Qt::SkipEmptyParts).value(1).startsWith(flat + "/y_left.png,left,"));

    // evaluate takes a labelled folder like the test folder.
    const CliRun e = runCli({"evaluate", "--model", model, "--data", test});
    QVERIFY2(e.exitCode == 0, qPrintable(e.err));
    QVERIFY2(e.out.contains("accuracy 1.0000"), qPrintable(e.out));
}

void TestCliImages::skippedImagesAreWarnedAndStrictRefuses() {
    QTemporaryDir dir;
    const QString train = dir.filePath("train");
    writeTrainingFolder(train);
    writeBytes(train + "/left/zz_broken.png", "not a picture");
    const CliRun r = runCli(QStringList{"train", "--data", train} + denseTraining);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("warning: 1 of 49 image files could not be read and was skipped: " + train +
                            "/left/zz_broken.png ("),
             qPrintable(r.err));
    const CliRun strict = runCli(QStringList{"train", "--data", train, "--strict-images"} + denseTraining);
    QCOMPARE(strict.exitCode, 1);
    QVERIFY2(strict.err.contains("skynnet-cli: " + train + "/left/zz_broken.png: cannot read the image ("),
             qPrintable(strict.err));
    // predict skips and warns the same way, or refuses with --strict-images.
    const QString model = dir.filePath("m.skynnet"), out = dir.filePath("p.csv");
    QCOMPARE(runCli(QStringList{"train", "--data", train, "--save", model} + denseTraining).exitCode, 0);
    const CliRun p = runCli({"predict", "--model", model, "--data", train + "/left", "--output", out});
    QCOMPARE(p.exitCode, 0);
    QVERIFY(p.err.contains("1 of 25 image files could not be read"));
    QVERIFY(p.out.contains("wrote 24 predictions"));
    QCOMPARE(runCli({"predict", "--model", model, "--data", train + "/left", "--output", out, "--strict-images"})
                 .exitCode,
             1);
}

void TestCliImages::imageOptionsShapeTheInput() {
    QTemporaryDir dir;
    const QString train = dir.filePath("train"), model = dir.filePath("m.skynnet"), report = dir.filePath("r.json");
    writeTrainingFolder(train);
    const CliRun r = runCli(QStringList{"train", "--data", train, "--image-size", "4x6", "--channels", "3", "--augment",
                                        "flip,shift:1", "--save", model, "--report", report} +
                            denseTraining);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // 3 x 4 x 6 = 72 inputs.
    const CliRun plan = runCli({"plan", "--data", train, "--image-size", "4x6", "--channels", "3", "--layers",
                                "dense:16:relu", "--submodels", "2"});
    QVERIFY2(plan.exitCode == 0, qPrintable(plan.err));
    QVERIFY2(plan.out.contains("72-16-2"), qPrintable(plan.out));
    // The model keeps the shape: prediction images are made 3 x 4 x 6 too.
    const CliRun p = runCli(
        {"predict", "--model", model, "--data", train + "/right/img_000.png", "--output", dir.filePath("p.csv")});
    QVERIFY2(p.exitCode == 0, qPrintable(p.err));
    QVERIFY(readText(dir.filePath("p.csv")).contains("/right/img_000.png,right,"));
}

void TestCliImages::usageErrorsNameTheOption() {
    QTemporaryDir dir;
    const QString train = dir.filePath("train");
    writeTrainingFolder(train);
    const auto usage = [](const QStringList& args, const QString& message) {
        const CliRun r = runCli(args);
        QVERIFY2(r.exitCode == 2, qPrintable(args.join(' ') + ": " + r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    };
    usage({"train", "--data", "builtin:spirals", "--image-size", "8x8"},
          "--image-size: only applies to image folders, and builtin:spirals is not one");
    usage({"train", "--data", "builtin:spirals", "--strict-images"}, "--strict-images: only applies to image folders");
    usage({"train", "--data", train, "--image-size", "8"},
          "--image-size: expected HEIGHTxWIDTH with both from 1 to 8192, e.g. 28x28, got '8'");
    usage({"train", "--data", train, "--channels", "2"}, "--channels: expected 1 (gray) or 3 (RGB), got '2'");
    usage({"train", "--data", train, "--augment", "spin"}, "--augment: unknown augmentation 'spin'");
    usage({"train", "--data", "builtin:spirals", "--augment", "flip"},
          "--augment: augmentation (flip) needs image input");
    usage({"train", "--data", train, "--sample-shape", "1x8x8"}, "--sample-shape: only applies to CSV files");
    // A single image is data, not a usage mistake, but cannot be trained on.
    const CliRun single = runCli({"train", "--data", train + "/left/img_000.png"});
    QCOMPARE(single.exitCode, 1);
    QVERIFY(single.err.contains("is a single image; training needs a folder with one subfolder of images per class"));
}

void TestCliImages::csvSampleShape() {
    QTemporaryDir dir;
    const QString csv = dir.filePath("pixels.csv");
    QString text = "p0,p1,p2,p3,label\n";
    for (int i = 0; i < 40; ++i)
        text += QString("%1,%2,%3,%4,%5\n")
                    .arg(i % 2 ? 9 : 1)
                    .arg(i % 3)
                    .arg(i % 5)
                    .arg(i % 2 ? 1 : 9)
                    .arg(i % 2 ? "b" : "a");
    writeBytes(csv, text.toUtf8());
    const CliRun bad = runCli({"train", "--data", csv, "--sample-shape", "1x3x3", "--quiet"});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.err.contains("--sample-shape: 1x3x3 is 9 values per sample, but " + csv +
                              " has 4 feature columns (besides the target)"),
             qPrintable(bad.err));
    const CliRun malformed = runCli({"train", "--data", csv, "--sample-shape", "2x2"});
    QCOMPARE(malformed.exitCode, 2);
    QVERIFY(malformed.err.contains("--sample-shape: expected CHANNELSxHEIGHTxWIDTH"));
    // The declared shape lets --augment work on CSV pixel rows.
    const CliRun ok = runCli(QStringList{"train", "--data", csv, "--sample-shape", "1x2x2", "--augment", "flip"} +
                             denseTraining);
    QVERIFY2(ok.exitCode == 0, qPrintable(ok.err));
}

void TestCliImages::helpListsTheImageOptions() {
    const CliRun r = runCli({"train", "--help"});
    QCOMPARE(r.exitCode, 0);
    for (const char* option :
         {"--image-size HxW", "--channels 1|3", "--strict-images", "--sample-shape CxHxW", "--augment LIST"})
        QVERIFY2(r.out.contains(option), option);
    QVERIFY(r.out.contains("an image folder (one subfolder of PNG/JPEG/BMP per class)"));
    const CliRun p = runCli({"predict", "--help"});
    QVERIFY(p.out.contains("--strict-images"));
    QVERIFY(p.out.contains("each row starts with the file's path"));
}

void TestCliImages::imageFolderProjectTrainsTheSameAfterReopening() {
    QTemporaryDir dir;
    writeTrainingFolder(dir.filePath("data/images"));
    ProjectData p;
    p.data.train.path = dir.filePath("data/images").toStdString();
    p.data.train.fingerprint = fileFingerprint(p.data.train.path);
    p.data.image.height = p.data.image.width = 6;
    p.data.image.channels = 1;
    p.data.scaling = Scaling::MinMax;
    p.network.input = Shape{1, 6, 6};
    p.network.layers = parseLayers("dense:12:relu");
    p.network.setOutputFor(Task::Classification, 2);
    p.split.requested = 2;
    p.training.config.epochs = 4;
    p.training.config.batchSize = 8;
    p.training.config.threads = 1;
    p.training.config.augmentation = Augmentation{true, 1};
    p.training.threadBudget = 1;
    p.training.trainBaseline = false;
    const QString first = dir.filePath("projects/a.skynnet"), second = dir.filePath("projects/b.skynnet");
    QDir().mkpath(dir.filePath("projects"));
    saveProject(first.toStdString(), p);
    QVERIFY(QFile::copy(first, second));

    const ProjectData reopened = loadProject(first.toStdString());
    QCOMPARE(reopened.data.train.status, DataFileStatus::Found);
    QCOMPARE(reopened.data.image, p.data.image);
    QCOMPARE(reopened.training.config.augmentation, p.training.config.augmentation);

    for (const QString& project : {first, second}) {
        const CliRun r = runCli({"train", "--project", project, "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }
    const ProjectData a = loadProject(first.toStdString()), b = loadProject(second.toStdString());
    QCOMPARE(a.runs.size(), std::size_t(1));
    QVERIFY(a.runs.back().results && b.runs.back().results);
    const ProjectResults& ra = *a.runs.back().results;
    QCOMPARE(ra.model->schema.sampleShape, (Shape{1, 6, 6}));
    QVERIFY(ra.combinedTestOutput.rows() > 0);
    QVERIFY(ra.combinedTestOutput == b.runs.back().results->combinedTestOutput);  // one build, one process kind
    QCOMPARE(a.data.image, p.data.image);
}

QTEST_GUILESS_MAIN(TestCliImages)
#include "tst_cli_images.moc"
