#pragma once
// One training run, written once: every front end performs its runs here.
//
// The order of a run's steps:
//  1. the data: the request's prepared data, or its RunData prepared now;
//  2. the network: the designed layers on this data (networkFor), and for a split its plan
//     (makePlan over the training rows), told to the observer (planned / networkPlanned);
//  3. the checkpoints: a new run in the folder, or the one there resumed (observer.resuming);
//  4. the submodels, trained in parallel on the request's backend (or the network alone); for class
//     groups with validation rows, then the stacked rule's weights fitted on those rows, whatever
//     the chosen rule (split/stacked_rule.h), so every front end can switch to it without retraining;
//     a run told to combine by stacked without validation rows fails before any training;
//  5. the baseline, the original model unsplit, when asked: after the submodels, since they are
//     what the user waits for, and both use the whole thread budget, so one after the other costs
//     no parallelism;
//  6. the measurement: the combined model (or the network), then the baseline, on the rows the
//     request names (EvaluationRows);
//  7. the record: the results as projects keep them (split runs), the summary line, and the
//     checkpoint folder removed unless the request keeps it for the front end to remove once it
//     has saved what the run made.
// A stop (the cancel token) between or inside any step ends the run as Cancelled, saying during
// what; an exception ends it as Failed with its message. performRun never throws.
#include <memory>
#include <optional>
#include <string>

#include "core/cancel.h"
#include "project/project_file.h"
#include "run/run_observer.h"
#include "run/run_request.h"
#include "split/parallel_trainer.h"
#include "train/trainer.h"

namespace skynnet {

struct RunOutcome {
    // Completed (a network that stopped early is Completed too: networkResult says so), Cancelled
    // or Failed.
    TrainStatus status = TrainStatus::Failed;
    // Completed: "combined accuracy 0.87 on test 10000 samples, baseline 0.88"; Failed: why;
    // Cancelled: " while the submodels trained" and the like, to follow "stopped".
    std::string message;

    std::shared_ptr<const PreparedData> data;  // what it trained on (the request's, or prepared here)
    NetworkSpec spec;                          // the network on this data (the original of a split)
    int threads = 0;                           // the budget it ran with

    // A split run.
    std::optional<SplitPlan> plan;
    std::optional<ParallelResult> split;
    std::optional<BaselineResult> baseline;
    std::optional<CombinedEvaluation> combined;    // measured on evaluatedOn's rows
    std::optional<Evaluation> baselineEvaluation;  // the same rows
    std::optional<ProjectRun> record;              // Completed: the run as a project keeps it

    // A run of the network alone.
    std::optional<Network> network;
    TrainResult networkResult;
    std::optional<Evaluation> networkEvaluation;

    std::string evaluatedOn;  // "test", "validation", "training"; empty: not measured
    long evaluatedSamples = 0;
    double seconds = 0;  // the run's wall time without its pauses
};

RunOutcome performRun(const RunRequest& request, RunObserver& observer, const CancelToken& cancel);

// "submodel 2: completed after 4 epoch(s) in 1.25 s" (or the error of one that failed): the line a
// run's log keeps for each submodel as it ends. The runner leaves it to the observers, since the
// app's buffer and a project's record each keep their log their own way.
std::string submodelFinishLine(int index, const TrainResult& result);

// The rows a run is measured on under `rule`, with their name; nullptr when there are none.
const Dataset* evaluationRows(const PreparedData& data, EvaluationRows rule, std::string& name);

}  // namespace skynnet
