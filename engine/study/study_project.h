#pragma once
// A study of a project made in the desktop app (`skynnet-cli study --project P`, the app's Study
// page). Each run trains its own copy of the project (DIR/runs/<config>-seed<S>.skynnet), the
// project's own training as the app does it, with only what the run varies changed in the copy:
//   - the seed S as the data split's, the split's (shards, initial weights) and the batch order's;
//   - N: the split's number of submodels; N=1, the original model, is the project's network on
//     all its training rows (data shards of one submodel, F=1: the network as designed);
//   - the strategy: "" keeps the project's own with its knobs, "ensemble" the plain ensemble;
//   - the epoch choice: "" keeps the project's, "on"/"off" set it;
//   - no baseline (the N=1 runs are the original), and on this machine's threads.
// The copy then holds the trained run; its combined model is written beside it as <run>.skym for
// the inference figures, like a plain study's runs.
#include <string>

#include "project/project_file.h"
#include "study/study_run.h"

namespace skynnet {

// The project's settings a study's runs depend on, with what the runs set themselves left out
// (seeds, N, baseline, where it runs): a rerun continues only when they are the same
// (StudyPlan::project).
Json studyProjectSetup(const ProjectData& project, const std::string& projectPath);
// The copy run `run` trains: the project's settings with the run's seed, N, strategy and epochs.
ProjectData runProjectCopy(const ProjectData& project, const StudyRunSpec& run);
// The figures of a finished run from its report and its trained copy; writes the copy's combined
// model to modelPath when it is not there yet. Error naming the file at fault.
StudyRun readProjectRun(const StudyRunSpec& spec, const std::string& reportPath, const std::string& copyPath,
                        const std::string& modelPath);

}  // namespace skynnet
