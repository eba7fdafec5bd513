#pragma once
// The Skynnet project file (".skynnet"): everything a session needs to be reopened as it was, in
// the container of model_file.h (magic "SKYNNETM", container version, JSON header, float32
// blocks, CRC-32). Header layout:
//   {"kind": "project", "projectFormat": 1,
//    "data":     {"train"|"trainLabels"|"test"|"testLabels": {"path", "absolutePath",
//                 "fingerprint": {"size", "xxh64"}}, "targetColumn", "task", "scaling",
//                 "validationFraction", "testFraction", "seed"},
//    "network":  NetworkSpec (spec_json.h),
//    "split":    SplitOptions, "training": {"config": TrainConfig, "threadBudget", "trainBaseline"},
//    "runs":     [{"status", "message", "plan": SplitPlan (rows in index blocks),
//                  "submodels": [history], "baseline": history, "results": {figures, test
//                  outputs in blocks, "model": {loss, preprocessing, names, weight blocks},
//                  "baselineWeightsBlock"}, "pauses": [{"startSeconds", "endSeconds"}],
//                  optional "id", "startedAt", "log" and "settings":
//                  {"data", "network", "split", "training"} as the project's own}],
//    "extra":    free-form (the front end's own state),
//    "study":    optional {"settings": as a run's, "record": free-form} (ProjectStudy)}
// Data paths are stored relative to the project's folder and absolute (data_reference.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/cancel.h"
#include "core/task.h"
#include "data/preprocessing.h"
#include "io/json.h"
#include "project/data_reference.h"
#include "spec/network_spec.h"
#include "split/combined_model_file.h"
#include "split/parallel_trainer.h"
#include "split/split_plan.h"
#include "train/train_types.h"

namespace skynnet {

inline constexpr int projectFormatVersion = 1;
inline constexpr const char* projectFileSuffix = ".skynnet";
// The key in a project's "extra" of the run a front end shows: its index in "runs" (runs are only
// ever added). A tool that adds a run sets it to the new run, so the app shows that one next.
inline constexpr const char* shownRunKey = "shownRun";

// Where the app trains: in its own process, or by skynnet-cli under mpirun on the machines of an
// Open MPI hostfile. Optional in the file ("training.runOn"): projects without it run here.
struct RunPlace {
    bool onHosts = false;
    std::string hostfile;  // as the user chose it
    int ranks = 3;         // mpirun -np: rank 0 plans and combines, the others train submodels
    bool operator==(const RunPlace&) const = default;
};

struct ProjectTraining {
    TrainConfig config;
    int threadBudget = 0;  // 0: every core
    bool trainBaseline = true;
    RunPlace runOn;
    bool operator==(const ProjectTraining&) const = default;
};

// One model's curves in a run: a submodel (index >= 0) or the baseline (-1).
struct ModelHistory {
    int submodel = 0;
    bool finished = false;
    TrainStatus status = TrainStatus::Completed;
    BatchProgress lastBatch;
    std::vector<EpochStats> epochs;
    std::vector<ResourceSample> resources;
};

// What a completed run measured, and optionally the trained weights.
struct ProjectResults {
    std::vector<TrainResult> submodels;  // in plan order
    std::vector<double> submodelWallSeconds, submodelCpuSeconds, submodelMetrics;
    double splitWallSeconds = 0, splitCpuSeconds = 0;
    int workers = 0;
    std::int64_t peakSubmodelBytes = 0, peakConcurrentBytes = 0;  // ParallelResult's
    std::optional<TrainResult> baseline;
    double combinedMetric = 0, baselineMetric = 0;
    std::string metricName = "accuracy";
    std::string evaluatedOn = "test";
    long evaluatedSamples = 0;
    double wallSeconds = 0;  // the whole job
    Matrix combinedTestOutput, baselineTestOutput, testTargets;
    // Class groups: each submodel's outputs on the same test rows, so that the run can be combined
    // by another rule without retraining (project/recombine.h). Empty for other strategies and
    // for runs saved before they were kept.
    std::vector<Matrix> submodelTestOutputs;
    // The class-group rule combinedMetric and combinedTestOutput were computed by (the model's).
    ClassCombine classCombine = ClassCombine::Product;
    // The trained combined model: its rule and specs must be the run's plan's (plan.rule() and
    // each submodel's spec); saved as weights, loss, preprocessing and names. Unset for older
    // runs kept only for their curves.
    std::optional<SavedCombinedModel> model;
    std::optional<std::vector<float>> baselineWeights;  // plan.original's Network::flatWeights()

    // A run resumed from checkpoints: its submodels' CPU includes the sessions before the resume,
    // while every wall time is this session's.
    bool resumed() const {
        for (const TrainResult& s : submodels)
            if (s.resumed()) return true;
        return false;
    }
    double earlierSubmodelCpuSeconds() const {
        double cpu = 0;
        for (const TrainResult& s : submodels) cpu += s.earlierCpuSeconds;
        return cpu;
    }
};

// What a run was made from: the project's settings when it started.
struct RunSettings {
    ProjectDataSource data;  // the files with their fingerprints when known (their status is not saved)
    NetworkSpec network;
    SplitOptions split;
    ProjectTraining training;
    bool operator==(const RunSettings&) const = default;
};

struct ProjectRun {
    TrainStatus status = TrainStatus::Completed;
    std::string message;
    SplitPlan plan;
    std::vector<ModelHistory> submodels;  // one per plan submodel
    std::optional<ModelHistory> baseline;
    std::optional<ProjectResults> results;  // completed runs only

    // When the run was paused, oldest first, on the clock of its resource samples: the charts shade
    // them. Its durations already leave them out. Optional in the file ("pauses"): none before.
    std::vector<PauseInterval> pauses;

    // The run's record, optional in the file: runs of projects written before it have none.
    std::string id;                       // unique within its project
    std::string startedAt;                // ISO 8601 UTC, "2026-12-01T21:14:03Z"; empty: not recorded
    std::optional<RunSettings> settings;  // empty: not recorded
    std::string log;                      // the run's log lines, each ending in '\n'
};

// The split study of the app's Study page (skynnet-cli study run on this project), kept with the
// project. Optional in the file ("study"): builds before it ignore the field, and files without it
// read as having none. The record is the front end's (options, runs and summary, in the fields of
// study.json); the engine only keeps it, with the settings the study was made from, so a front end
// can tell when the project has changed since.
struct ProjectStudy {
    std::optional<RunSettings> settings;  // empty: not recorded
    Json record;
    bool operator==(const ProjectStudy&) const = default;
};

struct ProjectData {
    ProjectDataSource data;
    NetworkSpec network;
    SplitOptions split;
    ProjectTraining training;
    std::vector<ProjectRun> runs;  // oldest first; the last is the one a front end shows
    Json extra;                    // free-form front-end state; null when absent
    std::optional<ProjectStudy> study;
};

// Atomic: the old file stays intact if the save fails or the process dies meanwhile. Data paths
// are written relative to the project's folder and absolute. Fingerprints are written as given
// (computing them is the caller's choice: it knows whether the data changed since loading).
// Throws Error naming the path, or the field that cannot be saved ("runs[0].results.model ...").
void saveProject(const std::string& path, const ProjectData& project);

// Throws Error naming the path and, for a bad value, the field: "<path> is not a Skynnet project
// file", "... is truncated", "... is damaged (checksum mismatch)", "... was written by a newer
// Skynnet (project format 2, this build reads up to 1)", "<path>: runs[0].plan.submodels[1].rows
// ...". Data files are located (see locateDataFile) and their status set; a missing or changed
// data file is not an error.
ProjectData loadProject(const std::string& path);

// A finished split run as a front end without a TrainingSession (the command-line tool) has it:
// each model's history from its TrainResult (epochs; no resource samples), the training figures
// and times, the combined model's weights when `model` is given (toSaved(split.model,
// preprocessing) plus names) and the baseline's. The caller adds what its evaluation measured:
// combinedMetric, submodelMetrics, baselineMetric, metricName, evaluatedOn, evaluatedSamples and
// the test outputs of results.
ProjectRun completedRun(const SplitPlan& plan, const ParallelResult& split, const BaselineResult* baseline,
                        const SavedCombinedModel* model, const std::string& message = {});

}  // namespace skynnet
