#pragma once
// How submodel outputs become one answer in the original task's format (method.md §2-§5).
// Pure functions: no networks, no threads, so the rules are tested on hand-made numbers.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/task.h"
#include "core/tensor.h"
#include "split/class_group_rules.h"
#include "split/stacked_rule.h"
#include "split/strategy.h"

namespace skynnet {

// What prediction needs of a plan: small, so a saved model can carry it.
struct CombinationRule {
    Strategy strategy = Strategy::DataShards;  // never Auto
    Task task = Task::Classification;
    int outputs = 1;  // combined columns: C classes, 1 for binary, m regression columns
    // Class groups: the global classes each submodel owns, ascending; its local output k is
    // global class classes[i][k].
    std::vector<std::vector<int>> classes;
    // Output split: the target columns [first, second) each submodel predicts.
    std::vector<std::pair<int, int>> columns;
    BinaryCombine binaryCombine = BinaryCombine::MostConfident;
    // Class groups: the rule (class_group_rules.h), and whether every submodel has one more output,
    // last, for the rows of the classes it does not own (method.md §6).
    ClassCombine classCombine = ClassCombine::Product;
    bool otherOutput = false;
    // Class groups: the stacked rule's weights, fitted on the validation rows after training
    // whatever the chosen rule (run/runner.cpp), so that the rule can be switched to stacked
    // without retraining. None when the run had no validation rows, and in older files.
    std::optional<StackedWeights> stacked;
};

// The reference rule, literally: per row, the product over submodels of each class's probability,
// 1 for classes a submodel does not own. Kept for tests and comparison; these are not probabilities.
Matrix rawProductScores(const std::vector<Matrix>& subProbs, const CombinationRule& rule);
// rule.classCombine over the submodels' softmax outputs (class_group_rules.h). The product is the
// raw product's ranking, normalised (beyond the reference): the sum of log-probabilities (clamped
// at a tiny epsilon so a hard 0 does not become -inf) then a softmax, so each row sums to 1 and,
// without an "other" output, the argmax equals the raw product's. The stacked rule needs
// rule.stacked: without it, an Error says why (stackedMissingReason).
Matrix combineClassGroups(const std::vector<Matrix>& subProbs, const CombinationRule& rule);
// One sigmoid column per submodel in, one out: the most confident submodel's (larger |2p - 1|,
// the first on a tie) or the mean.
Matrix combineBinary(const std::vector<Matrix>& subProbs, BinaryCombine how);
// Column chunks side by side, in submodel order.
Matrix concatenateColumns(const std::vector<Matrix>& parts);
// The element-wise mean: probabilities (still summing to 1) or regression values.
Matrix averageOutputs(const std::vector<Matrix>& outputs);

// "product", "coupling with an 'other' output": how class-group outputs are combined, for messages.
std::string classRuleDescription(const CombinationRule& rule);

// Why a class-groups rule has no stacked weights, for messages: they are fitted on the validation
// rows, and the run that made it had none.
std::string stackedMissingReason();

// Dispatches on rule.strategy; checks the shapes and throws Error naming the submodel at fault.
Matrix combine(const std::vector<Matrix>& subOutputs, const CombinationRule& rule);

}  // namespace skynnet
