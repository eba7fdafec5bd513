#pragma once
// The JSON report of a training run and the settings recorded in a saved model. Built from plain
// values so that other ways of training (the Skynnet split) can add their own sections.
#include <cstdint>
#include <optional>

#include "evaluation.h"
#include "io/json.h"
#include "spec/network_spec.h"
#include "train/train_types.h"
#include "train_options.h"
#include "train_setup.h"

namespace skynnet::cli {

// Process-wide figures taken when the run ends.
struct RunFigures {
    double wallSeconds = 0;  // the whole command: loading, training, testing
    double cpuSeconds = 0;   // the whole process, every thread
    std::int64_t peakMemoryBytes = 0;
};

// What the model file records about its training, so `evaluate --split` can rebuild the split.
Json trainingRecord(const TrainOptions& options, const TrainConfig& config);

// The first members of every train report: {"tool","version","command","task","data","network",
// "settings"}. Takes its counts from the preprocessed matrices, so call it before they are handed on.
Json reportHead(const TrainOptions& options, const PreparedData& data, const NetworkSpec& spec,
                const TrainConfig& config);
// [{"epoch","loss","metric","validation_loss","validation_metric","seconds","samples_per_second",
//   "learning_rate"}...]
Json historyJson(const std::vector<EpochStats>& history);

// {"tool","command","task","data":{...},"network":{...},"settings":{...},"status",
//  "epochs_run","best_epoch", test metrics ("test_accuracy"... or "test_mse", "test_mae",
//  "test_r2"), "test_loss", "wall_seconds","train_seconds","cpu_seconds","peak_memory_bytes",
//  "peak_model_bytes","peak_training_bytes" (the model's peak plus its training rows),
//  "history":[{"epoch","loss","metric","validation_loss","validation_metric","seconds",
//  "samples_per_second","learning_rate"}...]}
Json buildTrainReport(const TrainOptions& options, const PreparedData& data, const NetworkSpec& spec,
                      const TrainConfig& config, const TrainResult& result,
                      const std::optional<EvaluationSummary>& test, double testLoss, const RunFigures& figures);

}  // namespace skynnet::cli
