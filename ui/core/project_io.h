#pragma once
// The app's side of the project file: ProjectDocument and TrainingSession state to the engine's
// ProjectData and back (engine/project/project_file.h does the file itself). No widgets and no
// dialogs: asking the user where moved data went is the caller's part. What takes time (reading,
// writing, fingerprinting, loading data, rebuilding models) is split from what touches the
// document and the session, so a front end can run it on a worker thread.
#include <QString>
#include <optional>

#include "project/project_file.h"
#include "ui/core/data_loading.h"
#include "ui/core/fingerprint_cache.h"
#include "ui/core/training_session.h"

namespace skynnet::ui {

// The data settings as a save writes them: each file's fingerprint taken now (cached per file by
// size and modification time in `fingerprints`), or kept from the project the document was
// opened from when a file is no longer there, with its status. Thread-safe (the cache has a lock).
ProjectDataSource withFingerprints(const ProjectDataSource& settings, FingerprintCache& fingerprints);

// What a save writes, copied on the GUI thread (cheap: weights and curves are values): the data
// settings, whose files are fingerprinted when written, and the rest of the project.
// The run a project shows when it is opened: the index saved in its "extra" (shownRunKey), else
// (older projects, or a value that is not a run's index) the last; -1 for a project without runs.
int shownRunOf(const ProjectData& project);

struct ProjectSnapshot {
    ProjectDataSource data;
    std::shared_ptr<FingerprintCache> fingerprints;  // the document's
    ProjectData project;                             // data reference empty until writeProjectSnapshot
};
// Network, split, training, the document's kept runs (and the session's run if it is not one of
// them) with their weights (copies of
// values the document and the session hold in the project file's own types), and `extra`
// (front-end state) with the index of the run the session shows under shownRunKey. GUI thread.
ProjectSnapshot snapshotProject(const ProjectDocument& document, const TrainingSession& session,
                                const Json& extra = {});
// The runs' records of their data files get the fingerprints they lack (a run records its
// settings when it starts, before anything was hashed), from the cache; any thread.
void fingerprintRunData(std::vector<ProjectRun>& runs, FingerprintCache& fingerprints);
// Fingerprints the data files (cached) and writes the project atomically; any thread. Throws
// skynnet::Error naming the path.
void writeProjectSnapshot(const QString& path, ProjectSnapshot snapshot);

// Everything a save writes: snapshotProject with the data reference filled in.
ProjectData captureProject(const ProjectDocument& document, const TrainingSession& session, const Json& extra = {});
// snapshotProject + writeProjectSnapshot, on the calling thread. Throws skynnet::Error naming the path.
void saveProjectFile(const QString& path, const ProjectDocument& document, const TrainingSession& session,
                     const Json& extra = {});

// The slow part of opening a project, done on any thread: its data loaded (an error goes to
// `dataProblem`, and the project opens without it) and prepared for training, and the weights of
// the run to show checked against its plan.
struct OpenedProject {
    ProjectData project;
    LoadedData data;                               // null train: opened without data
    std::shared_ptr<const PreparedData> prepared;  // null without data, or when preparing failed
    QString dataProblem;                           // the loader's message when the data could not be loaded
};
// loadData: load the data the project names (its paths already relocated by the caller).
// Throws Error when the shown run's weights do not fit its plan.
OpenedProject openProjectData(ProjectData project, bool loadItsData);

// Puts an opened project into the document and the session: data, settings, network, earlier
// runs, and the run it showed when saved (shownRunOf) as the session's. The document becomes clean with `filePath` as
// its file. GUI thread, and short: everything slow was done by openProjectData.
void applyProject(ProjectDocument& document, TrainingSession& session, OpenedProject& opened, const QString& filePath);
// applyProject in two steps, so a front end can let the event loop run between them (each makes
// every page refresh): the document's data, settings, network and earlier runs; then the shown
// run, the file path and the clean state. Throws Error when training runs.
void applyProjectDocument(ProjectDocument& document, const TrainingSession& session, OpenedProject& opened);
void applyProjectRun(ProjectDocument& document, TrainingSession& session, OpenedProject& opened,
                     const QString& filePath);
// Shows the document's kept run `index` in the session (Results, and Train's curves and log),
// as a reopened project shows its last: false (nothing changes) while training runs or for an
// index out of range. Showing another run is no change to save.
bool showKeptRun(ProjectDocument& document, TrainingSession& session, int index);
// openProjectData's work with `data` already loaded, then applyProject, on the calling thread.
// Throws Error (before changing anything) when the shown run's weights do not fit its plan.
void applyProject(ProjectDocument& document, TrainingSession& session, const ProjectData& project,
                  const LoadedData* data, const QString& filePath);

}  // namespace skynnet::ui
