#pragma once
// What `train --submodels` reports: the JSON report (the single-model report's head, then the
// plan, every submodel, the combined model and the baseline) and the summary on stdout.
#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include "evaluation.h"
#include "io/json.h"
#include "split/parallel_trainer.h"
#include "train_report.h"

namespace skynnet::cli {

struct BaselineRun {
    TrainResult result;  // wall and CPU seconds of its training, its peak model bytes
    std::optional<EvaluationSummary> test;
    double testLoss = 0;
    std::int64_t params = 0;
};

struct SplitRun {
    SplitPlan plan;
    int threads = 0;                         // the budget the submodels shared
    ParallelResult training;                 // every submodel's result and times, the combined model
    std::optional<CombinedEvaluation> test;  // the combined model on the test part
    std::optional<EvaluationSummary> testSummary;
    std::optional<BaselineRun> baseline;

    // Memory one submodel's training needed: its model (parameters, gradients, optimiser state,
    // layer buffers; the trainer's peak) plus its rows (TrainResult::peakBytes).
    std::int64_t submodelPeakBytes(int index) const { return training.submodels[std::size_t(index)].peakBytes(); }
};

// `head` is reportHead(); adds "mode":"split", "plan", "status", "metric", "submodels",
// "combined", "baseline" (with --baseline), the combined test metrics as "test_*", "test_loss",
// and the run's "wall_seconds", "train_seconds" (the split's training), "cpu_seconds" and
// "peak_memory_bytes" (the process).
Json buildSplitReport(Json head, const SplitRun& run, const RunFigures& figures);

// The combined and baseline test metrics, the times, and one line per submodel.
void printSplitSummary(std::ostream& out, const SplitRun& run, const RunFigures& figures);

}  // namespace skynnet::cli
