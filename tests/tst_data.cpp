// Data loading (CSV, IDX), generators, preprocessing and splits.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <numbers>
#include <set>

#include <unistd.h>

#include "core/error.h"
#include "data/csv_loader.h"
#include "data/generators.h"
#include "data/idx_loader.h"
#include "data/partition.h"
#include "data/preprocessing.h"
#include "data/splits.h"
#include "data/training_checks.h"
#include "test_support.h"

using namespace skynnet;

namespace {

std::string writeFile(const QTemporaryDir& dir, const char* name, const std::string& bytes) {
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    return path;
}

std::uint32_t crc32(const std::string& bytes) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (unsigned char b : bytes) {
        crc ^= b;
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

// A real gzip file: qCompress gives a zlib stream (after its 4-byte size), whose raw deflate
// body is wrapped in a gzip header and a CRC-32 / size trailer.
std::string gzip(const std::string& bytes) {
    const QByteArray z = qCompress(QByteArray(bytes.data(), qsizetype(bytes.size())), 9);
    std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);
    out.append(z.constData() + 6, std::size_t(z.size() - 6 - 4));
    for (std::uint32_t v : {crc32(bytes), std::uint32_t(bytes.size())})
        for (int i = 0; i < 4; ++i) out += char((v >> (8 * i)) & 0xFF);
    return out;
}

std::string be32(std::uint32_t v) {
    return {char(v >> 24), char((v >> 16) & 0xFF), char((v >> 8) & 0xFF), char(v & 0xFF)};
}

// Three 2x3 images with pixel values 10 * image + pixel, and labels 7, 0, 3.
std::string tinyImages() {
    std::string s = be32(0x803) + be32(3) + be32(2) + be32(3);
    for (int i = 0; i < 3; ++i)
        for (int p = 0; p < 6; ++p) s += char(10 * i + p);
    return s;
}
std::string tinyLabels(std::uint32_t count = 3) {
    std::string s = be32(0x801) + be32(count);
    for (char l : {7, 0, 3}) s += l;
    return s.substr(0, 8 + count);
}

std::vector<int> classCounts(const Dataset& d, const std::vector<int>& rows) {
    std::vector<int> counts(std::size_t(d.classCount()), 0);
    for (int r : rows) ++counts[std::size_t(d.labels[std::size_t(r)])];
    return counts;
}

}  // namespace

class TstData : public QObject {
    Q_OBJECT

private slots:
    void partitionIsTheSharedSplitRule() {
        const Dataset blobs = makeBlobs(4, 50, 3, 0.5f, 2);
        const DataPartition own = partitionData(blobs, 0.1, 0.2, false, 7, Scaling::Standardize);
        QCOMPARE(own.train.size() + own.validation.size() + own.test.size(), Index(200));
        QCOMPARE(own.test.size(), Index(40));
        // A separate test file: no test rows are cut, the same seed gives the same validation rows.
        const DataPartition separate = partitionData(blobs, 0.1, 0.2, true, 7, Scaling::Standardize);
        QCOMPARE(separate.test.size(), Index(0));
        QCOMPARE(separate.train.size() + separate.validation.size(), Index(200));
        const SplitIndices idx = splitForTraining(blobs, 0.1, 0.2, true, 7);
        QVERIFY(blobs.subset(idx.validation).features == separate.validation.features);
        // Scaling statistics come from the training rows alone.
        const RowVector mean = own.train.features.colwise().mean();
        QVERIFY(own.preprocessing.offset.isApprox(mean, 1e-5f));
    }

    void bundledDatasets() {
        const Dataset iris = loadCsv(sourcePath("resources/datasets/iris.csv"));
        QCOMPARE(iris.size(), Index(150));
        QCOMPARE(iris.features.cols(), Index(4));
        QCOMPARE(iris.task, Task::Classification);
        QCOMPARE(iris.classNames, (std::vector<std::string>{"setosa", "versicolor", "virginica"}));
        QCOMPARE(classCounts(iris, splitIndices(iris, 0, 0, 1).train), (std::vector<int>{50, 50, 50}));
        QCOMPARE(iris.featureNames[3], std::string("petal_width"));
        QCOMPARE(iris.features(0, 0), 5.1f);

        const Dataset wine = loadCsv(sourcePath("resources/datasets/wine.csv"));
        QCOMPARE(wine.size(), Index(178));
        QCOMPARE(wine.features.cols(), Index(13));
        QCOMPARE(wine.classNames, (std::vector<std::string>{"0", "1", "2"}));
        QCOMPARE(wine.task, Task::Classification);

        const Dataset cancer = loadCsv(sourcePath("resources/datasets/breast_cancer.csv"));
        QCOMPARE(cancer.size(), Index(569));
        QCOMPARE(cancer.features.cols(), Index(30));
        QCOMPARE(cancer.task, Task::Binary);
        QCOMPARE(cancer.classNames, (std::vector<std::string>{"benign", "malignant"}));
        QCOMPARE(classCounts(cancer, splitIndices(cancer, 0, 0, 1).train), (std::vector<int>{357, 212}));
    }

    void headerAndDelimiterDetection() {
        QTemporaryDir dir;
        const Dataset semi = loadCsv(writeFile(dir, "semi.csv", "a;b;kind\n1.5;2;x\n3;4;y\n5;6;x\n"));
        QCOMPARE(semi.featureNames, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(semi.size(), Index(3));
        QCOMPARE(semi.features(0, 0), 1.5f);
        QCOMPARE(semi.task, Task::Binary);
        QCOMPARE(semi.labels, (std::vector<int>{0, 1, 0}));

        const Dataset tab = loadCsv(writeFile(dir, "tab.tsv", "a\tb\tc\tkind\n1\t2\t3\tu\n4\t5\t6\tv\n7\t8\t9\tw\n"));
        QCOMPARE(tab.featureNames, (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(tab.features(2, 2), 9.f);
        QCOMPARE(tab.classCount(), 3);

        const Dataset pipe = loadCsv(writeFile(dir, "pipe.txt", "1|2|a\n3|4|b\n"));  // no header: numbers first
        QCOMPARE(pipe.size(), Index(2));
        QCOMPARE(pipe.featureNames, (std::vector<std::string>{"column_1", "column_2"}));

        // Forcing the header either way overrides the detection.
        CsvOptions noHeader;
        noHeader.header = CsvHeader::Absent;
        const std::string h = writeFile(dir, "h.csv", "p,q,r\n1,2,3\n");
        QCOMPARE(errorOf([&] { loadCsv(h, noHeader); }), h + ":1: column 'column_1' (0): 'p' is not a number");
        CsvOptions header;
        header.header = CsvHeader::Present;
        header.task = Task::Regression;
        const Dataset named = loadCsv(writeFile(dir, "n.csv", "1,2,3\n4,5,6\n"), header);
        QCOMPARE(named.size(), Index(1));
        QCOMPARE(named.featureNames, (std::vector<std::string>{"1", "2"}));
    }

    void quotedFields() {
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "quoted.csv",
                                           "name,\"size, cm\",label\r\n"
                                           "\"a, b\",1,\"say \"\"hi\"\"\"\r\n"
                                           "\"two\r\nlines\",2,plain\r\n"
                                           "  \"a, b\" ,3,plain\r\n"
                                           "\r\n\r\n");
        CsvOptions options;
        options.task = Task::Classification;
        const Dataset d = loadCsv(path, options);
        QCOMPARE(d.size(), Index(3));
        QCOMPARE(d.featureNames, (std::vector<std::string>{"name", "size, cm"}));
        QCOMPARE(d.classNames, (std::vector<std::string>{"plain", "say \"hi\""}));
        QCOMPARE(d.categoricals.size(), std::size_t(1));
        QCOMPARE(d.categoricals[0].categories, (std::vector<std::string>{"a, b", "two\nlines"}));
        QCOMPARE(d.features(2, 0), 0.f);  // spaces around the quotes are not part of the field
        QCOMPARE(d.features(1, 1), 2.f);

        // Line numbers count physical lines: the record after the two-line field is on line 5.
        const std::string bad = writeFile(dir, "bad_quoted.csv", "t,x,y\n\"one\",1,2\n\"multi\nline\",3,4\nz,NA,6\n");
        QCOMPARE(errorOf([&] { loadCsv(bad); }), bad + ":5: column 'x' (1): missing value ('NA')");
        VERIFY_CONTAINS(errorOf([&] { loadCsv(writeFile(dir, "open.csv", "a,b\n1,\"never closed\n")); }),
                        "open.csv:2: quoted field");
    }

    void missingAndBadValues() {
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "iris_bad.csv",
                                           "sepal_length,sepal_width,petal_length,petal_width,species\n"
                                           "5.1,3.5,1.4,0.2,setosa\n"
                                           "4.9,3.0,1.4,0.2,setosa\n"
                                           "7.0,3.2,4.7,,versicolor\n"
                                           "6.3,3.3,6.0,2.5,virginica\n");
        const std::string message = errorOf([&] { loadCsv(path); });
        VERIFY_CONTAINS(message, "iris_bad.csv:4: column 'petal_width' (3): missing value");

        for (const char* token : {"NA", "NaN", "?"}) {
            const std::string p = writeFile(dir, "na.csv", std::string("a,b,c\n1,2,x\n3,") + token + ",y\n");
            QCOMPARE(errorOf([&] { loadCsv(p); }), p + ":3: column 'b' (1): missing value ('" + token + "')");
        }
        // Mostly numbers with one bad cell: a typo to report, not a categorical column.
        const std::string typo = writeFile(dir, "typo.csv", "a,b,c\n1,2,x\n3,4,y\n5,4..5,x\n7,8,y\n");
        QCOMPARE(errorOf([&] { loadCsv(typo); }), typo + ":4: column 'b' (1): '4..5' is not a number");
        // Numbers a float network cannot take: refused at their cell, never imputed (csv_loader.h).
        const std::string big = writeFile(dir, "big.csv", "x1,x2,x3,y\n1,2,3,a\n2,3,4,b\n4,5,3.5e39,a\n5,6,7,b\n");
        QCOMPARE(errorOf([&] { loadCsv(big); }),
                 big + ":4: column 'x3' (2): '3.5e39' overflows float32 (magnitudes up to 3.4e38)");
        for (const char* token : {"inf", "-inf", "Infinity", "-nan"}) {
            const std::string p = writeFile(dir, "inf.csv", std::string("a,b,c\n1,2,x\n3,") + token + ",y\n5,6,x\n");
            QCOMPARE(errorOf([&] { loadCsv(p); }), p + ":3: column 'b' (1): '" + token + "' is not a finite number");
        }
        const std::string huge = writeFile(dir, "huge.csv", "a,b,c\n1,2,x\n3,-1e400,y\n");
        QCOMPARE(errorOf([&] { loadCsv(huge); }),
                 huge + ":3: column 'b' (1): '-1e400' overflows float32 (magnitudes up to 3.4e38)");
        // A column of such numbers is still numeric: not categories named "inf" and "1e39".
        const std::string allBad = writeFile(dir, "allbad.csv", "a,b,c\n1,inf,x\n3,1e39,y\n5,inf,x\n");
        QCOMPARE(errorOf([&] { loadCsv(allBad); }), allBad + ":2: column 'b' (1): 'inf' is not a finite number");
        // In a numeric class column (classes 0 and 1), "inf" is a bad number, not a third class.
        const std::string badClass = writeFile(dir, "badclass.csv", "a,c\n1,0\n2,1\n3,inf\n4,0\n5,1\n6,0\n7,1\n");
        CsvOptions asClasses;
        asClasses.task = Task::Classification;
        QCOMPARE(errorOf([&] { loadCsv(badClass, asClasses); }),
                 badClass + ":4: column 'c' (1): 'inf' is not a finite number");
        CsvOptions asRegression;
        asRegression.task = Task::Regression;
        QCOMPARE(errorOf([&] { loadCsv(badClass, asRegression); }),
                 badClass + ":4: column 'c' (1): 'inf' is not a finite number");
        // Tiny numbers are fine: they are 0 or a denormal as a float.
        QCOMPARE(loadCsv(writeFile(dir, "tiny.csv", "a,c\n1e-50,x\n2,y\n")).features(0, 0), 0.f);
        // A missing target is an error too.
        const std::string noLabel = writeFile(dir, "nolabel.csv", "a,b,c\n1,2,x\n3,4,\n");
        VERIFY_CONTAINS(errorOf([&] { loadCsv(noLabel); }), "nolabel.csv:3: column 'c' (2): missing value");
    }

    void structuralErrors() {
        QTemporaryDir dir;
        const std::string fields = writeFile(dir, "fields.csv", "a,b,c\n1,2,x\n3,4\n5,6,y\n");
        QCOMPARE(errorOf([&] { loadCsv(fields); }), fields + ":3: expected 3 fields (as on line 1), found 2");
        // Files that are no table, in a person's words: a binary file (a PNG renamed .csv), and a
        // table of another delimiter (/etc/passwd's colons), where the located detail follows.
        const std::string png = writeFile(dir, "picture.csv", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
        QCOMPARE(errorOf([&] { loadCsv(png); }),
                 png + ": not a text table: it holds NUL bytes, as a binary file does (an image, an archive?); the "
                       "first is byte 9");
        const std::string passwd = writeFile(dir, "passwd",
                                             "root:x:0:0:root:/root:/bin/bash\n"
                                             "daemon:x:1:1:daemon,,,:/usr/sbin:/usr/sbin/nologin\n");
        QCOMPARE(errorOf([&] { loadCsv(passwd); }),
                 passwd + ": found only one column: is the delimiter a comma, a semicolon, a tab or '|'? (line 2 has "
                          "4 fields split by ',', line 1 has 1)");
        VERIFY_CONTAINS(errorOf([&] { loadCsv(writeFile(dir, "empty.csv", "")); }), "empty.csv: the file is empty");
        VERIFY_CONTAINS(errorOf([&] { loadCsv(writeFile(dir, "blank.csv", "\n\n")); }), "blank.csv: the file is empty");
        VERIFY_CONTAINS(errorOf([&] { loadCsv(writeFile(dir, "head.csv", "a,b,label\n")); }), "head.csv: no data rows");
        VERIFY_CONTAINS(errorOf([&] { loadCsv(dir.filePath("absent.csv").toStdString()); }), "absent.csv: cannot open");
        const std::string good = writeFile(dir, "good.csv", "a,b,c\n1,2,x\n3,4,y\n");
        CsvOptions target;
        target.targets = {"nope"};
        VERIFY_CONTAINS(errorOf([&] { loadCsv(good, target); }), "no target column named 'nope' (columns: a, b, c)");
        target.targets = {"7"};
        VERIFY_CONTAINS(errorOf([&] { loadCsv(good, target); }), "target column index 7 is out of range");
        const std::string three = writeFile(dir, "three.csv", "a,b\n1,x\n2,y\n3,z\n");
        CsvOptions binary;
        binary.task = Task::Binary;
        VERIFY_CONTAINS(errorOf([&] { loadCsv(three, binary); }),
                        "binary task needs exactly 2 classes, found 3 (x, y, z)");
    }

    void targetsAndTasks() {
        QTemporaryDir dir;
        // Text target: sorted string classes.
        const Dataset text = loadCsv(writeFile(dir, "text.csv", "x,answer\n1,yes\n2,no\n3,maybe\n4,yes\n"));
        QCOMPARE(text.task, Task::Classification);
        QCOMPARE(text.classNames, (std::vector<std::string>{"maybe", "no", "yes"}));
        QCOMPARE(text.labels, (std::vector<int>{2, 1, 0, 2}));

        // Numeric labels sort as numbers; asking for classification keeps 2 classes as classification.
        CsvOptions cls;
        cls.task = Task::Classification;
        const Dataset numeric = loadCsv(writeFile(dir, "num.csv", "x,y\n1,10\n2,9\n3,2\n4,10\n"), cls);
        QCOMPARE(numeric.classNames, (std::vector<std::string>{"2", "9", "10"}));
        QCOMPARE(numeric.labels, (std::vector<int>{2, 1, 0, 2}));

        // Two regression targets by name, in the middle of the file, and one by index.
        std::string csv = "f1,y1,f2,y2\n";
        for (int i = 0; i < 20; ++i)
            csv += std::to_string(i) + "," + std::to_string(i * 0.5) + "," + std::to_string(-i) + "," +
                   std::to_string(i * i) + "\n";
        const std::string reg = writeFile(dir, "reg.csv", csv);
        CsvOptions two;
        two.targets = {"y2", "y1"};
        const Dataset r = loadCsv(reg, two);
        QCOMPARE(r.task, Task::Regression);
        QCOMPARE(r.featureNames, (std::vector<std::string>{"f1", "f2"}));
        QCOMPARE(r.targetNames, (std::vector<std::string>{"y2", "y1"}));
        QCOMPARE(r.targets(3, 0), 9.f);
        QCOMPARE(r.targets(3, 1), 1.5f);
        QCOMPARE(r.features(3, 1), -3.f);
        CsvOptions byIndex;
        byIndex.targets = {"1"};
        QCOMPARE(loadCsv(reg, byIndex).targetNames, (std::vector<std::string>{"y1"}));
        // Auto: the last column, 20 distinct integers in 20 rows, is regression; few integers are classes.
        QCOMPARE(loadCsv(reg).task, Task::Regression);
        std::string few = "a,b\n";
        for (int i = 0; i < 30; ++i) few += std::to_string(i) + "," + std::to_string(i % 3) + "\n";
        QCOMPARE(loadCsv(writeFile(dir, "few.csv", few)).task, Task::Classification);
    }

    void predictionCsv() {
        QTemporaryDir dir;
        const Dataset train = loadCsv(writeFile(dir, "train.csv", "size,colour,label\n1,red,a\n2,blue,b\n3,red,a\n"));
        QCOMPARE(train.categoricals.size(), std::size_t(1));
        QCOMPARE(train.categoricals[0].categories, (std::vector<std::string>{"blue", "red"}));

        // Columns found by name, in another order, target absent, an unseen category -> -1.
        const Dataset p = loadCsvForPrediction(writeFile(dir, "new.csv", "colour,extra,size\nred,0,5\ngreen,0,6\n"),
                                               train.featureNames, train.categoricals);
        QCOMPARE(p.size(), Index(2));
        QCOMPARE(p.features(0, 0), 5.f);
        QCOMPARE(p.features(0, 1), 1.f);
        QCOMPARE(p.features(1, 1), -1.f);
        // Without header: exactly the feature columns in training order.
        const Dataset q = loadCsvForPrediction(writeFile(dir, "bare.csv", "7,blue\n"), train.featureNames,
                                               train.categoricals);
        QCOMPARE(q.features(0, 0), 7.f);
        QCOMPARE(q.features(0, 1), 0.f);
        VERIFY_CONTAINS(errorOf([&] {
                            loadCsvForPrediction(writeFile(dir, "lack.csv", "colour,weight\nred,1\n"),
                                                 train.featureNames, train.categoricals);
                        }),
                        "the model needs column(s) 'size'");
        // Data to predict from is held to the same numbers as training data.
        const std::string infinite = writeFile(dir, "infinite.csv", "colour,size\nred,5\nblue,inf\n");
        QCOMPARE(errorOf([&] { loadCsvForPrediction(infinite, train.featureNames, train.categoricals); }),
                 infinite + ":3: column 'size' (1): 'inf' is not a finite number");
    }

    void idxTinyFiles() {
        QTemporaryDir dir;
        writeFile(dir, "tiny-images-idx3-ubyte", tinyImages());
        writeFile(dir, "tiny-labels-idx1-ubyte", tinyLabels());
        writeFile(dir, "zipped-images-idx3-ubyte.gz", gzip(tinyImages()));
        writeFile(dir, "zipped-labels-idx1-ubyte.gz", gzip(tinyLabels()));
        for (const char* images : {"tiny-images-idx3-ubyte", "zipped-images-idx3-ubyte.gz"}) {
            const Dataset d = loadIdx(dir.filePath(images).toStdString());  // labels found beside
            QCOMPARE(d.size(), Index(3));
            QCOMPARE(d.features.cols(), Index(6));
            QVERIFY(d.sampleShape == (Shape{1, 2, 3}));
            for (int i = 0; i < 3; ++i)
                for (int p = 0; p < 6; ++p) QCOMPARE(d.features(i, p), float(10 * i + p));
            QCOMPARE(d.labels, (std::vector<int>{7, 0, 3}));
            QCOMPARE(d.classCount(), 10);
            QCOMPARE(d.classNames[7], std::string("7"));
        }
        // A label beyond 9 widens the declared classes.
        std::string labels = tinyLabels();
        labels[9] = 12;
        const Dataset wide = loadIdx(dir.filePath("tiny-images-idx3-ubyte").toStdString(),
                                     writeFile(dir, "wide", labels));
        QCOMPARE(wide.classCount(), 13);
    }

    void idxErrors() {
        QTemporaryDir dir;
        const std::string labels = writeFile(dir, "l-labels-idx1-ubyte", tinyLabels());
        const std::string cut = writeFile(dir, "cut-images-idx3-ubyte", tinyImages().substr(0, 30));
        QCOMPARE(errorOf([&] { loadIdx(cut, labels); }), cut + ": truncated: expected 34 bytes, found 30");
        const std::string cutGz = writeFile(dir, "cutgz-images-idx3-ubyte.gz", gzip(tinyImages()).substr(0, 20));
        VERIFY_CONTAINS(errorOf([&] { loadIdx(cutGz, labels); }), cutGz + ": truncated: expected");

        std::string magic = tinyImages();
        magic[3] = 4;
        const std::string badMagic = writeFile(dir, "magic-images-idx3-ubyte", magic);
        VERIFY_CONTAINS(errorOf([&] { loadIdx(badMagic, labels); }),
                        "magic-images-idx3-ubyte: IDX images need 3 dimension(s)");
        const std::string text = writeFile(dir, "text-images-idx3-ubyte", "hello world, not IDX");
        VERIFY_CONTAINS(errorOf([&] { loadIdx(text, labels); }), "not an IDX file");
        magic = tinyImages();
        magic[2] = 0x0D;
        const std::string floats = writeFile(dir, "float-images-idx3-ubyte", magic);
        VERIFY_CONTAINS(errorOf([&] { loadIdx(floats, labels); }), "unsupported IDX data type 0x0D");

        const std::string images = writeFile(dir, "ok-images-idx3-ubyte", tinyImages());
        const std::string two = writeFile(dir, "two-labels", tinyLabels(2));
        QCOMPARE(errorOf([&] { loadIdx(images, two); }), two + ": 2 labels for the 3 images in " + images);
        VERIFY_CONTAINS(errorOf([&] { loadIdx(writeFile(dir, "lonely-images-idx3-ubyte", tinyImages())); }),
                        "no labels file beside it");
    }

    // Headers announcing more than the file holds, or than memory holds, are refused before
    // anything is allocated; their dimensions cannot overflow the size computations.
    void idxHostileHeaders() {
        QTemporaryDir dir;
        const std::string labels = writeFile(dir, "l-labels-idx1-ubyte", tinyLabels());
        const std::string huge = writeFile(dir, "huge-images-idx3-ubyte",
                                           be32(0x803) + be32(256) + be32(1u << 28) + be32(1u << 28));
        QCOMPARE(errorOf([&] { loadIdx(huge, labels); }),
                 huge + ": images of 268435456 x 268435456 pixels are too large (at most 2147483647 pixels per image)");
        const std::string header = be32(0x803) + be32(60000) + be32(28) + be32(28);
        const std::string plain = writeFile(dir, "plain-images-idx3-ubyte", header + "abc");
        QCOMPARE(errorOf([&] { loadIdx(plain, labels); }), plain + ": truncated: expected 47040016 bytes, found 19");
        const std::string zipped = gzip(header);
        const std::string gz = writeFile(dir, "short-images-idx3-ubyte.gz", zipped);
        QCOMPARE(errorOf([&] { loadIdx(gz, labels); }),
                 gz + ": truncated: its IDX header announces 47040016 bytes, more than a gzip file of " +
                     std::to_string(zipped.size()) + " bytes can hold");

        // A gzip bomb: enough compressed bytes to decompress to more than this machine's memory.
        // Only their count matters: the header is refused before any of them is read.
        const std::uint64_t memory = std::uint64_t(sysconf(_SC_PHYS_PAGES)) * std::uint64_t(sysconf(_SC_PAGE_SIZE));
        const std::uint64_t images = memory / 5 / 784 + 1;
        const std::uint64_t padding = images * 784 / 1032 + 1;
        if (images > UINT32_MAX || padding > (std::uint64_t(1) << 28)) QSKIP("too much memory for a small bomb");
        const std::string bomb = writeFile(dir, "bomb-images-idx3-ubyte.gz",
                                           gzip(be32(0x803) + be32(std::uint32_t(images)) + be32(28) + be32(28)) +
                                               std::string(std::size_t(padding), '\0'));
        const std::string message = errorOf([&] { loadIdx(bomb, labels); });
        VERIFY_CONTAINS(message, bomb + ": its IDX header announces " + std::to_string(images * 784) +
                                     " values, which need about ");
        VERIFY_CONTAINS(message, " of memory to load, more than this machine has (");
        // One image of 46340 x 46340 pixels: the bytes would fit, a feature name per pixel not.
        const std::uint64_t pixels = 46340ull * 46340ull;
        if (pixels * 5 + pixels * 64 < memory) QSKIP("more memory than one huge image needs");
        const std::string wide = writeFile(dir, "wide-images-idx3-ubyte.gz",
                                           gzip(be32(0x803) + be32(1) + be32(46340) + be32(46340)) +
                                               std::string(std::size_t(pixels / 1032 + 1), '\0'));
        VERIFY_CONTAINS(errorOf([&] { loadIdx(wide, labels); }),
                        wide + ": its IDX header announces " + std::to_string(pixels) + " values, which need about ");
    }

    void fashionMnist() {
        if (!fashionMnistInstalled()) SKIP_UNLESS_CI("Fashion-MNIST is not installed");
        const Dataset d = loadIdx("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz");
        QCOMPARE(d.size(), Index(60000));
        QCOMPARE(d.features.cols(), Index(784));
        QVERIFY(d.sampleShape == (Shape{1, 28, 28}));
        QCOMPARE(d.classCount(), 10);
        QCOMPARE(d.labels[0], 9);
        QCOMPARE(d.classNames[9], std::string("Ankle boot"));
        QCOMPARE(d.classNames[0], std::string("T-shirt/top"));
        QVERIFY(d.features.maxCoeff() <= 255.f && d.features.maxCoeff() > 200.f);
        const Dataset test = loadIdx("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz");
        QCOMPARE(test.size(), Index(10000));
        QCOMPARE(test.labels[0], 9);  // the t10k labels file starts 09 02 01 01 ...
        QCOMPARE(test.labels[1], 2);
    }

    void generators() {
        const Dataset a = makeTwoSpirals(100, 0.05f, 42), b = makeTwoSpirals(100, 0.05f, 42),
                      c = makeTwoSpirals(100, 0.05f, 43);
        QCOMPARE(a.size(), Index(200));
        QCOMPARE(a.classNames, (std::vector<std::string>{"spiral A", "spiral B"}));
        QCOMPARE(a.task, Task::Classification);
        QVERIFY(a.features == b.features);
        QVERIFY(a.labels == b.labels);
        QVERIFY(a.features != c.features);
        a.validate();
        QCOMPARE(makeSpirals(3, 10, 0, 1).classCount(), 3);

        const Dataset s = makeSineRegression(300, 3, 0.01f, 7), s2 = makeSineRegression(300, 3, 0.01f, 7);
        QCOMPARE(s.task, Task::Regression);
        QCOMPARE(s.features.cols(), Index(4));
        QCOMPARE(s.targets.cols(), Index(3));
        QVERIFY(s.features == s2.features && s.targets == s2.targets);
        QVERIFY(s.targets != makeSineRegression(300, 3, 0.01f, 8).targets);
        QVERIFY(s.features.cwiseAbs().maxCoeff() <= std::numbers::pi_v<float>);
        QVERIFY(s.targets.cwiseAbs().maxCoeff() < 1.1f);
        // Each output is a different function of the inputs.
        QVERIFY((s.targets.col(0) - s.targets.col(1)).cwiseAbs().maxCoeff() > 0.1f);

        const Dataset blobs = makeBlobs(5, 20, 3, 0.5f, 9);
        QCOMPARE(blobs.classCount(), 5);
        QCOMPARE(blobs.size(), Index(100));
        QVERIFY(blobs.features == makeBlobs(5, 20, 3, 0.5f, 9).features);
        QVERIFY(blobs.features != makeBlobs(5, 20, 3, 0.5f, 10).features);
        VERIFY_CONTAINS(errorOf([] { makeBlobs(1, 20, 3, 0.5f, 9); }), "classes must be at least 2");
    }

    void preprocessingFromTrainingRowsOnly() {
        // Rows 0..99 are the training split; the others are far away and must not influence the fit.
        Dataset d = makeSineRegression(150, 1, 0, 3);
        d.features.bottomRows(50).array() += 1000.f;
        d.features.col(3).setConstant(2.f);  // constant column: scale stays 1
        std::vector<int> trainRows(100);
        for (int i = 0; i < 100; ++i) trainRows[std::size_t(i)] = i;
        const Dataset train = d.subset(trainRows);

        Preprocessing p;
        p.fit(train);
        QCOMPARE(p.rawColumns, 4);
        QCOMPARE(p.outputColumns(), 4);
        for (int c = 0; c < 3; ++c) QVERIFY(std::fabs(p.offset[c] - d.features.col(c).head(100).mean()) < 1e-4f);
        QCOMPARE(p.scale[3], 1.f);
        const Matrix z = p.apply(train.features);
        for (int c = 0; c < 3; ++c) {
            const double mean = z.col(c).cast<double>().mean();
            const double sd = std::sqrt((z.col(c).cast<double>().array() - mean).square().mean());
            QVERIFY2(std::fabs(mean) < 1e-4 && std::fabs(sd - 1) < 1e-4,
                     qPrintable(QString("column %1: %2 %3").arg(c).arg(mean).arg(sd)));
        }
        QVERIFY(p.apply(d.features).bottomRows(50).col(0).minCoeff() > 100.f);  // test rows are not re-centred

        Preprocessing m;
        m.scaling = Scaling::MinMax;
        m.fit(train);
        const Matrix mm = m.apply(train.features);
        QCOMPARE(mm.leftCols(3).minCoeff(), 0.f);
        QVERIFY(std::fabs(mm.leftCols(3).maxCoeff() - 1.f) < 1e-6f);
        QCOMPARE(mm(0, 3), 0.f);

        // One range for every column: pixels [0 2; 4 8] -> offset 0, scale 1/8, and a column
        // that is never lit stays 0 instead of being stretched to [0, 1].
        Dataset pixels;
        pixels.features = Matrix{{0, 2, 0}, {4, 8, 0}};
        Preprocessing pr;
        pr.scaling = parseScaling("pixel-range");
        pr.fit(pixels);
        QCOMPARE(pr.apply(pixels.features), (Matrix{{0, 0.25f, 0}, {0.5f, 1, 0}}));
        QCOMPARE(pr.apply(Matrix{{-4, 16, 2}}), (Matrix{{-0.5f, 2, 0.25f}}));  // new data keeps the training range
        QCOMPARE(scalingName(Scaling::PixelRange), std::string("pixel-range"));

        Preprocessing none;
        none.scaling = parseScaling("none");
        none.fit(train);
        QVERIFY(none.apply(train.features) == train.features);
        QCOMPARE(scalingName(Scaling::MinMax), std::string("minmax"));
        VERIFY_CONTAINS(errorOf([] { parseScaling("zscale"); }), "unknown scaling 'zscale'");
        VERIFY_CONTAINS(errorOf([&] { p.apply(Matrix::Zero(2, 3)); }), "expects 4 feature columns, got 3");
    }

    void oneHotCategorical() {
        QTemporaryDir dir;
        const Dataset d = loadCsv(
            writeFile(dir, "cat.csv", "size,colour,label\n1,red,a\n3,blue,b\n5,green,a\n7,red,b\n"));
        Preprocessing p;
        p.fit(d);
        QCOMPARE(p.numericColumns, (std::vector<int>{0}));
        QCOMPARE(p.outputColumns(), 4);
        QCOMPARE(p.outputNames(d.featureNames),
                 (std::vector<std::string>{"size", "colour=blue", "colour=green", "colour=red"}));
        const Matrix x = p.apply(d.features);
        Matrix expected(4, 3);
        expected << 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1;
        QVERIFY(x.rightCols(3) == expected);
        QVERIFY(std::fabs(x(0, 0) + 1.3416408f) < 1e-5f);  // (1 - 4) / sqrt(5)
        Matrix unseen(1, 2);
        unseen << 4, -1;
        QVERIFY(p.apply(unseen).rightCols(3).isZero());
    }

    void stratifiedSplit() {
        // Unequal classes: 60, 37, 11 and 2 samples.
        Dataset uneven = makeBlobs(4, 60, 2, 1.f, 5);
        std::vector<int> keep;
        const int sizes[] = {60, 37, 11, 2};
        for (int k = 0; k < 4; ++k)
            for (int i = 0; i < sizes[k]; ++i) keep.push_back(k * 60 + i);
        uneven = uneven.subset(keep);

        const SplitIndices s = splitIndices(uneven, 0.2, 0.25, 11);
        std::set<int> all;
        for (const auto* part : {&s.train, &s.validation, &s.test}) all.insert(part->begin(), part->end());
        QCOMPARE(int(all.size()), int(uneven.size()));  // disjoint and covering
        QCOMPARE(int(s.train.size() + s.validation.size() + s.test.size()), int(uneven.size()));
        QCOMPARE(*all.begin(), 0);
        QCOMPARE(*all.rbegin(), int(uneven.size()) - 1);
        const auto test = classCounts(uneven, s.test), validation = classCounts(uneven, s.validation),
                   train = classCounts(uneven, s.train);
        for (int k = 0; k < 4; ++k) {
            QVERIFY2(std::fabs(test[std::size_t(k)] - sizes[k] * 0.25) <= 1,
                     qPrintable(QString("class %1 test").arg(k)));
            QVERIFY2(std::fabs(validation[std::size_t(k)] - sizes[k] * 0.2) <= 1,
                     qPrintable(QString("class %1 val").arg(k)));
            QVERIFY(train[std::size_t(k)] >= 1);
        }
        QCOMPARE(splitIndices(uneven, 0.2, 0.25, 11).train, s.train);
        QVERIFY(splitIndices(uneven, 0.2, 0.25, 12).train != s.train);

        const Dataset r = makeSineRegression(101, 1, 0, 2);
        const SplitIndices rs = splitIndices(r, 0.1, 0.2, 3);
        QCOMPARE(rs.test.size(), std::size_t(20));
        QCOMPARE(rs.validation.size(), std::size_t(10));
        QCOMPARE(rs.train.size(), std::size_t(71));
        VERIFY_CONTAINS(errorOf([&] { splitIndices(r, 0.5, 0.5, 1); }), "split fractions");

        // partSizes is the split's own count: the same numbers, per class, without drawing.
        const std::vector<PartSizes> parts = partSizes({60, 37, 11, 2}, 0.2, 0.25);
        for (int k = 0; k < 4; ++k) {
            QCOMPARE(parts[std::size_t(k)].train, train[std::size_t(k)]);
            QCOMPARE(parts[std::size_t(k)].validation, validation[std::size_t(k)]);
            QCOMPARE(parts[std::size_t(k)].test, test[std::size_t(k)]);
        }
    }

    void oneClassIsRefused() {
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "oneclass.csv", "a,b,label\n1,2,x\n2,3,x\n3,1,x\n4,5,x\n5,5,x\n");
        CsvOptions options;
        options.targets = {"label"};
        const Dataset d = loadCsv(path, options);
        const std::string expected = path + ": target column 'label' holds one class only ('x' in all 5 rows): "
                                            "classification needs at least 2 classes";
        QCOMPARE(errorOf([&] { partitionData(d, 0.1, 0.2, false, 1, Scaling::Standardize); }), expected);
        // Without validation or test rows too: it is the class, not the row count.
        QCOMPARE(errorOf([&] { checkTrainable(d, 0, 0, false); }), expected);
        // Asked for as classification, a one-valued numeric column is refused alike.
        const std::string numeric = writeFile(dir, "ones.csv", "a,y\n1,7\n2,7\n3,7\n4,7\n5,7\n6,7\n");
        options.targets = {};
        options.task = Task::Classification;
        QCOMPARE(errorOf([&] { checkTrainable(loadCsv(numeric, options), 0.1, 0.2, false); }),
                 numeric +
                     ": target column 'y' holds one class only ('7' in all 6 rows): classification needs at least 2 "
                     "classes");

        // Declared classes that the rows do not hold (IDX, generators) do not count; the labels have no column name.
        const Dataset blobs = makeBlobs(3, 10, 2, 1.f, 4);
        std::vector<int> second;
        for (int r = 0; r < int(blobs.size()); ++r)
            if (blobs.labels[std::size_t(r)] == 1) second.push_back(r);
        const Dataset onlyOne = blobs.subset(second);
        QCOMPARE(errorOf([&] { checkTrainable(onlyOne, 0.1, 0.2, false); }),
                 onlyOne.source + ": the labels hold one class only ('" + blobs.classNames[1] +
                     "' in all 10 rows) of the 3 declared: classification needs at least 2 classes");
        // Two classes train.
        QVERIFY(checkTrainable(blobs, 0.1, 0.2, false).empty());
    }

    void tooFewRowsForTheParts() {
        QTemporaryDir dir;
        const std::string one = writeFile(dir, "onerow.csv", "a,b,label\n1,2,x\n");
        const std::string two = writeFile(dir, "tworows.csv", "a,b,label\n1,2,x\n2,1,y\n");
        CsvOptions classes;
        classes.task = Task::Classification;
        QCOMPARE(errorOf([&] { partitionData(loadCsv(two, classes), 0.1, 0.2, false, 1, Scaling::Standardize); }),
                 two +
                     ": 2 rows are too few for training, validation (fraction 0.1) and test (fraction 0.2): at least 5 "
                     "rows are needed to give each part a row");
        QCOMPARE(errorOf([&] { checkTrainable(loadCsv(one, classes), 0.5, 0, false); }),
                 one + ": 1 row is too few for training and validation (fraction 0.5): at least 2 rows are needed to "
                       "give "
                       "each part a row");
        // A separate test file: the test fraction asks for nothing.
        QCOMPARE(errorOf([&] { checkTrainable(loadCsv(two, classes), 0.5, 0.2, true); }),
                 two + ": 2 rows in 2 classes leave no row for validation: the stratified split keeps a row of every "
                       "class "
                       "for training (give the classes more rows, or set that fraction to 0)");
        // Nothing held out: two rows of two classes are enough.
        QCOMPARE(partitionData(loadCsv(two, classes), 0, 0, false, 1, Scaling::Standardize).train.size(), Index(2));

        // The count said is the threshold: one row fewer is refused, that many fill every part.
        for (const auto& [validation, test] :
             std::vector<std::pair<double, double>>{{0.1, 0.2}, {0.05, 0}, {0, 0.3}, {0.3, 0.3}}) {
            int needed = 0;
            for (int n = 1; n < 100 && needed == 0; ++n) {
                const Dataset sine = makeSineRegression(n, 1, 0, 2);
                const std::string e = errorOf([&] { checkTrainable(sine, validation, test, false); });
                if (e != "(no error)") continue;
                needed = n;
                const DataPartition p = partitionData(sine, validation, test, false, 3, Scaling::None);
                QVERIFY(p.train.size() > 0);
                QCOMPARE(p.validation.size() > 0, validation > 0);
                QCOMPARE(p.test.size() > 0, test > 0);
            }
            QVERIFY(needed > 1);
            VERIFY_CONTAINS(errorOf([&] {
                                checkTrainable(makeSineRegression(needed - 1, 1, 0, 2), validation, test, false);
                            }),
                            "at least " + std::to_string(needed) + " rows are needed");
        }

        // Enough rows, but five classes of one row each keep them all for training.
        const std::string singles = writeFile(dir, "singles.csv", "a,y\n1,p\n2,q\n3,r\n4,s\n5,t\n");
        QCOMPARE(errorOf([&] { checkTrainable(loadCsv(singles), 0.2, 0, false); }),
                 singles +
                     ": 5 rows in 5 classes leave no row for validation: the stratified split keeps a row of every "
                     "class for training (give the classes more rows, or set that fraction to 0)");
    }

    void constantRegressionTargetWarns() {
        QTemporaryDir dir;
        std::string text = "x,y,z\n";
        for (int i = 0; i < 20; ++i) text += std::to_string(i) + ",3.5," + std::to_string(i % 3) + ".5\n";
        const std::string path = writeFile(dir, "constant.csv", text);
        CsvOptions options;
        options.targets = {"y", "z"};
        const Dataset d = loadCsv(path, options);
        const DataPartition p = partitionData(d, 0.1, 0.2, false, 1, Scaling::Standardize);
        QCOMPARE(p.warnings,
                 (std::vector<std::string>{path + ": target column 'y' holds one value only (3.5 in all 20 rows): "
                                                  "the model can only learn that constant"}));
        QCOMPARE(p.train.size() + p.validation.size() + p.test.size(), Index(20));  // a warning, not a refusal
        options.targets = {"z"};
        QVERIFY(checkTrainable(loadCsv(path, options), 0.1, 0.2, false).empty());
    }
};

QTEST_APPLESS_MAIN(TstData)
#include "tst_data.moc"
