#pragma once
// The record a project keeps of a run (project_file.h: id, start time, settings, log), filled in
// for `train --project` as the desktop app fills it for its own runs (ui/core/run_recorder.*), so
// the app shows a run of this tool with what it was made from and what it said while it ran.
#include <mutex>
#include <string>
#include <vector>

#include "io/utc_time.h"  // isoUtcNow(): as a run records its start
#include "project/project_file.h"
#include "split/worker_pool.h"

namespace skynnet::cli {

// The run's log: lines stamped with the local time as the app stamps its own ("HH:MM:SS  text"),
// each ending in '\n'. Submodels finish on worker threads, so adding takes a lock.
class RunLog {
public:
    void add(const std::string& line);
    std::string text() const;

private:
    mutable std::mutex mutex_;
    std::string text_;
};

// "run-N" for a run added to these: the first N from runs.size() + 1 that no run has taken.
std::string newRunId(const std::vector<ProjectRun>& runs);

// What a run of project `p` is made from: its data (each file fingerprinted now when the project
// has no fingerprint for it, so the record names the content trained on), network, split and
// training settings, exactly as the project holds them.
RunSettings runSettingsOf(const ProjectData& p);

// `events` plus, as each submodel ends, the app's line for it in `log`: "submodel I: completed
// after E epoch(s) in X s" (or the error of one that failed).
SubmodelEvents loggingFinishes(SubmodelEvents events, RunLog& log);

}  // namespace skynnet::cli
