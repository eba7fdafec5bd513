#pragma once
// The measurement behind the GEMM routing table (core/gemm_routing.h): which products the networks
// of a run compute (by running one training step of each on random rows, its last short batch,
// and an evaluation, with a GemmShapeRecorder), then each backend timed on each of those shapes
// on one thread, alternating the backends so that a noisy moment does not favour one of them.
#include <functional>
#include <vector>

#include "core/task.h"
#include "io/gemm_routing_file.h"
#include "spec/network_spec.h"
#include "train/train_types.h"

namespace skynnet {

// A network as a run trains it: its spec and settings, and how many rows it trains and
// evaluates on (the batches' sizes, and so the products', follow from them).
struct GemmTuningNetwork {
    NetworkSpec spec;
    TrainConfig config;
    Task task = Task::Classification;
    Index trainRows = 0, evaluationRows = 0;
};

// The distinct product shapes these networks compute in training and evaluation.
std::vector<GemmShape> gemmShapesOf(const std::vector<GemmTuningNetwork>& networks);

// Each full-width backend timed on each shape for about secondsPerShape in all (the best of
// several alternating rounds). A backend replaces the rules' choice only when it is at least 3%
// faster, so a close call between two backends does not flip with the noise of one tuning.
// progress(done, total) after each shape.
std::vector<GemmMeasuredRoute> measureGemmRoutes(const std::vector<GemmShape>& shapes, double secondsPerShape,
                                                 const std::function<void(int, int)>& progress = {});

}  // namespace skynnet
