#pragma once
// The body of the app's in-process training run, as one blocking call for a background thread:
// prepare the data if the document had not, then the engine's run (engine/run/runner.h) with the
// app's event buffer as its observer. No QObject and no signals: progress goes to a
// RunEventBuffer, the result is the return value. Never throws.
#include <memory>
#include <string>

#include "core/cancel.h"
#include "data/dataset.h"
#include "project/data_reference.h"
#include "project/project_file.h"
#include "run/run_request.h"
#include "ui/core/run_events.h"

namespace skynnet::ui {

struct RunInputs {
    // The run. Its prepared data may be null: then the job prepares it from the raw data below.
    RunRequest request;
    ProjectDataSource dataSettings;
    std::shared_ptr<const Dataset> data, test;
};

struct JobOutcome {
    TrainStatus status = TrainStatus::Failed;
    std::string message;                            // why it failed or stopped; a summary when completed
    std::shared_ptr<const ProjectResults> results;  // Completed only
    std::shared_ptr<const PreparedData> prepared;   // when the job prepared the data itself
};

JobOutcome runTraining(const RunInputs& inputs, RunEventBuffer& events, const CancelToken& cancel);

}  // namespace skynnet::ui
