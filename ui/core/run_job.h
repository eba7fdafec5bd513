#pragma once
// The body of a training run, as one blocking call for a background thread: prepare the data if
// the document had not, train the split plan's submodels in parallel, then the baseline, then
// evaluate both. No QObject and no signals: progress goes to a RunEventBuffer, the result is the
// return value. Never throws.
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "core/cancel.h"
#include "ui/core/run_events.h"
#include "ui/core/training_session.h"

namespace skynnet::ui {

struct RunInputs {
    SplitPlan plan;
    TrainConfig config;
    int threadBudget = 0;  // 0: every hardware thread
    bool baseline = true;
    // Prepared data, or null to prepare it in the job from the raw data below.
    std::shared_ptr<const PreparedData> prepared;
    ProjectDataSource dataSettings;
    std::shared_ptr<const Dataset> data, test;
    // Checkpoints of the split run's submodels (engine/project/checkpoint_store.h); empty: none.
    // A new run replaces the folder's earlier run; resumeCheckpoints continues it instead. The
    // folder is removed once the run has completed.
    std::string checkpointFolder;
    bool resumeCheckpoints = false;
    // The run's clock: resource samples and the token's pauses count from here (the session reads
    // both on it). Unset: from the start of runTraining.
    std::optional<std::chrono::steady_clock::time_point> clockOrigin;
};

struct RunOutcome {
    TrainStatus status = TrainStatus::Failed;
    std::string message;                            // why it failed or stopped; a summary when completed
    std::shared_ptr<const ProjectResults> results;  // Completed only
    std::shared_ptr<const PreparedData> prepared;   // when the job prepared the data itself
};

// The split run first, then the baseline: the submodels are what the user is waiting for (their
// curves appear at once), and the baseline, optional, only adds a comparison after them. Both use
// the whole thread budget, so running them one after the other costs no parallelism.
RunOutcome runTraining(const RunInputs& inputs, RunEventBuffer& events, const CancelToken& cancel);

}  // namespace skynnet::ui
