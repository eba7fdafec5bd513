// The Qt adapter over the engine: project document, data loading, item models, settings and the
// training session (signals, throttling, cancel, pause, errors), without any widget.
#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "class_groups_setup.h"
#include "cli_support.h"
#include "core/error.h"
#include "data/generators.h"
#include "split/combined_model.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/comparison_table_model.h"
#include "ui/core/data_loading.h"
#include "ui/core/dataset_table_model.h"
#include "ui/core/epoch_table_model.h"
#include "ui/core/fingerprint_cache.h"
#include "ui/core/layer_table_model.h"
#include "ui/core/plan_table_model.h"
#include "ui/core/project_document.h"
#include "ui/core/thread_priority.h"
#include "ui/core/training_session.h"
#include "ui/core/undo_commands.h"

#include <thread>
#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

using namespace skynnet;
using namespace skynnet::ui;

namespace {

// Six well-separated blobs: a problem a small MLP learns to > 90% in a few epochs.
const QString smallBlobs = QStringLiteral("builtin:blobs:samples=1500:classes=6:features=4:noise=0.6");
// Large and wide enough that a run lasts seconds: for stopping and pausing mid-training.
const QString slowBlobs = QStringLiteral("builtin:blobs:samples=20000:classes=6:features=32:noise=1.0");

ProjectDataSource settingsFor(const QString& path) {
    ProjectDataSource s;
    s.train.path = path.toStdString();
    return s;
}

void configure(ProjectDocument& doc, const QString& path, int epochs, const char* layers = nullptr) {
    configureClassGroups(doc, path, epochs, layers);
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text);
    return path;
}

struct SessionSpies {
    explicit SessionSpies(TrainingSession& s)
        : started(&s, &TrainingSession::started), progress(&s, &TrainingSession::progress),
          log(&s, &TrainingSession::logMessage), overall(&s, &TrainingSession::overallProgress),
          finished(&s, &TrainingSession::finished), failed(&s, &TrainingSession::failed) {}
    QList<int> counts() const {
        return {int(started.count()), int(progress.count()), int(log.count()),
                int(overall.count()), int(finished.count()), int(failed.count())};
    }
    QSignalSpy started, progress, log, overall, finished, failed;
};

TrainStatus statusOf(const QSignalSpy& finished, int i = 0) { return finished.at(i).at(0).value<TrainStatus>(); }

// What a plan decides about the data: the rows and the seed of every submodel, and its size.
struct PlanRows {
    long samples = 0;
    std::vector<std::vector<int>> rows;
    std::vector<std::uint64_t> seeds;
    std::vector<NetworkSpec> specs;
    bool operator==(const PlanRows&) const = default;
};
PlanRows planRows(const SplitPlan& p) {
    PlanRows r;
    r.samples = p.samples;
    for (const SubmodelPlan& s : p.submodels) {
        r.rows.push_back(s.rows);
        r.seeds.push_back(s.seed);
        r.specs.push_back(s.spec);
    }
    return r;
}

// The document's data as a run would see it: settings, the prepared training rows, the plan.
struct DocumentData {
    ProjectDataSource settings;
    Matrix train, validation, test;
    PlanRows plan;
};
DocumentData documentData(const ProjectDocument& doc) {
    const auto p = doc.prepared();
    return {doc.dataSettings(), p->train.features, p->validation.features, p->test.features, planRows(doc.plan())};
}
bool sameData(const DocumentData& a, const DocumentData& b) {
    return a.settings == b.settings && a.train == b.train && a.validation == b.validation && a.test == b.test &&
           a.plan == b.plan;
}

}  // namespace

class TestUiCore : public QObject {
    Q_OBJECT
private slots:
    void documentDefaults();
    void documentSignalsOnlyOnChange();
    void documentPreparedAndPlan();
    void documentOneHotAndRegression();
    void separateTestFile();
    void badCsvKeepsDocument();
    void datasetModel();
    void datasetModelLarge();
    void layerModel();
    void planModel();
    void newProjectDefaultsFollowTheTask();
    void appSettings();
    void fullSession();
    void throttledProgress();
    void cancelSession();
    void resumeStoppedRun();
    void pauseResume();
    void badPlanFails();
    void lossesFitTheirTasks();
    void restartAndDestroyWhileRunning();
    void peakMemoryIsTheClis();
    void backgroundThreadsRunBelowTheGui();
    void dataOptionsUndoRedo();
    void dataOptionEditsMerge();
    void dataReloadUndoRedo();
    void fingerprintsHashedOncePerVersion();
};

void TestUiCore::documentDefaults() {
    ProjectDocument doc;
    QCOMPARE(doc.splitOptions().strategy, Strategy::Auto);
    QCOMPARE(doc.splitOptions().requested, 3);
    const ProjectTraining& t = doc.trainSettings();
    QCOMPARE(t.config.optimizer.kind, OptimizerKind::Adam);
    QCOMPARE(t.config.optimizer.learningRate, 1e-3f);
    QCOMPARE(t.config.batchSize, 128);
    QCOMPARE(t.config.epochs, 10);
    QCOMPARE(t.config.seed, std::uint64_t(1));
    QCOMPARE(t.threadBudget, 0);
    QVERIFY(t.trainBaseline);
    QVERIFY(!doc.hasData());
    QVERIFY_THROWS_EXCEPTION(Error, doc.prepared());

    doc.load(settingsFor(smallBlobs));  // 1500 samples: the small default network
    QCOMPARE(QString::fromStdString(formatLayers(doc.network().layers)), QStringLiteral("dense:64:relu,dense:32:relu"));
    QCOMPARE(doc.network().input, Shape::flat(4));
    QCOMPARE(doc.network().outputs, 6);
    QCOMPARE(doc.network().outputActivation, Activation::Softmax);
    QCOMPARE(doc.trainSettings().config.epochs, 10);

    // Large data: the wide default network and fewer epochs, as long as the user has not chosen.
    auto large = std::make_shared<const Dataset>(makeBlobs(3, 10000, 2, 1.0f, 1));
    doc.setData(settingsFor("memory"), large, nullptr);
    QCOMPARE(QString::fromStdString(formatLayers(doc.network().layers)),
             QStringLiteral("dense:512:relu,dense:256:relu"));
    QCOMPARE(doc.network().input, Shape::flat(2));
    QCOMPARE(doc.network().outputs, 3);
    QCOMPARE(doc.trainSettings().config.epochs, 5);

    NetworkSpec edited = doc.network();
    edited.layers = parseLayers("dense:16:tanh");
    edited.outputs = 99;  // not the designer's to choose: follows the data
    doc.setNetwork(edited);
    QCOMPARE(doc.network().outputs, 3);
    doc.load(settingsFor(smallBlobs));
    QCOMPARE(QString::fromStdString(formatLayers(doc.network().layers)), QStringLiteral("dense:16:tanh"));
    QCOMPARE(doc.network().outputs, 6);
}

void TestUiCore::documentSignalsOnlyOnChange() {
    ProjectDocument doc;
    doc.load(settingsFor(smallBlobs));
    QSignalSpy data(&doc, &ProjectDocument::dataChanged), network(&doc, &ProjectDocument::networkChanged),
        split(&doc, &ProjectDocument::splitOptionsChanged), train(&doc, &ProjectDocument::trainSettingsChanged);
    doc.setDataSettings(doc.dataSettings());
    doc.setNetwork(doc.network());
    doc.setSplitOptions(doc.splitOptions());
    doc.setTrainSettings(doc.trainSettings());
    QCOMPARE(data.count() + network.count() + split.count() + train.count(), 0);

    ProjectDataSource d = doc.dataSettings();
    d.seed = 7;
    doc.setDataSettings(d);
    NetworkSpec n = doc.network();
    std::get<DenseSpec>(n.layers[0]).units = 65;
    doc.setNetwork(n);
    SplitOptions o = doc.splitOptions();
    o.requested = 6;
    doc.setSplitOptions(o);
    ProjectTraining t = doc.trainSettings();
    t.config.optimizer.learningRate = 0.01f;
    doc.setTrainSettings(t);
    QCOMPARE(data.count(), 1);
    QCOMPARE(network.count(), 1);
    QCOMPARE(split.count(), 1);
    QCOMPARE(train.count(), 1);
}

void TestUiCore::documentPreparedAndPlan() {
    ProjectDocument doc;
    doc.load(settingsFor(smallBlobs));
    const auto p = doc.prepared();
    QCOMPARE(doc.prepared(), p);  // cached
    QCOMPARE(p->train.size() + p->validation.size() + p->test.size(), Index(1500));
    QCOMPARE(p->test.size(), Index(300));
    QCOMPARE(p->validation.size(), Index(150));
    QVERIFY(p->preprocessing.fitted());
    // Standardised on the training rows: mean ~0 there, not exactly 0 on the held-out rows.
    QVERIFY(std::abs(p->train.features.col(0).mean()) < 1e-4);

    ProjectDataSource d = doc.dataSettings();
    d.testFraction = 0.1;
    doc.setDataSettings(d);
    QVERIFY(doc.prepared() != p);
    QCOMPARE(doc.prepared()->test.size(), Index(150));

    // plan() is the plan of the prepared training rows, without preparing the features.
    SplitOptions o = doc.splitOptions();
    o.requested = 3;
    doc.setSplitOptions(o);
    const SplitPlan plan = doc.plan();
    const SplitPlan direct = makePlan(doc.network(), doc.prepared()->train, doc.effectiveSplitOptions());
    QCOMPARE(plan.submodelCount(), 3);
    QCOMPARE(plan.samples, direct.samples);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(plan.submodels[std::size_t(i)].rows, direct.submodels[std::size_t(i)].rows);
        QCOMPARE(plan.submodels[std::size_t(i)].spec, direct.submodels[std::size_t(i)].spec);
    }
    QCOMPARE(plan.epochs, doc.trainSettings().config.epochs);

    // The plan is kept between calls, and made again after any change of what it depends on.
    NetworkSpec n = doc.network();
    n.layers = parseLayers("dense:20:relu");
    doc.setNetwork(n);
    QCOMPARE(std::get<DenseSpec>(doc.plan().original.layers.front()).units, 20);
    o.requested = 6;
    doc.setSplitOptions(o);
    QCOMPARE(doc.plan().submodelCount(), 6);
    ProjectTraining t = doc.trainSettings();
    t.config.epochs = 7;
    doc.setTrainSettings(t);
    QCOMPARE(doc.plan().epochs, 7);
    d.testFraction = 0.3;
    doc.setDataSettings(d);
    QCOMPARE(doc.plan().samples, long(doc.prepared()->train.size()));
    QCOMPARE(doc.plan().samples, 1500L - 450L - 150L);
}

void TestUiCore::documentOneHotAndRegression() {
    QTemporaryDir dir;
    QByteArray csv = "colour,size,label\n";
    const char* colours[] = {"red", "green", "blue"};
    for (int i = 0; i < 60; ++i)
        csv += QByteArray(colours[i % 3]) + "," + QByteArray::number(i % 7) + "," + (i % 2 ? "yes" : "no") + "\n";
    const QString path = writeFile(dir, "mixed.csv", csv);
    ProjectDocument doc;
    ProjectDataSource s = settingsFor(path);
    s.task = Task::Classification;  // 2 classes as a 2-way softmax
    doc.load(s);
    // 1 numeric column + 3 one-hot colours.
    QCOMPARE(doc.network().input, Shape::flat(4));
    QCOMPARE(doc.prepared()->train.features.cols(), Index(4));
    QCOMPARE(doc.network().outputs, 2);

    doc.load(settingsFor("builtin:sine:outputs=3"));
    QCOMPARE(doc.network().outputs, 3);
    QCOMPARE(doc.network().outputActivation, Activation::None);
    QCOMPARE(doc.trainSettings().config.loss, LossKind::MeanSquaredError);  // follows the task
}

void TestUiCore::separateTestFile() {
    QTemporaryDir dir;
    QByteArray train = "colour,size,label\n";
    const char* colours[] = {"red", "green", "blue"};
    for (int i = 0; i < 60; ++i)
        train += QByteArray(colours[i % 3]) + "," + QByteArray::number(i % 7) + "," + (i % 2 ? "yes" : "no") + "\n";
    // Another column order and only one of the classes: lined up with the training file by name.
    const QByteArray test = "size,colour,label\n1,blue,yes\n2,red,yes\n3,blue,yes\n";
    ProjectDataSource s = settingsFor(writeFile(dir, "train.csv", train));
    s.test.path = writeFile(dir, "test.csv", test).toStdString();
    s.task = Task::Classification;
    ProjectDocument doc;
    doc.load(s);
    QVERIFY(doc.testDataset());
    const auto p = doc.prepared();
    QCOMPARE(p->test.size(), Index(3));
    QCOMPARE(p->train.size() + p->validation.size(), Index(60));  // no test rows taken from the training file
    const int yes = int(std::find(p->train.classNames.begin(), p->train.classNames.end(), "yes") -
                        p->train.classNames.begin());
    QCOMPARE(p->test.labels, std::vector<int>(3, yes));
    // One-hot columns after the numeric one, in the training file's category order (blue, green, red).
    QCOMPARE(p->test.features.cols(), Index(4));
    QCOMPARE(p->test.features(0, 1), 1.0f);
    QCOMPARE(p->test.features(1, 3), 1.0f);
}

void TestUiCore::badCsvKeepsDocument() {
    QTemporaryDir dir;
    const QString bad = writeFile(dir, "bad.csv", "a,b,label\n1,2,x\n3,4,y\n5,,x\n6,7,y\n");
    try {
        loadData(settingsFor(bad));
        QFAIL("a missing value must be an error");
    } catch (const Error& e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.contains(QStringLiteral("bad.csv:4")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("missing")), qPrintable(message));
    }

    ProjectDocument doc;
    doc.load(settingsFor(smallBlobs));
    const auto before = doc.dataset();
    QSignalSpy changed(&doc, &ProjectDocument::dataChanged);
    QVERIFY_THROWS_EXCEPTION(Error, doc.load(settingsFor(bad)));
    QCOMPARE(doc.dataset(), before);
    QCOMPARE(QString::fromStdString(doc.dataSettings().train.path), smallBlobs);
    QCOMPARE(changed.count(), 0);

    // The background loader carries the same message through its future.
    QFuture<LoadedData> future = loadDataAsync(settingsFor(bad));
    try {
        future.waitForFinished();  // rethrows, as result() would
        QFAIL("the future must rethrow the loading error");
    } catch (const DataLoadError& e) {
        QVERIFY2(e.message().contains(QStringLiteral("bad.csv:4")), qPrintable(e.message()));
    }
    QVERIFY_THROWS_EXCEPTION(Error, loadData(settingsFor("builtin:nonsense")));
}

void TestUiCore::datasetModel() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "pets.csv",
                                   "kind,weight,label\ncat,4.5,small\ndog,30,big\ncat,5,small\nbird,0.3,small\n");
    ProjectDataSource s = settingsFor(path);
    s.task = Task::Classification;
    // Four rows are too few to hold any out (checkTrainable), and a table needs none.
    s.validationFraction = 0;
    s.testFraction = 0;
    const LoadedData loaded = loadData(s);
    DatasetTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDataset(loaded.train);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), 3);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("kind"));
    QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("label"));  // as the file names it
    QCOMPARE(model.data(model.index(1, 0)).toString(), QStringLiteral("dog"));          // category name, not its code
    QCOMPARE(model.data(model.index(1, 1)).toString(), QStringLiteral("30"));
    QCOMPARE(model.data(model.index(1, 2)).toString(), QStringLiteral("big"));
    const auto right = model.data(model.index(1, 1), Qt::TextAlignmentRole).value<Qt::Alignment>();
    QVERIFY(right & Qt::AlignRight);
    QVERIFY(model.data(model.index(0, 0), Qt::ToolTipRole).toString().contains(QStringLiteral("sample 1")));
    model.setDataset(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestUiCore::datasetModelLarge() {
    // MNIST-sized: 60,000 rows x (784 features + 1 class) built in memory.
    auto d = std::make_shared<Dataset>();
    d->task = Task::Classification;
    d->features.resize(60000, 784);
    for (Index r = 0; r < d->features.rows(); ++r)
        for (Index c = 0; c < 784; ++c) d->features(r, c) = Scalar((r + c) % 256);
    d->sampleShape = Shape{1, 28, 28};
    for (int k = 0; k < 10; ++k) d->classNames.push_back(std::to_string(k));
    d->labels.resize(60000);
    for (int r = 0; r < 60000; ++r) d->labels[std::size_t(r)] = r % 10;
    for (int c = 0; c < 784; ++c) d->featureNames.push_back("pixel" + std::to_string(c));

    DatasetTableModel model;
    model.setDataset(d);
    QCOMPARE(model.rowCount(), 60000);
    QCOMPARE(model.columnCount(), 785);
    QCOMPARE(model.data(model.index(59999, 784)).toString(), QStringLiteral("9"));
    QCOMPARE(model.data(model.index(59999, 783)).toString(), QString::number((59999 + 783) % 256));
    QCOMPARE(model.headerData(59999, Qt::Vertical).toInt(), 60000);
}

void TestUiCore::layerModel() {
    ProjectDocument doc;
    doc.load(settingsFor(smallBlobs));
    LayerTableModel model(&doc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy networkChanged(&doc, &ProjectDocument::networkChanged);
    QCOMPARE(model.rowCount(), 3);  // 64, 32, output
    QCOMPARE(model.data(model.index(2, LayerTableModel::Type)).toString(), QStringLiteral("output"));
    QCOMPARE(model.data(model.index(2, LayerTableModel::Units)).toInt(), 6);
    QVERIFY(!(model.flags(model.index(2, LayerTableModel::Units)) & Qt::ItemIsEditable));
    QVERIFY(!model.setData(model.index(2, LayerTableModel::Units), 9));
    // dense 4->64: 4*64+64 params, 2*4*64 FLOPs.
    QCOMPARE(model.data(model.index(0, LayerTableModel::Params)).toLongLong(), 320LL);
    QCOMPARE(model.data(model.index(0, LayerTableModel::Flops), SortRole).toLongLong(), 512LL);
    QCOMPARE(model.data(model.index(0, LayerTableModel::Flops)).toString(), QStringLiteral("512"));

    QVERIFY(model.setData(model.index(0, LayerTableModel::Units), 100));
    QCOMPARE(std::get<DenseSpec>(doc.network().layers[0]).units, 100);
    QCOMPARE(networkChanged.count(), 1);
    QCOMPARE(model.data(model.index(1, LayerTableModel::Params)).toLongLong(),
             100LL * 32 + 32);  // the next layer follows
    QVERIFY(model.setData(model.index(0, LayerTableModel::Activation), QStringLiteral("tanh")));
    QCOMPARE(std::get<DenseSpec>(doc.network().layers[0]).activation, Activation::Tanh);
    QVERIFY(model.setData(model.index(1, LayerTableModel::Scalable), Qt::Unchecked, Qt::CheckStateRole));
    QVERIFY(!std::get<DenseSpec>(doc.network().layers[1]).scalable);

    QSignalSpy rejected(&model, &LayerTableModel::editRejected);
    QVERIFY(!model.setData(model.index(0, LayerTableModel::Units), 0));
    QVERIFY(!model.setData(model.index(0, LayerTableModel::Activation), QStringLiteral("wiggle")));
    QCOMPARE(rejected.count(), 2);
    QCOMPARE(std::get<DenseSpec>(doc.network().layers[0]).units, 100);

    QVERIFY(model.addLayer(1, DropoutSpec{0.25f}));
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(QString::fromStdString(formatLayers(doc.network().layers)),
             QStringLiteral("dense:100:tanh,dropout:0.25,dense:32:relu"));
    QVERIFY(model.setData(model.index(1, LayerTableModel::Rate), 0.5));
    QCOMPARE(std::get<DropoutSpec>(doc.network().layers[1]).rate, 0.5f);
    QVERIFY(model.moveLayer(0, 2));
    QCOMPARE(QString::fromStdString(formatLayers(doc.network().layers)),
             QStringLiteral("dropout:0.5,dense:32:relu,dense:100:tanh"));
    QVERIFY(model.moveLayer(2, 0));
    QCOMPARE(QString::fromStdString(formatLayers(doc.network().layers)),
             QStringLiteral("dense:100:tanh,dropout:0.5,dense:32:relu"));
    QVERIFY(model.removeLayer(1));
    QVERIFY(!model.removeLayer(2));  // the output row is not a hidden layer
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(model.setData(model.index(1, LayerTableModel::Type), QStringLiteral("dropout")));
    QVERIFY(std::holds_alternative<DropoutSpec>(doc.network().layers[1]));
    QVERIFY(!(model.flags(model.index(1, LayerTableModel::Units)) & Qt::ItemIsEditable));

    // Changes made elsewhere (undo, a loaded project) reach the table through the document.
    NetworkSpec n = doc.network();
    n.layers = parseLayers("dense:8,dense:8,dense:8,dense:8");
    doc.setNetwork(n);
    QCOMPARE(model.rowCount(), 5);
    doc.load(settingsFor("builtin:blobs:samples=300:classes=3:features=2"));
    QCOMPARE(model.data(model.index(4, LayerTableModel::Units)).toInt(), 3);
}

// A new project starts from the measured defaults; its "other" share applies only while its data
// has classes to group, and stays with it for when they come back.
void TestUiCore::newProjectDefaultsFollowTheTask() {
    ProjectDocument doc;
    QCOMPARE(doc.splitOptions(), withMeasuredDefaults(doc.splitOptions()));
    doc.load(settingsFor(QStringLiteral("builtin:sine:outputs=3")));
    QVERIFY(doc.hasData());
    const SplitPlan values = doc.plan();  // output split: no "other", and no refusal
    QCOMPARE(values.strategy, Strategy::OutputSplit);
    QCOMPARE(values.otherShare, 0.0);
    QCOMPARE(doc.splitOptions().otherShare, measuredOtherShare);
    doc.load(settingsFor(smallBlobs));
    QCOMPARE(doc.plan().otherShare, measuredOtherShare);
    QCOMPARE(doc.plan().classCombine, ClassCombine::Stacked);
    QCOMPARE(doc.plan().epochScaling, EpochScaling::Sqrt);  // automatic, for dense layers and classes
}

void TestUiCore::planModel() {
    ProjectDocument doc;
    doc.load(settingsFor(smallBlobs));
    PlanTableModel model(&doc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.error().isEmpty());
    QCOMPARE(model.rowCount(), 4);  // original + 3 submodels (6 classes, N=3: g=3)
    const SplitPlan plan = doc.plan();
    QCOMPARE(model.data(model.index(0, PlanTableModel::Model)).toString(), QStringLiteral("original"));
    QCOMPARE(model.data(model.index(0, PlanTableModel::Widths)).toString(),
             QString::fromStdString(plan.original.widthsSummary()));
    QCOMPARE(model.data(model.index(0, PlanTableModel::Widths)).toString(), QStringLiteral("4-64-32-6"));
    QCOMPARE(model.data(model.index(1, PlanTableModel::Widths)).toString(),
             QStringLiteral("4-43-22-5"));  // ceil(64/1.5); four classes and "other" (a new project's share)
    QCOMPARE(model.data(model.index(1, PlanTableModel::Params)).toLongLong(), qlonglong(plan.submodels[0].params));
    QCOMPARE(model.data(model.index(2, PlanTableModel::Samples)).toLongLong(),
             qlonglong(plan.submodels[1].rows.size()));
    // Memory in one unit for the whole column, the largest row's, named in the header: this
    // small model's kB; FLOPs under an automatic prefix.
    std::int64_t largest = plan.originalMemoryBytes;
    for (const SubmodelPlan& s : plan.submodels) largest = std::max(largest, s.memoryBytes);
    QVERIFY(largest < 1000000);
    QCOMPARE(model.headerData(PlanTableModel::Memory, Qt::Horizontal).toString(), QStringLiteral("Memory (kB)"));
    QCOMPARE(model.data(model.index(0, PlanTableModel::Memory)).toString(),
             QString::number(double(plan.originalMemoryBytes) / 1e3, 'g', 4));
    QCOMPARE(model.data(model.index(1, PlanTableModel::Memory)).toString(),
             QString::number(double(plan.submodels[0].memoryBytes) / 1e3, 'g', 4));
    QCOMPARE(model.data(model.index(0, PlanTableModel::Flops)).toString(),
             QString::number(double(plan.originalFlopsPerSample) / 1e3, 'g', 3) + QStringLiteral(" k"));

    QSignalSpy changed(&model, &PlanTableModel::planChanged);
    NetworkSpec n = doc.network();
    n.layers = parseLayers("dense:2");
    doc.setNetwork(n);
    SplitOptions o = doc.splitOptions();
    o.requested = 10;  // g=5, F=2.5: the width-2 layer would shrink to 1
    doc.setSplitOptions(o);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY2(model.error().contains(QStringLiteral("minimum width")), qPrintable(model.error()));
    QCOMPARE(changed.count(), 2);
}

void TestUiCore::appSettings() {
    QTemporaryDir dir;
    const QString ini = dir.filePath("settings.ini");
    {
        AppSettings s(ini);
        QCOMPARE(s.threadBudget(), 0);
        QVERIFY(!s.logScale());
        QVERIFY(s.recentFiles().isEmpty());
        QVERIFY(s.windowGeometry().isEmpty());
        for (int i = 0; i < 10; ++i) s.addRecentFile(QStringLiteral("/data/%1.csv").arg(i));
        s.addRecentFile(QStringLiteral("/data/5.csv"));  // to the front, not twice
        s.setThreadBudget(3);
        s.setLogScale(true);
        s.setWindowGeometry(QByteArray("\x01\x02\x00\x03", 4));
        s.setLastDataFolder(QStringLiteral("/data"));
        s.sync();
    }
    AppSettings s(ini);
    const QStringList recent = s.recentFiles();
    QCOMPARE(recent.size(), AppSettings::maxRecentFiles);
    QCOMPARE(recent.front(), QStringLiteral("/data/5.csv"));
    QCOMPARE(recent.count(QStringLiteral("/data/5.csv")), 1);
    QCOMPARE(recent.at(1), QStringLiteral("/data/9.csv"));
    QCOMPARE(s.threadBudget(), 3);
    QVERIFY(s.logScale());
    QCOMPARE(s.windowGeometry(), QByteArray("\x01\x02\x00\x03", 4));
    QCOMPARE(s.lastDataFolder(), QStringLiteral("/data"));
    s.removeRecentFile(QStringLiteral("/data/5.csv"));
    QCOMPARE(s.recentFiles().size(), AppSettings::maxRecentFiles - 1);
}

void TestUiCore::fullSession() {
    ProjectDocument doc;
    configure(doc, smallBlobs, 8);
    TrainingSession session(&doc);
    EpochTableModel epochs(&session);
    ComparisonTableModel comparison(&session);
    QAbstractItemModelTester epochTester(&epochs, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester comparisonTester(&comparison, QAbstractItemModelTester::FailureReportingMode::QtTest);
    SessionSpies spies(session);

    QElapsedTimer clock;
    clock.start();
    session.start();
    QVERIFY(session.running());
    QVERIFY(spies.finished.wait(hangGuardMs(60000)));
    const double seconds = double(clock.elapsed()) / 1000.0;
    QVERIFY(!session.running());

    QCOMPARE(spies.failed.count(), 0);
    QCOMPARE(spies.started.count(), 1);
    QCOMPARE(spies.started.at(0).at(0).toInt(), 3);
    QCOMPARE(spies.started.at(0).at(1).toBool(), true);
    QVERIFY(spies.progress.count() >= 1);
    // Throttled to one emission per 100 ms, plus the final flush.
    QVERIFY2(spies.progress.count() <= int(seconds * 10) + 3,
             qPrintable(QStringLiteral("%1 progress signals in %2 s").arg(spies.progress.count()).arg(seconds)));
    QCOMPARE(spies.finished.count(), 1);
    QCOMPARE(statusOf(spies.finished), TrainStatus::Completed);
    QCOMPARE(spies.overall.last().at(0).toDouble(), 1.0);

    const auto plan = session.plan();
    QVERIFY(plan);
    QCOMPARE(plan->effectiveEpochs, 7);  // 8 / sqrt(F=1.5), rounded up: the automatic scaling
    QCOMPARE(int(session.submodels().size()), 3);
    for (const ModelHistory& s : session.submodels()) {
        QCOMPARE(int(s.epochs.size()), plan->effectiveEpochs);
        QVERIFY(s.finished);
        QCOMPARE(s.status, TrainStatus::Completed);
    }
    QCOMPARE(int(session.baseline().epochs.size()), 8);
    QCOMPARE(session.baseline().submodel, -1);

    const auto results = session.results();
    QVERIFY(results);
    QCOMPARE(results->evaluatedOn, std::string("test"));
    QCOMPARE(results->evaluatedSamples, 300L);
    QCOMPARE(int(results->submodelMetrics.size()), 3);
    QVERIFY(results->baseline);
    QCOMPARE(results->combinedTestOutput.rows(), Index(300));
    QCOMPARE(results->testTargets.cols(), Index(6));
    // The headline figure is exactly what the combined model scores on the prepared test set.
    CombinedModel combined = buildCombinedModel(*results->model);
    const auto prepared = doc.prepared();
    const CombinedEvaluation direct = combined.evaluate(prepared->test);
    QCOMPARE(results->combinedMetric, direct.metric);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(results->submodelMetrics[std::size_t(i)], direct.submodels[std::size_t(i)].metric);
    QVERIFY2(results->combinedMetric > 0.85, qPrintable(QString::number(results->combinedMetric)));
    QVERIFY2(results->baselineMetric > 0.85, qPrintable(QString::number(results->baselineMetric)));

    // The tables follow the run.
    QCOMPARE(epochs.rowCount(), 3 * 7 + 8);
    QCOMPARE(epochs.submodelAt(0), 0);
    QCOMPARE(epochs.submodelAt(3 * 7), -1);
    QCOMPARE(epochs.data(epochs.index(3 * 7, EpochTableModel::Model)).toString(), QStringLiteral("baseline"));
    QCOMPARE(epochs.headerData(EpochTableModel::Metric, Qt::Horizontal).toString(), QStringLiteral("Accuracy"));
    QCOMPARE(comparison.rowCount(), 5);  // combined, 3 submodels, baseline
    QCOMPARE(comparison.data(comparison.index(0, ComparisonTableModel::Metric), SortRole).toDouble(),
             results->combinedMetric);
    QVERIFY(comparison.isBaselineRow(4));
    QCOMPARE(comparison.data(comparison.index(4, ComparisonTableModel::Params)).toLongLong(),
             qlonglong(plan->originalParams));

    // Nothing after finished.
    const QList<int> before = spies.counts();
    QTest::qWait(300);
    QCOMPARE(spies.counts(), before);
}

void TestUiCore::throttledProgress() {
    ProjectDocument doc;
    configure(doc, slowBlobs, 9, "dense:256:relu,dense:256:relu");
    ProjectTraining t = doc.trainSettings();
    t.config.batchReportSeconds = 0;  // the engine reports every batch: thousands of events
    t.trainBaseline = false;
    doc.setTrainSettings(t);
    TrainingSession session(&doc);
    SessionSpies spies(session);
    QElapsedTimer clock;
    clock.start();
    session.start();
    QVERIFY(spies.finished.wait(hangGuardMs(60000)));
    const double seconds = double(clock.elapsed()) / 1000.0;
    QCOMPARE(statusOf(spies.finished), TrainStatus::Completed);
    const auto& snapshots = session.submodels();
    QCOMPARE(int(snapshots.size()), 3);
    for (const auto& s : snapshots) QCOMPARE(int(s.epochs.size()), session.plan()->effectiveEpochs);
    QVERIFY2(spies.progress.count() >= 2 && spies.progress.count() <= int(seconds * 10) + 3,
             qPrintable(QStringLiteral("%1 progress signals in %2 s").arg(spies.progress.count()).arg(seconds)));
    QVERIFY(spies.overall.count() <= int(seconds * 10) + 4);
    double last = 0;
    for (const auto& args : spies.overall) {  // never backwards; an estimate once under way
        QVERIFY(args.at(0).toDouble() >= last - 1e-12);
        last = args.at(0).toDouble();
    }
    QCOMPARE(last, 1.0);
    qInfo("%lld progress signals in %.2f s", qlonglong(spies.progress.count()), seconds);
}

void TestUiCore::cancelSession() {
    ProjectDocument doc;
    configure(doc, slowBlobs, 40, "dense:256:relu,dense:256:relu");
    TrainingSession session(&doc);
    SessionSpies spies(session);
    connect(&session, &TrainingSession::progress, &session, [&session] { session.stop(); });
    session.start();
    QVERIFY(spies.finished.wait(hangGuardMs(60000)));
    QCOMPARE(spies.finished.count(), 1);
    QCOMPARE(statusOf(spies.finished), TrainStatus::Cancelled);
    QVERIFY(!session.results());
    QVERIFY(!session.running());
    int epochsDone = 0;
    for (const auto& s : session.submodels()) epochsDone += int(s.epochs.size());
    QVERIFY(epochsDone < 3 * session.plan()->effectiveEpochs);

    const QList<int> before = spies.counts();
    QTest::qWait(300);
    QCOMPARE(spies.counts(), before);
}

void TestUiCore::resumeStoppedRun() {
    QTemporaryDir dir;
    ProjectDocument doc;
    configure(doc, slowBlobs, 6);
    ProjectTraining t = doc.trainSettings();
    t.trainBaseline = false;
    doc.setTrainSettings(t);
    const QString reference = dir.filePath(QStringLiteral("reference.checkpoint"));
    Matrix expected;
    {
        TrainingSession whole(&doc);
        whole.setUntitledCheckpointFolder(reference);
        SessionSpies spies(whole);
        whole.start();
        QVERIFY(spies.finished.wait(hangGuardMs(120000)));
        QCOMPARE(statusOf(spies.finished), TrainStatus::Completed);
        expected = whole.results()->combinedTestOutput;
        QVERIFY(!QFile::exists(reference));  // removed once the run completed
    }

    const QString folder = dir.filePath(QStringLiteral("run.checkpoint"));
    TrainingSession session(&doc);
    session.setUntitledCheckpointFolder(folder);
    QCOMPARE(session.checkpointFolder(), folder);
    QVERIFY(!session.canResumeRun());
    SessionSpies spies(session);
    // Stopped once some submodel has finished an epoch (its checkpoint is on disk by then).
    const auto stopAfterAnEpoch = [&session] {
        for (const auto& s : session.submodels())
            if (!s.epochs.empty()) session.stop();
    };
    connect(&session, &TrainingSession::progress, &session, stopAfterAnEpoch);
    session.start();
    QVERIFY(spies.finished.wait(hangGuardMs(120000)));
    QCOMPARE(statusOf(spies.finished), TrainStatus::Cancelled);
    QVERIFY(session.canResumeRun());
    QVERIFY(QFile::exists(folder + QStringLiteral("/run.json")));

    disconnect(&session, &TrainingSession::progress, &session, nullptr);
    spies.log.clear();
    session.startResumed();
    QVERIFY(!session.canResumeRun());  // running
    QVERIFY(spies.finished.wait(hangGuardMs(120000)));
    QCOMPARE(statusOf(spies.finished, 1), TrainStatus::Completed);
    bool announced = false;
    for (const auto& args : spies.log)
        announced |= args.at(0).toString().startsWith(QStringLiteral("resuming from ") + folder);
    QVERIFY(announced);
    const Matrix& got = session.results()->combinedTestOutput;
    QCOMPARE(got.rows(), expected.rows());
    QVERIFY2(std::memcmp(got.data(), expected.data(), std::size_t(got.size()) * sizeof(Scalar)) == 0,
             "the resumed run's combined model differs from the uninterrupted run's");
    QVERIFY(!session.canResumeRun());
    QVERIFY(!QFile::exists(folder));

    // A run whose plan changed since is refused, naming what differs.
    session.setUntitledCheckpointFolder(dir.filePath(QStringLiteral("second.checkpoint")));
    connect(&session, &TrainingSession::progress, &session, stopAfterAnEpoch);
    session.start();
    QVERIFY(spies.finished.wait(hangGuardMs(120000)));
    disconnect(&session, &TrainingSession::progress, &session, nullptr);
    QCOMPARE(statusOf(spies.finished, spies.finished.count() - 1), TrainStatus::Cancelled);
    QVERIFY(session.canResumeRun());
    t.config.epochs = 9;
    doc.setTrainSettings(t);
    session.startResumed();
    QVERIFY(spies.finished.wait(hangGuardMs(120000)));
    QCOMPARE(statusOf(spies.finished, spies.finished.count() - 1), TrainStatus::Failed);
    VERIFY_CONTAINS(spies.finished.last().at(1).toString().toStdString(), "is from another run: the split plan");
}

void TestUiCore::pauseResume() {
    ProjectDocument doc;
    configure(doc, smallBlobs, 6);
    TrainingSession session(&doc);
    SessionSpies spies(session);
    session.start();
    session.pause();  // the workers wait at their first batch boundary
    QVERIFY(session.paused());
    QTest::qWait(150);
    const auto epochCount = [&] {
        int n = int(session.baseline().epochs.size());
        for (const auto& s : session.submodels()) n += int(s.epochs.size());
        return n;
    };
    const int pausedEpochs = epochCount();
    QTest::qWait(300);
    // Unpaused, this run takes well under this long.
    QVERIFY(session.running());
    QCOMPARE(epochCount(), pausedEpochs);
    QCOMPARE(spies.finished.count(), 0);
    session.resume();
    QVERIFY(!session.paused());
    QVERIFY(spies.finished.wait(hangGuardMs(60000)));
    QCOMPARE(statusOf(spies.finished), TrainStatus::Completed);
    QVERIFY(session.results());
}

void TestUiCore::badPlanFails() {
    ProjectDocument doc;
    configure(doc, smallBlobs, 2, "dense:2:relu");
    SplitOptions o = doc.splitOptions();
    o.requested = 10;  // 6 classes: g=5 groups, F=2.5, and the width 2 would become 1
    doc.setSplitOptions(o);
    TrainingSession session(&doc);
    SessionSpies spies(session);
    session.start();
    QCOMPARE(spies.failed.count(), 1);
    const QString message = spies.failed.at(0).at(0).toString();
    QVERIFY2(message.contains(QStringLiteral("layer 1")) &&
                 message.contains(QStringLiteral("below the minimum width of 2")),
             qPrintable(message));
    QCOMPARE(spies.started.count(), 0);
    QVERIFY(!session.running());

    TrainingSession empty(new ProjectDocument(&session));
    QSignalSpy failed(&empty, &TrainingSession::failed);
    empty.start();
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("no data")));
}

// Every (loss, task) pair: the data sets the task's natural loss, and a run with a loss that does
// not fit is refused with skynnet-cli's message (losses/task_losses.h), before anything starts.
void TestUiCore::lossesFitTheirTasks() {
    const struct {
        const char* data;
        Task task;
        LossKind natural;
        const char* fits;
    } tasks[] = {{"builtin:blobs:samples=200:classes=3:features=2", Task::Classification, LossKind::SoftmaxCrossEntropy,
                  "cross_entropy"},
                 {"builtin:blobs:samples=200:classes=2:features=2", Task::Binary, LossKind::BinaryCrossEntropy,
                  "binary_cross_entropy"},
                 {"builtin:sine:samples=200:outputs=3", Task::Regression, LossKind::MeanSquaredError, "mse or mae"}};
    for (const auto& t : tasks) {
        ProjectDocument doc;
        ProjectDataSource d = settingsFor(QString::fromLatin1(t.data));
        d.task = t.task;
        doc.load(d);
        QCOMPARE(doc.dataset()->task, t.task);
        QCOMPARE(doc.trainSettings().config.loss, t.natural);
        for (LossKind loss : {LossKind::SoftmaxCrossEntropy, LossKind::BinaryCrossEntropy, LossKind::MeanSquaredError,
                              LossKind::MeanAbsoluteError}) {
            const QString row = QString::fromStdString(lossName(loss) + "/" + taskName(t.task));
            ProjectTraining ts = doc.trainSettings();
            ts.config.loss = loss;
            ts.config.epochs = 1;
            ts.trainBaseline = false;
            doc.setTrainSettings(ts);
            TrainingSession session(&doc);
            SessionSpies spies(session);
            session.start();
            const bool fits = QString::fromLatin1(t.fits)
                                  .split(QStringLiteral(" or "))
                                  .contains(QString::fromStdString(lossName(loss)));
            if (fits) {
                QVERIFY2(spies.failed.isEmpty(), qPrintable(row));
                QVERIFY2(session.running(), qPrintable(row));
                session.stop();
                session.waitForFinished();
                continue;
            }
            QVERIFY2(spies.failed.count() == 1, qPrintable(row));
            QCOMPARE(spies.failed.at(0).at(0).toString(),
                     QString::fromStdString("the loss " + lossName(loss) + " does not fit the " + taskName(t.task) +
                                            " task (use " + t.fits + ")"));
            QVERIFY(!session.running());
            QCOMPARE(spies.started.count(), 0);
        }
        // Other data sets the loss again: one of another task cannot train at all.
        ProjectTraining ts = doc.trainSettings();
        ts.config.loss = t.task == Task::Regression ? LossKind::SoftmaxCrossEntropy : LossKind::MeanAbsoluteError;
        doc.setTrainSettings(ts);
        doc.load(d);
        QCOMPARE(doc.trainSettings().config.loss, t.natural);
    }
}

void TestUiCore::restartAndDestroyWhileRunning() {
    ProjectDocument doc;
    configure(doc, slowBlobs, 40, "dense:256:relu,dense:256:relu");
    {
        // A second start while running: the first run ends (Cancelled) before the second begins.
        TrainingSession session(&doc);
        SessionSpies spies(session);
        session.start();
        QTest::qWait(50);
        session.start();
        QCOMPARE(spies.finished.count(), 1);
        QCOMPARE(statusOf(spies.finished), TrainStatus::Cancelled);
        QCOMPARE(spies.started.count(), 2);
        QVERIFY(session.running());
        session.stop();
        QVERIFY(session.waitForFinished(hangGuardMs(30000)));
        QCOMPARE(spies.finished.count(), 2);
        QCOMPARE(statusOf(spies.finished, 1), TrainStatus::Cancelled);
    }
    // Destroyed mid-run: cancels and joins without signals or crashes.
    auto* session = new TrainingSession(&doc);
    session->start();
    QTest::qWait(50);
    QVERIFY(session->running());
    delete session;
    QTest::qWait(50);  // a queued end-of-job call for the dead session must not arrive
}

// One figure everywhere: what each submodel (and the baseline) needs on a machine of its own,
// its model, buffers and rows, is the same in the session and in skynnet-cli's report.
void TestUiCore::peakMemoryIsTheClis() {
    const QString data = QStringLiteral("builtin:blobs:classes=10:features=8");
    ProjectDocument doc;
    configure(doc, data, 4, "dense:32:relu,dense:32:relu");
    ProjectTraining t = doc.trainSettings();
    t.config.batchSize = 64;
    t.config.optimizer.kind = OptimizerKind::Adam;
    doc.setTrainSettings(t);
    TrainingSession session(&doc);
    ComparisonTableModel table(&session);
    QSignalSpy finished(&session, &TrainingSession::finished);
    session.start();
    QVERIFY(finished.wait(60000));
    const auto results = session.results();
    QVERIFY(results && results->baseline);

    QTemporaryDir dir;
    const QString report = dir.filePath(QStringLiteral("report.json"));
    const CliRun r = runCli({"train", "--data", data, "--layers", "dense:32:relu,dense:32:relu", "--submodels", "3",
                             "--strategy", "class-groups", "--baseline", "--epochs", "4", "--batch", "64",
                             "--optimizer", "adam", "--threads", "2", "--report", report,
                             // the session's split options: the document's, checked below
                             "--combine", "stacked", "--other-share", "0.3", "--scale-epochs", "off"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile f(report);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject j = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonArray subs = j[QStringLiteral("submodels")].toArray();
    QCOMPARE(subs.size(), session.plan()->submodelCount());
    for (const QJsonValue& v : subs) {
        const QJsonObject s = v.toObject();
        std::vector<int> classes;
        for (const QJsonValue& c : s[QStringLiteral("classes")].toArray()) classes.push_back(c.toInt());
        int k = -1;  // the session's submodel owning the same classes
        for (int i = 0; i < session.plan()->submodelCount(); ++i)
            if (session.plan()->submodels[std::size_t(i)].classes == classes) k = i;
        QVERIFY2(k >= 0, qPrintable(QStringLiteral("no submodel of the session owns the CLI's submodel %1's classes")
                                        .arg(s[QStringLiteral("index")].toInt())));
        const TrainResult& mine = results->submodels[std::size_t(k)];
        QVERIFY(mine.dataBytes > 0);
        QCOMPARE(qint64(s[QStringLiteral("data_bytes")].toDouble()), qint64(mine.dataBytes));
        QCOMPARE(qint64(s[QStringLiteral("model_bytes")].toDouble()), qint64(mine.peakModelBytes));
        QCOMPARE(qint64(s[QStringLiteral("peak_memory_bytes")].toDouble()), qint64(mine.peakBytes()));
    }
    const QJsonObject base = j[QStringLiteral("baseline")].toObject();
    QCOMPARE(qint64(base[QStringLiteral("peak_memory_bytes")].toDouble()), qint64(results->baseline->peakBytes()));

    // The comparison table shows those figures, in the unit its header names (kB below 1 MB).
    const QString header = table.headerData(ComparisonTableModel::PeakMemory, Qt::Horizontal).toString();
    const double unit = header == QStringLiteral("Peak memory (kB)") ? 1e3 : 1e6;
    QVERIFY2(unit == 1e3 || header == QStringLiteral("Peak memory (MB)"), qPrintable(header));
    std::int64_t largest = 0;
    for (int row = 1; row <= session.plan()->submodelCount(); ++row) {
        const std::int64_t bytes = results->submodels[std::size_t(row - 1)].peakBytes();
        largest = std::max(largest, bytes);
        QCOMPARE(table.data(table.index(row, ComparisonTableModel::PeakMemory), SortRole).toDouble(),
                 double(bytes) / unit);
    }
    QCOMPARE(unit == 1e3, std::max({largest, results->baseline->peakBytes(), results->peakConcurrentBytes}) < 1000000);
}

void TestUiCore::backgroundThreadsRunBelowTheGui() {
#ifdef __linux__
    const auto niceOf = [] { return getpriority(PRIO_PROCESS, id_t(gettid())); };
    const int gui = niceOf();
    int before = 0, after = 0, started = 0;
    std::thread worker([&] {
        before = niceOf();
        lowerCurrentThreadPriority();
        after = niceOf();
        std::thread child([&] { started = niceOf(); });  // what training's workers start from
        child.join();
    });
    worker.join();
    QCOMPARE(before, gui);
    QCOMPARE(after, std::min(gui + 5, 19));
    QCOMPARE(started, after);
    QCOMPARE(niceOf(), gui);  // the calling thread's own, not the process's
#else
    QSKIP("thread priorities are lowered on Linux only");
#endif
}

QTEST_MAIN(TestUiCore)
#include "tst_ui_core.moc"

// Each data option is one step named in the Edit menu; undo and redo bring back the settings, the
// prepared rows and the plan exactly, through a new data revision (a run adopts no stale preparation).
void TestUiCore::dataOptionsUndoRedo() {
    ProjectDocument doc;
    doc.load(settingsFor(smallBlobs));
    QUndoStack* stack = doc.undoStack();
    QCOMPARE(stack->count(), 0);  // loading data is not a step
    QVERIFY(doc.isModified());    // but a change to save, in an untitled project too
    doc.setClean();               // as if saved: undoing the steps below returns to this state
    const DocumentData original = documentData(doc);
    struct Edit {
        QString text;
        void (*apply)(ProjectDataSource&);
    };
    const std::vector<Edit> edits{
        {QStringLiteral("Set scaling to min-max"), [](ProjectDataSource& s) { s.scaling = Scaling::MinMax; }},
        {QStringLiteral("Set validation fraction to 0.2"), [](ProjectDataSource& s) { s.validationFraction = 0.2; }},
        {QStringLiteral("Set test fraction to 0.3"), [](ProjectDataSource& s) { s.testFraction = 0.3; }},
        {QStringLiteral("Set data split seed to 7"), [](ProjectDataSource& s) { s.seed = 7; }},
    };
    for (const Edit& e : edits) {
        ProjectDataSource s = original.settings;
        e.apply(s);
        const quint64 revision = doc.dataRevision();
        doc.editDataSettings(s);
        QCOMPARE(stack->count(), 1);
        QCOMPARE(stack->undoText(), e.text);
        QVERIFY(doc.dataSettings() == s);
        QVERIFY(doc.dataRevision() != revision);
        const DocumentData edited = documentData(doc);
        QVERIFY2(!sameData(edited, original), qPrintable(e.text));  // the option reaches the rows or the plan

        QSignalSpy changed(&doc, &ProjectDocument::dataChanged);
        const quint64 editedRevision = doc.dataRevision();
        stack->undo();
        QCOMPARE(changed.count(), 1);
        QVERIFY(doc.dataRevision() != editedRevision);
        QVERIFY2(sameData(documentData(doc), original), qPrintable(e.text));
        stack->redo();
        QCOMPARE(changed.count(), 2);
        QVERIFY2(sameData(documentData(doc), edited), qPrintable(e.text));
        stack->undo();
        QVERIFY(!doc.isModified());  // back at the clean state
        QVERIFY(stack->canRedo());
        doc.sealEdits();
    }
    // An edit that changes nothing is no step.
    doc.editDataSettings(doc.dataSettings());
    QCOMPARE(stack->index(), 0);
}

// Typing into one spin box is one step until it is sealed; typing back to the start is none.
void TestUiCore::dataOptionEditsMerge() {
    ProjectDocument doc;
    doc.load(settingsFor(smallBlobs));
    QUndoStack* stack = doc.undoStack();
    const ProjectDataSource original = doc.dataSettings();
    ProjectDataSource s = original;
    for (double v : {0.2, 0.25}) {  // "2", "25"
        s.validationFraction = v;
        doc.editDataSettings(s);
    }
    QCOMPARE(stack->count(), 1);
    QCOMPARE(stack->undoText(), QStringLiteral("Set validation fraction to 0.25"));
    s.seed = 3;  // another option: a step of its own
    doc.editDataSettings(s);
    QCOMPARE(stack->count(), 2);
    QCOMPARE(stack->undoText(), QStringLiteral("Set data split seed to 3"));
    s.seed = 31;
    doc.editDataSettings(s);
    QCOMPARE(stack->count(), 2);
    QCOMPARE(stack->undoText(), QStringLiteral("Set data split seed to 31"));
    doc.sealEdits();  // the box lost focus
    s.seed = 4;
    doc.editDataSettings(s);
    QCOMPARE(stack->count(), 3);
    stack->undo();
    QCOMPARE(doc.dataSettings().seed, std::uint64_t(31));
    stack->undo();
    QCOMPARE(doc.dataSettings().seed, original.seed);
    QCOMPARE(doc.dataSettings().validationFraction, 0.25);
    stack->undo();
    QVERIFY(doc.dataSettings() == original);

    // Typed back to where it was: the merged step disappears.
    s = original;
    s.testFraction = 0.3;
    doc.editDataSettings(s);
    QCOMPARE(stack->count(), 1);  // the redo steps are gone, this one replaces them
    s.testFraction = original.testFraction;
    doc.editDataSettings(s);
    QCOMPARE(stack->count(), 0);
    QVERIFY(doc.dataSettings() == original);

    // Described the same way as the undo stack's text, and merged by field: spin boxes only.
    ProjectDataSource a = original, b = original;
    b.scaling = Scaling::None;
    QCOMPARE(describeDataEdit(a, b).text, QStringLiteral("Set scaling to none"));
    QCOMPARE(describeDataEdit(a, b).mergeId, -1);
    b = original;
    b.task = Task::Regression;
    QCOMPARE(describeDataEdit(a, b).text, QStringLiteral("Set task to regression"));
    b.seed = 9;
    QCOMPARE(describeDataEdit(a, b).text, QStringLiteral("Change data options"));
    QCOMPARE(describeDataEdit(a, b).mergeId, -1);
}

// Another target column of the same file: one step; its undo brings back the data, the network's
// output and the loss the first target had, and the plan with them.
void TestUiCore::dataReloadUndoRedo() {
    QTemporaryDir dir;
    QByteArray csv = "x1,x2,amount,kind\n";
    for (int i = 0; i < 120; ++i)
        csv += QByteArray::number(i % 7) + "," + QByteArray::number((i * 5) % 11) + "," + QByteArray::number(i * 0.5) +
               "," +
               (i % 3 == 0   ? "a"
                : i % 3 == 1 ? "b"
                             : "c") +
               "\n";
    const QString path = writeFile(dir, QStringLiteral("mixed.csv"), csv);
    ProjectDocument doc;
    doc.load(settingsFor(path));
    QCOMPARE(doc.dataset()->task, Task::Classification);
    SplitOptions o = doc.splitOptions();
    o.regressionFallbackToShards = true;  // one target column for N = 3: data shards
    doc.setSplitOptions(o);
    QUndoStack* stack = doc.undoStack();
    const DataState before = doc.dataState();
    const PlanRows planBefore = planRows(doc.plan());
    QCOMPARE(doc.trainSettings().config.loss, LossKind::SoftmaxCrossEntropy);

    ProjectDataSource s = doc.dataSettings();
    s.targetColumn = "amount";
    LoadedData loaded = loadData(s);
    const quint64 revision = doc.dataRevision();
    doc.editData(s, loaded.train, loaded.test);
    QCOMPARE(stack->count(), 1);
    QCOMPARE(stack->undoText(), QStringLiteral("Set target column to amount"));
    QCOMPARE(doc.dataset()->task, Task::Regression);
    QCOMPARE(doc.network().outputs, 1);
    QCOMPARE(doc.trainSettings().config.loss, LossKind::MeanSquaredError);
    QVERIFY(doc.dataRevision() != revision);
    const DataState after = doc.dataState();
    const PlanRows planAfter = planRows(doc.plan());

    QSignalSpy network(&doc, &ProjectDocument::networkChanged), train(&doc, &ProjectDocument::trainSettingsChanged);
    stack->undo();
    QVERIFY(doc.dataState() == before);  // the very dataset loaded first, its network and loss
    QCOMPARE(network.count(), 1);
    QCOMPARE(train.count(), 1);
    QVERIFY(planRows(doc.plan()) == planBefore);
    stack->redo();
    QVERIFY(doc.dataState() == after);
    QVERIFY(planRows(doc.plan()) == planAfter);

    // Other data starts the history again: its steps would set this data's options on the new.
    doc.load(settingsFor(smallBlobs));
    QCOMPARE(stack->count(), 0);
}

// A save hashes a data file again only when its size or time moved; a missing file keeps the
// fingerprint its project was made with.
void TestUiCore::fingerprintsHashedOncePerVersion() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("d.csv"), "a,b\n1,2\n");
    FingerprintCache cache;
    const ProjectDataFile first = cache.dataFile(path);
    QCOMPARE(first.status, DataFileStatus::Found);
    QVERIFY(first.fingerprint);
    QCOMPARE(first.fingerprint->size, std::uint64_t(8));
    QCOMPARE(QString::fromStdString(first.path), QFileInfo(path).absoluteFilePath());

    // Other content of the same size under the old time: taken for the same file, not read again.
    const QDateTime modified = QFileInfo(path).lastModified();
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QCOMPARE(f.write("a,b\n3,4\n"), qint64(8));
    QVERIFY(f.flush());  // before the time is set back, or the write would move it again
    QVERIFY(f.setFileTime(modified, QFileDevice::FileModificationTime));
    f.close();
    QCOMPARE(cache.dataFile(path).fingerprint, first.fingerprint);
    QVERIFY(fileFingerprint(path.toStdString()) != *first.fingerprint);  // what a fresh hash gives
    // A new time: hashed again.
    QFile g(path);
    QVERIFY(g.open(QIODevice::ReadWrite));
    QVERIFY(g.setFileTime(modified.addSecs(5), QFileDevice::FileModificationTime));
    g.close();
    QCOMPARE(*cache.dataFile(path).fingerprint, fileFingerprint(path.toStdString()));

    // Missing: unknown to a new cache, the project's fingerprint once remembered.
    const QString gone = dir.filePath(QStringLiteral("gone.csv"));
    QCOMPARE(cache.dataFile(gone).status, DataFileStatus::Missing);
    QVERIFY(!cache.dataFile(gone).fingerprint);
    ProjectDataSource source;
    source.train.path = gone.toStdString();
    source.train.status = DataFileStatus::Missing;
    source.train.fingerprint = FileFingerprint{10, 42};
    cache.remember(source);
    QCOMPARE(cache.dataFile(gone).fingerprint, source.train.fingerprint);
    QCOMPARE(cache.dataFile(QStringLiteral("builtin:spirals")).path, std::string("builtin:spirals"));
}
