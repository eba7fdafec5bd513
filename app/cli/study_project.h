#pragma once
// `study --project P`: a study of a project made in the desktop app. Each run trains its own copy
// of the project (DIR/runs/<config>-seed<S>.skynnet) with `skynnet-cli train --project COPY`, the
// project's own training as the app does it, with only what the run varies changed in the copy:
//   - the seed S as the data split's, the split's (shards, initial weights) and the batch order's
//     (train --seed S sets all three the same way);
//   - N: the split's number of submodels; N=1, the original model, is the project's network on
//     all its training rows (data shards of one submodel, F=1: the network as designed);
//   - the strategy: "" keeps the project's own with its knobs, "ensemble" the plain ensemble;
//   - the epoch choice: "" keeps the project's, "on"/"off" set it;
//   - no baseline (the N=1 runs are the original), and on this machine's threads.
// The copy then holds the trained run; its combined model is written beside it as <run>.skym for
// the inference figures, like a plain study's runs.
#include <string>
#include <vector>

#include "project/project_file.h"
#include "study_runs.h"

namespace skynnet::cli {

// The project the study trains: Error naming the path when it cannot be read, its data files are
// missing or changed, or it has no test set (a study compares test metrics).
ProjectData loadStudyProject(const std::string& path);
// The project's settings a study's runs depend on, with what the runs set themselves left out
// (seeds, N, baseline, where it runs): a rerun continues only when they are the same.
Json studyProjectSetup(const ProjectData& project, const std::string& projectPath);
// The copy run `run` trains: the project's settings with the run's seed, N, strategy and epochs.
ProjectData runProjectCopy(const ProjectData& project, const StudyRunSpec& run);
// `train --project COPY --report R [--threads T]` (threads 0: the project's own budget).
std::vector<std::string> projectRunArgs(const std::string& copyPath, const std::string& reportPath, int threads);
// The figures of a finished run from its report and its trained copy; writes the copy's combined
// model to modelPath when it is not there yet. Error naming the file at fault.
StudyRun readProjectRun(const StudyRunSpec& spec, const std::string& reportPath, const std::string& copyPath,
                        const std::string& modelPath);

}  // namespace skynnet::cli
