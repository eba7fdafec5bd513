#pragma once
// The combined model file: every submodel's network and weights plus the combination rule, in the
// container of model_file.h with header kind "combined". Header layout:
//   {"kind":"combined", "task", "loss",
//    "combination": {"strategy", "outputs", "classes" + "classCombine" + "otherOutput" | "columns" |
//                    "binaryCombine"},  (a class-groups file without the last two: product, no "other")
//                   class groups also "stacked": {"weights": [C rows of D], "bias": [C]} when the
//                   stacked rule was fitted (stacked_rule.h); files without it have no such weights
//    "submodels": [{"network": {...}, "weightsBlock": 0}, ...],
//    "preprocessing", "classNames", "targetNames", "featureNames", "extra"}
// One type serves both kinds of file: a single network (kind "single", spec_json.h) is read as a
// combined model of one submodel under the identity rule (data shards averaging one output, which
// returns it bit for bit), so predict, evaluate and export handle one shape of model.
#include <functional>
#include <string>
#include <vector>

#include "data/preprocessing.h"
#include "io/json.h"
#include "losses/loss.h"
#include "model/saved_model.h"
#include "spec/network_spec.h"
#include "split/combination.h"
#include "split/combined_model.h"

namespace skynnet {

// The header's "combination" object, and back (task: the file's); an Error names the field at fault.
Json ruleToJson(const CombinationRule& rule);
CombinationRule ruleFromJson(const JsonField& j, Task task);
// The stacked rule's weights as {"weights": [[...], ...], "bias": [...]}, and back (an Error names
// the field at fault; the shapes against the rule are checked by validate).
Json stackedToJson(const StackedWeights& w);
StackedWeights stackedFromJson(const JsonField& j);

struct SavedCombinedModel {
    CombinationRule rule;                           // rule.task is the model's task, rule.outputs its output columns
    LossKind loss = LossKind::SoftmaxCrossEntropy;  // what CombinedModel::evaluate reports
    std::vector<NetworkSpec> specs;                 // one per submodel, in rule order
    std::vector<std::vector<float>> weights;        // Network::flatWeights() of each submodel
    Preprocessing preprocessing;
    // Read from a file, its task is rule.task (the one written); class names: one per output for
    // classification, two for binary; target names: one per output for regression.
    ModelSchema schema;
    Json extra;                   // free-form (settings, metrics); null when absent
    bool fromSingleFile = false;  // loadAnyModel read a kind "single" file

    Task task() const { return rule.task; }
    int submodelCount() const { return int(specs.size()); }
    // Columns the networks take: the preprocessing's output, or the first network's input when
    // no preprocessing was fitted (the model then takes network inputs directly).
    int inputColumns() const;
    // Columns predict() takes: raw feature columns.
    int rawColumns() const;
};

// A trained model as it would be saved: rule, loss, specs, weights, the preprocessing and the
// schema of the data it was trained on (its task must be the rule's); extra is left for the caller.
SavedCombinedModel toSaved(const CombinedModel& model, const Preprocessing& preprocessing, const ModelSchema& schema);
// A single network as a one-submodel combined model under the identity rule.
SavedCombinedModel asCombined(const SavedModel& single);
// The submodels rebuilt with their weights. Throws Error if the parts disagree (see validate).
CombinedModel buildCombinedModel(const SavedCombinedModel& m);
// Raw features -> the model's outputs: the saved preprocessing, then `model` (built from m).
// Without fitted preprocessing the rows go to the networks as they are.
Matrix predictRaw(CombinedModel& model, const SavedCombinedModel& m, const Matrix& raw);
// The same bits, for a front end that shows progress and offers Cancel: each submodel runs over
// slices of whole predict chunks, `progress` (optional) hears 0 first and the fraction done after
// each slice, and a cancelled token (checked, its pause honoured, between chunks) makes it return
// an empty matrix.
Matrix predictRaw(CombinedModel& model, const SavedCombinedModel& m, const Matrix& raw, const CancelToken* cancel,
                  const std::function<void(double fraction)>& progress);

// Throws Error("<context>: <field>: <problem>") when the parts disagree: strategy and task, the
// rule against each network's outputs, weight counts, input widths, name lists.
void validate(const SavedCombinedModel& m, const std::string& context);

// Atomic; always writes kind "combined". Throws Error naming the path.
void saveCombinedModel(const std::string& path, const SavedCombinedModel& m);
// Kind "combined" only; any other kind is refused naming it. Errors name the path and the field.
SavedCombinedModel loadCombinedModel(const std::string& path);
// Either kind: what `predict` and `evaluate` load.
SavedCombinedModel loadAnyModel(const std::string& path);

}  // namespace skynnet
