#pragma once
// The files of a finished study, each written atomically: study.json (the runs and the summary),
// study.csv (one row per run), study.md (the table and the recommendation) and study.png (the
// chart, study_chart.h).
#include <string>
#include <vector>

#include "io/json.h"
#include "study_summary.h"

namespace skynnet::cli {

// {"tool","version","command":"study","study_command","options":setupJson,"machines",
//  "runs":[runJson...],"summary":summaryJson}
Json studyJson(const std::vector<StudyRun>& runs, const StudySummary& summary, const StudyOptions& options,
               const std::string& commandLine);
std::string studyCsv(const std::vector<StudyRun>& runs, int machines);
// The table rows (a header first) for study.md and the terminal: one per configuration.
std::vector<std::vector<std::string>> studyTableRows(const StudySummary& summary);
std::string studyMarkdown(const StudySummary& summary, const std::string& commandLine);
// The recommendation as sentences, for study.md and the terminal.
std::string recommendationText(const StudySummary& summary);

}  // namespace skynnet::cli
