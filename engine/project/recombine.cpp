#include "project/recombine.h"

#include "core/error.h"
#include "train/metrics.h"

namespace skynnet {

bool canRecombine(const ProjectResults& results, const SplitPlan& plan) {
    return plan.strategy == Strategy::ClassGroups && !results.submodelTestOutputs.empty() &&
           results.submodelTestOutputs.size() == plan.submodels.size();
}

bool hasStackedWeights(const ProjectResults& results) { return results.model && results.model->rule.stacked; }

void recombine(ProjectResults& results, const SplitPlan& plan, ClassCombine how) {
    if (plan.strategy != Strategy::ClassGroups)
        throw Error("only class groups can be combined by another rule; this run used " + strategyName(plan.strategy));
    if (!canRecombine(results, plan))
        throw Error("this run kept no submodel test outputs (it was saved by an older version): train it again to "
                    "combine it by another rule");
    CombinationRule rule = plan.rule();
    rule.classCombine = how;
    if (how == ClassCombine::Stacked) {  // the weights fitted with the run, kept with its model
        if (!results.model)
            throw Error("this run kept no trained model, whose stacked weights the stacked rule needs (its weights "
                        "were not kept)");
        if (!hasStackedWeights(results)) throw Error("this run has no stacked weights: " + stackedMissingReason());
        rule.stacked = results.model->rule.stacked;
    }
    results.combinedTestOutput = combine(results.submodelTestOutputs, rule);
    results.combinedMetric = headlineMetric(plan.task, results.combinedTestOutput, results.testTargets);
    results.classCombine = how;
    if (results.model) results.model->rule.classCombine = how;
}

}  // namespace skynnet
