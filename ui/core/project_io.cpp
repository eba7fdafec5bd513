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

}  // namespace

ProjectDataSource dataSourceOf(const DataSettings& s) {
    ProjectDataSource d;
    d.train = dataFileOf(s.path);
    d.trainLabels = dataFileOf(s.labelsPath);
    d.test = dataFileOf(s.testPath);
    d.testLabels = dataFileOf(s.testLabelsPath);
    d.targetColumn = s.targetColumn.toStdString();
    d.task = s.task;
    d.scaling = s.scaling;
    d.validationFraction = s.validationFraction;
    d.testFraction = s.testFraction;
    d.seed = s.seed;
    return d;
}

DataSettings dataSettingsOf(const ProjectDataSource& d) {
    DataSettings s;
    s.path = QString::fromStdString(d.train.path);
    s.labelsPath = QString::fromStdString(d.trainLabels.path);
    s.testPath = QString::fromStdString(d.test.path);
    s.testLabelsPath = QString::fromStdString(d.testLabels.path);
    s.targetColumn = QString::fromStdString(d.targetColumn);
    s.task = d.task;
    s.scaling = d.scaling;
    s.validationFraction = d.validationFraction;
    s.testFraction = d.testFraction;
    s.seed = d.seed;
    return s;
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

ProjectSnapshot snapshotProject(const ProjectDocument& document, const TrainingSession& session, const Json& extra) {
    ProjectSnapshot s;
    s.data = document.dataSettings();
    ProjectData& p = s.project;
    p.network = document.network();
    p.split = document.splitOptions();
    p.training = document.trainSettings();
    p.runs = document.earlierRuns();
    if (auto run = session.lastRun()) p.runs.push_back(std::move(*run));
    p.extra = extra;
    return s;
}

void writeProjectSnapshot(const QString& path, ProjectSnapshot snapshot) {
    snapshot.project.data = dataSourceOf(snapshot.data);
    saveProject(path.toStdString(), snapshot.project);
}

ProjectData captureProject(const ProjectDocument& document, const TrainingSession& session, const Json& extra) {
    ProjectSnapshot s = snapshotProject(document, session, extra);
    s.project.data = dataSourceOf(s.data);
    return std::move(s.project);
}

void saveProjectFile(const QString& path, const ProjectDocument& document, const TrainingSession& session, const Json& extra) {
    writeProjectSnapshot(path, snapshotProject(document, session, extra));
}

namespace {

// The last run's weights against its plan, as loadProject checks a file's, for a project that
// may not come from one: the session shows the run and exports its model as they are.
void checkWeightsFit(const ProjectRun& run) {
    if (!run.results) return;
    const ProjectResults& r = *run.results;
    if (r.model) validate(*r.model, "combined model");
    if (r.baselineWeights && std::int64_t(r.baselineWeights->size()) != paramCount(run.plan.original))
        throw Error("baseline: " + std::to_string(r.baselineWeights->size()) + " weights for a network of " +
                    std::to_string(paramCount(run.plan.original)) + " parameters");
}

// Both parts of opening that do not touch the document: the last run checked (throws Error when
// its weights do not fit its plan) and the data prepared.
void completeOpened(OpenedProject& o) {
    if (!o.project.runs.empty()) checkWeightsFit(o.project.runs.back());
    if (!o.data.train) return;
    try {
        o.prepared = prepareData(dataSettingsOf(o.project.data), *o.data.train, o.data.test.get());
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
            o.data = loadData(dataSettingsOf(o.project.data));
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
    document.restore(dataSettingsOf(project.data), opened.data.train, opened.data.test, project.network, project.split,
                     project.training);
    if (opened.prepared) document.adoptPrepared(std::move(opened.prepared), document.dataRevision());
    std::vector<ProjectRun> earlier(project.runs.begin(), project.runs.end() - (project.runs.empty() ? 0 : 1));
    document.setEarlierRuns({});
    for (ProjectRun& r : earlier) document.archiveRun(std::move(r));
}

void applyProjectRun(ProjectDocument& document, TrainingSession& session, OpenedProject& opened, const QString& filePath) {
    if (session.running()) throw Error("cannot open a project while training runs");
    if (!opened.project.runs.empty()) session.adoptRun(std::move(opened.project.runs.back()));
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
