#pragma once
// The pending runs of a study, one after another, each a `skynnet-cli train` child process of its
// own (study_child.h): a crash or an out-of-memory kill ends that run, not the study. Each outcome
// is recorded in the engine's study model as it comes, so the runs finished before a stop are kept.
#include <string>

#include "study/study_progress.h"
#include "study_options.h"
#include "study_reporter.h"

namespace skynnet::cli {

struct StudyStop {
    bool stopped = false;  // SIGINT or SIGTERM arrived: the pending runs stay pending
    std::string signal;    // "SIGINT" or "SIGTERM"
};

StudyStop runPendingRuns(const StudyOptions& options, StudyProgress& progress, StudyReporter& reporter);

}  // namespace skynnet::cli
