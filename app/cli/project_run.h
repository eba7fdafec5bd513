#pragma once
// One run of a project (`train --project`): its data prepared, the engine's run of its network,
// split and settings (engine/run/runner.h), and the run saved into the project file as the app
// keeps one (id, start time, settings, log), atomically; then the report.
#include <chrono>
#include <optional>
#include <string>

#include "split_train.h"

namespace skynnet::cli {

struct ProjectRunOptions {
    std::string path;        // the project file
    std::string reportPath;  // --report; empty: none
    bool quiet = false, json = false, resume = false;
    std::optional<int> threads;  // --threads; else the project's budget, else every core
};

// On this process's threads, or (backend set) on the ranks of an MPI job. Returns the exit status.
int trainProject(const ProjectRunOptions& options, std::chrono::steady_clock::time_point start,
                 const SplitBackend& backend);

}  // namespace skynnet::cli
