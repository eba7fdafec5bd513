#pragma once
// The text of a study's files: study.json (the runs and the summary), study.csv (one row per run)
// and study.md (the table and the recommendation); the front end writes them (and study.png, the
// chart, which needs a painter). The table and the recommendation are also what a terminal shows.
#include <string>
#include <vector>

#include "io/json.h"
#include "study/study_summary.h"

namespace skynnet {

// Who wrote the study and how: study.json's header, study.md's command block.
struct StudyOrigin {
    std::string tool;         // "skynnet-cli"
    std::string version;      // the tool's
    std::string commandLine;  // as a shell would need it
};

// {"tool","version","command":"study","study_command","options":setupJson,"machines",
//  "latency_batch_rows","runs":[runJson...],"summary":summaryJson}
Json studyJson(const std::vector<StudyRun>& runs, const StudySummary& summary, const StudyPlan& plan,
               const StudyOrigin& origin);
std::string studyCsv(const std::vector<StudyRun>& runs, int machines);
// The table rows (a header first) for study.md and the terminal: one per configuration.
std::vector<std::vector<std::string>> studyTableRows(const StudySummary& summary);
std::string studyMarkdown(const StudySummary& summary, const std::string& commandLine);
// The recommendation as sentences, for study.md and the terminal.
std::string recommendationText(const StudySummary& summary);

}  // namespace skynnet
