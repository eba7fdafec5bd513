#pragma once
// The run a checkpoint file belongs to, shared by fuzz_checkpoint.cpp and its seeds (make_seeds):
// loadCheckpointFile checks a file against the run's key, the submodel's index and its network.
#include "model/network.h"
#include "project/checkpoint_file.h"

namespace skynnet::fuzz {

inline const CheckpointRunKey checkpointKey{"0123456789abcdef", "fedcba9876543210", "00112233aabbccdd"};
inline constexpr int checkpointIndex = 0;  // submodel 1

// A small network with a parameter per layer kind a checkpoint's optimiser state must match.
inline NetworkSpec checkpointSpec() {
    NetworkSpec spec;
    spec.input = Shape::flat(3);
    spec.layers = parseLayers("dense:4:relu");
    spec.setOutputFor(Task::Classification, 3);
    return spec;
}

}  // namespace skynnet::fuzz
