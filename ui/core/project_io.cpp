#include "ui/core/project_io.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QMutexLocker>

#include "core/error.h"
#include "project/data_reference.h"

namespace skynnet::ui {
namespace {

// Fingerprints by absolute path: a project is saved (and autosaved) many times over data that
// rarely changes, so a file is hashed again only when its size or modification time moved.
struct CachedFingerprint {
    qint64 size = -1;
    QDateTime modified;  // invalid: remembered from a project file, for a file not found
    FileFingerprint fingerprint;
};
// Autosave fingerprints on a worker while the GUI thread may open or save: one lock, held only
// to read or write entries, never while a file is hashed.
QMutex& fingerprintMutex() {
    static QMutex mutex;
    return mutex;
}
QHash<QString, CachedFingerprint>& fingerprintCache() {
    static QHash<QString, CachedFingerprint> cache;  // guarded by fingerprintMutex()
    return cache;
}

bool isRealFile(const QString& path) { return !path.isEmpty() && !path.startsWith(QLatin1String("builtin:")); }

ProjectDataFile dataFileOf(const QString& path) {
    ProjectDataFile f;
    if (!isRealFile(path)) {
        f.path = path.toStdString();
        return f;
    }
    const QFileInfo info(path);
    const QString absolute = info.absoluteFilePath();
    f.path = absolute.toStdString();
    QMutexLocker lock(&fingerprintMutex());
    const auto found = fingerprintCache().constFind(absolute);
    const std::optional<CachedFingerprint> cached =
        found == fingerprintCache().constEnd() ? std::nullopt : std::optional<CachedFingerprint>(*found);
    if (info.isFile()) {
        if (!cached || cached->size != info.size() || cached->modified != info.lastModified()) {
            lock.unlock();
            CachedFingerprint fresh{info.size(), info.lastModified(), {}};
            try {
                fresh.fingerprint = fileFingerprint(f.path);
            } catch (const Error&) {
                lock.relock();
                fingerprintCache().remove(absolute);
                f.status = DataFileStatus::Missing;
                return f;
            }
            lock.relock();
            fingerprintCache().insert(absolute, fresh);
            f.fingerprint = fresh.fingerprint;
        } else {
            f.fingerprint = cached->fingerprint;
        }
        f.status = DataFileStatus::Found;
    } else {
        if (cached && cached->size >= 0) f.fingerprint = cached->fingerprint;  // what the project was made with
        f.status = DataFileStatus::Missing;
    }
    return f;
}

ModelHistory historyOf(const SubmodelSnapshot& s) {
    ModelHistory h;
    h.submodel = s.submodel;
    h.finished = s.finished;
    h.status = s.status;
    h.lastBatch = s.lastBatch;
    h.epochs = s.epochs;
    h.resources = s.resources;
    return h;
}

SubmodelSnapshot snapshotOf(const ModelHistory& h) {
    SubmodelSnapshot s;
    s.submodel = h.submodel;
    s.finished = h.finished;
    s.status = h.status;
    s.lastBatch = h.lastBatch;
    s.epochs = h.epochs;
    s.resources = h.resources;
    return s;
}

ProjectResults resultsOf(const RunResults& r, bool withWeights) {
    ProjectResults p;
    p.submodels = r.split.submodels;
    p.submodelWallSeconds = r.split.submodelWallSeconds;
    p.submodelCpuSeconds = r.split.submodelCpuSeconds;
    p.submodelMetrics = r.submodelMetrics;
    p.splitWallSeconds = r.split.wallSeconds;
    p.splitCpuSeconds = r.split.cpuSeconds;
    p.workers = r.split.workers;
    p.peakSubmodelBytes = r.split.peakSubmodelBytes;
    p.peakConcurrentBytes = r.split.peakConcurrentBytes;
    if (r.baseline) p.baseline = r.baseline->result;
    p.combinedMetric = r.combinedMetric;
    p.baselineMetric = r.baselineMetric;
    p.metricName = r.metricName;
    p.evaluatedOn = r.evaluatedOn;
    p.evaluatedSamples = r.evaluatedSamples;
    p.wallSeconds = r.wallSeconds;
    p.combinedTestOutput = r.combinedTestOutput;
    p.baselineTestOutput = r.baselineTestOutput;
    p.testTargets = r.testTargets;
    if (withWeights) {
        p.model = savedModelOf(r);
        // A baseline read from a file without its weights has an empty network: nothing to save.
        if (r.baseline) {
            std::vector<float> w = r.baseline->network.flatWeights();
            if (std::int64_t(w.size()) == paramCount(r.plan.original)) p.baselineWeights = std::move(w);
        }
    }
    return p;
}

std::shared_ptr<const RunResults> runResultsOf(const ProjectRun& run) {
    const ProjectResults& p = *run.results;
    auto r = std::make_shared<RunResults>();
    r->plan = run.plan;
    r->split.status = TrainStatus::Completed;
    if (p.model) {
        r->split.model = buildCombinedModel(*p.model);
        r->preprocessing = p.model->preprocessing;
        r->schema = p.model->schema;
    }
    r->split.submodels = p.submodels;
    r->split.submodelWallSeconds = p.submodelWallSeconds;
    r->split.submodelCpuSeconds = p.submodelCpuSeconds;
    r->split.wallSeconds = p.splitWallSeconds;
    r->split.cpuSeconds = p.splitCpuSeconds;
    r->split.workers = p.workers;
    r->split.peakSubmodelBytes = p.peakSubmodelBytes;
    r->split.peakConcurrentBytes = p.peakConcurrentBytes;
    if (p.baseline) {
        BaselineResult b;
        b.result = *p.baseline;
        if (p.baselineWeights) {
            b.network = Network(run.plan.original, 1);  // every weight is overwritten below
            b.network.setFlatWeights(*p.baselineWeights);
        }
        r->baseline = std::move(b);
    }
    r->combinedMetric = p.combinedMetric;
    r->baselineMetric = p.baselineMetric;
    r->combinedTestOutput = p.combinedTestOutput;
    r->baselineTestOutput = p.baselineTestOutput;
    r->testTargets = p.testTargets;
    r->submodelMetrics = p.submodelMetrics;
    r->wallSeconds = p.wallSeconds;
    r->metricName = p.metricName;
    r->evaluatedOn = p.evaluatedOn;
    r->evaluatedSamples = p.evaluatedSamples;
    return r;
}

}  // namespace

ProjectDataSource withFingerprints(const ProjectDataSource& settings) {
    ProjectDataSource d = settings;
    for (ProjectDataFile* f : {&d.train, &d.trainLabels, &d.test, &d.testLabels})
        *f = dataFileOf(QString::fromStdString(f->path));
    return d;
}

void rememberFingerprints(const ProjectDataSource& d) {
    for (const ProjectDataFile* f : {&d.train, &d.trainLabels, &d.test, &d.testLabels}) {
        if (!f->fingerprint || !isRealFile(QString::fromStdString(f->path))) continue;
        const QFileInfo info(QString::fromStdString(f->path));
        const QString path = info.absoluteFilePath();
        QMutexLocker lock(&fingerprintMutex());
        // A missing file keeps what the project said; one found unchanged was just hashed by
        // loadProject, so a save need not read it again while its size and time stay.
        if (f->status == DataFileStatus::Missing) fingerprintCache()[path] = {0, QDateTime(), *f->fingerprint};
        else if (f->status == DataFileStatus::Found && info.isFile())
            fingerprintCache()[path] = {info.size(), info.lastModified(), *f->fingerprint};
    }
}

TrainSettings trainSettingsOf(const ProjectTraining& t) {
    TrainSettings s;
    s.config = t.config;
    s.threadBudget = t.threadBudget;
    s.trainBaseline = t.trainBaseline;
    return s;
}

ProjectTraining projectTrainingOf(const TrainSettings& s) {
    ProjectTraining t;
    t.config = s.config;
    t.threadBudget = s.threadBudget;
    t.trainBaseline = s.trainBaseline;
    return t;
}

std::optional<SavedCombinedModel> savedModelOf(const RunResults& r) {
    if (r.split.model.submodelCount() == 0) return std::nullopt;
    return toSaved(r.split.model, r.preprocessing, r.schema);
}

std::optional<ProjectRun> runOf(const TrainingSession& session, bool withWeights) {
    if (session.running() || !session.plan()) return std::nullopt;
    ProjectRun run;
    run.status = session.lastStatus();
    run.message = session.lastMessage().toStdString();
    run.plan = *session.plan();
    for (const SubmodelSnapshot& s : session.submodels()) run.submodels.push_back(historyOf(s));
    if (session.runHadBaseline()) run.baseline = historyOf(session.baseline());
    if (const auto r = session.results()) run.results = resultsOf(*r, withWeights);
    return run;
}

PastRun pastRunOf(const ProjectRun& run) {
    PastRun p;
    p.plan = std::make_shared<const SplitPlan>(run.plan);
    for (const ModelHistory& h : run.submodels) p.submodels.push_back(snapshotOf(h));
    if (run.baseline) p.baseline = snapshotOf(*run.baseline);
    if (run.results) p.results = runResultsOf(run);
    p.status = run.status;
    p.message = QString::fromStdString(run.message);
    return p;
}

ProjectSnapshot snapshotProject(const ProjectDocument& document, const TrainingSession& session, const Json& extra) {
    ProjectSnapshot s;
    s.data = document.dataSettings();
    ProjectData& p = s.project;
    p.network = document.network();
    p.split = document.splitOptions();
    p.training = projectTrainingOf(document.trainSettings());
    p.runs = document.earlierRuns();
    if (auto run = runOf(session, true)) p.runs.push_back(std::move(*run));
    p.extra = extra;
    return s;
}

void writeProjectSnapshot(const QString& path, ProjectSnapshot snapshot) {
    snapshot.project.data = withFingerprints(snapshot.data);
    saveProject(path.toStdString(), snapshot.project);
}

ProjectData captureProject(const ProjectDocument& document, const TrainingSession& session, const Json& extra) {
    ProjectSnapshot s = snapshotProject(document, session, extra);
    s.project.data = withFingerprints(s.data);
    return std::move(s.project);
}

void saveProjectFile(const QString& path, const ProjectDocument& document, const TrainingSession& session, const Json& extra) {
    writeProjectSnapshot(path, snapshotProject(document, session, extra));
}

namespace {

// Both parts of opening that do not touch the document: the last run rebuilt (throws Error when
// its weights do not fit its plan) and the data prepared.
void completeOpened(OpenedProject& o) {
    if (!o.project.runs.empty()) o.lastRun = pastRunOf(o.project.runs.back());
    if (!o.data.train) return;
    try {
        o.prepared = std::make_shared<const PreparedData>(
            prepareData(*o.data.train, o.data.test.get(), o.project.data.preparation()));
    } catch (const std::exception&) {
        // Settings the data cannot be split by (too few rows): the document reports it when a
        // run asks for the preparation, as for data loaded on the data page.
    }
}

}  // namespace

OpenedProject openProjectData(ProjectData project, bool loadItsData) {
    OpenedProject o;
    o.project = std::move(project);
    if (loadItsData) {
        try {
            o.data = loadData(o.project.data);
        } catch (const std::exception& e) {
            o.dataProblem = QString::fromUtf8(e.what());
        }
    }
    completeOpened(o);
    return o;
}

void applyProjectDocument(ProjectDocument& document, const TrainingSession& session, OpenedProject& opened) {
    if (session.running()) throw Error("cannot open a project while training runs");
    const ProjectData& project = opened.project;
    rememberFingerprints(project.data);
    document.setFilePath(QString());  // restoring is not an edit of the previous file
    document.restore(project.data, opened.data.train, opened.data.test, project.network, project.split,
                     trainSettingsOf(project.training));
    if (opened.prepared) document.adoptPrepared(std::move(opened.prepared), document.dataRevision());
    std::vector<ProjectRun> earlier(project.runs.begin(), project.runs.end() - (project.runs.empty() ? 0 : 1));
    document.setEarlierRuns({});
    for (ProjectRun& r : earlier) document.archiveRun(std::move(r));
}

void applyProjectRun(ProjectDocument& document, TrainingSession& session, OpenedProject& opened, const QString& filePath) {
    if (session.running()) throw Error("cannot open a project while training runs");
    if (opened.lastRun) session.adoptRun(std::move(*opened.lastRun));
    else session.clearRun();
    document.setFilePath(filePath);
    document.setClean();  // after adoptRun: a shown run's results mark the document modified
}

void applyProject(ProjectDocument& document, TrainingSession& session, OpenedProject& opened, const QString& filePath) {
    applyProjectDocument(document, session, opened);
    applyProjectRun(document, session, opened, filePath);
}

void applyProject(ProjectDocument& document, TrainingSession& session, const ProjectData& project, const LoadedData* data,
                  const QString& filePath) {
    if (session.running()) throw Error("cannot open a project while training runs");
    OpenedProject opened;
    opened.project = project;
    if (data) opened.data = *data;
    completeOpened(opened);  // throws before anything changes
    applyProject(document, session, opened, filePath);
}

}  // namespace skynnet::ui
