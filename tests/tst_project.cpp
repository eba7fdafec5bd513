// The project file: every part of ProjectData survives a save and a load (a CSV's sequence layout
// too); data files are found
// again after the project folder moves and reported when they changed or vanished; damaged,
// truncated, foreign and newer files give clear errors; a failed save keeps the old file.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>
#include <xxhash.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <fstream>
#include <limits>

#include "core/error.h"
#include "data/csv_loader.h"
#include "data/data_source.h"
#include "data/generators.h"
#include "data/prepared_data.h"
#include "io/atomic_file.h"
#include "io/container.h"
#include "project/data_reference.h"
#include "project/project_file.h"
#include "project/project_json.h"
#include "run/run_data.h"
#include "split/combined_model.h"
#include "split/combined_model_file.h"
#include "split/parallel_trainer.h"
#include "test_support.h"

using namespace skynnet;

namespace {

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

bool sameBits(const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           (a.size() == 0 || std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0);
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// Doubles compare as bits, so NaN equals NaN and -0 differs from 0.
bool sameDouble(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool sameEpochs(const std::vector<EpochStats>& a, const std::vector<EpochStats>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const EpochStats &x = a[i], &y = b[i];
        if (x.epoch != y.epoch || !sameDouble(x.loss, y.loss) || !sameDouble(x.metric, y.metric) ||
            x.hasValidation != y.hasValidation || !sameDouble(x.validationLoss, y.validationLoss) ||
            !sameDouble(x.validationMetric, y.validationMetric) || !sameDouble(x.seconds, y.seconds) ||
            !sameDouble(x.samplesPerSecond, y.samplesPerSecond) || !sameDouble(x.learningRate, y.learningRate))
            return false;
    }
    return true;
}

bool sameHistory(const ModelHistory& a, const ModelHistory& b) {
    if (a.submodel != b.submodel || a.finished != b.finished || a.status != b.status || !sameEpochs(a.epochs, b.epochs))
        return false;
    if (a.lastBatch.epoch != b.lastBatch.epoch || a.lastBatch.batch != b.lastBatch.batch ||
        a.lastBatch.batches != b.lastBatch.batches || !sameDouble(a.lastBatch.loss, b.lastBatch.loss))
        return false;
    if (a.resources.size() != b.resources.size()) return false;
    for (std::size_t i = 0; i < a.resources.size(); ++i) {
        const ResourceSample &x = a.resources[i], &y = b.resources[i];
        if (!sameDouble(x.elapsedSeconds, y.elapsedSeconds) || !sameDouble(x.cpuSeconds, y.cpuSeconds) ||
            x.modelBytes != y.modelBytes || x.dataBytes != y.dataBytes ||
            x.processResidentBytes != y.processResidentBytes)
            return false;
    }
    return true;
}

bool sameResult(const TrainResult& a, const TrainResult& b) {
    return a.status == b.status && a.error == b.error && sameEpochs(a.history, b.history) &&
           a.bestEpoch == b.bestEpoch && sameDouble(a.wallSeconds, b.wallSeconds) &&
           sameDouble(a.cpuSeconds, b.cpuSeconds) && a.peakModelBytes == b.peakModelBytes && a.dataBytes == b.dataBytes;
}

ModelHistory history(int submodel, int epochs, bool withNan) {
    ModelHistory h;
    h.submodel = submodel;
    h.finished = true;
    h.status = submodel == 1 ? TrainStatus::EarlyStopped : TrainStatus::Completed;
    h.lastBatch = {epochs, 7, 7, 0.125};
    for (int e = 1; e <= epochs; ++e) {
        EpochStats s;
        s.epoch = e;
        s.loss = withNan && e == 2 ? std::numeric_limits<double>::quiet_NaN() : 1.0 / (e + 0.3);
        s.metric = 0.1 * e + 1e-17;
        s.hasValidation = e % 2 == 1;
        s.validationLoss = e == 3 ? std::numeric_limits<double>::infinity() : 0.7 / e;
        s.validationMetric = 0.33333333333333331 * e;
        s.seconds = 0.01 * e;
        s.samplesPerSecond = 12345.678 * e;
        s.learningRate = double(1e-3f);
        h.epochs.push_back(s);
        h.resources.push_back({0.1 * e, 0.07 * e, 1000 + e, 500 + e, (std::int64_t(1) << 40) + e});
    }
    return h;
}

struct Fixture {
    Dataset data;
    ProjectData project;
};

// A project with every part filled: two data files with fingerprints, non-default settings, a
// cancelled run kept for its curves and a completed run with results, models and baseline.
Fixture makeProject(const QString& dir) {
    Fixture f;
    f.data = makeBlobs(3, 40, 4, 1.0f, 7);
    const std::string csv = (dir + "/data/blobs.csv").toStdString();
    const std::string labels = (dir + "/data/extra.txt").toStdString();
    QDir(dir).mkpath("data");
    writeBytes(csv, "a,b,c,d,label\n1,2,3,4,x\n");
    writeBytes(labels, "labels");

    ProjectData& p = f.project;
    p.data.train = {csv, fileFingerprint(csv), DataFileStatus::Found};
    p.data.test = {labels, fileFingerprint(labels), DataFileStatus::Found};
    p.data.trainLabels = {"builtin:blobs:classes=3", std::nullopt, DataFileStatus::Unchecked};
    p.data.targetColumn = "label";
    p.data.task = Task::Classification;
    p.data.scaling = Scaling::MinMax;
    p.data.validationFraction = 0.15;
    p.data.testFraction = 0.25;
    p.data.seed = 42;

    p.network.input = Shape::flat(4);
    p.network.layers = parseLayers("dense:16:relu,dropout:0.25,dense:8:tanh");
    std::get<DenseSpec>(p.network.layers[2]).scalable = false;
    p.network.setOutputFor(Task::Classification, 3);

    p.split.strategy = Strategy::ClassGroups;
    p.split.requested = 3;
    p.split.scaleEpochs = EpochScaling::Off;
    p.split.dataShardFactor = 1.75;
    p.split.shuffleShards = false;
    p.split.binaryCombine = BinaryCombine::Average;
    p.split.regressionFallbackToShards = true;
    p.split.seed = std::numeric_limits<std::uint64_t>::max() - 5;  // beyond a JSON integer
    p.split.batchSize = 16;
    p.split.optimizerSlots = 1;
    p.split.epochs = 3;

    TrainConfig& c = p.training.config;
    c.epochs = 3;
    c.batchSize = 16;
    c.optimizer.kind = OptimizerKind::SGD;
    c.optimizer.learningRate = 0.0123f;
    c.optimizer.momentum = 0.9f;
    c.optimizer.nesterov = true;
    c.optimizer.weightDecay = 1e-4f;
    c.optimizer.schedule.kind = Schedule::Kind::Step;
    c.optimizer.schedule.stepEpochs = 2;
    c.optimizer.schedule.gamma = 0.5f;
    c.loss = LossKind::SoftmaxCrossEntropy;
    c.seed = 99;
    c.threads = 1;
    c.earlyStopping = {true, 4, EarlyStopping::Monitor::ValidationMetric, false};
    c.batchReportSeconds = 0.05;
    c.resourceReportSeconds = 0.5;
    p.training.threadBudget = 2;
    p.training.trainBaseline = true;

    SplitOptions o = p.split;
    o.strategy = Strategy::ClassGroups;
    const SplitPlan plan = makePlan(p.network, f.data, o);

    ProjectRun cancelled;
    cancelled.status = TrainStatus::Cancelled;
    cancelled.message = "stopped during the split run";
    cancelled.plan = plan;
    for (int i = 0; i < plan.submodelCount(); ++i) cancelled.submodels.push_back(history(i, 1, false));
    cancelled.submodels.back().finished = false;
    p.runs.push_back(cancelled);

    ProjectRun run;
    run.status = TrainStatus::Completed;
    run.message = "combined accuracy 0.9";
    run.plan = plan;
    for (int i = 0; i < plan.submodelCount(); ++i) run.submodels.push_back(history(i, 3, i == 0));
    run.baseline = history(-1, 3, false);
    ProjectResults r;
    std::vector<Network> nets;
    for (const auto& s : plan.submodels) nets.emplace_back(s.spec, s.seed);
    Preprocessing prep;
    prep.scaling = Scaling::MinMax;
    prep.fit(f.data);
    SavedCombinedModel model = toSaved(CombinedModel(plan.rule(), std::move(nets), c.loss), prep, {});
    model.schema.classNames = f.data.classNames;
    model.schema.featureNames = f.data.featureNames;
    r.model = model;
    r.baselineWeights = Network(plan.original, 5).flatWeights();
    for (int i = 0; i < plan.submodelCount(); ++i) {
        TrainResult t;
        t.status = TrainStatus::Completed;
        t.history = run.submodels[std::size_t(i)].epochs;
        t.bestEpoch = 2;
        t.wallSeconds = 0.5 + i;
        t.cpuSeconds = 0.4 + i;
        t.peakModelBytes = 4096 * (i + 1);
        t.dataBytes = 1000 * (i + 1);
        r.submodels.push_back(t);
        r.submodelWallSeconds.push_back(t.wallSeconds);
        r.submodelCpuSeconds.push_back(t.cpuSeconds);
        r.submodelMetrics.push_back(0.8 + 0.01 * i);
    }
    r.baseline = r.submodels.front();
    r.baseline->error = "none";
    r.splitWallSeconds = 1.25;
    r.splitCpuSeconds = 2.5;
    r.workers = 2;
    r.peakSubmodelBytes = 8192;
    r.peakConcurrentBytes = 16384;
    r.combinedMetric = 0.9;
    r.baselineMetric = std::numeric_limits<double>::quiet_NaN();
    r.metricName = "accuracy";
    r.evaluatedOn = "validation";
    r.evaluatedSamples = 30;
    r.wallSeconds = 3.75;
    CombinedModel built = buildCombinedModel(model);
    r.combinedTestOutput = predictRaw(built, model, f.data.features.topRows(30));
    r.baselineTestOutput = Matrix::Random(30, 3);
    r.testTargets = f.data.subset({0, 1, 2}).targetMatrix();
    run.results = r;
    p.runs.push_back(run);
    p.extra = Json::object({{"page", 3}, {"note", "ü"}});
    return f;
}

}  // namespace

class TstProject : public QObject {
    Q_OBJECT

private slots:
    // The fingerprint is libxxhash's XXH64 with seed 0, streamed over the file in 1 MiB chunks.
    void fingerprintIsXxh64OfTheContent() {
        QTemporaryDir dir;
        const auto fingerprintOf = [&](const std::string& bytes) {
            const std::string path = dir.filePath("f").toStdString();
            writeBytes(path, bytes);
            return fileFingerprint(path);
        };
        // The published XXH64 values, so a project written before the switch to the library
        // still finds its data unchanged.
        QCOMPARE(fingerprintOf("").hash, 0xEF46DB3751D8E999ULL);
        QCOMPARE(fingerprintOf("a").hash, 0xD24EC4F1A98C6E5BULL);
        QCOMPARE(fingerprintOf("abc").hash, 0x44BC2CF5AD770999ULL);
        QCOMPARE(fingerprintOf("Nobody inspects the spammish repetition").hash, 0xFBCEA83C8A378BF1ULL);
        // Several chunks and a partial one give the one-shot value.
        std::string big((std::size_t(5) << 19) + 3, '\0');
        for (std::size_t i = 0; i < big.size(); ++i) big[i] = char(i * 131 + (i >> 7));
        const FileFingerprint fp = fingerprintOf(big);
        QCOMPARE(fp.size, std::uint64_t(big.size()));
        QCOMPARE(fp.hash, std::uint64_t(XXH64(big.data(), big.size(), 0)));
    }

    void roundTripEveryPart() {
        QTemporaryDir dir;
        const Fixture f = makeProject(dir.path());
        const ProjectData& a = f.project;
        const std::string path = dir.filePath("p.skynnet").toStdString();
        saveProject(path, a);
        const ProjectData b = loadProject(path);

        QVERIFY(b.data == a.data);  // paths, fingerprints, statuses, settings
        QCOMPARE(b.data.train.status, DataFileStatus::Found);
        QCOMPARE(b.data.trainLabels.status, DataFileStatus::Unchecked);
        QVERIFY(b.network == a.network);
        QCOMPARE(b.split.seed, a.split.seed);
        QCOMPARE(b.split.scaleEpochs, a.split.scaleEpochs);
        QCOMPARE(b.split.dataShardFactor, a.split.dataShardFactor);
        QCOMPARE(b.split.binaryCombine, a.split.binaryCombine);
        QCOMPARE(b.split.regressionFallbackToShards, true);
        QCOMPARE(b.split.shuffleShards, false);
        QCOMPARE(b.split.batchSize, 16);
        QCOMPARE(b.split.optimizerSlots, 1);
        QCOMPARE(b.split.epochs, 3);
        const TrainConfig &x = a.training.config, &y = b.training.config;
        QCOMPARE(y.epochs, x.epochs);
        QCOMPARE(y.batchSize, x.batchSize);
        QCOMPARE(y.optimizer.kind, x.optimizer.kind);
        QCOMPARE(y.optimizer.learningRate, x.optimizer.learningRate);
        QCOMPARE(y.optimizer.momentum, x.optimizer.momentum);
        QCOMPARE(y.optimizer.nesterov, true);
        QCOMPARE(y.optimizer.weightDecay, x.optimizer.weightDecay);
        QCOMPARE(y.optimizer.epsilon, x.optimizer.epsilon);
        QCOMPARE(y.optimizer.schedule.kind, Schedule::Kind::Step);
        QCOMPARE(y.optimizer.schedule.stepEpochs, 2);
        QCOMPARE(y.optimizer.schedule.gamma, 0.5f);
        QCOMPARE(y.seed, x.seed);
        QCOMPARE(y.threads, 1);
        QCOMPARE(y.earlyStopping.enabled, true);
        QCOMPARE(y.earlyStopping.patience, 4);
        QCOMPARE(y.earlyStopping.monitor, EarlyStopping::Monitor::ValidationMetric);
        QCOMPARE(y.earlyStopping.restoreBest, false);
        QCOMPARE(y.batchReportSeconds, 0.05);
        QCOMPARE(y.resourceReportSeconds, 0.5);
        QCOMPARE(b.training.threadBudget, 2);
        QCOMPARE(b.training.trainBaseline, true);
        QVERIFY(b.extra == a.extra);

        QCOMPARE(b.runs.size(), std::size_t(2));
        for (std::size_t k = 0; k < 2; ++k) {
            const ProjectRun &ra = a.runs[k], &rb = b.runs[k];
            QCOMPARE(rb.status, ra.status);
            QCOMPARE(rb.message, ra.message);
            QCOMPARE(rb.plan.strategy, ra.plan.strategy);
            QCOMPARE(rb.plan.groupClasses, ra.plan.groupClasses);
            QCOMPARE(rb.plan.factor, ra.plan.factor);
            QCOMPARE(rb.plan.seed, ra.plan.seed);
            QCOMPARE(rb.plan.samples, ra.plan.samples);
            QCOMPARE(rb.plan.effectiveEpochs, ra.plan.effectiveEpochs);
            QCOMPARE(rb.plan.warnings, ra.plan.warnings);
            QCOMPARE(rb.plan.originalMemoryBytes, ra.plan.originalMemoryBytes);
            QVERIFY(rb.plan.original == ra.plan.original);
            QCOMPARE(rb.plan.submodelCount(), ra.plan.submodelCount());
            for (int i = 0; i < ra.plan.submodelCount(); ++i) {
                const SubmodelPlan &sa = ra.plan.submodels[std::size_t(i)], &sb = rb.plan.submodels[std::size_t(i)];
                QVERIFY(sb.spec == sa.spec);
                QCOMPARE(sb.rows, sa.rows);
                QCOMPARE(sb.classes, sa.classes);
                QCOMPARE(sb.role, sa.role);
                QCOMPARE(sb.seed, sa.seed);
                QCOMPARE(sb.params, sa.params);
                QCOMPARE(sb.flopsPerSample, sa.flopsPerSample);
                QVERIFY(sameHistory(rb.submodels[std::size_t(i)], ra.submodels[std::size_t(i)]));
            }
            QCOMPARE(rb.baseline.has_value(), ra.baseline.has_value());
            if (ra.baseline) QVERIFY(sameHistory(*rb.baseline, *ra.baseline));
            QCOMPARE(rb.results.has_value(), ra.results.has_value());
        }
        QVERIFY(std::isnan(b.runs[1].submodels[0].epochs[1].loss));
        QVERIFY(std::isinf(b.runs[1].submodels[0].epochs[2].validationLoss));

        const ProjectResults &pa = *a.runs[1].results, &pb = *b.runs[1].results;
        for (std::size_t i = 0; i < pa.submodels.size(); ++i) QVERIFY(sameResult(pb.submodels[i], pa.submodels[i]));
        QVERIFY(pb.baseline && sameResult(*pb.baseline, *pa.baseline));
        QCOMPARE(pb.submodelWallSeconds, pa.submodelWallSeconds);
        QCOMPARE(pb.submodelCpuSeconds, pa.submodelCpuSeconds);
        QCOMPARE(pb.submodelMetrics, pa.submodelMetrics);
        QCOMPARE(pb.splitWallSeconds, pa.splitWallSeconds);
        QCOMPARE(pb.splitCpuSeconds, pa.splitCpuSeconds);
        QCOMPARE(pb.workers, 2);
        QCOMPARE(pb.peakSubmodelBytes, pa.peakSubmodelBytes);
        QCOMPARE(pb.peakConcurrentBytes, pa.peakConcurrentBytes);
        QCOMPARE(pb.combinedMetric, pa.combinedMetric);
        QVERIFY(std::isnan(pb.baselineMetric));
        QCOMPARE(pb.metricName, pa.metricName);
        QCOMPARE(pb.evaluatedOn, pa.evaluatedOn);
        QCOMPARE(pb.evaluatedSamples, pa.evaluatedSamples);
        QCOMPARE(pb.wallSeconds, pa.wallSeconds);
        QVERIFY(sameBits(pb.combinedTestOutput, pa.combinedTestOutput));
        QVERIFY(sameBits(pb.baselineTestOutput, pa.baselineTestOutput));
        QVERIFY(sameBits(pb.testTargets, pa.testTargets));
        QVERIFY(pb.baselineWeights && sameBits(*pb.baselineWeights, *pa.baselineWeights));

        // The model: the same parts, and the same predictions bit for bit.
        QVERIFY(pb.model.has_value());
        const SavedCombinedModel &ma = *pa.model, &mb = *pb.model;
        QCOMPARE(mb.loss, ma.loss);
        QCOMPARE(mb.schema.classNames, ma.schema.classNames);
        QCOMPARE(mb.schema.featureNames, ma.schema.featureNames);
        QCOMPARE(mb.rule.classes, ma.rule.classes);
        for (std::size_t i = 0; i < ma.weights.size(); ++i) QVERIFY(sameBits(mb.weights[i], ma.weights[i]));
        QVERIFY(mb.preprocessing.offset == ma.preprocessing.offset);
        QVERIFY(mb.preprocessing.scale == ma.preprocessing.scale);
        CombinedModel ca = buildCombinedModel(ma), cb = buildCombinedModel(mb);
        QVERIFY(sameBits(predictRaw(cb, mb, f.data.features), predictRaw(ca, ma, f.data.features)));

        // Stable: saving what was loaded writes the same bytes.
        const std::string again = dir.filePath("again.skynnet").toStdString();
        saveProject(again, b);
        QCOMPARE(readFile(again), readFile(path));
    }

    // A CSV declared as a sequence keeps its layout through a save and a reopen: a sample shape of
    // steps x features (Shape::steps), and an image layout read as rows (sequenceRows). The data
    // prepared from the reopened project is that sequence, and the job JSON carries it too.
    void sequenceLayoutRoundTrips() {
        QTemporaryDir dir;
        std::string csv = "a,b,c,d,e,f,label\n";
        for (int k = 0; k < 8; ++k) csv += "1,2,3,4,5," + std::to_string(k) + "," + (k % 2 ? "x\n" : "y\n");
        const std::string csvPath = dir.filePath("steps.csv").toStdString();
        writeBytes(csvPath, csv);
        ProjectData p;
        p.data.train = {csvPath, fileFingerprint(csvPath), DataFileStatus::Found};
        p.data.targetColumn = "label";
        p.data.validationFraction = 0;
        p.data.testFraction = 0.25;
        p.network.input = Shape::steps(3, 2);
        p.network.layers = parseLayers("gru:4");
        p.network.setOutputFor(Task::Binary, 1);
        const std::string path = dir.filePath("p.skynnet").toStdString();
        for (const auto& [shape, rows] : {std::pair{Shape::steps(3, 2), false}, std::pair{Shape{1, 3, 2}, true}}) {
            p.data.sampleShape = shape;
            p.data.sequenceRows = rows;
            saveProject(path, p);
            const ProjectData b = loadProject(path);
            QVERIFY(b.data == p.data);
            QCOMPARE(*b.data.sampleShape, shape);
            QCOMPARE(b.data.sequenceRows, rows);
            const RunData run = runDataOf(b.data);
            QCOMPARE(prepareRunData(run).schema.sampleShape, Shape::steps(3, 2));
            QCOMPARE(runDataFromJson(JsonField(toJson(run), "job")), run);
        }

        // Written only when set: an image layout says nothing of sequences, and a file written before
        // the sequence layout was saved reads its sample shape as an image's.
        const std::string root = dir.path().toStdString();
        ProjectDataSource image = p.data;
        image.sampleShape = Shape{1, 3, 2};
        image.sequenceRows = false;
        const Json imageJson = toJson(image, root);
        QCOMPARE(QString::fromStdString(dumpJson(imageJson)).contains("equence"), false);
        QCOMPARE(*dataSourceFromJson(JsonField(imageJson, "p.skynnet"), root, false).sampleShape, (Shape{1, 3, 2}));
        p.data.sampleShape = Shape::steps(3, 2);
        p.data.sequenceRows = false;
        Json old = toJson(p.data, root);
        QVERIFY(old.contains("sampleShapeSequence"));
        old.erase("sampleShapeSequence");
        QCOMPARE(*dataSourceFromJson(JsonField(old, "p.skynnet"), root, false).sampleShape, (Shape{1, 3, 2}));
        // A sequence is one channel of steps x features.
        Json bad = toJson(p.data, root);
        bad["sampleShape"] = "3x3x2";
        VERIFY_CONTAINS(errorOf([&] { dataSourceFromJson(JsonField(bad, "p.skynnet"), root, false); }),
                        "p.skynnet: sampleShapeSequence");
    }

    // Epoch scaling: on and off stay true and false (as projects before the sqrt setting wrote
    // them, and as older builds read them); sqrt is written by name, in the options and the plan.
    void epochScalingReadsAndWritesBothForms() {
        const auto back = [](const SplitOptions& o) { return splitOptionsFromJson(JsonField(toJson(o), "p")); };
        SplitOptions o;
        for (const auto& s : {std::optional<EpochScaling>(), std::optional(EpochScaling::On),
                              std::optional(EpochScaling::Off), std::optional(EpochScaling::Sqrt)}) {
            o.scaleEpochs = s;
            QVERIFY(back(o) == o);
        }
        o.scaleEpochs = EpochScaling::On;
        QCOMPARE(toJson(o).at("scaleEpochs"), Json(true));
        o.scaleEpochs = EpochScaling::Sqrt;
        QCOMPARE(toJson(o).at("scaleEpochs"), Json("sqrt"));
        Json bad = toJson(o);
        bad["scaleEpochs"] = "half";
        VERIFY_CONTAINS(errorOf([&] { splitOptionsFromJson(JsonField(bad, "p.skynnet", "split")); }),
                        "p.skynnet: split.scaleEpochs");

        DataInfo info;
        info.classCount = 6;
        for (int i = 0; i < 60; ++i) info.labels.push_back(i % 6);
        info.samples = 60;
        o.requested = 3;
        o.epochs = 20;
        NetworkSpec net;
        net.input = Shape::flat(4);
        net.layers = parseLayers("dense:32:relu");
        const SplitPlan plan = makePlan(net, info, o);
        QCOMPARE(plan.effectiveEpochs, 17);  // ceil(20 / sqrt(1.5))
        BlockWriter blocks;
        const Json written = toJson(plan, blocks);
        QCOMPARE(written.at("epochsScaled"), Json(true));
        QCOMPARE(written.at("epochScaling"), Json("sqrt"));
        std::vector<std::vector<float>> copies;
        for (const auto& b : blocks.blocks()) copies.emplace_back(b.begin(), b.end());
        BlockReader reader(copies);
        QCOMPARE(splitPlanFromJson(JsonField(written, "p"), reader).epochScaling, EpochScaling::Sqrt);
        o.scaleEpochs = EpochScaling::On;
        QVERIFY(!toJson(makePlan(net, info, o), blocks).contains("epochScaling"));
    }

    // The example project was first written before a model's rows were counted in its peak memory
    // (that copy is kept in tests/fixtures/example_v1): its model-only peaks are read from the
    // older field names, and its rows count as 0.
    void readsProjectsWrittenBeforeRowsWereCounted() {
        const ProjectData p = loadProject(SKYNNET_SOURCE_DIR "/tests/fixtures/example_v1/wine-class-groups.skynnet");
        QVERIFY(!p.runs.empty() && p.runs.back().results);
        const ProjectResults& r = *p.runs.back().results;
        QVERIFY(r.peakSubmodelBytes > 0);
        QVERIFY(r.peakConcurrentBytes >= r.peakSubmodelBytes);
        std::int64_t largest = 0;
        for (const TrainResult& t : r.submodels) {
            QCOMPARE(t.dataBytes, std::int64_t(0));
            QCOMPARE(t.peakBytes(), t.peakModelBytes);
            largest = std::max(largest, t.peakModelBytes);
        }
        QCOMPARE(r.peakSubmodelBytes, largest);
        for (const ModelHistory& h : p.runs.back().submodels)
            for (const ResourceSample& s : h.resources) QCOMPARE(s.dataBytes, std::int64_t(0));
    }

    void dataFilesFollowTheProjectFolder() {
        QTemporaryDir root;
        const QString a = root.filePath("a"), moved = root.filePath("moved");
        QDir().mkpath(a);
        const Fixture f = makeProject(a);
        saveProject((a + "/p.skynnet").toStdString(), f.project);

        // The whole folder moves: the relative path finds the data.
        QVERIFY(QDir().rename(a, moved));
        ProjectData p = loadProject((moved + "/p.skynnet").toStdString());
        QCOMPARE(p.data.train.status, DataFileStatus::Found);
        QCOMPARE(QString::fromStdString(p.data.train.path), moved + "/data/blobs.csv");
        QVERIFY(p.data.problems().empty());

        // Only the project file moves: the absolute path finds the data.
        QDir().mkpath(root.filePath("elsewhere/deeper"));
        QVERIFY(QFile::copy(moved + "/p.skynnet", root.filePath("elsewhere/deeper/p.skynnet")));
        QVERIFY(QDir().rename(moved, a));
        p = loadProject(root.filePath("elsewhere/deeper/p.skynnet").toStdString());
        QCOMPARE(p.data.train.status, DataFileStatus::Found);
        QCOMPARE(QString::fromStdString(p.data.train.path), a + "/data/blobs.csv");

        // Changed content is detected, a missing file reported with the path it was saved under.
        writeBytes((a + "/data/blobs.csv").toStdString(), "a,b,c,d,label\n1,2,3,5,x\n");
        QVERIFY(QFile::remove(a + "/data/extra.txt"));
        p = loadProject((a + "/p.skynnet").toStdString());
        QCOMPARE(p.data.train.status, DataFileStatus::Changed);
        QCOMPARE(p.data.test.status, DataFileStatus::Missing);
        QCOMPARE(QString::fromStdString(p.data.test.path), a + "/data/extra.txt");
        QCOMPARE(p.data.problems().size(), std::size_t(2));
        QVERIFY(p.runs.size() == 2 && p.runs[1].results && p.runs[1].results->model);  // nothing else is lost

        // A file the user points to is checked against the saved fingerprint.
        ProjectDataFile chosen = p.data.test;
        writeBytes(root.filePath("found.txt").toStdString(), "labels");
        chosen.path = root.filePath("found.txt").toStdString();
        QCOMPARE(checkDataFile(chosen), DataFileStatus::Found);
        writeBytes(chosen.path, "other");
        QCOMPARE(checkDataFile(chosen), DataFileStatus::Changed);
    }

    void truncatedAndDamagedFiles() {
        QTemporaryDir dir;
        ProjectData small;
        small.network = NetworkSpec{Shape::flat(2), parseLayers("dense:3:relu"), 2, Activation::Softmax};
        const std::string path = dir.filePath("small.skynnet").toStdString();
        saveProject(path, small);
        const std::string bytes = readFile(path);
        QVERIFY(bytes.size() > 100);
        const std::string cut = dir.filePath("cut.skynnet").toStdString();
        for (std::size_t n = 0; n < bytes.size(); ++n) {
            writeBytes(cut, bytes.substr(0, n));
            const QString e = errorText([&] { loadProject(cut); });
            const QString expected = QString::fromStdString(cut) +
                                     (n == 0 ? " is empty, not a Skynnet project file" : " is truncated");
            QVERIFY2(e == expected, qPrintable(QString("prefix %1: %2").arg(n).arg(e)));
        }
        std::string damaged = bytes;
        damaged[bytes.size() / 2] ^= 0x20;
        writeBytes(cut, damaged);
        QCOMPARE(errorText([&] { loadProject(cut); }), QString::fromStdString(cut) + " is damaged (checksum mismatch)");
        writeBytes(cut, "name,label\n1,a\n");
        QCOMPARE(errorText([&] { loadProject(cut); }), QString::fromStdString(cut) + " is not a Skynnet project file");
        QCOMPARE(errorText([&] { loadProject(dir.filePath("none.skynnet").toStdString()); }),
                 dir.filePath("none.skynnet") + " does not exist");
    }

    void newerAndForeignFiles() {
        QTemporaryDir dir;
        ProjectData small;
        small.network = NetworkSpec{Shape::flat(2), parseLayers("dense:3:relu"), 2, Activation::Softmax};
        const std::string path = dir.filePath("p.skynnet").toStdString();
        saveProject(path, small);

        // A newer container.
        std::string bytes = readFile(path);
        bytes[8] = 9;
        const std::string newer = dir.filePath("newer.skynnet").toStdString();
        writeBytes(newer, bytes);
        QCOMPARE(errorText([&] { loadProject(newer); }),
                 QString::fromStdString(newer) +
                     " was written by a newer Skynnet (format 9, this build reads up to 1)");

        // A newer project format in a container this build reads.
        ModelFileContents c = loadModelFile(path);
        c.header["projectFormat"] = 2;
        saveModelFile(newer, c);
        QCOMPARE(errorText([&] { loadProject(newer); }),
                 QString::fromStdString(newer) +
                     " was written by a newer Skynnet (project format 2, this build reads up to 1)");

        // A model file is not a project.
        const Fixture f = makeProject(dir.path());
        const std::string model = dir.filePath("m.skynnet").toStdString();
        saveCombinedModel(model, *f.project.runs[1].results->model);
        QCOMPARE(errorText([&] { loadProject(model); }),
                 QString::fromStdString(model) +
                     " holds a Skynnet model (kind 'combined'), not a project: open it as a model instead");
    }

    void badFieldsAreNamed() {
        QTemporaryDir dir;
        const Fixture f = makeProject(dir.path());
        const std::string path = dir.filePath("p.skynnet").toStdString();
        saveProject(path, f.project);
        const ModelFileContents good = loadModelFile(path);
        const std::string bad = dir.filePath("bad.skynnet").toStdString();
        const auto withHeader = [&](const Json& h) {
            ModelFileContents c = good;
            c.header = h;
            saveModelFile(bad, c);
            return errorText([&] { loadProject(bad); });
        };
        const QString where = QString::fromStdString(bad) + ": ";

        Json h = good.header;
        Json training = h.at("training"), config = training.at("config");
        config["batchSize"] = 0;
        training["config"] = config;
        h["training"] = training;
        QCOMPARE(withHeader(h), where + "training.config.batchSize must be at least 1, not 0");

        h = good.header;
        Json runs = h.at("runs");
        Json plan = runs[1].at("plan");
        Json subs = plan.at("submodels");
        Json rows = subs[0].at("rows");
        rows["count"] = 5;
        subs[0]["rows"] = rows;
        plan["submodels"] = subs;
        runs[1]["plan"] = plan;
        h["runs"] = runs;
        QVERIFY2(withHeader(h).startsWith(where + "runs[1].plan.submodels[0].rows.block names data block"),
                 qPrintable(withHeader(h)));

        h = good.header;
        runs = h.at("runs");
        Json results = runs[1].at("results"), model = results.at("model");
        Json weights = model.at("weightsBlocks");
        weights[0] = results.at("baselineWeightsBlock");  // a block of the wrong size for submodel 1
        model["weightsBlocks"] = weights;
        results["model"] = model;
        runs[1]["results"] = results;
        h["runs"] = runs;
        const QString e = withHeader(h);
        QVERIFY2(e.startsWith(where + "runs[1].results.model: submodels[0].weightsBlock holds"), qPrintable(e));

        // An original network whose parameter count overflows 64 bits (40000 layers of 2^24
        // units): the baseline's weights are refused, the count is not computed past the limit.
        h = good.header;
        runs = h.at("runs");
        plan = runs[1].at("plan");
        Json original = plan.at("original");
        Json layers = Json::array();
        for (int i = 0; i < 40000; ++i)
            layers.push_back(
                Json::object({{"type", "dense"}, {"units", 1 << 24}, {"activation", "relu"}, {"scalable", true}}));
        original["layers"] = layers;
        plan["original"] = original;
        runs[1]["plan"] = plan;
        h["runs"] = runs;
        const QString overflow = withHeader(h);
        QVERIFY2(overflow.startsWith(where + "runs[1].results.baselineWeightsBlock names data block"),
                 qPrintable(overflow));
        QVERIFY2(overflow.endsWith("values, expected " + QString::number(INT64_MAX / 2 + 1)), qPrintable(overflow));

        h = good.header;
        h.erase("network");
        QCOMPARE(withHeader(h), QString::fromStdString(bad) + ": missing field 'network'");
    }

    void failedSaveKeepsThePreviousFile() {
        QTemporaryDir dir;
        Fixture f = makeProject(dir.path());
        const std::string path = dir.filePath("p.skynnet").toStdString();
        saveProject(path, f.project);
        const std::string before = readFile(path);

        // The parent is a regular file.
        const QString e = errorText(
            [&] { saveProject(dir.filePath("data/blobs.csv/p.skynnet").toStdString(), f.project); });
        QVERIFY2(e.startsWith("cannot save " + dir.filePath("data/blobs.csv/p.skynnet")), qPrintable(e));

        // The file-size limit stops the save midway (SIGXFSZ ignored, so write() fails instead).
        f.project.runs[1].results->baselineTestOutput = Matrix::Random(20000, 3);
        const QStringList entriesBefore =
            QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        struct rlimit old {};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        struct rlimit small = old;
        small.rlim_cur = before.size() + 1000;
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const QString e2 = errorText([&] { saveProject(path, f.project); });
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY2(e2 == QString::fromStdString("cannot save " + path + ": File too large"), qPrintable(e2));
        QCOMPARE(readFile(path), before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), entriesBefore);
        const ProjectData reread = loadProject(path);
        QCOMPARE(reread.runs.size(), std::size_t(2));
        QCOMPARE(reread.runs[1].results->baselineTestOutput.rows(), Index(30));
    }

    // What the command-line tool does: train, keep the run, save, load, predict the same.
    void completedRunFromTheTrainer() {
        QTemporaryDir dir;
        const Dataset data = makeBlobs(4, 50, 3, 0.8f, 3);
        Preprocessing prep;
        prep.fit(data);
        Dataset train = data;
        train.features = prep.apply(data.features);
        NetworkSpec net{Shape::flat(3), parseLayers("dense:16:relu"), 4, Activation::Softmax};
        SplitOptions o;
        o.strategy = Strategy::ClassGroups;
        o.requested = 3;
        o.epochs = 2;
        const SplitPlan plan = makePlan(net, train, o);
        TrainConfig config;
        config.epochs = 2;
        config.batchSize = 32;
        ParallelResult split = ParallelTrainer(plan, config).train(train);
        QCOMPARE(split.status, TrainStatus::Completed);
        const BaselineResult baseline = trainBaseline(plan, train, nullptr, config, 1);
        SavedCombinedModel model = toSaved(split.model, prep, {});
        model.schema.classNames = data.classNames;
        model.schema.featureNames = data.featureNames;

        ProjectData p;
        p.network = net;
        p.split = o;
        p.training.config = config;
        p.runs.push_back(completedRun(plan, split, &baseline, &model, "cli run"));
        p.runs.back().results->combinedMetric = 0.75;
        const std::string path = dir.filePath("cli.skynnet").toStdString();
        saveProject(path, p);
        const ProjectData back = loadProject(path);
        const ProjectRun& run = back.runs.at(0);
        QCOMPARE(run.message, std::string("cli run"));
        QCOMPARE(run.submodels.size(), split.submodels.size());
        QCOMPARE(run.submodels[0].epochs.size(), std::size_t(plan.effectiveEpochs));
        QVERIFY(run.baseline && run.baseline->epochs.size() == std::size_t(plan.epochs));
        QCOMPARE(run.results->combinedMetric, 0.75);
        CombinedModel loaded = buildCombinedModel(*run.results->model);
        QVERIFY(sameBits(predictRaw(loaded, *run.results->model, data.features), split.model.predict(train.features)));
        Network b(plan.original, 1);
        b.setFlatWeights(*run.results->baselineWeights);
        Network trained = baseline.network;
        QVERIFY(sameBits(b.predict(train.features), trained.predict(train.features)));
    }

    // One schema (task, names, categoricals, target column, sample shape) from the training data
    // through both model file kinds and a project run, unchanged.
    void schemaRoundTripsThroughModelAndProjectFiles() {
        QTemporaryDir dir;
        std::string csv = "size,species,colour,weight\n";
        const char* species[] = {"ant", "bee", "cat"};
        const char* colours[] = {"red", "green", "blue", "green"};
        for (int i = 0; i < 60; ++i)
            csv += std::to_string(i % 5) + "," + species[i % 3] + "," + colours[i % 4] + "," + std::to_string(i % 7) +
                   "\n";
        const std::string path = dir.filePath("mixed.csv").toStdString();
        writeBytes(path, csv);
        DataRequest request;
        request.path = path;
        request.target = "species";
        const Dataset all = loadTrainingData(request);
        const PreparedData data = prepareData(all, nullptr, PreparationSettings{});
        const ModelSchema& schema = data.schema;
        QVERIFY(schema == all.schema());
        QCOMPARE(schema.task, Task::Classification);
        QCOMPARE(schema.featureNames, (std::vector<std::string>{"size", "colour", "weight"}));
        QCOMPARE(schema.categoricals.size(), std::size_t(1));
        QCOMPARE(schema.categoricals[0].column, 1);
        QCOMPARE(schema.categoricals[0].categories, (std::vector<std::string>{"blue", "green", "red"}));
        QCOMPARE(schema.classNames, (std::vector<std::string>{"ant", "bee", "cat"}));
        QCOMPARE(schema.targetColumn, std::string("species"));
        QCOMPARE(schema.sampleShape, Shape::flat(3));

        NetworkSpec net{networkInputShape(data), parseLayers("dense:8:relu"), 3, Activation::Softmax};
        QCOMPARE(net.input, Shape::flat(5));  // 2 numeric columns + 3 one-hot colours
        const Network network(net, 3);
        SavedModel single;
        single.schema = schema;
        single.spec = net;
        single.weights = network.flatWeights();
        single.preprocessing = data.preprocessing;
        single.extra = Json::object({{"note", "kept"}});
        const std::string singlePath = dir.filePath("single.skym").toStdString();
        saveModel(singlePath, single);
        const SavedModel singleBack = loadModel(singlePath);
        QVERIFY(singleBack.schema == schema);
        QCOMPARE(singleBack.extra.value("note", ""), std::string("kept"));
        QCOMPARE(singleBack.extra.value("target_column", ""), std::string("species"));  // the field files always had
        QVERIFY(loadAnyModel(singlePath).schema == schema);

        SplitOptions o;
        o.strategy = Strategy::ClassGroups;
        o.requested = 3;
        o.epochs = 1;
        const SplitPlan plan = makePlan(net, data.train, o);
        TrainConfig config;
        config.epochs = 1;
        const ParallelResult split = ParallelTrainer(plan, config).train(data.train);
        QCOMPARE(split.status, TrainStatus::Completed);
        const SavedCombinedModel combined = toSaved(split.model, data.preprocessing, schema);
        const std::string combinedPath = dir.filePath("combined.skym").toStdString();
        saveCombinedModel(combinedPath, combined);
        QVERIFY(loadCombinedModel(combinedPath).schema == schema);

        ProjectData p;
        p.network = net;
        p.split = o;
        p.training.config = config;
        p.runs.push_back(completedRun(plan, split, nullptr, &combined));
        const std::string projectPath = dir.filePath("schema.skynnet").toStdString();
        saveProject(projectPath, p);
        QVERIFY(loadProject(projectPath).runs.at(0).results->model->schema == schema);
    }

    // Files written before the schema existed (kept in tests/data, made by skynnet-cli train
    // --data schema_v1_mixed.csv --target species [--submodels 3]) read back with their schema.
    void modelFilesWrittenBeforeKeepTheirSchema() {
        ModelSchema expected;
        expected.task = Task::Classification;
        expected.featureNames = {"size", "colour", "weight"};
        expected.categoricals = {{1, {"blue", "green", "red"}}};
        expected.classNames = {"ant", "bee", "cat"};
        expected.targetColumn = "species";
        expected.sampleShape = Shape::flat(3);
        const SavedModel single = loadModel(sourcePath("tests/data/schema_v1_single.skym"));
        QVERIFY(single.schema == expected);
        const SavedCombinedModel combined = loadCombinedModel(sourcePath("tests/data/schema_v1_combined.skym"));
        QVERIFY(combined.schema == expected);
        QCOMPARE(combined.submodelCount(), 3);

        // Data loaded like the old model lines up with it, the target found by the saved column.
        DataRequest request;
        request.path = sourcePath("tests/data/schema_v1_mixed.csv");
        const Dataset data = loadLike(request, combined.schema, true);
        QCOMPARE(data.size(), Index(120));
        QCOMPARE(data.labelColumn, std::string("species"));
        QCOMPARE(data.classNames, expected.classNames);

        // The example project of the repository as first saved, before the schema, and saved again.
        const ProjectData project = loadProject(sourcePath("tests/fixtures/example_v1/wine-class-groups.skynnet"));
        const SavedCombinedModel& wine = *project.runs.back().results->model;
        const Dataset wineData = loadCsv(sourcePath("resources/datasets/wine.csv"));
        QCOMPARE(wine.schema.task, Task::Classification);
        QCOMPARE(wine.schema.featureNames, wineData.featureNames);
        QCOMPARE(wine.schema.classNames, wineData.classNames);
        QVERIFY(wine.schema.categoricals.empty());
        QCOMPARE(wine.schema.sampleShape, Shape::flat(int(wineData.featureNames.size())));
        QTemporaryDir dir;
        const std::string again = dir.filePath("again.skynnet").toStdString();
        saveProject(again, project);
        QVERIFY(loadProject(again).runs.back().results->model->schema == wine.schema);
    }

    void inconsistentRunsAreRefusedOnSave() {
        QTemporaryDir dir;
        Fixture f = makeProject(dir.path());
        const std::string path = dir.filePath("p.skynnet").toStdString();
        ProjectData p = f.project;
        std::get<DenseSpec>(p.runs[1].results->model->specs[0].layers[0]).units += 1;
        QVERIFY2(errorText([&] {
                     saveProject(path, p);
                 }).startsWith(QString::fromStdString("cannot save " + path + ": runs[1].results.model: network 0")),
                 qPrintable(errorText([&] { saveProject(path, p); })));
        p = f.project;
        p.runs[0].submodels.pop_back();
        QVERIFY(errorText([&] {
                    saveProject(path, p);
                }).contains("runs[0].submodels: 2 histories for the plan's 3 submodels"));
        QVERIFY(!QFile::exists(QString::fromStdString(path)));
    }

    // A run's pauses are kept on its clock; a run without any writes no "pauses" (as before), and
    // a file whose pauses overlap or run backwards is refused naming the field.
    void pausesRoundTripAndAreChecked() {
        QTemporaryDir dir;
        Fixture f = makeProject(dir.path());
        const std::string path = dir.filePath("p.skynnet").toStdString();
        f.project.runs[1].pauses = {{1.5, 2.25}, {3.0, 4.125}};
        saveProject(path, f.project);
        const ProjectData back = loadProject(path);
        QVERIFY(back.runs[0].pauses.empty());
        QCOMPARE(back.runs[1].pauses, f.project.runs[1].pauses);

        const ModelFileContents good = loadModelFile(path);
        QVERIFY(!good.header.at("runs")[0].contains("pauses"));
        const std::string bad = dir.filePath("bad.skynnet").toStdString();
        const QString where = QString::fromStdString(bad) + ": ";
        const auto withPauses = [&](const Json& pauses) {
            ModelFileContents c = good;
            Json runs = c.header.at("runs");
            runs[1]["pauses"] = pauses;
            c.header["runs"] = runs;
            saveModelFile(bad, c);
            return errorText([&] { loadProject(bad); });
        };
        const auto pause = [](double start, double end) {
            return Json::object({{"startSeconds", start}, {"endSeconds", end}});
        };
        QCOMPARE(withPauses(Json::array({pause(2, 1)})),
                 where + "runs[1].pauses[0].endSeconds must be a number of seconds, at least startSeconds");
        QCOMPARE(withPauses(Json::array({pause(-1, 1)})),
                 where + "runs[1].pauses[0].startSeconds must be a number of seconds, at least 0");
        QCOMPARE(withPauses(Json::array({pause(1, 3), pause(2, 4)})),
                 where + "runs[1].pauses[1].startSeconds must not be before the previous pause's end");
    }
};

QTEST_APPLESS_MAIN(TstProject)
#include "tst_project.moc"
