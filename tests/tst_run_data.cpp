// A run's data request (run/run_data.h) in its JSON form, the one an MPI job carries to the
// workers, which prepare their rows from it: every field comes back as it went out, through the
// message text too, and a bad value is refused with the field at fault named.
#include <QtTest>

#include <cstdint>

#include "core/error.h"
#include "io/json.h"
#include "run/run_data.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// Every field away from its default, the option names of messages included.
DataRequest everyField(const std::string& part) {
    DataRequest r;
    r.option = "project data " + part;
    r.path = "/data/" + part + "-images-idx3-ubyte.gz";
    r.labels = "/data/" + part + "-labels-idx1-ubyte.gz";
    r.target = "species";
    r.task = Task::Regression;
    r.labelsOption = "project data " + part + "Labels";
    r.targetOption = "project data targetColumn";
    r.image.height = 31;
    r.image.width = 17;
    r.image.channels = 1;
    r.image.strict = true;
    r.image.memoryLimitBytes = (std::uint64_t(1) << 62) + 7;  // beyond a double's exact integers
    r.sampleShape = Shape{3, 4, 5};
    r.imageOption = "project data image";
    r.sampleShapeOption = "project data sampleShape";
    return r;
}

RunData withTestFile() {
    RunData d;
    d.train = everyField("train");
    d.test = everyField("test");
    d.test->task = Task::Binary;
    d.test->image.channels = 3;
    d.preparation.validationFraction = 0.125;
    d.preparation.testFraction = 0.3;
    d.preparation.separateTestFile = true;
    d.preparation.seed = 0xFEDCBA9876543210ull;  // beyond a double's exact integers too
    d.preparation.scaling = Scaling::MinMax;
    return d;
}

// Through the message text, as the worker reads it.
RunData throughText(const RunData& d) {
    const Json doc = parseJson(dumpJson(toJson(d)), "MPI job");
    return runDataFromJson(JsonField(doc, "MPI job"));
}

// runDataFromJson's error for a copy of d's JSON changed by `change`.
template <typename Change>
QString errorFor(const RunData& d, Change change) {
    Json j = toJson(d);
    change(j);
    return errorText([&] { runDataFromJson(JsonField(j, "MPI job")); });
}

}  // namespace

class TestRunData : public QObject {
    Q_OBJECT

private slots:
    void roundTripWithTestFile() {
        const RunData d = withTestFile();
        QVERIFY(runDataFromJson(JsonField(toJson(d))) == d);
        const RunData back = throughText(d);
        QVERIFY(back == d);
        // The fields compared one by one as well, so that a field operator== forgot would show.
        QVERIFY(back.test.has_value());
        QCOMPARE(back.train.option, std::string("project data train"));
        QCOMPARE(back.train.path, d.train.path);
        QCOMPARE(back.train.labels, d.train.labels);
        QCOMPARE(back.train.target, std::string("species"));
        QVERIFY(back.train.task == Task::Regression);
        QVERIFY(back.test->task == Task::Binary);
        QCOMPARE(back.train.labelsOption, std::string("project data trainLabels"));
        QCOMPARE(back.test->labelsOption, std::string("project data testLabels"));
        QCOMPARE(back.train.targetOption, std::string("project data targetColumn"));
        QCOMPARE(back.train.image.height, 31);
        QCOMPARE(back.train.image.width, 17);
        QCOMPARE(back.train.image.channels, 1);
        QCOMPARE(back.test->image.channels, 3);
        QVERIFY(back.train.image.strict);
        QCOMPARE(back.train.image.memoryLimitBytes, (std::uint64_t(1) << 62) + 7);
        QVERIFY(back.train.sampleShape == (Shape{3, 4, 5}));
        QCOMPARE(back.train.imageOption, std::string("project data image"));
        QCOMPARE(back.train.sampleShapeOption, std::string("project data sampleShape"));
        QCOMPARE(back.preparation.validationFraction, 0.125);
        QCOMPARE(back.preparation.testFraction, 0.3);
        QVERIFY(back.preparation.separateTestFile);
        QCOMPARE(back.preparation.seed, std::uint64_t(0xFEDCBA9876543210ull));
        QVERIFY(back.preparation.scaling == Scaling::MinMax);
    }

    // No test file: the test rows are cut from the training file, and the request says so.
    void roundTripWithoutTestFile() {
        RunData d = withTestFile();
        d.test.reset();
        d.preparation.separateTestFile = false;
        const RunData back = throughText(d);
        QVERIFY(back == d);
        QVERIFY(!back.test.has_value());
        QVERIFY(!back.preparation.separateTestFile);
    }

    // A generator with the defaults: no task, no sample shape, the CLI's option names.
    void roundTripOfABuiltin() {
        RunData d;
        d.train.path = "builtin:blobs:classes=10:features=8:samples=500";
        d.preparation.seed = 5;
        d.preparation.scaling = defaultScalingFor(d.train.path);
        const RunData back = throughText(d);
        QVERIFY(back == d);
        QCOMPARE(back.train.path, d.train.path);
        QCOMPARE(back.train.option, std::string("--data"));
        QVERIFY(!back.train.task.has_value());
        QVERIFY(!back.train.sampleShape.has_value());
        QVERIFY(back.preparation.scaling == Scaling::Standardize);
        QVERIFY(filesRead(back).empty());  // a generator reads no file
    }

    // A value a worker cannot use is refused with its field named (a job from another version).
    void badValuesNameTheirField() {
        const RunData d = withTestFile();
        QCOMPARE(errorFor(d, [](Json& j) { j["train"]["image"]["channels"] = 4; }),
                 QString("MPI job: train.image.channels must be at most 3"));
        QCOMPARE(errorFor(d, [](Json& j) { j["test"]["image"]["height"] = -1; }),
                 QString("MPI job: test.image.height must be a non-negative integer"));
        QCOMPARE(errorFor(d, [](Json& j) { j["scaling"] = "cubic"; }),
                 QString(
                     "MPI job: scaling: unknown scaling 'cubic' (expected none, standardize, minmax or pixel-range)"));
        QCOMPARE(errorFor(d, [](Json& j) { j["train"]["task"] = "ranking"; }),
                 QString("MPI job: train.task: unknown task 'ranking' (expected classification, binary, regression or "
                         "reconstruction)"));
        QCOMPARE(errorFor(d, [](Json& j) { j["test"]["sampleShape"] = "3x4"; }),
                 QString("MPI job: test.sampleShape: expected CHANNELSxHEIGHTxWIDTH, three positive numbers, e.g. "
                         "1x28x28, got '3x4'"));
        QCOMPARE(errorFor(d, [](Json& j) { j["train"].erase("path"); }),
                 QString("MPI job: missing field 'train.path'"));
        QCOMPARE(errorFor(d, [](Json& j) { j["seed"] = -3; }), QString("MPI job: seed must be at least 0, not -3"));
        QCOMPARE(errorFor(d, [](Json& j) { j["validationFraction"] = "a"; }),
                 QString("MPI job: validationFraction must be a number, not a string"));
    }
};

QTEST_GUILESS_MAIN(TestRunData)
#include "tst_run_data.moc"
