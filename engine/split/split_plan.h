#pragma once
// The split plan: which strategy, how many submodels (S), the reduction factor (F), and for every
// submodel its shrunk network, the classes or target columns it owns and the training rows it sees.
// Every invalid request is refused here, before any training starts, with an Error naming the
// layer or option at fault. Rules: /work/shared/design/method.md.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/task.h"
#include "spec/network_spec.h"
#include "split/combination.h"
#include "split/strategy.h"

namespace skynnet {

struct Dataset;

// How each submodel's epochs follow from the original's: the same (off), divided by F as the
// reference does (on), or divided by sqrt(F) (sqrt), a middle point of the trade between the
// submodels' training time and the combined model's accuracy. Rounded up, never below 1.
enum class EpochScaling { Off, On, Sqrt };
std::string epochScalingName(EpochScaling s);  // "off", "on", "sqrt"
// The inverse; throws Error naming the value and listing the accepted ones.
EpochScaling parseEpochScaling(const std::string& name);

struct SplitOptions {
    Strategy strategy = Strategy::Auto;  // auto: class-groups, binary-shards or output-split by task
    int requested = 2;                   // N, the number of submodels asked for
    // Divide the epochs by F as the reference does, by sqrt(F), or not. Unset (automatic): sqrt for
    // classes (several or two) with a dense-only network, off otherwise (method.md §1 keeps the
    // epochs of conv nets and regression; sqrt, not F, and binary too, as issue 28 measured).
    std::optional<EpochScaling> scaleEpochs;
    std::optional<double> dataShardFactor;  // F for data shards; unset: sqrt(N)
    bool shuffleShards = true;              // off: shards are contiguous blocks in file order (reference)
    BinaryCombine binaryCombine = BinaryCombine::MostConfident;
    ClassCombine classCombine = ClassCombine::Product;  // class groups (class_group_rules.h)
    // Class groups: above 0, every submodel gets one more output, "other", and learns it from a
    // seeded sample of round(otherShare x its own rows) rows of the classes it does not own
    // (method.md §6). 0 is off; negative is refused, and so is above 0 with another strategy.
    double otherShare = 0;
    // Data shards: above 0, every submodel also learns from a seeded sample of
    // round(shardOverlap x its shard's rows) rows of the other shards, drawn without replacement
    // (bagging-like: disjoint shards starve small data). 0 is today's disjoint shards; at most
    // N - 1, where every submodel sees every row; refused with another strategy or the ensemble.
    double shardOverlap = 0;
    bool regressionFallbackToShards = false;  // fewer target columns than N: data shards instead of an error
    // With the data-shards strategy: the plain ensemble instead (plan_ensemble.cpp), N thin networks
    // that each learn the whole task from ALL the rows. Not the Skynnet method: the fair alternative
    // it is compared with. Its F defaults to the one that gives the task's own split's total
    // parameters (dataShardFactor sets it). Combined, saved and exported as data shards (the mean).
    bool ensemble = false;
    std::uint64_t seed = 1;  // shard shuffle and submodel initial weights
    int batchSize = 128;     // for the memory estimate
    int optimizerSlots = 2;  // for the memory estimate (2 for Adam)
    int epochs = 10;         // of the original model, before any scaling
    bool operator==(const SplitOptions&) const = default;
};

// What the planner needs to know about the training data (no features: a preview stays cheap).
struct DataInfo {
    Task task = Task::Classification;
    int classCount = 0;                   // declared classes (classification, binary)
    std::vector<std::string> classNames;  // optional, for messages
    int targetColumns = 0;                // regression; reconstruction: the input columns
    std::vector<int> labels;              // training label per sample (classification, binary)
    long samples = 0;

    static DataInfo of(const Dataset& train);
    // The training rows `rows` of `data` (raw, all rows): the schema and those rows' labels, no
    // features touched, so a preview of a large set stays cheap.
    static DataInfo of(const Dataset& data, const std::vector<int>& rows);
    std::string className(int c) const;  // "'cat' (3)" or "3"
};

struct SubmodelPlan {
    int index = 0;  // 0-based; messages say "submodel index+1"
    NetworkSpec spec;
    std::vector<int> classes;            // class groups: owned global classes, ascending (local k -> classes[k])
    int columnBegin = 0, columnEnd = 0;  // output split: owned target columns [begin, end)
    std::vector<int> rows;               // training rows it learns from (indices into the training set), ascending
    int otherRows = 0;                   // class groups with "other": how many of `rows` are of classes it does not own
    int overlapRows = 0;                 // data shards with overlap: how many of `rows` are from the other shards
    std::string role;                    // "groups 1+2: classes 0-6", "shard 2 of 4", "columns 4-6"
    std::uint64_t seed = 0;              // initial weights
    std::int64_t params = 0, flopsPerSample = 0, memoryBytes = 0;
};

struct SplitPlan {
    Strategy strategy = Strategy::ClassGroups;  // the strategy used (never Auto)
    Task task = Task::Classification;
    int requested = 1;                           // N
    double factor = 1;                           // F
    int groups = 0;                              // g (class groups only)
    std::vector<std::vector<int>> groupClasses;  // the g groups (class groups only)
    int epochs = 0;                              // asked for the original model
    int effectiveEpochs = 0;                     // what each submodel trains
    EpochScaling epochScaling = EpochScaling::Off;
    bool epochsScaled() const { return epochScaling != EpochScaling::Off; }
    BinaryCombine binaryCombine = BinaryCombine::MostConfident;
    ClassCombine classCombine = ClassCombine::Product;
    double otherShare = 0;    // class groups: SplitOptions::otherShare; above 0 every submodel has "other"
    double shardOverlap = 0;  // data shards: SplitOptions::shardOverlap; above 0 the shards share rows
    bool ensemble = false;    // strategy data-shards as the plain ensemble (SplitOptions::ensemble)
    int outputs = 1;          // combined output columns
    long samples = 0;
    std::uint64_t seed = 1;
    NetworkSpec original;  // the designed network, its output layer set for the task (the baseline)
    std::int64_t originalParams = 0, originalFlopsPerSample = 0, originalMemoryBytes = 0;
    std::vector<SubmodelPlan> submodels;  // S of them
    std::vector<std::string> warnings;    // shown in the preview, e.g. "N=4 gives 3 submodels (3 groups)"

    int submodelCount() const { return int(submodels.size()); }
    CombinationRule rule() const;
};

// The published tool's exact choices (method.md): the product rule without an "other" output,
// epochs divided by F, binary and data shards in file order without overlap, the most confident
// binary answer.
// N, the strategy and the rest of `options` are kept.
SplitOptions withReferenceChoices(SplitOptions options);

// The choices issue 28's study measured best (README, "Combination rules, the 'other' output and
// epoch scaling"): the stacked rule, an "other" share of 0.3 for class groups, and the automatic
// epoch scaling. The command line and new projects start from them. SplitOptions{} keeps the
// product and no "other", so files written before read with the rule they were written with.
// N, the strategy and the rest of `options` are kept.
inline constexpr double measuredOtherShare = 0.3;
SplitOptions withMeasuredDefaults(SplitOptions options);
// The "other" share belongs to class groups: set as a default before the task was known (or kept
// by a project whose data changed task), it is dropped for a plan that resolves to another
// strategy instead of being refused by makePlan().
SplitOptions withOtherShareFor(SplitOptions options, Task task);

SplitPlan makePlan(const NetworkSpec& original, const DataInfo& data, const SplitOptions& options);
SplitPlan makePlan(const NetworkSpec& original, const Dataset& train, const SplitOptions& options);
// The strategy makePlan() uses: the requested one, or for auto the task's own (class-groups,
// binary-shards, output-split).
Strategy resolveStrategy(Strategy requested, Task task);
// The name of the plan's strategy for people and reports: strategyName(), or "ensemble".
inline constexpr const char* ensembleStrategyName = "ensemble";
std::string planStrategyName(const SplitPlan& plan);

// The network with every scalable Dense width w made ceil(w / F) and the output layer set for the
// task with `outputs` units. Throws Error naming the layer whose width would fall below 2.
NetworkSpec shrinkSpec(const NetworkSpec& original, double factor, Task task, int outputs);
// ceil(width / F), robust to F's rounding (512 / 1.5 is 342, not 343).
int shrinkWidth(int width, double factor);

// Initial-weight seed of submodel `index`; the baseline uses index 0, so a one-submodel plan with
// F = 1 trains exactly the baseline.
std::uint64_t submodelSeed(std::uint64_t base, int index);

// A multi-line human-readable summary for the command line and logs.
std::string planSummary(const SplitPlan& plan);

}  // namespace skynnet
