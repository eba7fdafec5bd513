#pragma once
// The order submodels are handed to workers in: longest first, so the last one to start is a short
// one and no worker idles long while another still has a big submodel ahead of it. The cost is the
// plan's own estimate, the same on every machine, so the thread backend and the MPI backend's
// rank 0 take submodels in the same order.
#include <vector>

#include "split/split_plan.h"

namespace skynnet {

// Forward FLOPs of one sample x training rows x effective epochs of submodel `index`: its training
// work up to a constant factor (the backward pass costs about twice the forward one for every layer).
double submodelCost(const SplitPlan& plan, int index);
// Every submodel index, by descending submodelCost, ties by ascending index.
std::vector<int> longestFirst(const SplitPlan& plan);

}  // namespace skynnet
