#pragma once
// Combining a trained class-groups run by another rule (class_group_rules.h) without retraining:
// from the submodels' test outputs kept with the run, the combined test outputs and metric are
// computed again, and the rule is recorded with the results and the run's model.
#include "project/project_file.h"
#include "split/split_plan.h"

namespace skynnet {

// Whether run results of `plan` can be recombined: class groups whose submodel test outputs were
// kept (runs saved before they were have none).
bool canRecombine(const ProjectResults& results, const SplitPlan& plan);
// Whether the run's model holds the stacked rule's weights (fitted on the validation rows after
// training: runs without validation rows, and older ones, have none).
bool hasStackedWeights(const ProjectResults& results);
// Recombines by `how` (stacked: by the weights kept with the run's model). Throws Error saying why when canRecombine()
// is false.
void recombine(ProjectResults& results, const SplitPlan& plan, ClassCombine how);

}  // namespace skynnet
