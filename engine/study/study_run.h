#pragma once
// One run of a study as the study records it: its figures read back from the run's train report
// (a plain study's runs; study_project.h reads a project study's), and the inference cost of its
// saved model (parameters, FLOPs per sample, latency), which the front end measures the same way
// for every run once the training is over.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "io/json.h"
#include "split/split_plan.h"
#include "study/study_plan.h"

namespace skynnet {

// The batch the latency is measured on.
inline constexpr int latencyBatchRows = 128;

struct StudyRun {
    StudyRunSpec spec;
    bool finished = false;  // false: failed (or not run), `error` says why
    std::string error;
    bool reused = false;  // read from an earlier invocation's report, not run now

    int S = 1;                                      // submodels trained
    std::string strategy;                           // the strategy used ("original" for N = 1, "ensemble")
    EpochScaling epochScaling = EpochScaling::Off;  // how the split divided its epochs
    std::string metricName;                         // accuracy or r2
    double metric = 0;                              // on the test set
    double wallSeconds = 0;                         // the whole train command
    double trainSeconds = 0;                        // its training
    double slowestSubmodelSeconds = 0;              // what S machines would take (N = 1: the training)
    std::vector<double> submodelSeconds;
    // The split report's prediction of the training time on S machines, one core each (empty for
    // N = 1 and for reports without it).
    std::optional<double> predictedSecondsOnSMachines;
    double cpuSeconds = 0;
    std::int64_t peakMemoryBytes = 0;         // the largest submodel's training peak, its rows counted
    std::int64_t processPeakMemoryBytes = 0;  // the train process's peak resident memory

    std::int64_t params = 0, flopsPerSample = 0;  // the combined model's (all submodels)
    std::optional<double> latencySeconds;         // predict() on latencyBatchRows rows, median
    // Class groups: the test metric of the same submodels under every rule (the report's
    // combined.metric_by_rule), by rule name; empty for other runs and older reports.
    std::map<std::string, double> ruleMetrics;
};

// The figures of a finished run from its train report (Error naming the report and field at fault).
StudyRun readRunReport(const StudyRunSpec& spec, const std::string& reportPath);

// The entry of study.json's "runs" (machines: K, for "machines_seconds").
Json runJson(const StudyRun& run, int machines);

}  // namespace skynnet
