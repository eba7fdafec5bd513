#pragma once
// What `skynnet-cli study` tells whoever watches it: progress lines on stderr and, with --progress
// json, one event per line on stdout, which the app's Study page reads: the typed events of
// engine/study/study_event.h, each line toJson of one (study_help.cpp lists them for the user).
// The figures come from the engine's study model (engine/study/).
#include <string>
#include <utility>
#include <vector>

#include "io/json.h"
#include "study/study_progress.h"
#include "study/study_summary.h"
#include "study_options.h"

namespace skynnet::cli {

class StudyReporter {
public:
    // Both must outlive the reporter.
    StudyReporter(const StudyOptions& options, const StudyProgress& progress);

    // After the resume rule: the runs that run again although they left files (and why), the
    // plan with the runs already done, and what the study will do.
    void planned(const std::vector<std::pair<std::string, std::string>>& runAgain);
    void runStarted(int index, const std::vector<std::string>& command, const std::string& logPath);
    // After progress.record(index): its figures, the time left and the aggregates so far.
    void runFinished(int index);
    // The final summary: study.json's `document`, the files written, and the table.
    void summarized(const Json& document, const std::vector<std::string>& files, const StudySummary& summary);

private:
    void partialSummary();

    const StudyOptions& options_;
    const StudyProgress& progress_;
    bool json_;
};

}  // namespace skynnet::cli
