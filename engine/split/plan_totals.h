#pragma once
// The split's totals against the original, from the plan's own figures (spec/ computes them per
// layer): what the Split page shows beside its per-submodel bars, and what a run's sentence on the
// Results page is checked against. Training work is schedule.h's cost, forward FLOPs x rows x
// epochs: proportional to training time at one speed, and a measured speed (CPU seconds per unit
// of work) turns it into seconds. One rule for every front end (the command line's "on S
// machines" line is trainingSecondsOnMachines below).
#include <cstdint>
#include <optional>
#include <vector>

#include "split/split_plan.h"

namespace skynnet {

struct PlanTotals {
    int submodels = 0;                                    // S: on S machines every submodel trains at once
    int workers = 1;                                      // how many train at once on this machine
    std::int64_t combinedParams = 0, originalParams = 0;  // the combined model holds every submodel
    // What each machine needs (the largest submodel's training memory), and what this machine
    // needs with `workers` submodels training at once (the largest ones together).
    std::int64_t machineMemoryBytes = 0, concurrentMemoryBytes = 0, originalMemoryBytes = 0;
    // Inference: every submodel sees every sample, so the combined model's FLOPs are their sum.
    std::int64_t inferenceFlops = 0, originalInferenceFlops = 0;
    double work = 0;             // every submodel's training: the total CPU
    double slowestWork = 0;      // the largest submodel's: the training time on S machines
    double thisMachineWork = 0;  // longest first on `workers` at once: the training time here
    double originalWork = 0;     // the original's, for the plan's epochs before any scaling
};

// workers: how many submodels train at once on this machine (clamped to 1..S).
PlanTotals planTotals(const SplitPlan& plan, int workers);

// The original's training work: its FLOPs per sample x the training rows x the plan's epochs.
double originalCost(const SplitPlan& plan);

// The time tasks of these sizes take on `machines` at once: the largest when machines >= tasks,
// otherwise longest first, each next task to the machine free first. 0 for none; machines < 1
// counts as 1.
double longestFirstMakespan(std::vector<double> sizes, int machines);

// CPU seconds per unit of work a run of `plan` measured: its submodels' CPU seconds over their
// plan costs. nullopt when nothing was measured (no seconds, or a plan without cost).
std::optional<double> secondsPerWork(const SplitPlan& plan, const std::vector<double>& submodelCpuSeconds);

// The training time on S machines, one submodel each on one core as fast as this run's: the
// largest submodel's cost at the run's measured seconds per unit of work (0 when unmeasured).
double trainingSecondsOnMachines(const SplitPlan& plan, const std::vector<double>& submodelCpuSeconds);

}  // namespace skynnet
