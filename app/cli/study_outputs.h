#pragma once
// The files of a finished study, each written atomically to its folder: study.json, study.csv and
// study.md as the engine words them (engine/study/study_outputs.h), and study.png, the chart
// (study_chart.h).
#include <string>
#include <vector>

#include "io/json.h"
#include "study/study_progress.h"
#include "study/study_summary.h"
#include "study_options.h"

namespace skynnet::cli {

// The paths of the four files in the study's folder.
std::vector<std::string> studyFiles(const std::string& outDir);
// Writes them; returns study.json's document.
Json writeStudyFiles(const StudyOptions& options, const StudyProgress& progress, const StudySummary& summary,
                     const std::string& commandLine);

}  // namespace skynnet::cli
