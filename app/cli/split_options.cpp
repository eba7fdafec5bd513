#include "split_options.h"

#include <string>

#include "core/error.h"
#include "optim/optimizer.h"

namespace skynnet::cli {

const std::vector<OptionSpec>& splitOptionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--submodels", "N", "train the Skynnet split: N submodels in parallel, their predictions combined"},
        {"--strategy", "S",
         "auto, class-groups, binary-shards, output-split, data-shards, or ensemble (not a split: N thin networks on "
         "all the data, the same parameters in all as the split) (default auto: by task)"},
        {"--scale-epochs", "on|off|sqrt",
         "divide the epochs by F (on), by sqrt(F) (sqrt) or not (off) (default: sqrt for several classes with "
         "dense layers only, off otherwise)"},
        {"--shard-factor", "F", "data-shards width reduction factor, at least 1 (default sqrt(N))"},
        {"--combine", "RULE",
         "class-groups combination: product (the reference's rule), coupling (the generalised Bradley-Terry "
         "estimate), sum (the mean probability of each class's owners) or stacked (a logistic regression over the "
         "submodels' log-probabilities, fitted on the validation rows) (default stacked; without validation rows, "
         "product)"},
        {"--other-share", "R",
         "class groups: every submodel gets one more output, 'other', learnt from a seeded sample of R times its own "
         "rows from the classes it does not own; R >= 0, 0 is off (default 0.3)"},
        {"--shard-overlap", "R",
         "data shards: every submodel also learns from a seeded sample of R times its shard's rows from the other "
         "shards; 0 <= R <= N-1, where every submodel sees every row (default 0: disjoint shards)"},
        {"--binary-combine", "HOW", "binary-shards combination: most-confident or average (default most-confident)"},
        {"--no-shuffle-shards", "", "shards are contiguous blocks in file order instead of a seeded shuffle"},
        {"--regression-fallback", "", "output-split with fewer target columns than N: data shards instead of an error"},
        {"--reference", "",
         "the reference's exact method: the product rule, no 'other' output, epochs divided by F, shards in file "
         "order, the most confident binary answer"},
    };
    return specs;
}

std::optional<SplitOptions> parseSplitOptions(const Args& a, const TrainConfig& config) {
    if (!a.has("--submodels")) {
        for (const OptionSpec& s : splitOptionSpecs())
            if (a.has(s.name)) Args::fail(s.name, "needs --submodels");
        return std::nullopt;
    }
    SplitOptions o = withMeasuredDefaults({});
    o.requested = a.positiveInt("--submodels", 2);
    if (const auto s = a.text("--strategy")) {
        if (*s == ensembleStrategyName) {
            o.strategy = Strategy::DataShards;  // planned, combined and saved as shards that all hold every row
            o.ensemble = true;
        } else {
            try {
                o.strategy = parseStrategy(*s);
            } catch (const Error&) {
                Args::fail("--strategy",
                           "unknown split strategy '" + *s +
                               "' (expected auto, class-groups, binary-shards, output-split, data-shards or ensemble)");
            }
        }
    }
    if (const auto s = a.text("--scale-epochs")) {
        try {
            o.scaleEpochs = parseEpochScaling(*s);
        } catch (const Error& e) {
            Args::fail("--scale-epochs", e.what());
        }
    }
    if (a.has("--shard-factor")) {
        const double f = a.positiveNumber("--shard-factor", 1);
        // Below 1 the "submodels" would be wider than the original: the planner refuses it too, but
        // on the command line it is the option's fault.
        if (f < 1) Args::fail("--shard-factor", "must be at least 1, got '" + *a.text("--shard-factor") + "'");
        o.dataShardFactor = f;
    }
    if (const auto s = a.text("--combine")) {
        try {
            o.classCombine = parseClassCombine(*s);
        } catch (const Error& e) {
            Args::fail("--combine", e.what());
        }
    }
    o.otherShare = a.nonNegativeNumber("--other-share", measuredOtherShare);
    o.shardOverlap = a.nonNegativeNumber("--shard-overlap", 0);
    if (const auto s = a.text("--binary-combine")) {
        try {
            o.binaryCombine = parseBinaryCombine(*s);
        } catch (const Error& e) {
            Args::fail("--binary-combine", e.what());
        }
    }
    o.shuffleShards = !a.flag("--no-shuffle-shards");
    o.regressionFallbackToShards = a.flag("--regression-fallback");
    o.seed = config.seed;
    o.batchSize = config.batchSize;
    o.optimizerSlots = slotsPerParam(config.optimizer.kind, config.optimizer.momentum);
    o.epochs = config.epochs;
    if (!a.flag("--reference")) return o;
    for (const char* knob : {"--combine", "--other-share", "--scale-epochs", "--binary-combine", "--shard-overlap"})
        if (a.has(knob)) Args::fail(knob, "contradicts --reference, which sets the reference's exact method");
    return withReferenceChoices(o);
}

SplitOptions fitSplitOptions(const Args& a, const SplitOptions& options, Task task) {
    // The planner refuses "other" with another strategy too, but here it is the option's fault.
    const Strategy used = resolveStrategy(options.strategy, task);
    if (a.has("--other-share") && used != Strategy::ClassGroups)
        Args::fail("--other-share", "only applies to the class-groups strategy, this plan uses " +
                                        (options.ensemble ? std::string(ensembleStrategyName) : strategyName(used)));
    // Output split may still fall back to data shards; the planner refuses it if it does not.
    const bool mayShard = (used == Strategy::DataShards && !options.ensemble) ||
                          (used == Strategy::OutputSplit && options.regressionFallbackToShards);
    if (a.has("--shard-overlap") && !mayShard)
        Args::fail("--shard-overlap",
                   "only applies to the data-shards strategy, " +
                       (options.ensemble ? std::string("the ensemble already trains every submodel on every row")
                                         : "this plan uses " + strategyName(used)));
    return withOtherShareFor(options, task);  // the default share, where it does not apply
}

void checkSplitOptionsUsed(const Args& a, const SplitOptions& options, const SplitPlan& plan) {
    const std::string used = "this plan uses " + planStrategyName(plan);
    const bool shards = plan.strategy == Strategy::BinaryShards ||
                        (plan.strategy == Strategy::DataShards && !plan.ensemble);
    if (a.has("--combine") && plan.strategy != Strategy::ClassGroups)
        Args::fail("--combine", "only applies to the class-groups strategy, " + used);
    if (a.has("--binary-combine") && plan.strategy != Strategy::BinaryShards)
        Args::fail("--binary-combine", "only applies to the binary-shards strategy, " + used);
    if (a.has("--shard-factor") && plan.strategy != Strategy::DataShards)
        Args::fail("--shard-factor", "only applies to the data-shards and ensemble strategies, " + used);
    if (a.has("--no-shuffle-shards") && !shards)
        Args::fail("--no-shuffle-shards", "only applies to the binary-shards and data-shards strategies, " + used);
    const bool outputSplitAsked = options.strategy == Strategy::Auto || options.strategy == Strategy::OutputSplit;
    if (a.has("--regression-fallback") && !(predictsValues(plan.task) && outputSplitAsked))
        Args::fail("--regression-fallback",
                   "only applies to the output-split strategy of a regression or reconstruction task, " + used);
}

}  // namespace skynnet::cli
