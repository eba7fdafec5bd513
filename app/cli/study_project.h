#pragma once
// `study --project P`: a study of a project made in the desktop app. The copies the runs train
// and how their figures are read back are the engine's (engine/study/study_project.h); here, the
// project as the command line names it, and the train command of each copy.
#include <string>
#include <vector>

#include "project/project_file.h"
#include "study/study_project.h"

namespace skynnet::cli {

// The project the study trains: Error naming the path when it cannot be read, its data files are
// missing or changed, or it has no test set (a study compares test metrics).
ProjectData loadStudyProject(const std::string& path);
// `train --project COPY --report R --progress json [--threads T]` (threads 0: the project's own
// budget). The progress events go to the run's log with its human lines (on stderr in that mode):
// the app's Study page reads them there to show how far the run in progress has got.
std::vector<std::string> projectRunArgs(const std::string& copyPath, const std::string& reportPath, int threads);

}  // namespace skynnet::cli
