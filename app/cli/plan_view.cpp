#include "plan_view.h"

#include <cstdio>
#include <numeric>

#include "split/thread_backend.h"
#include "text_format.h"

namespace skynnet::cli {
namespace {

// "0-3,7-9": ascending indices as runs.
std::string ranges(const std::vector<int>& items) {
    std::string s;
    for (std::size_t i = 0; i < items.size();) {
        std::size_t j = i;
        while (j + 1 < items.size() && items[j + 1] == items[j] + 1) ++j;
        s += (s.empty() ? "" : ",") + std::to_string(items[i]);
        if (j > i) s += "-" + std::to_string(items[j]);
        i = j + 1;
    }
    return s;
}

int allOutputs(const SplitPlan& plan) {
    // Binary data answers for its 2 classes through one sigmoid column.
    return plan.task == Task::Binary ? 2 : plan.outputs;
}

std::string ownedText(const SplitPlan& plan, const std::vector<int>& owned) {
    const std::string count = " (" + std::to_string(owned.size()) + ")";
    if (int(owned.size()) == allOutputs(plan)) return "all" + count;
    return ranges(owned) + count;
}

using Row = std::vector<std::string>;

Row figures(const std::string& name, const std::string& owned, const std::string& samples, const NetworkSpec& spec,
            std::int64_t params, std::int64_t flops, std::int64_t memory) {
    return {name,
            owned,
            samples,
            spec.widthsSummary(),
            std::to_string(params),
            format("%.3g", double(flops) / 1e6),
            memoryText(memory)};
}

Json specJson(const NetworkSpec& spec, std::int64_t params, std::int64_t flops, std::int64_t memory) {
    return Json::object({{"widths", spec.widthsSummary()},
                         {"layers", formatLayers(spec.layers)},
                         {"params", params},
                         {"flops_per_sample", flops},
                         {"memory_bytes", memory}});
}

}  // namespace

std::string samplesText(const SplitPlan& plan, int index) {
    const SubmodelPlan& s = plan.submodels[std::size_t(index)];
    const std::string all = std::to_string(s.rows.size());
    if (plan.shardOverlap > 0) return all + " (" + std::to_string(s.overlapRows) + " overlap)";
    return plan.otherShare > 0 ? all + " (" + std::to_string(s.otherRows) + " other)" : all;
}

std::string ownedSummary(const SplitPlan& plan, int index) { return ownedText(plan, ownedOutputs(plan, index)); }

std::vector<int> ownedOutputs(const SplitPlan& plan, int index) {
    const SubmodelPlan& s = plan.submodels[std::size_t(index)];
    std::vector<int> all;
    switch (plan.strategy) {
    case Strategy::ClassGroups: return s.classes;
    case Strategy::OutputSplit:
        all.resize(std::size_t(s.columnEnd - s.columnBegin));
        std::iota(all.begin(), all.end(), s.columnBegin);
        return all;
    case Strategy::BinaryShards:
    case Strategy::DataShards:
    case Strategy::Auto: break;  // a shard owns every output
    }
    all.resize(std::size_t(allOutputs(plan)));
    std::iota(all.begin(), all.end(), 0);
    return all;
}

std::string planTable(const SplitPlan& plan, int threads, const std::string& placement) {
    const int s = plan.submodelCount();
    std::string head = planStrategyName(plan) + ": N=" + std::to_string(plan.requested) +
                       " gives S=" + std::to_string(s) + " submodel" + (s == 1 ? "" : "s") +
                       ", F=" + format("%.4g", plan.factor);
    if (!plan.groupClasses.empty()) {
        head += ", " + std::to_string(plan.groups) + " class groups";
        for (std::size_t g = 0; g < plan.groupClasses.size(); ++g)
            head += (g ? " | " : " ") + ranges(plan.groupClasses[g]);
    }
    if (plan.strategy == Strategy::BinaryShards) head += ", combined by " + binaryCombineName(plan.binaryCombine);
    if (plan.strategy == Strategy::ClassGroups) {
        head += ", combined by " + classRuleDescription(plan.rule());
        if (plan.otherShare > 0) head += " (other share " + format("%.4g", plan.otherShare) + ")";
    }
    if (plan.shardOverlap > 0) head += ", shard overlap " + format("%.4g", plan.shardOverlap);
    head += "\nepochs " + std::to_string(plan.epochs);
    if (plan.epochsScaled())
        head += ", " + std::to_string(plan.effectiveEpochs) + " per submodel (divided by " +
                (plan.epochScaling == EpochScaling::Sqrt ? "sqrt(F)" : "F") + ")";
    else head += " per submodel (not scaled)";
    const std::vector<int> kernels = ThreadBackend::kernelThreadsPerWorker(s, threads);
    if (!placement.empty()) head += "; " + placement + "\n\n";
    else
        head += "; " + std::to_string(kernels.size()) + " worker" + (kernels.size() == 1 ? "" : "s") + " on " +
                std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") + "\n\n";

    const bool regression = predictsValues(plan.task);
    std::vector<Row> rows = {
        {"model", regression ? "outputs" : "classes", "samples", "widths", "params", "MFLOP/sample", "memory"}};
    std::vector<int> every(std::size_t(allOutputs(plan)));
    std::iota(every.begin(), every.end(), 0);
    rows.push_back(figures("original", ownedText(plan, every), std::to_string(plan.samples), plan.original,
                           plan.originalParams, plan.originalFlopsPerSample, plan.originalMemoryBytes));
    for (const SubmodelPlan& m : plan.submodels)
        rows.push_back(figures("submodel " + std::to_string(m.index + 1), ownedText(plan, ownedOutputs(plan, m.index)),
                               samplesText(plan, m.index), m.spec, m.params, m.flopsPerSample, m.memoryBytes));
    std::string out = head + alignedTable(rows, {0, 1, 3});
    for (const std::string& w : plan.warnings) out += "warning: " + w + "\n";
    return out;
}

Json planJson(const SplitPlan& plan, int threads) {
    Json groups = Json::array();
    for (const auto& g : plan.groupClasses) groups.push_back(Json(g));
    const std::vector<int> kernels = ThreadBackend::kernelThreadsPerWorker(plan.submodelCount(), threads);
    Json j = Json::object({{"strategy", planStrategyName(plan)},
                           {"task", taskName(plan.task)},
                           {"N", plan.requested},
                           {"S", plan.submodelCount()},
                           {"F", plan.factor},
                           {"groups", groups},
                           {"epochs", plan.epochs},
                           {"submodel_epochs", plan.effectiveEpochs},
                           {"epochs_scaled", plan.epochsScaled()},
                           {"epoch_scaling", epochScalingName(plan.epochScaling)},
                           {"samples", plan.samples},
                           {"workers", kernels.size()},
                           {"kernel_threads", kernels}});
    if (plan.strategy == Strategy::BinaryShards) j["binary_combine"] = binaryCombineName(plan.binaryCombine);
    if (plan.strategy == Strategy::ClassGroups) {
        j["combine"] = classCombineName(plan.classCombine);
        j["other_share"] = plan.otherShare;  // 0: no "other" output
    }
    const bool shards = plan.strategy == Strategy::DataShards && !plan.ensemble;
    if (shards) j["shard_overlap"] = plan.shardOverlap;  // 0: disjoint shards
    Json original = specJson(plan.original, plan.originalParams, plan.originalFlopsPerSample, plan.originalMemoryBytes);
    original["samples"] = plan.samples;
    j["original"] = original;
    Json subs = Json::array();
    const char* owned = predictsValues(plan.task) ? "outputs" : "classes";
    for (const SubmodelPlan& m : plan.submodels) {
        Json s = Json::object({{"index", m.index + 1},
                               {"role", m.role},
                               {owned, ownedOutputs(plan, m.index)},
                               {"samples", m.rows.size()}});
        if (plan.strategy == Strategy::ClassGroups) s["other_samples"] = m.otherRows;  // of those samples
        if (shards) s["overlap_samples"] = m.overlapRows;  // of those samples, from the other shards
        const Json figures = specJson(m.spec, m.params, m.flopsPerSample, m.memoryBytes);
        for (const auto& [key, value] : figures.items()) s[key] = value;
        subs.push_back(std::move(s));
    }
    j["submodels"] = subs;
    j["warnings"] = plan.warnings;
    return j;
}

}  // namespace skynnet::cli
