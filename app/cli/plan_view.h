#pragma once
// The split plan for people (a table) and for machines (JSON). Shared by `plan` and by the report
// of `train --submodels`, so the preview and the record of a run cannot disagree.
#include <string>
#include <vector>

#include "io/json.h"
#include "split/split_plan.h"

namespace skynnet::cli {

// A heading (strategy, N, S, F, groups, epochs, workers), one row for the original model then one
// per submodel (classes or outputs, training samples, widths, parameters, MFLOP/sample, training
// memory), and the warnings. threads: the budget the submodels share.
// placement: where the submodels train, when not on `threads` threads of this process (e.g. "2 MPI
// worker ranks").
std::string planTable(const SplitPlan& plan, int threads, const std::string& placement = {});

// {"strategy","task","N","S","F","groups":[[classes]...],"epochs","submodel_epochs",
//  "epochs_scaled","samples","workers","kernel_threads":[per worker],
//  "original":{...},"submodels":[{"index" (1-based),"role","classes"|"outputs","samples",
//  "widths","layers","params","flops_per_sample","memory_bytes"}...],"warnings":[...]}
// plus "binary_combine" for binary shards, and for class groups "combine", "other_share" and each
// submodel's "other_samples" (of its "samples", those of classes it does not own). Classes and
// output columns are 0-based data indices.
Json planJson(const SplitPlan& plan, int threads);

// The classes (classification, binary) or target columns (regression) submodel `index` answers for.
std::vector<int> ownedOutputs(const SplitPlan& plan, int index);
// The same as text: "0-3,7-9 (7)", or "all (10)".
std::string ownedSummary(const SplitPlan& plan, int index);
// Submodel `index`'s training samples as text: "1560", or "1560 (360 other)" with an "other" output.
std::string samplesText(const SplitPlan& plan, int index);

}  // namespace skynnet::cli
