#pragma once
// A study's runs in its folder, as far as they got: the run list in order, each done (finished or
// failed) or still to run, and the resume rule: a run that left its report and its model (with a
// project: its trained copy) in DIR/runs is read back, not run again, so a stopped study continues
// where it stopped. The front end runs what is pending and records each outcome here.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/json.h"
#include "study/study_run.h"

namespace skynnet {

// The files of one run in the study's folder: DIR/runs/<run>.json (its train report), .skym (its
// model), .log (its output) and, with a project, .skynnet (the copy it trains).
struct StudyRunFiles {
    std::string report, model, log, project;
};
StudyRunFiles studyRunFiles(const std::string& folder, const StudyRunSpec& run);

// One run of the run list as the study's progress reports it (its plan event): the run's place
// and names, and whether it is done already.
struct PlannedRun {
    int index = 1;  // from 1, in the run list's order
    std::string run, config;
    int submodels = 1;
    std::string strategy;     // StudyConfig::strategyText()
    std::string scaleEpochs;  // "default", "on", "off" or "sqrt"
    std::uint64_t seed = 1;
    bool done = false;
};
// {"index","run","config","submodels","strategy","scale_epochs","seed","done"}, and back (Error
// naming the field at fault).
Json toJson(const PlannedRun& run);
PlannedRun plannedRunFromJson(const JsonField& j);

class StudyProgress {
public:
    StudyProgress(StudyPlan plan, std::string folder);

    const StudyPlan& plan() const { return plan_; }
    const std::string& folder() const { return folder_; }
    int total() const { return int(runs_.size()); }
    const std::vector<StudyRun>& runs() const { return runs_; }
    StudyRun& run(int index) { return runs_[std::size_t(index)]; }
    StudyRunFiles files(int index) const { return studyRunFiles(folder_, runs_[std::size_t(index)].spec); }
    bool pending(int index) const { return pending_[std::size_t(index)]; }
    int reused() const;
    int finished() const;  // done and finished (not failed)
    std::vector<const StudyRun*> failed() const;

    // The resume rule, applied to every pending run: one whose files are in the folder is read
    // back and done (reused). Returns the runs whose files could not be read, with why: those run
    // again.
    std::vector<std::pair<std::string, std::string>> resume();
    // A run's figures from its files (readRunReport, or readProjectRun with a project). Error
    // naming the file at fault.
    StudyRun readRun(int index) const;
    // A run done now, finished or failed.
    void record(int index, StudyRun run);

    // The wall time the pending runs will take: each like the finished runs of its configuration,
    // or like the finished runs on average while its configuration has none; unknown before any
    // run finished.
    std::optional<double> remainingSeconds() const;
    // The run list as the study's progress reports it, and its JSON (toJson of each).
    std::vector<PlannedRun> runList() const;
    Json runListJson() const;

private:
    StudyPlan plan_;
    std::string folder_;
    std::vector<StudyRun> runs_;  // every run of the plan; a pending one holds only its spec
    std::vector<bool> pending_;
};

}  // namespace skynnet
