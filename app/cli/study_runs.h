#pragma once
// One run of a study as the study records it: its figures read back from the run's train report,
// and the inference cost of its saved model (parameters, FLOPs per sample, latency) measured in
// the study process, the same way for every run.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/json.h"
#include "study_options.h"

namespace skynnet::cli {

inline constexpr int latencyBatchRows = 128;

struct StudyRun {
    StudyRunSpec spec;
    bool finished = false;  // false: failed, `error` says why
    std::string error;
    bool reused = false;  // read from an earlier invocation's report, not run now

    int S = 1;              // submodels trained
    std::string strategy;   // the strategy used ("original" for N = 1, "ensemble")
    bool scaleEpochs = false;  // the split divided its epochs by F
    std::string metricName;    // accuracy or r2
    double metric = 0;         // on the test set
    double wallSeconds = 0;    // the whole train command
    double trainSeconds = 0;   // its training
    double slowestSubmodelSeconds = 0;  // what S machines would take (N = 1: the training)
    std::vector<double> submodelSeconds;
    // The split report's prediction of the training time on S machines, one core each (empty for
    // N = 1 and for reports without it).
    std::optional<double> predictedSecondsOnSMachines;
    double cpuSeconds = 0;
    std::int64_t peakMemoryBytes = 0;         // the largest submodel's training peak, its rows counted
    std::int64_t processPeakMemoryBytes = 0;  // the train process's peak resident memory

    std::int64_t params = 0, flopsPerSample = 0;  // the combined model's (all submodels)
    std::optional<double> latencySeconds;         // predict() on latencyBatchRows rows, median
};

// The figures of a finished run from its report (Error naming the report and field at fault).
StudyRun readRunReport(const StudyRunSpec& spec, const std::string& reportPath);
// Loads the model and times predict() on latencyBatchRows rows, the median of `repetitions`
// after one warm-up; fills params, flopsPerSample and latencySeconds.
void measureModel(StudyRun& run, const std::string& modelPath, int repetitions);

// The time S submodels of these durations take on K machines: the slowest when K >= S, otherwise
// a longest-first schedule (each next one to the machine free first).
double machinesSeconds(const std::vector<double>& submodelSeconds, int machines);

// The entry of study.json's "runs" (machines: K, for "machines_seconds").
Json runJson(const StudyRun& run, int machines);

}  // namespace skynnet::cli
