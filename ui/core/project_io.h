#pragma once
// The app's side of the project file: ProjectDocument and TrainingSession state to the engine's
// ProjectData and back (engine/io/project_file.h does the file itself). No widgets and no
// dialogs: asking the user where moved data went is the caller's part.
#include <QString>
#include <optional>

#include "io/project_file.h"
#include "ui/core/data_loading.h"
#include "ui/core/training_session.h"

namespace skynnet::ui {

// Data settings <-> the project's data reference. The fingerprints of the files are taken when
// saving (cached per file by size and modification time), or kept from the project the document
// was opened from when a file is no longer there.
ProjectDataSource dataSourceOf(const DataSettings& settings);
DataSettings dataSettingsOf(const ProjectDataSource& source);
// Remembers fingerprints read from a project, for files that are missing when saving again.
void rememberFingerprints(const ProjectDataSource& source);

TrainSettings trainSettingsOf(const ProjectTraining& training);
ProjectTraining projectTrainingOf(const TrainSettings& settings);

// The trained combined model of a run as a saved model (rule, specs, weights, preprocessing,
// names): what the project file, the native model file and every export take. Null when the
// results hold no model (a run read from a project saved without weights).
std::optional<SavedCombinedModel> savedModelOf(const RunResults& results);

// The session's last run (nullopt before any run, and while a run is in progress).
std::optional<ProjectRun> runOf(const TrainingSession& session, bool withWeights);
// A saved run for TrainingSession::adoptRun; the models are rebuilt from the saved weights.
// Throws Error when the weights do not fit the plan.
PastRun pastRunOf(const ProjectRun& run);

// Everything a save writes: data reference, network, split, training, the earlier runs and the
// session's run with its weights, and `extra` (front-end state).
ProjectData captureProject(const ProjectDocument& document, const TrainingSession& session, const Json& extra = {});
// captureProject + saveProject. Throws skynnet::Error naming the path.
void saveProjectFile(const QString& path, const ProjectDocument& document, const TrainingSession& session,
                     const Json& extra = {});

// Puts a project read from a file into the document and the session: data (null: not found),
// settings, network, earlier runs, and the last run shown as the session's. The document becomes
// clean with `filePath` as its file. Throws Error (before changing anything) when the last run's
// weights do not fit its plan.
void applyProject(ProjectDocument& document, TrainingSession& session, const ProjectData& project, const LoadedData* data,
                  const QString& filePath);

}  // namespace skynnet::ui
