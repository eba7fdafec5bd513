#include "split/split_plan.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.h"
#include "core/rng.h"
#include "data/dataset.h"
#include "split/head_widths.h"
#include "split/plan_builders.h"

namespace skynnet {
namespace {

// The reference's guidance keeps the epochs of conv nets: convolutions and the pooling that
// belongs to them answer false (visitLayer() takes no catch-all, so a new kind must answer too).
bool denseOnly(const NetworkSpec& spec) {
    return std::all_of(spec.layers.begin(), spec.layers.end(), [](const LayerSpec& l) {
        return visitLayer(
            l, [](const DenseSpec&) { return true; }, [](const DropoutSpec&) { return true; },
            [](const FlattenSpec&) { return true; }, [](const ConvSpec&) { return false; },
            [](const MaxPoolSpec&) { return false; }, [](const AvgPoolSpec&) { return false; },
            [](const GlobalAvgPoolSpec&) { return false; }, [](const BatchNormSpec&) { return true; },
            [](const ActivationSpec&) { return true; }, [](const EmbeddingSpec&) { return false; },
            [](const GruSpec&) { return false; }, [](const LstmSpec&) { return false; },
            [](const SeqPoolSpec&) { return false; }, [](const PatchSpec&) { return false; },
            [](const LayerNormSpec&) { return false; }, [](const AttentionSpec&) { return false; },
            [](const EncoderSpec&) { return false; });
    });
}

void requireTask(Strategy s, Task task) {
    const auto refuse = [&](const char* needs, const char* instead) {
        throw Error("the " + strategyName(s) + " strategy needs " + needs + ", this dataset's task is " +
                    taskName(task) + " (use " + instead + ")");
    };
    // What the task's own strategy is, to suggest it beside data-shards (which suits every task).
    const auto instead = [&] {
        switch (task) {
        case Task::Classification: return "class-groups or data-shards";
        case Task::Binary: return "binary-shards or data-shards";
        case Task::Regression:
        case Task::Reconstruction: return "output-split or data-shards";
        }
        return "data-shards";
    };
    switch (s) {
    case Strategy::ClassGroups:
        // Reconstruction has no classes to group: the inputs are the targets.
        if (task != Task::Classification) refuse("a multiclass classification task", instead());
        break;
    case Strategy::BinaryShards:
        if (task != Task::Binary) refuse("a binary task", instead());
        break;
    case Strategy::OutputSplit:
        if (!predictsValues(task)) refuse("a regression or reconstruction task", instead());
        break;
    case Strategy::DataShards:
    case Strategy::Auto: break;  // any task; auto is resolved before this
    }
}

void validate(const DataInfo& data, const SplitOptions& o) {
    if (o.requested < 1) throw Error("number of submodels N=" + std::to_string(o.requested) + ": must be at least 1");
    if (o.batchSize < 1) throw Error("batch size " + std::to_string(o.batchSize) + ": must be at least 1");
    if (o.optimizerSlots < 0) throw Error("optimizer slots must not be negative");
    if (o.epochs < 0) throw Error("epochs " + std::to_string(o.epochs) + ": must not be negative");
    if (!(o.otherShare >= 0) || !std::isfinite(o.otherShare))
        throw Error("other share " + detail::formatNumber(o.otherShare) +
                    ": must be a number of at least 0 (0 turns the 'other' output off)");
    if (!(o.shardOverlap >= 0) || !std::isfinite(o.shardOverlap))
        throw Error("shard overlap " + detail::formatNumber(o.shardOverlap) +
                    ": must be a number of at least 0 (0 keeps the shards disjoint)");
    if (data.samples < 1) throw Error("no training samples to split");
    switch (data.task) {
    case Task::Regression:
        if (data.targetColumns < 1) throw Error("a regression dataset needs at least one target column");
        return;  // no labels to check
    case Task::Reconstruction:
        if (data.targetColumns < 1) throw Error("a reconstruction dataset needs at least one input column");
        return;  // its outputs are its inputs
    case Task::Binary:
        if (data.classCount != 2)
            throw Error("a binary task needs exactly 2 classes, the data declares " + std::to_string(data.classCount));
        break;
    case Task::Classification: break;
    }
    if (long(data.labels.size()) != data.samples)
        throw Error(std::to_string(data.labels.size()) + " labels for " + std::to_string(data.samples) + " samples");
    for (std::size_t i = 0; i < data.labels.size(); ++i)
        if (data.labels[i] < 0 || data.labels[i] >= data.classCount)
            throw Error("sample " + std::to_string(i + 1) + " has label " + std::to_string(data.labels[i]) +
                        " outside the " + std::to_string(data.classCount) + " declared classes");
}

// The original model's outputs: one per class, one probability, or one per target column.
int taskOutputs(const DataInfo& data) {
    switch (data.task) {
    case Task::Classification: return data.classCount;
    case Task::Binary: return 1;
    case Task::Regression:
    case Task::Reconstruction: return data.targetColumns;
    }
    return data.targetColumns;
}

int outputsOf(const SplitPlan& plan, const SubmodelPlan& s) {
    switch (plan.strategy) {
    case Strategy::ClassGroups: return int(s.classes.size()) + (plan.otherShare > 0 ? 1 : 0);  // "other" last
    case Strategy::OutputSplit: return s.columnEnd - s.columnBegin;
    case Strategy::BinaryShards: return 1;
    case Strategy::DataShards:
    case Strategy::Auto: break;
    }
    return plan.outputs;
}

// Data shards only: binary shards keep the reference's disjoint halves, class groups and output
// split choose their rows by class or see them all, and every ensemble member sees every row.
void refuseOverlapUnlessShards(const SplitPlan& plan) {
    if (plan.shardOverlap <= 0 || (plan.strategy == Strategy::DataShards && !plan.ensemble)) return;
    throw Error("shard overlap " + detail::formatNumber(plan.shardOverlap) + ": only for the data-shards strategy, " +
                (plan.ensemble ? std::string("the ensemble already trains every submodel on every row")
                               : "this plan uses " + planStrategyName(plan)));
}

}  // namespace

namespace detail {

int addBorrowedRows(SubmodelPlan& s, std::vector<int> candidates, double share, std::uint64_t seed,
                    std::uint64_t stream) {
    const double wanted = std::round(share * double(s.rows.size()));
    const std::size_t n = wanted >= double(candidates.size()) ? candidates.size() : std::size_t(wanted);
    Rng rng = Rng(seed).split(stream).split(std::uint64_t(s.index));
    for (std::size_t i = 0; i < n; ++i)
        std::swap(candidates[i], candidates[i + std::size_t(rng.below(std::uint64_t(candidates.size() - i)))]);
    s.rows.insert(s.rows.end(), candidates.begin(), candidates.begin() + std::ptrdiff_t(n));
    std::sort(s.rows.begin(), s.rows.end());  // ascending, as every plan's rows
    return int(n);
}

std::string formatNumber(double value) {
    std::ostringstream s;
    s.precision(4);
    s << value;
    return s.str();
}

void requireTwoClassesEach(const SplitPlan& plan, const DataInfo& data, const std::string& what,
                           const std::string& remedy) {
    if (predictsValues(data.task)) return;
    for (const SubmodelPlan& s : plan.submodels) {
        if (s.rows.empty()) continue;  // the builders refuse or report a submodel without rows themselves
        const int first = data.labels[std::size_t(s.rows.front())];
        if (std::any_of(s.rows.begin(), s.rows.end(), [&](int r) { return data.labels[std::size_t(r)] != first; }))
            continue;
        throw Error(what + ": submodel " + std::to_string(s.index + 1) + " (" + s.role +
                    ") has training rows of class " + data.className(first) +
                    " only, so it cannot learn to tell classes apart (" + remedy + ")");
    }
}

}  // namespace detail

namespace {

DataInfo infoOf(const Dataset& data, long samples) {
    DataInfo d;
    d.task = data.task;
    d.classCount = data.classCount();
    d.classNames = data.classNames;
    // Reconstruction: one output per input column (its targets are its features).
    d.targetColumns = predictsValues(data.task) ? data.outputCount() : 0;
    d.samples = samples;
    return d;
}

}  // namespace

DataInfo DataInfo::of(const Dataset& train) {
    DataInfo d = infoOf(train, long(train.size()));
    d.labels = train.labels;
    return d;
}

DataInfo DataInfo::of(const Dataset& data, const std::vector<int>& rows) {
    DataInfo d = infoOf(data, long(rows.size()));
    if (!predictsValues(data.task)) {
        d.labels.reserve(rows.size());
        for (int row : rows) d.labels.push_back(data.labels[std::size_t(row)]);
    }
    return d;
}

std::string DataInfo::className(int c) const {
    const std::string index = std::to_string(c);
    if (c < 0 || c >= int(classNames.size()) || classNames[std::size_t(c)].empty()) return index;
    const std::string& name = classNames[std::size_t(c)];
    return name == index ? index : "'" + name + "' (" + index + ")";  // a label "2" of class 2 says it once
}

SplitOptions withReferenceChoices(SplitOptions o) {
    o.classCombine = ClassCombine::Product;
    o.otherShare = 0;
    o.scaleEpochs = EpochScaling::On;
    o.binaryCombine = BinaryCombine::MostConfident;
    o.shuffleShards = false;
    o.shardOverlap = 0;
    return o;
}

SplitOptions withMeasuredDefaults(SplitOptions o) {
    o.classCombine = ClassCombine::Stacked;
    o.otherShare = measuredOtherShare;
    o.scaleEpochs.reset();  // automatic: by the network and task (makePlan)
    return o;
}

SplitOptions withOtherShareFor(SplitOptions o, Task task) {
    if (resolveStrategy(o.strategy, task) != Strategy::ClassGroups) o.otherShare = 0;
    return o;
}

std::string epochScalingName(EpochScaling s) {
    switch (s) {
    case EpochScaling::Off: return "off";
    case EpochScaling::On: return "on";
    case EpochScaling::Sqrt: return "sqrt";
    }
    return "off";
}

EpochScaling parseEpochScaling(const std::string& name) {
    for (EpochScaling s : {EpochScaling::On, EpochScaling::Off, EpochScaling::Sqrt})
        if (name == epochScalingName(s)) return s;
    throw Error("unknown epoch scaling '" + name + "' (expected on, off or sqrt)");
}

Strategy resolveStrategy(Strategy requested, Task task) {
    if (requested != Strategy::Auto) return requested;
    switch (task) {
    case Task::Classification: return Strategy::ClassGroups;
    case Task::Binary: return Strategy::BinaryShards;
    case Task::Regression:
    case Task::Reconstruction: return Strategy::OutputSplit;
    }
    return Strategy::DataShards;
}

std::string planStrategyName(const SplitPlan& plan) {
    return plan.ensemble ? ensembleStrategyName : strategyName(plan.strategy);
}

int shrinkWidth(int width, double factor) {
    // F is g/2 or sqrt(N): a quotient that should be whole may land a hair above it.
    return int(std::ceil(double(width) / factor - 1e-9));
}

NetworkSpec shrinkSpec(const NetworkSpec& original, double factor, Task task, int outputs) {
    NetworkSpec spec = original;
    // Dense units, conv filters, recurrent units, embedding and patch dimensions and encoders' MLP
    // widths shrink (method.md §1); every
    // other kind follows the shape before it, and a dense layer after a flatten takes the smaller
    // input as it comes.
    const auto shrink = [&](std::size_t i, const char* what, int& width) {
        const int w = shrinkWidth(width, factor);
        if (w < 2 && w < width) {
            throw Error("layer " + std::to_string(i + 1) + " (" + description(original.layers[i]) + "): " + what + " " +
                        std::to_string(width) + " / F=" + detail::formatNumber(factor) + " rounds up to " +
                        std::to_string(w) + ", below the minimum width of 2 (widen the layer, mark it not scalable, " +
                        "or request fewer submodels)");
        }
        width = w;
    };
    for (std::size_t i = 0; i < spec.layers.size(); ++i)
        visitLayer(
            spec.layers[i],
            [&](DenseSpec& l) {
                if (l.scalable) shrink(i, "width", l.units);
            },
            [&](ConvSpec& l) {
                if (l.scalable) shrink(i, "filters", l.filters);
            },
            [](DropoutSpec&) {}, [](FlattenSpec&) {}, [](MaxPoolSpec&) {}, [](AvgPoolSpec&) {},
            [](GlobalAvgPoolSpec&) {}, [](BatchNormSpec&) {}, [](ActivationSpec&) {},
            [&](EmbeddingSpec& l) {
                if (l.scalable) shrink(i, "dimension", l.dim);
            },
            [&](GruSpec& l) {
                if (l.scalable) shrink(i, "units", l.units);
            },
            [&](LstmSpec& l) {
                if (l.scalable) shrink(i, "units", l.units);
            },
            [](SeqPoolSpec&) {},
            [&](PatchSpec& l) {
                if (l.scalable) shrink(i, "dimension", l.dim);
            },
            [&](EncoderSpec& l) {
                if (l.scalable) shrink(i, "MLP width", l.mlp);
            },
            [](LayerNormSpec&) {}, [](AttentionSpec&) {});
    fitTokenWidthsToHeads(spec, original);  // every head keeps width / heads dimensions
    spec.setOutputFor(task, outputs);
    return spec;
}

std::uint64_t submodelSeed(std::uint64_t base, int index) { return Rng(base).split(std::uint64_t(index)).next(); }

CombinationRule SplitPlan::rule() const {
    CombinationRule r;
    r.strategy = strategy;
    r.task = task;
    r.outputs = outputs;
    r.binaryCombine = binaryCombine;
    if (strategy == Strategy::ClassGroups) {
        r.classCombine = classCombine;
        r.otherOutput = otherShare > 0;
    }
    for (const auto& s : submodels) {
        switch (strategy) {
        case Strategy::ClassGroups: r.classes.push_back(s.classes); break;
        case Strategy::OutputSplit: r.columns.emplace_back(s.columnBegin, s.columnEnd); break;
        case Strategy::BinaryShards:
        case Strategy::DataShards:
        case Strategy::Auto: break;  // a shard owns every output
        }
    }
    return r;
}

SplitPlan makePlan(const NetworkSpec& original, const Dataset& train, const SplitOptions& options) {
    return makePlan(original, DataInfo::of(train), options);
}

SplitPlan makePlan(const NetworkSpec& original, const DataInfo& data, const SplitOptions& options) {
    validate(data, options);
    SplitPlan plan;
    plan.task = data.task;
    plan.requested = options.requested;
    plan.binaryCombine = options.binaryCombine;
    plan.classCombine = options.classCombine;
    plan.samples = data.samples;
    plan.seed = options.seed;
    plan.outputs = taskOutputs(data);
    plan.strategy = resolveStrategy(options.strategy, data.task);
    requireTask(plan.strategy, data.task);
    if (options.ensemble && plan.strategy != Strategy::DataShards)
        throw Error("the ensemble is planned as data shards, not as " + strategyName(plan.strategy));
    plan.ensemble = options.ensemble;
    if (options.otherShare > 0 && plan.strategy != Strategy::ClassGroups)
        throw Error("other share " + detail::formatNumber(options.otherShare) +
                    ": the 'other' output is only for the class-groups strategy, this plan uses " +
                    planStrategyName(plan));
    plan.otherShare = options.otherShare;
    plan.shardOverlap = options.shardOverlap;
    // Before planning where that says it already; output split may still fall back to data shards.
    if (plan.strategy != Strategy::OutputSplit) refuseOverlapUnlessShards(plan);
    switch (plan.strategy) {
    case Strategy::ClassGroups: detail::planClassGroups(plan, data, options); break;
    case Strategy::BinaryShards: detail::planBinaryShards(plan, data, options); break;
    case Strategy::OutputSplit: detail::planOutputSplit(plan, data, options); break;
    case Strategy::DataShards:
    case Strategy::Auto:
        if (options.ensemble) detail::planEnsemble(plan, data, options, original);
        else detail::planDataShards(plan, data, options);
        break;
    }
    refuseOverlapUnlessShards(plan);

    plan.original = original;
    plan.original.setOutputFor(data.task, plan.outputs);
    plan.originalParams = paramCount(plan.original);
    plan.originalFlopsPerSample = flopsPerSample(plan.original);
    plan.originalMemoryBytes = trainingMemoryBytes(plan.original, options.batchSize, options.optimizerSlots);
    for (auto& s : plan.submodels) {
        try {
            s.spec = shrinkSpec(original, plan.factor, data.task, outputsOf(plan, s));
        } catch (const Error& e) {
            throw Error(planStrategyName(plan) + " with N=" + std::to_string(options.requested) + ": " + e.what());
        }
        s.seed = submodelSeed(options.seed, s.index);
        s.params = paramCount(s.spec);
        s.flopsPerSample = flopsPerSample(s.spec);
        s.memoryBytes = trainingMemoryBytes(s.spec, options.batchSize, options.optimizerSlots);
    }

    // Rounded up, and never to zero: dividing 3 epochs by F=2.5 still trains one full pass.
    plan.epochs = options.epochs;
    // Automatic: epochs / sqrt(F) for classes (several or two) with dense layers only, where issue
    // 28's study measured it best; conv nets and values keep their epochs, as the reference's
    // guidance says and the study confirmed (README, "Combination rules, the 'other' output and
    // epoch scaling").
    const bool classes = data.task == Task::Classification || data.task == Task::Binary;
    plan.epochScaling = options.scaleEpochs.value_or(classes && denseOnly(original) ? EpochScaling::Sqrt
                                                                                    : EpochScaling::Off);
    plan.effectiveEpochs = plan.epochs;
    const double divisor = plan.epochScaling == EpochScaling::On     ? plan.factor
                           : plan.epochScaling == EpochScaling::Sqrt ? std::sqrt(plan.factor)
                                                                     : 1.0;
    if (plan.epochs > 0) plan.effectiveEpochs = std::max(1, int(std::ceil(double(plan.epochs) / divisor - 1e-9)));
    return plan;
}

std::string planSummary(const SplitPlan& plan) {
    std::ostringstream s;
    const auto mb = [](std::int64_t bytes) { return detail::formatNumber(double(bytes) / 1e6) + " MB"; };
    s << planStrategyName(plan) << ": N=" << plan.requested << " gives S=" << plan.submodelCount() << " submodel"
      << (plan.submodelCount() == 1 ? "" : "s") << ", F=" << detail::formatNumber(plan.factor);
    if (plan.groups > 0) s << ", " << plan.groups << " groups";
    s << ", epochs " << plan.epochs;
    if (plan.effectiveEpochs != plan.epochs) s << " -> " << plan.effectiveEpochs;
    s << "\noriginal: " << plan.original.widthsSummary() << ", " << plan.originalParams << " params, "
      << plan.originalFlopsPerSample << " FLOPs/sample, " << mb(plan.originalMemoryBytes) << "\n";
    for (const auto& m : plan.submodels)
        s << "submodel " << m.index + 1 << " (" << m.role << "): " << m.spec.widthsSummary() << ", " << m.params
          << " params, " << m.flopsPerSample << " FLOPs/sample, " << mb(m.memoryBytes) << ", " << m.rows.size()
          << " samples" << (m.otherRows > 0 ? " (" + std::to_string(m.otherRows) + " other)" : "")
          << (m.overlapRows > 0 ? " (" + std::to_string(m.overlapRows) + " overlap)" : "") << "\n";
    for (const auto& w : plan.warnings) s << "warning: " << w << "\n";
    return s.str();
}

}  // namespace skynnet
