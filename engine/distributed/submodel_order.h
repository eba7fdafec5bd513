#pragma once
// The order rank 0 hands submodels out in: longest first, so the last one to start is a short one
// and no worker finishes long after the others.
#include <vector>

#include "split/split_plan.h"

namespace skynnet {

// Indices by descending cost (FLOPs per sample x rows x effective epochs), ties by index.
// A stand-in for split/schedule.h's longestFirst until it lands on main.
std::vector<int> longestFirstOrder(const SplitPlan& plan);

}  // namespace skynnet
