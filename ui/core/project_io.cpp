#include "ui/core/project_io.h"

#include <map>

#include "core/error.h"
#include "model/network.h"
#include "project/data_reference.h"
#include "ui/core/fingerprint_cache.h"

namespace skynnet::ui {

ProjectDataSource withFingerprints(const ProjectDataSource& settings, FingerprintCache& fingerprints) {
    ProjectDataSource d = settings;
    for (ProjectDataFile* f : {&d.train, &d.trainLabels, &d.test, &d.testLabels})
        *f = fingerprints.dataFile(QString::fromStdString(f->path));
    return d;
}

int shownRunOf(const ProjectData& project) {
    const int last = int(project.runs.size()) - 1;
    const auto saved = project.extra.is_object() ? JsonField(project.extra).find(shownRunKey) : std::nullopt;
    if (!saved || !saved->isInteger()) return last;
    const std::int64_t index = saved->asInt64();
    return index >= 0 && index <= last ? int(index) : last;
}

ProjectSnapshot snapshotProject(const ProjectDocument& document, const TrainingSession& session, const Json& extra) {
    ProjectSnapshot s;
    s.data = document.dataSettings();
    s.fingerprints = document.fingerprints();
    ProjectData& p = s.project;
    p.network = document.network();
    p.split = document.splitOptions();
    p.training = document.trainSettings();
    p.runs = document.runs();
    // A run the document does not keep (a session without a RunRecorder) is saved as before.
    int shown = document.shownRun();
    if (!document.showsSessionRun(session.plan()))
        if (auto run = session.lastRun()) {
            p.runs.push_back(std::move(*run));
            shown = int(p.runs.size()) - 1;
        }
    p.extra = extra.is_null() ? Json::object() : extra;
    if (shown >= 0 && p.extra.is_object()) p.extra[shownRunKey] = shown;
    p.study = document.study();
    return s;
}

void fingerprintRunData(std::vector<ProjectRun>& runs, FingerprintCache& fingerprints) {
    // Once per path and call: an image folder is hashed whole on every dataFile().
    std::map<std::string, std::optional<FileFingerprint>> taken;
    for (ProjectRun& run : runs) {
        if (!run.settings) continue;
        ProjectDataSource& d = run.settings->data;
        // Only files still to be fingerprinted: one the run recorded keeps the content it ran on.
        for (ProjectDataFile* f : {&d.train, &d.trainLabels, &d.test, &d.testLabels}) {
            if (f->fingerprint || f->path.empty()) continue;
            auto known = taken.find(f->path);
            if (known == taken.end())
                known =
                    taken.emplace(f->path, fingerprints.dataFile(QString::fromStdString(f->path)).fingerprint).first;
            f->fingerprint = known->second;
        }
    }
}

void writeProjectSnapshot(const QString& path, ProjectSnapshot snapshot) {
    FingerprintCache unshared;  // a snapshot made without a document: every file is hashed
    FingerprintCache& fingerprints = snapshot.fingerprints ? *snapshot.fingerprints : unshared;
    snapshot.project.data = withFingerprints(snapshot.data, fingerprints);
    fingerprintRunData(snapshot.project.runs, fingerprints);
    saveProject(path.toStdString(), snapshot.project);
}

ProjectData captureProject(const ProjectDocument& document, const TrainingSession& session, const Json& extra) {
    ProjectSnapshot s = snapshotProject(document, session, extra);
    s.project.data = withFingerprints(s.data, *s.fingerprints);
    fingerprintRunData(s.project.runs, *s.fingerprints);
    return std::move(s.project);
}

void saveProjectFile(const QString& path, const ProjectDocument& document, const TrainingSession& session,
                     const Json& extra) {
    writeProjectSnapshot(path, snapshotProject(document, session, extra));
}

namespace {

// The last run's weights against its plan, as loadProject checks a file's, for a project that
// may not come from one: the session shows the run and exports its model as they are.
void checkWeightsFit(const ProjectRun& run) {
    if (!run.results) return;
    const ProjectResults& r = *run.results;
    if (r.model) validate(*r.model, "combined model");
    // Parameters and state (batch norm's running values), as Network::flatWeights() holds them.
    if (r.baselineWeights && std::int64_t(r.baselineWeights->size()) != weightCount(run.plan.original))
        throw Error("baseline: " + std::to_string(r.baselineWeights->size()) + " weights for a network of " +
                    weightCountText(run.plan.original));
}

// Both parts of opening that do not touch the document: the last run checked (throws Error when
// its weights do not fit its plan) and the data prepared.
void completeOpened(OpenedProject& o) {
    if (const int shown = shownRunOf(o.project); shown >= 0) checkWeightsFit(o.project.runs[std::size_t(shown)]);
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
    document.fingerprints()->remember(project.data);
    document.setFilePath(QString());  // restoring is not an edit of the previous file
    document.restore(project.data, opened.data.train, opened.data.test, project.network, project.split,
                     project.training);
    if (opened.prepared) document.adoptPrepared(std::move(opened.prepared), document.dataRevision());
    document.setRuns(project.runs);  // the shown one is shown by applyProjectRun
    document.setStudy(project.study, false);
}

void applyProjectRun(ProjectDocument& document, TrainingSession& session, OpenedProject& opened,
                     const QString& filePath) {
    if (session.running()) throw Error("cannot open a project while training runs");
    if (const int shown = shownRunOf(opened.project); shown >= 0 && std::size_t(shown) < document.runs().size()) {
        session.adoptRun(std::move(opened.project.runs[std::size_t(shown)]));
        document.setShownRun(shown, session.plan());
    } else {
        session.clearRun();
    }
    document.setFilePath(filePath);
    document.setClean();  // after adoptRun: a shown run's results mark the document modified
}

bool showKeptRun(ProjectDocument& document, TrainingSession& session, int index) {
    if (session.running() || index < 0 || std::size_t(index) >= document.runs().size()) return false;
    const bool wasModified = document.isModified();
    if (!session.adoptRun(document.runs()[std::size_t(index)])) return false;
    document.setShownRun(index, session.plan());
    if (!wasModified) document.setClean();  // a shown run's results mark the document modified
    return true;
}

void applyProject(ProjectDocument& document, TrainingSession& session, OpenedProject& opened, const QString& filePath) {
    applyProjectDocument(document, session, opened);
    applyProjectRun(document, session, opened, filePath);
}

void applyProject(ProjectDocument& document, TrainingSession& session, const ProjectData& project,
                  const LoadedData* data, const QString& filePath) {
    if (session.running()) throw Error("cannot open a project while training runs");
    OpenedProject opened;
    opened.project = project;
    if (data) opened.data = *data;
    completeOpened(opened);  // throws before anything changes
    applyProject(document, session, opened, filePath);
}

}  // namespace skynnet::ui
