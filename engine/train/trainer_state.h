#pragma once
// Where a Trainer's fit() stands at an epoch end: with the network's weights, everything a fresh
// Trainer needs to continue so that the run ends with the same bits as one never interrupted
// (checkpoints and --resume). A plain value, copied out of the Trainer.
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "optim/optimizer.h"
#include "train/train_types.h"

namespace skynnet {

struct TrainerState {
    int epochsDone = 0;
    std::uint64_t steps = 0;  // optimiser steps: seed dropout masks and augmentation
    RngState shuffleRng;
    OptimizerState optimizer;
    // Early stopping: the best score so far (on its comparison scale), epochs since it, and the
    // weights of the best epoch when restore-best keeps them (else empty).
    double bestScore = 0;
    int sinceBest = 0;
    std::vector<Scalar> bestWeights;
    std::vector<EpochStats> history;
    int bestEpoch = 0;
    // Spent before this state was taken, so a resumed result reports the whole training.
    double wallSeconds = 0, cpuSeconds = 0;
    std::int64_t peakModelBytes = 0;
};

}  // namespace skynnet
