#pragma once
// A study's aggregates per configuration (mean and spread over the seeds, the paired difference to
// the original with its Student's t interval, times, memory, inference cost) and the
// recommendation: the shortest time whose mean metric is within the original's seed noise, on
// this machine and on K machines (machine_schedule.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/statistics.h"
#include "io/json.h"
#include "study/study_run.h"

namespace skynnet {

struct PairedDifference {
    int pairs = 0;  // seeds where both this configuration and the original finished
    double mean = 0;
    std::optional<MeanInterval> interval;  // 95%, with pairs - 1 degrees of freedom (2 pairs or more)
};

// A configuration's runs under one class-group rule (StudyPlan::combine).
struct RuleSummary {
    std::string rule;  // "coupling"
    double metricMean = 0;
    std::optional<PairedDifference> difference;  // against the original's own metric, seed by seed
};

struct ConfigSummary {
    StudyConfig config;
    std::string strategy;  // as used ("original", "class-groups", "ensemble", ...)
    EpochScaling epochScaling = EpochScaling::Off;
    int S = 1;
    int runs = 0;  // finished
    double metricMean = 0;
    std::optional<double> metricStdDev;          // over the seeds (2 runs or more)
    std::optional<PairedDifference> difference;  // against the original; empty for the original itself
    double wallSeconds = 0, trainSeconds = 0, slowestSubmodelSeconds = 0, machinesSeconds = 0, cpuSeconds = 0;  // means
    std::optional<double> wallStdDev;
    std::int64_t peakMemoryBytes = 0;  // the largest over its runs
    std::int64_t params = 0, flopsPerSample = 0;
    std::optional<double> latencySeconds;  // median over its runs
    std::vector<RuleSummary> rules;        // the study's rules every run of it reports; empty otherwise
};

struct Recommendation {
    std::string config;
    int submodels = 1;
    std::string strategy;
    double seconds = 0;
    double metricMean = 0;
};

// A configuration as the recommendation rule sees it; without `seconds` it is never picked.
struct RecommendationCandidate {
    std::string config;
    int submodels = 1;
    std::string strategy;
    double metricMean = 0;
    std::optional<double> seconds;
};

// The rule's bar: the original's mean minus its standard deviation over the seeds (the mean
// itself with one seed: no spread known, so nothing below it counts as within it).
double recommendationThreshold(double originalMean, const std::optional<double>& originalStdDev);
// The shortest time among the candidates whose mean metric reaches the threshold (the first of
// equal times); empty when none does.
std::optional<Recommendation> fastestWithin(const std::vector<RecommendationCandidate>& candidates, double threshold);

struct StudySummary {
    std::string metricName;
    int machines = 1;
    std::vector<ConfigSummary> configs;  // those with a finished run, in the study's order
    std::vector<std::string> rules;      // StudyPlan::combine: a column each in the table
    std::optional<double> originalMean, originalStdDev;
    std::optional<double> threshold;                        // recommendationThreshold of the original
    std::optional<Recommendation> thisMachine, onMachines;  // by wall seconds; by machinesSeconds
};

// The aggregates of the finished runs among `runs`, per configuration of `plan`, with the
// schedule on `machines` machines.
StudySummary summarizeStudy(const std::vector<StudyRun>& runs, const StudyPlan& plan, int machines);
const ConfigSummary* originalOf(const StudySummary& summary);

// study.json's "summary" (and the progress events' summaries).
Json summaryJson(const StudySummary& summary);

}  // namespace skynnet
