#include "project/recombine.h"

#include "core/error.h"
#include "train/metrics.h"

namespace skynnet {

bool canRecombine(const ProjectResults& results, const SplitPlan& plan) {
    return plan.strategy == Strategy::ClassGroups && !results.submodelTestOutputs.empty() &&
           results.submodelTestOutputs.size() == plan.submodels.size();
}

void recombine(ProjectResults& results, const SplitPlan& plan, ClassCombine how) {
    if (plan.strategy != Strategy::ClassGroups)
        throw Error("only class groups can be combined by another rule; this run used " + strategyName(plan.strategy));
    if (!canRecombine(results, plan))
        throw Error("this run kept no submodel test outputs (it was saved by an older version): train it again to "
                    "combine it by another rule");
    CombinationRule rule = plan.rule();
    rule.classCombine = how;
    results.combinedTestOutput = combine(results.submodelTestOutputs, rule);
    results.combinedMetric = headlineMetric(plan.task, results.combinedTestOutput, results.testTargets);
    results.classCombine = how;
    if (results.model) results.model->rule.classCombine = how;
}

}  // namespace skynnet
