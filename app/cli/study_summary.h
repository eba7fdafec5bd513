#pragma once
// A study's aggregates per configuration (mean and spread over the seeds, the paired difference to
// the original with its Student's t interval, times, memory, inference cost) and the
// recommendation: the shortest time whose mean metric is within the original's seed noise.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/statistics.h"
#include "io/json.h"
#include "study_runs.h"

namespace skynnet::cli {

struct PairedDifference {
    int pairs = 0;  // seeds where both this configuration and the original finished
    double mean = 0;
    std::optional<MeanInterval> interval;  // 95%, with pairs - 1 degrees of freedom (2 pairs or more)
};

struct ConfigSummary {
    StudyConfig config;
    std::string strategy;  // as used ("original", "class-groups", "ensemble", ...)
    bool scaleEpochs = false;
    int S = 1;
    int runs = 0;  // finished
    double metricMean = 0;
    std::optional<double> metricStdDev;      // over the seeds (2 runs or more)
    std::optional<PairedDifference> difference;  // against the original; empty for the original itself
    double wallSeconds = 0, trainSeconds = 0, slowestSubmodelSeconds = 0, machinesSeconds = 0, cpuSeconds = 0;  // means
    std::optional<double> wallStdDev;
    std::int64_t peakMemoryBytes = 0;  // the largest over its runs
    std::int64_t params = 0, flopsPerSample = 0;
    std::optional<double> latencySeconds;  // median over its runs
};

struct Recommendation {
    std::string config;
    int submodels = 1;
    std::string strategy;
    double seconds = 0;
    double metricMean = 0;
};

struct StudySummary {
    std::string metricName;
    int machines = 1;
    std::vector<ConfigSummary> configs;  // those with a finished run, in the study's order
    std::optional<double> originalMean, originalStdDev;
    std::optional<double> threshold;  // original mean - its standard deviation (0 with one seed)
    std::optional<Recommendation> thisMachine, onMachines;  // by wall seconds; by machinesSeconds
};

StudySummary summarizeStudy(const std::vector<StudyRun>& runs, const StudyOptions& options);
const ConfigSummary* originalOf(const StudySummary& summary);

Json summaryJson(const StudySummary& summary);

}  // namespace skynnet::cli
