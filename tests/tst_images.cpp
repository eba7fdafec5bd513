// Image data: folders of PNG/JPEG/BMP as datasets (classes, resizing, channels, damaged files,
// the memory check), prediction images, CSV sample shapes, augmentation, and image folders as a
// project's data.
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>

#include "core/rng.h"
#include "data/augmentation.h"
#include "data/data_source.h"
#include "data/image_folder.h"
#include "data/prepared_data.h"
#include "image_support.h"
#include "model/network.h"
#include "project/data_reference.h"
#include "test_support.h"
#include "train/trainer.h"

using namespace skynnet;

namespace {

std::string str(const QString& s) { return s.toStdString(); }

DataRequest folderRequest(const QString& dir, ImageOptions image = {}) {
    DataRequest r;
    r.path = str(dir);
    r.image = image;
    return r;
}

// A damaged PNG: a real header cut short, so stb_image recognises the format and fails inside it.
QByteArray truncatedPng(const QString& scratch) {
    writeImage(scratch, 8, 8, 1, patternPixels(0, 0, 8));
    QFile f(scratch);
    f.open(QIODevice::ReadOnly);
    const QByteArray all = f.readAll();
    f.close();
    QFile::remove(scratch);
    return all.left(40);
}

}  // namespace

class TestImages : public QObject {
    Q_OBJECT
private slots:
    void fashionPngFolderHoldsTheIdxPixels();
    void classesAreTheSortedSubfoldersAndOtherFilesAreIgnored();
    void colourBecomesGrayAndGrayBecomesColour();
    void imagesOfAnotherSizeAreResized();
    void unreadableFilesAreSkippedAndCounted();
    void strictModeNamesTheUnreadableFile();
    void unknownPngChunkIsAReadableReason();
    void imageWithoutPixelsIsSkipped();
    void otherFormatsAndOverlongHeadersAreSkipped();
    void jpegHuffmanTableOverflowIsRefused();
    void memoryBeyondTheLimitIsRefusedWithASmallerSize();
    void folderErrorsNameTheFolder();
    void testFolderIsLoadedLikeTheTrainingSchema();
    void predictionImagesAreAFlatFolderOrOneFile();
    void csvSampleShapeIsCheckedAgainstTheColumns();
    void imageOptionsAndShapesApplyOnlyToTheirData();
    void augmentationFlipsAndShiftsExactly();
    void augmentationIsSeededPerStepAndRow();
    void augmentationParsesAndRefusesFlatInput();
    void trainerAugmentsOnlyWhenAsked();
    void augmentedTrainingDoesNotDependOnThreads();
    void projectRecordsAnImageFolder();
};

void TestImages::fashionPngFolderHoldsTheIdxPixels() {
    if (!fashionMnistInstalled()) SKIP_UNLESS_CI("needs dataset-fashion-mnist");
    const Dataset idx = loadIdx("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz");
    QTemporaryDir dir;
    // The first 4 images of classes 0, 1 and 9, under folder names that sort as the classes do.
    std::vector<int> rows;
    const int wanted[] = {0, 1, 9};
    for (int cls : wanted) {
        int found = 0;
        for (int r = 0; r < idx.size() && found < 4; ++r) {
            if (idx.labels[std::size_t(r)] != cls) continue;
            std::vector<unsigned char> px(784);
            for (int i = 0; i < 784; ++i) px[std::size_t(i)] = (unsigned char)idx.features(r, i);
            writeImage(dir.path() + QString("/class_%1/%2.png").arg(cls).arg(found), 28, 28, 1, px);
            rows.push_back(r);
            ++found;
        }
    }
    const Dataset d = loadTrainingData(folderRequest(dir.path()));
    QCOMPARE(d.sampleShape, (Shape{1, 28, 28}));
    QCOMPARE(d.classNames, (std::vector<std::string>{"class_0", "class_1", "class_9"}));
    QCOMPARE(d.size(), Index(12));
    QCOMPARE(d.featureNames.size(), std::size_t(784));
    QCOMPARE(d.featureNames[29], std::string("pixel_1_1"));  // named as IDX pixels are
    QVERIFY(d.skipped.empty());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        QCOMPARE(d.labels[i], int(i / 4));
        QVERIFY2(d.features.row(Index(i)) == idx.features.row(rows[i]),
                 qPrintable(QString("row %1").arg(i)));  // PNG is lossless
    }
    // Prepared as skynnet-cli prepares images: min-max keeps the (1,28,28) layout for a CNN.
    PreparationSettings s;
    s.scaling = Scaling::MinMax;
    s.validationFraction = 0;
    s.testFraction = 0.25;
    const PreparedData p = prepareData(d, nullptr, s);
    QCOMPARE(networkInputShape(p), (Shape{1, 28, 28}));
    QCOMPARE(p.train.size() + p.test.size(), Index(12));
}

void TestImages::classesAreTheSortedSubfoldersAndOtherFilesAreIgnored() {
    QTemporaryDir dir;
    writePatternFolder(dir.path(), {"zebra", "apple"}, 2, 6);
    writeImage(dir.path() + "/mango/a.BMP", 6, 6, 1, patternPixels(2, 0, 6));  // any case of extension
    writeImage(dir.path() + "/mango/b.jpg", 6, 6, 1, patternPixels(2, 1, 6));
    writeBytes(dir.path() + "/mango/notes.txt", "not an image");
    writeBytes(dir.path() + "/.hidden/x.png", "ignored");
    writeImage(dir.path() + "/loose.png", 6, 6, 1, patternPixels(0, 0, 6));  // not in a class folder
    const Dataset d = loadImageFolder(str(dir.path()), {});
    QCOMPARE(d.classNames, (std::vector<std::string>{"apple", "mango", "zebra"}));
    QCOMPARE(d.labels, (std::vector<int>{0, 0, 1, 1, 2, 2}));
    QVERIFY(d.skipped.empty());
    // BMP is lossless too: the mango rows are its pixels (class 2's pattern, sample 0).
    const std::vector<unsigned char> px = patternPixels(2, 0, 6);
    for (int i = 0; i < 36; ++i) QCOMPARE(d.features(2, i), Scalar(px[std::size_t(i)]));
    // apple holds zebra's pattern files written second: class 1's pattern.
    QCOMPARE(d.features(0, 0), Scalar(patternPixels(1, 0, 6)[0]));
}

void TestImages::colourBecomesGrayAndGrayBecomesColour() {
    QTemporaryDir dir;
    const unsigned char r = 200, g = 100, b = 40;
    std::vector<unsigned char> rgb;
    for (int i = 0; i < 16; ++i) rgb.insert(rgb.end(), {r, g, b});
    writeImage(dir.path() + "/colour/rgb.png", 4, 4, 3, rgb);
    writeImage(dir.path() + "/gray/g.png", 4, 4, 1, std::vector<unsigned char>(16, 90));

    ImageOptions gray;
    gray.channels = 1;
    const Dataset asGray = loadImageFolder(str(dir.path()), gray);
    QCOMPARE(asGray.sampleShape, (Shape{1, 4, 4}));
    // stb_image's luminance: (77 r + 150 g + 29 b) / 256.
    const Scalar luminance = Scalar((77 * r + 150 * g + 29 * b) >> 8);
    for (int i = 0; i < 16; ++i) QCOMPARE(asGray.features(0, i), luminance);
    for (int i = 0; i < 16; ++i) QCOMPARE(asGray.features(1, i), Scalar(90));

    ImageOptions colour;
    colour.channels = 3;
    const Dataset asColour = loadImageFolder(str(dir.path()), colour);
    QCOMPARE(asColour.sampleShape, (Shape{3, 4, 4}));
    QCOMPARE(asColour.featureNames[16], std::string("pixel_1_0_0"));
    // Channel-major: the red plane, then green, then blue.
    QCOMPARE(asColour.features(0, 0), Scalar(r));
    QCOMPARE(asColour.features(0, 16), Scalar(g));
    QCOMPARE(asColour.features(0, 47), Scalar(b));
    for (int i = 0; i < 48; ++i) QCOMPARE(asColour.features(1, i), Scalar(90));

    // Unasked, the first readable image decides: colour/rgb.png sorts first.
    QCOMPARE(loadImageFolder(str(dir.path()), {}).sampleShape, (Shape{3, 4, 4}));
}

void TestImages::imagesOfAnotherSizeAreResized() {
    QTemporaryDir dir;
    writeImage(dir.path() + "/a/first.png", 8, 8, 1, std::vector<unsigned char>(64, 120));
    // Twice as large, left half 0 and right half 250.
    std::vector<unsigned char> big(16 * 12);
    for (int y = 0; y < 12; ++y)
        for (int x = 0; x < 16; ++x) big[std::size_t(y * 16 + x)] = x < 8 ? 0 : 250;
    writeImage(dir.path() + "/b/big.png", 16, 12, 1, big);
    const Dataset d = loadImageFolder(str(dir.path()), {});
    QCOMPARE(d.sampleShape, (Shape{1, 8, 8}));  // the first image's size
    for (int i = 0; i < 64; ++i) QCOMPARE(d.features(0, i), Scalar(120));
    // Far from the edge between the halves the resized picture keeps them exactly.
    QCOMPARE(d.features(1, 3 * 8 + 0), Scalar(0));
    QCOMPARE(d.features(1, 3 * 8 + 7), Scalar(250));

    ImageOptions o;
    o.height = 3;
    o.width = 5;
    const Dataset small = loadImageFolder(str(dir.path()), o);
    QCOMPARE(small.sampleShape, (Shape{1, 3, 5}));
    QCOMPARE(small.features.cols(), Index(15));
    for (int i = 0; i < 15; ++i) QCOMPARE(small.features(0, i), Scalar(120));
}

void TestImages::unreadableFilesAreSkippedAndCounted() {
    QTemporaryDir dir;
    writePatternFolder(dir.path(), {"a", "b"}, 3, 6);
    const QByteArray cut = truncatedPng(dir.path() + "/scratch.png");
    writeBytes(dir.path() + "/a/bad1.png", "this is not a PNG");
    writeBytes(dir.path() + "/b/bad2.png", cut);
    const Dataset d = loadImageFolder(str(dir.path()), {});
    QCOMPARE(d.size(), Index(6));
    QCOMPARE(d.labels, (std::vector<int>{0, 0, 0, 1, 1, 1}));
    QCOMPARE(d.skipped.size(), std::size_t(2));
    QCOMPARE(d.skipped[0].path, str(dir.path() + "/a/bad1.png"));
    QCOMPARE(d.skipped[1].path, str(dir.path() + "/b/bad2.png"));
    QVERIFY(!d.skipped[0].reason.empty());
    const std::string w = d.skippedFilesWarning();
    VERIFY_CONTAINS(w, "2 of 8 image files could not be read and were skipped: " + d.skipped[0].path + " (" +
                           d.skipped[0].reason + "), " + d.skipped[1].path);
    // The warning reaches the prepared data, which the front ends show.
    PreparationSettings s;
    s.validationFraction = 0;
    s.testFraction = 0;
    QCOMPARE(prepareData(d, nullptr, s).warnings.front(), w);

    // Only the first three are named.
    for (int k = 0; k < 3; ++k) writeBytes(dir.path() + QString("/b/worse%1.png").arg(k), "junk");
    const std::string five = loadImageFolder(str(dir.path()), {}).skippedFilesWarning();
    VERIFY_CONTAINS(five, "5 of 11 image files");
    VERIFY_CONTAINS(five, " and 2 more");
    QVERIFY(five.find("worse1.png") == std::string::npos);
}

void TestImages::strictModeNamesTheUnreadableFile() {
    QTemporaryDir dir;
    writePatternFolder(dir.path(), {"a", "b"}, 2, 6);
    writeBytes(dir.path() + "/b/broken.jpg", "JFIF? no");
    ImageOptions strict;
    strict.strict = true;
    const std::string e = errorOf([&] { loadImageFolder(str(dir.path()), strict); });
    VERIFY_CONTAINS(e, str(dir.path() + "/b/broken.jpg") + ": cannot read the image (");
    // Every file unreadable is an error even when skipping.
    QTemporaryDir bad;
    writeBytes(bad.path() + "/a/x.png", "junk");
    VERIFY_CONTAINS(errorOf([&] { loadImageFolder(str(bad.path()), {}); }), ": none of its 1 image files can be read");
}

// stb_image names an unknown critical PNG chunk by its type bytes as they are: a NUL first gave an
// empty reason, which read as success and left the row's values undefined (found by fuzz_image).
// A PNG cut short after its header does that too: stb reads the missing chunk type as zeros.
// stb writes that reason into one buffer for every thread, so files decoded at once could swap
// their chunks' names (this test failed 4 times in 20): such files are refused before stb reads
// them, and 40 files of each chunk must each keep its own reason.
void TestImages::unknownPngChunkIsAReadableReason() {
    QTemporaryDir dir;
    writePatternFolder(dir.path(), {"a", "b"}, 2, 6);
    QByteArray png;
    {
        QFile f(dir.path() + "/a/img_000.png");
        QVERIFY(f.open(QIODevice::ReadOnly));
        png = f.readAll();
    }
    // After the signature (8 bytes) and IHDR (25): an empty chunk of a critical type (bit 5 of the
    // first byte clear), its CRC unchecked.
    const auto withChunk = [&](const QByteArray& type) {
        return png.left(33) + QByteArray(4, '\0') + type + QByteArray(4, '\0') + png.mid(33);
    };
    constexpr int kEach = 40;
    for (int i = 0; i < kEach; ++i) {
        writeBytes(dir.path() + QString("/a/nul_%1.png").arg(i, 2, 10, QChar('0')), withChunk(QByteArray("\0XYZ", 4)));
        writeBytes(dir.path() + QString("/b/bytes_%1.png").arg(i, 2, 10, QChar('0')),
                   withChunk(QByteArray("\xC1\xFFYZ", 4)));
    }
    writeBytes(dir.path() + "/b/cut.png", png.left(33));
    const Dataset d = loadImageFolder(str(dir.path()), {});
    QCOMPARE(d.size(), Index(4));
    QCOMPARE(d.skipped.size(), std::size_t(2 * kEach + 1));
    int nul = 0, bytes = 0;
    for (const auto& skipped : d.skipped) {
        const std::string name = std::filesystem::path(skipped.path).filename().string();
        const std::string expected = name.starts_with("nul_")     ? "?XYZ PNG chunk not known"
                                     : name.starts_with("bytes_") ? "??YZ PNG chunk not known"
                                                                  : "the file ends before its IEND chunk (cut short)";
        QVERIFY2(skipped.reason == expected, (name + ": " + skipped.reason).c_str());
        nul += name.starts_with("nul_");
        bytes += name.starts_with("bytes_");
    }
    QCOMPARE(nul, kEach);
    QCOMPARE(bytes, kEach);
}

// A BMP header of 54 bytes announcing W x H pixels (BITMAPINFOHEADER, 24 bits), without pixels.
QByteArray bmpHeader(qint32 width, qint32 height) {
    QByteArray b("BM");
    QDataStream out(&b, QIODevice::Append);
    out.setByteOrder(QDataStream::LittleEndian);
    out << quint32(54) << quint32(0) << quint32(54) << quint32(40) << width << height << quint16(1) << quint16(24)
        << quint32(0) << quint32(0) << qint32(2835) << qint32(2835) << quint32(0) << quint32(0);
    return b;
}

// stb_image reads a BMP (or PNM) header of 5 x 0: as the first image it made the set's shape 5 x 0,
// no feature at all (found by fuzz_image).
void TestImages::imageWithoutPixelsIsSkipped() {
    QTemporaryDir dir;
    writePatternFolder(dir.path(), {"a", "b"}, 2, 6);
    writeBytes(dir.path() + "/a/0_empty.bmp", bmpHeader(5, 0));
    const Dataset d = loadImageFolder(str(dir.path()), {});
    QCOMPARE(d.sampleShape, (Shape{1, 6, 6}));
    QCOMPARE(d.size(), Index(4));
    QCOMPARE(d.skipped.size(), std::size_t(1));
    QCOMPARE(d.skipped[0].reason, std::string("the image has no pixels (5 x 0)"));
    VERIFY_CONTAINS(errorOf([&] { loadImageFiles(str(dir.path() + "/a/0_empty.bmp"), {}); }),
                    "0_empty.bmp: none of its 1 image files can be read");
}

// stb_image goes by the content: it would read a GIF, PGM or TGA named .png, and decode a header
// announcing millions of pixels from a few bytes, the missing ones as zeros, in seconds and
// gigabytes (found by fuzz_image: 64 bytes of BMP took 13 s).
void TestImages::otherFormatsAndOverlongHeadersAreSkipped() {
    QTemporaryDir dir;
    writePatternFolder(dir.path(), {"a", "b"}, 2, 6);
    writeBytes(dir.path() + "/a/gif.png", QByteArray("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00"
                                                     ",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02"
                                                     "D\x01\x00;",
                                                     35));
    writeBytes(dir.path() + "/a/pgm.png", QByteArray("P5\n2 1\n255\n\x10\x20", 13));
    writeBytes(dir.path() + "/b/huge.bmp", bmpHeader(5, 4390912));
    const Dataset d = loadImageFolder(str(dir.path()), {});
    QCOMPARE(d.size(), Index(4));
    QCOMPARE(d.skipped.size(), std::size_t(3));
    QCOMPARE(d.skipped[0].reason, std::string("not a PNG, JPEG or BMP file"));
    QCOMPARE(d.skipped[1].reason, std::string("not a PNG, JPEG or BMP file"));
    QCOMPARE(d.skipped[2].path, str(dir.path() + "/b/huge.bmp"));
    QCOMPARE(d.skipped[2].reason, std::string("its header announces 5 x 4390912 pixels, more than its 54 bytes can "
                                              "hold (damaged or cut short)"));
}

// Debian's stb_image 2.27 fills a JPEG Huffman table with as many codes as the file counts, past
// its 256 places (a heap overflow, found by fuzz_image): refused before stb reads it, and the
// reason reaches the error of a single file.
void TestImages::jpegHuffmanTableOverflowIsRefused() {
    QTemporaryDir dir;
    const QString file = dir.path() + "/table.jpg";
    writeBytes(file, QByteArray("\xFF\xD8\xFF\xC4\x01\xD5\x00\xD5\xD5", 9));  // 2 x 213 codes of 1 and 2 bits
    QCOMPARE(errorOf([&] { loadImageFiles(str(file), {}); }),
             str(file) + ": none of its 1 image files can be read (" + str(file) +
                 ": damaged JPEG: a Huffman table of 426 codes (at most 256))");
    ImageOptions strict;
    strict.strict = true;
    strict.channels = 1;
    strict.height = strict.width = 4;  // the size given: decoded without reading the size first
    QCOMPARE(errorOf([&] { loadImageFiles(str(file), strict); }),
             str(file) + ": cannot read the image (damaged JPEG: a Huffman table of 426 codes (at most 256))");
}

void TestImages::memoryBeyondTheLimitIsRefusedWithASmallerSize() {
    QTemporaryDir dir;
    writePatternFolder(dir.path(), {"a", "b"}, 5, 28);
    QCOMPARE(decodedImageBytes(10, Shape{1, 28, 28}), std::uint64_t(31360));
    ImageOptions o;
    o.memoryLimitBytes = 10000;
    const std::string e = errorOf([&] { loadImageFolder(str(dir.path()), o); });
    QCOMPARE(e, str(dir.path()) +
                    ": 10 images of 1x28x28 need about 31 kB of memory decoded (float32 per value), more than "
                    "the 10 kB available; choose a smaller --image-size, e.g. 14x14 (8 kB)");
    o.memoryLimitBytes = 31360;  // exactly enough
    QCOMPARE(loadImageFolder(str(dir.path()), o).size(), Index(10));
    // The real check runs too (this machine has room for ten small images).
    QCOMPARE(loadImageFolder(str(dir.path()), {}).size(), Index(10));
}

void TestImages::folderErrorsNameTheFolder() {
    QTemporaryDir dir;
    writeImage(dir.path() + "/flat.png", 4, 4, 1, std::vector<unsigned char>(16, 1));
    VERIFY_CONTAINS(errorOf([&] { loadImageFolder(str(dir.path()), {}); }),
                    str(dir.path()) +
                        ": no class subfolders (an image folder holds one subfolder of images per class)");
    QTemporaryDir empty;
    QDir().mkpath(empty.path() + "/a");
    writeBytes(empty.path() + "/a/readme.txt", "x");
    VERIFY_CONTAINS(errorOf([&] { loadImageFolder(str(empty.path()), {}); }),
                    ": no PNG, JPEG or BMP files in its 1 class folders");
    ImageOptions five;
    five.channels = 2;
    writePatternFolder(empty.path(), {"b"}, 1, 4);
    VERIFY_CONTAINS(errorOf([&] { loadImageFolder(str(empty.path()), five); }),
                    "images have 1 (gray) or 3 (RGB) channels, not 2");
    // A single image cannot be trained on.
    VERIFY_CONTAINS(errorOf([&] { loadTrainingData(folderRequest(dir.path() + "/flat.png")); }),
                    "--data: " + str(dir.path()) + "/flat.png is a single image; training needs a folder");
}

void TestImages::testFolderIsLoadedLikeTheTrainingSchema() {
    QTemporaryDir train, test;
    writePatternFolder(train.path(), {"left", "right", "top"}, 2, 8);
    // The test folder: other sizes, colour, and only two of the classes.
    std::vector<unsigned char> rgb(16 * 16 * 3, 30);
    writeImage(test.path() + "/top/t.png", 16, 16, 3, rgb);
    writeImage(test.path() + "/right/r.png", 8, 8, 1, patternPixels(1, 0, 8));
    const Dataset d = loadTrainingData(folderRequest(train.path()));
    DataRequest t = folderRequest(test.path());
    t.option = "--test-data";
    const Dataset like = loadLike(t, d.schema(), true);
    QCOMPARE(like.sampleShape, d.sampleShape);
    QCOMPARE(like.classNames, d.classNames);
    QCOMPARE(like.labels, (std::vector<int>{1, 2}));  // by name: right, top
    QCOMPARE(like.features(1, 0), Scalar(30));        // colour made gray, 16x16 made 8x8
    QCOMPARE(like.featureNames, d.featureNames);

    writePatternFolder(test.path(), {"bottom"}, 1, 8);
    VERIFY_CONTAINS(errorOf([&] { loadLike(t, d.schema(), true); }),
                    "class 'bottom' is not one of the model's classes (left, right, top)");
    // A model of flat features cannot take images.
    ModelSchema flat = d.schema();
    flat.sampleShape = Shape::flat(64);
    VERIFY_CONTAINS(errorOf([&] { loadLike(t, flat, true); }), "the model takes 64 features of shape (64), not images");
}

void TestImages::predictionImagesAreAFlatFolderOrOneFile() {
    QTemporaryDir train, flat;
    writePatternFolder(train.path(), {"left", "right"}, 2, 8);
    const Dataset d = loadTrainingData(folderRequest(train.path()));
    writeImage(flat.path() + "/b.png", 8, 8, 1, patternPixels(1, 0, 8));
    writeImage(flat.path() + "/a.png", 16, 16, 3, std::vector<unsigned char>(16 * 16 * 3, 77));
    writeBytes(flat.path() + "/c.png", "junk");
    writeImage(flat.path() + "/sub/d.png", 8, 8, 1, patternPixels(0, 0, 8));
    DataRequest r = folderRequest(flat.path());
    const ImageFiles files = loadImagesLike(r, d.schema());
    QCOMPARE(files.paths, (std::vector<std::string>{str(flat.path() + "/a.png"), str(flat.path() + "/b.png"),
                                                    str(flat.path() + "/sub/d.png")}));
    QCOMPARE(files.data.size(), Index(3));
    QCOMPARE(files.data.sampleShape, d.sampleShape);
    QCOMPARE(files.data.features(0, 5), Scalar(77));
    QCOMPARE(files.data.skipped.size(), std::size_t(1));
    QCOMPARE(loadLike(r, d.schema(), false).size(), Index(3));

    r.path = str(flat.path() + "/b.png");
    const ImageFiles one = loadImagesLike(r, d.schema());
    QCOMPARE(one.paths, std::vector<std::string>{r.path});
    QCOMPARE(one.data.features(0, 7), Scalar(patternPixels(1, 0, 8)[7]));
    VERIFY_CONTAINS(errorOf([&] { loadLike(r, d.schema(), true); }), "is a single image without a label");
    r.image.strict = true;
    r.path = str(flat.path());
    VERIFY_CONTAINS(errorOf([&] { loadImagesLike(r, d.schema()); }),
                    str(flat.path()) + "/c.png: cannot read the image");
}

void TestImages::csvSampleShapeIsCheckedAgainstTheColumns() {
    QTemporaryDir dir;
    const QString csv = dir.path() + "/pixels.csv";
    writeBytes(csv, "p0,p1,p2,p3,p4,p5,label\n1,2,3,4,5,6,a\n6,5,4,3,2,1,b\n1,1,1,1,1,1,a\n2,2,2,2,2,2,b\n");
    DataRequest r;
    r.path = str(csv);
    r.sampleShape = Shape{1, 2, 3};
    const Dataset d = loadTrainingData(r);
    QCOMPARE(d.sampleShape, (Shape{1, 2, 3}));
    r.sampleShape = Shape{1, 3, 3};
    QCOMPARE(errorOf([&] { loadTrainingData(r); }), "--sample-shape: 1x3x3 is 9 values per sample, but " + str(csv) +
                                                        " has 6 feature columns (besides the target)");
    writeBytes(csv, "p0,colour,label\n1,red,a\n2,blue,b\n3,red,a\n4,blue,b\n");
    r.sampleShape = Shape{1, 1, 2};
    VERIFY_CONTAINS(errorOf([&] { loadTrainingData(r); }), "--sample-shape: " + str(csv) + " has text column 'colour'");
    // Without a declared shape, a CSV row is flat, as before.
    r.sampleShape.reset();
    QCOMPARE(loadTrainingData(r).sampleShape, Shape::flat(2));
}

void TestImages::imageOptionsAndShapesApplyOnlyToTheirData() {
    DataRequest r;
    r.path = "builtin:spirals";
    r.sampleShape = Shape{1, 1, 2};
    QCOMPARE(errorOf([&] { checkDataRequest(r); }),
             std::string("--sample-shape: only applies to CSV files, and builtin:spirals is not one"));
    r.sampleShape.reset();
    r.image.height = r.image.width = 8;
    QCOMPARE(errorOf([&] { checkDataRequest(r); }),
             std::string("--image-size: only applies to image folders, and builtin:spirals is not one"));
    QTemporaryDir dir;
    r.path = str(dir.path());
    QCOMPARE(dataKind(r.path), DataKind::ImageFolder);
    QCOMPARE(errorOf([&] { checkDataRequest(r); }), std::string("(no error)"));
    QCOMPARE(dataKind("x/photo.JPEG"), DataKind::ImageFile);
}

void TestImages::augmentationFlipsAndShiftsExactly() {
    const Shape shape{2, 2, 3};
    // Channel 0: 1 2 3 / 4 5 6; channel 1: the same plus 10.
    const std::vector<Scalar> in = {1, 2, 3, 4, 5, 6, 11, 12, 13, 14, 15, 16};
    std::vector<Scalar> out(12);
    transformSample(in.data(), out.data(), shape, true, 0, 0);
    QCOMPARE(out, (std::vector<Scalar>{3, 2, 1, 6, 5, 4, 13, 12, 11, 16, 15, 14}));
    transformSample(in.data(), out.data(), shape, false, 1, -1);  // down one, left one
    QCOMPARE(out, (std::vector<Scalar>{0, 0, 0, 2, 3, 0, 0, 0, 0, 12, 13, 0}));
    transformSample(in.data(), out.data(), shape, true, 0, 1);  // mirrored, then right one
    QCOMPARE(out, (std::vector<Scalar>{0, 3, 2, 0, 6, 5, 0, 13, 12, 0, 16, 15}));
    transformSample(in.data(), out.data(), shape, false, 0, 0);
    QCOMPARE(out, in);
}

void TestImages::augmentationIsSeededPerStepAndRow() {
    const Shape shape{1, 5, 5};
    Matrix rows(64, 25);
    for (Index r = 0; r < rows.rows(); ++r)
        for (Index c = 0; c < 25; ++c) rows(r, c) = Scalar(r * 25 + c + 1);
    Augmentation a;
    a.flip = true;
    a.shift = 1;
    Matrix once = rows, again = rows;
    augmentRows(once, shape, a, augmentationStream(7, 3));
    augmentRows(again, shape, a, augmentationStream(7, 3));
    QVERIFY(once == again);
    QVERIFY(once != rows);
    // Rows draw by their place in the batch: halves augmented apart, with their first row, agree.
    Matrix top = rows.topRows(32), bottom = rows.bottomRows(32);
    augmentRows(top, shape, a, augmentationStream(7, 3), 0);
    augmentRows(bottom, shape, a, augmentationStream(7, 3), 32);
    QVERIFY(top == once.topRows(32));
    QVERIFY(bottom == once.bottomRows(32));
    // Another step or seed draws differently.
    Matrix other = rows;
    augmentRows(other, shape, a, augmentationStream(7, 4));
    QVERIFY(other != once);
    // Each row is its original moved or mirrored: every value in it came from that row or is 0.
    int changed = 0;
    for (Index r = 0; r < rows.rows(); ++r) {
        changed += once.row(r) != rows.row(r);
        for (Index c = 0; c < 25; ++c)
            QVERIFY(once(r, c) == 0 || (once(r, c) > Scalar(r * 25) && once(r, c) <= Scalar(r * 25 + 25)));
    }
    QVERIFY(changed > 40);  // 1 - P(no flip, no shift) = 1 - 1/18 of 64 rows, well above 40
    // Off: untouched.
    Matrix same = rows;
    augmentRows(same, shape, Augmentation{}, augmentationStream(7, 3));
    QVERIFY(same == rows);
}

void TestImages::augmentationParsesAndRefusesFlatInput() {
    QCOMPARE(parseAugmentation("flip,shift:2"), (Augmentation{true, 2}));
    QCOMPARE(parseAugmentation("shift:3"), (Augmentation{false, 3}));
    QCOMPARE(parseAugmentation("none"), Augmentation{});
    QCOMPARE(augmentationText(Augmentation{true, 2}), std::string("flip,shift:2"));
    QCOMPARE(augmentationText(Augmentation{}), std::string("none"));
    QCOMPARE(errorOf([] { parseAugmentation("flip,rotate"); }),
             std::string("unknown augmentation 'rotate' (expected flip and/or shift:PIXELS, e.g. flip,shift:2)"));
    VERIFY_CONTAINS(errorOf([] { parseAugmentation("shift:0"); }), "shift expects a number of pixels from 1 to 999");
    VERIFY_CONTAINS(errorOf([] { parseAugmentation("shift:x"); }), "got 'shift:x'");
    QCOMPARE(errorOf([] {
                 checkAugmentable(Augmentation{true, 0}, Shape::flat(10));
             }),
             std::string(
                 "augmentation (flip) needs image input (channels, height, width), the network's input is (10)"));
    QCOMPARE(errorOf([] { checkAugmentable(Augmentation{}, Shape::flat(10)); }), std::string("(no error)"));
}

void TestImages::trainerAugmentsOnlyWhenAsked() {
    Rng rng(3);
    Matrix x(64, 36), y = Matrix::Zero(64, 2);
    for (Index r = 0; r < 64; ++r) {
        for (Index c = 0; c < 36; ++c) x(r, c) = rng.uniform(0, 1);
        y(r, r % 2) = 1;
    }
    const auto train = [&](Augmentation a) {
        NetworkSpec spec;
        spec.input = Shape{1, 6, 6};
        spec.layers = parseLayers("dense:8:relu");
        spec.setOutputFor(Task::Classification, 2);
        Network net(spec, 5);
        TrainConfig c;
        c.epochs = 2;
        c.batchSize = 16;
        c.threads = 1;
        c.augmentation = a;
        Trainer t(net, c, Task::Classification);
        t.fit(x, y);
        return net.flatWeights();
    };
    const Augmentation on{true, 1};
    QVERIFY(train(on) == train(on));
    QVERIFY(train(on) != train({}));
    QVERIFY(train({}) == train({}));
    // A flat network input is refused when the trainer is made, before any step.
    NetworkSpec flat;
    flat.input = Shape::flat(36);
    flat.layers = parseLayers("dense:4:relu");
    flat.setOutputFor(Task::Classification, 2);
    Network net(flat, 1);
    TrainConfig c;
    c.augmentation = on;
    VERIFY_CONTAINS(errorOf([&] { Trainer(net, c, Task::Classification); }),
                    "augmentation (flip,shift:1) needs image input");
}

void TestImages::augmentedTrainingDoesNotDependOnThreads() {
    // Large enough that a step runs on two threads (batch slices), small enough to be quick.
    Rng rng(11);
    Matrix x(256, 256), y = Matrix::Zero(256, 3);
    for (Index r = 0; r < x.rows(); ++r) {
        for (Index c = 0; c < x.cols(); ++c) x(r, c) = rng.uniform(0, 1);
        y(r, r % 3) = 1;
    }
    const auto train = [&](int threads) {
        NetworkSpec spec;
        spec.input = Shape{1, 16, 16};
        spec.layers = parseLayers("dense:256:relu,dropout:0.2");
        spec.setOutputFor(Task::Classification, 3);
        Network net(spec, 2);
        TrainConfig c;
        c.epochs = 2;
        c.batchSize = 64;
        c.threads = threads;
        c.augmentation = Augmentation{true, 2};
        Trainer t(net, c, Task::Classification);
        t.fit(x, y);
        return net.flatWeights();
    };
    QVERIFY(train(1) == train(2));
}

void TestImages::projectRecordsAnImageFolder() {
    QTemporaryDir dir;
    writePatternFolder(dir.path() + "/images", {"a", "b"}, 2, 6);
    const std::string folder = str(dir.path() + "/images");
    const FileFingerprint first = fileFingerprint(folder);
    QCOMPARE(fileFingerprint(folder), first);
    // Renaming a file changes it (same bytes, another name), as does editing one.
    QVERIFY(QFile::rename(dir.path() + "/images/a/img_000.png", dir.path() + "/images/a/img_009.png"));
    const FileFingerprint renamed = fileFingerprint(folder);
    QVERIFY(renamed.hash != first.hash);
    QCOMPARE(renamed.size, first.size);
    writeImage(dir.path() + "/images/b/img_000.png", 6, 6, 1, patternPixels(0, 9, 6));
    QVERIFY(fileFingerprint(folder).hash != renamed.hash);

    ProjectDataSource s;
    s.train.path = folder;
    s.train.fingerprint = fileFingerprint(folder);
    s.image.height = 5;
    s.image.width = 4;
    s.image.channels = 3;
    s.image.strict = true;
    s.scaling = Scaling::MinMax;
    const Json j = toJson(s, str(dir.path()));
    QCOMPARE(j.at("train").at("path").get<std::string>(), std::string("images"));
    ProjectDataSource back = dataSourceFromJson(JsonField(j, "p.skynnet", "data"), str(dir.path()));
    QCOMPARE(back.train.status, DataFileStatus::Found);
    back.train.status = s.train.status;
    QCOMPARE(back, s);
    const DataRequest r = back.trainRequest();
    QCOMPARE(r.image, s.image);
    QCOMPARE(loadTrainingData(r).sampleShape, (Shape{3, 5, 4}));
    // An image added to the folder makes it Changed.
    writeImage(dir.path() + "/images/b/new.png", 6, 6, 1, patternPixels(1, 9, 6));
    QCOMPARE(dataSourceFromJson(JsonField(j, "p.skynnet", "data"), str(dir.path())).train.status,
             DataFileStatus::Changed);
    // A data object without image settings (every project before image folders) reads as none.
    Json old = j;
    old.erase("image");
    QCOMPARE(dataSourceFromJson(JsonField(old, "p.skynnet", "data"), str(dir.path())).image, ImageOptions{});
    s.sampleShape = Shape{1, 2, 3};
    s.image = {};
    QCOMPARE(dataSourceFromJson(JsonField(toJson(s, str(dir.path())), "p.skynnet", "data"), str(dir.path()))
                 .sampleShape,
             s.sampleShape);
}

QTEST_GUILESS_MAIN(TestImages)
#include "tst_images.moc"
