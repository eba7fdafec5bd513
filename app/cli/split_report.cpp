#include "split_report.h"

#include <algorithm>

#include "io/gemm_routing_file.h"
#include "plan_view.h"
#include "split/plan_totals.h"
#include "text_format.h"
#include "train/metrics.h"

namespace skynnet::cli {
namespace {

Json metricsJson(const EvaluationSummary& s, double loss) {
    Json m = Json::object();
    addMetrics(m, s, "");
    m["loss"] = loss;
    return m;
}

int slowest(const ParallelResult& r) {
    const auto& w = r.submodelWallSeconds;
    return w.empty() ? 0 : int(std::max_element(w.begin(), w.end()) - w.begin());
}

Json submodelJson(const SplitRun& run, int i) {
    const SubmodelPlan& p = run.plan.submodels[std::size_t(i)];
    const TrainResult& t = run.training.submodels[std::size_t(i)];
    Json s = Json::object({{"index", i + 1}, {"role", p.role}});
    s[predictsValues(run.plan.task) ? "outputs" : "classes"] = ownedOutputs(run.plan, i);
    s["train_samples"] = p.rows.size();
    if (run.plan.strategy == Strategy::ClassGroups) s["other_train_samples"] = p.otherRows;  // of train_samples
    if (run.plan.strategy == Strategy::DataShards && !run.plan.ensemble)
        s["overlap_train_samples"] = p.overlapRows;  // of train_samples, from the other shards
    s["layers"] = formatLayers(p.spec.layers);
    s["widths"] = p.spec.widthsSummary();
    s["params"] = p.params;
    s["status"] = statusName(t.status);
    s["epochs_run"] = t.history.size();
    s["train_seconds"] = run.training.submodelWallSeconds[std::size_t(i)];
    s["cpu_seconds"] = run.training.submodelCpuSeconds[std::size_t(i)];
    s["peak_memory_bytes"] = run.submodelPeakBytes(i);
    s["model_bytes"] = t.peakModelBytes;
    s["data_bytes"] = t.dataBytes;
    if (!t.history.empty()) s["train_metric"] = t.history.back().metric;
    if (run.test) {
        // Judged on its own sub-problem of the test part: its classes' samples (every sample, its
        // class or "other", with an "other" output), its columns.
        const SubmodelEvaluation& e = run.test->submodels[std::size_t(i)];
        s["metric"] = e.metric;
        s["metric_samples"] = e.samples;
        s["test_loss"] = e.loss;
    }
    s["history"] = historyJson(t.history);
    return s;
}

// The training wall time on S machines, one submodel each on one core of this machine's speed:
// the plan's cost of the largest submodel, at the CPU seconds per unit of cost this run measured
// over all its submodels (which evens out one submodel's noise). 0 without CPU figures.
double predictedSecondsOnSMachines(const SplitRun& run) {
    return trainingSecondsOnMachines(run.plan, run.training.submodelCpuSeconds);
}

std::string metricLine(const char* who, const std::optional<EvaluationSummary>& s) {
    return std::string(who) + " " +
           (s ? "test " + headline(*s) : "(no test set: --test-fraction 0 and no --test-data)");
}

}  // namespace

Json buildSplitReport(Json r, const SplitRun& run, const RunFigures& figures) {
    const ParallelResult& t = run.training;
    r["mode"] = "split";
    r["plan"] = planJson(run.plan, run.threads);
    r["status"] = statusName(t.status);
    r["metric"] = headlineMetricName(run.plan.task);
    Json subs = Json::array();
    for (int i = 0; i < run.plan.submodelCount(); ++i) subs.push_back(submodelJson(run, i));
    r["submodels"] = subs;

    Json combined = Json::object();
    if (run.testSummary) combined["metrics"] = metricsJson(*run.testSummary, run.test->loss);
    // The rule the combined metrics were computed by, and its options.
    const CombinationRule& rule = t.model.rule();
    if (rule.strategy == Strategy::ClassGroups) {
        combined["combine"] = classCombineName(rule.classCombine);
        combined["other_output"] = rule.otherOutput;
        // The same submodels under every rule, for the study's comparison without retraining.
        if (run.test) {
            Json byRule = Json::object();
            for (const auto& [how, metric] : run.test->metricByRule) byRule[classCombineName(how)] = metric;
            combined["metric_by_rule"] = std::move(byRule);
        }
        combined["other_share"] = run.plan.otherShare;
    } else if (rule.strategy == Strategy::BinaryShards) {
        combined["combine"] = binaryCombineName(rule.binaryCombine);
    } else if (rule.strategy == Strategy::DataShards && !run.plan.ensemble) {
        combined["shard_overlap"] = run.plan.shardOverlap;  // the mean of shards that shared this much
    }
    combined["params"] = t.model.paramCount();
    combined["wall_seconds"] = t.wallSeconds;
    combined["cpu_seconds"] = t.cpuSeconds;  // the submodels' whole trainings, earlier sessions too
    // Of cpu_seconds, what sessions before a resume spent; wall_seconds is this session's alone.
    combined["earlier_cpu_seconds"] = t.earlierCpuSeconds;
    combined["workers"] = t.workers;
    combined["slowest_submodel"] = slowest(t) + 1;
    combined["slowest_submodel_seconds"] = t.submodelWallSeconds.empty()
                                               ? 0.0
                                               : t.submodelWallSeconds[std::size_t(slowest(t))];
    std::int64_t largest = 0;
    for (int i = 0; i < run.plan.submodelCount(); ++i) largest = std::max(largest, run.submodelPeakBytes(i));
    combined["largest_submodel_peak_memory_bytes"] = largest;
    combined["predicted_seconds_on_s_machines"] = predictedSecondsOnSMachines(run);
    r["combined"] = combined;

    if (run.baseline) {
        const BaselineRun& b = *run.baseline;
        Json base = Json::object();
        if (b.test) base["metrics"] = metricsJson(*b.test, b.testLoss);
        base["params"] = b.params;
        base["status"] = statusName(b.result.status);
        base["epochs_run"] = b.result.history.size();
        base["wall_seconds"] = b.result.wallSeconds;
        base["cpu_seconds"] = b.result.cpuSeconds;
        base["peak_memory_bytes"] = b.result.peakBytes();
        base["model_bytes"] = b.result.peakModelBytes;
        base["data_bytes"] = b.result.dataBytes;
        base["history"] = historyJson(b.result.history);
        r["baseline"] = base;
    }
    if (run.testSummary) {
        r["test_loss"] = run.test->loss;
        addMetrics(r, *run.testSummary, "test_");
    }
    r["wall_seconds"] = figures.wallSeconds;
    r["train_seconds"] = t.wallSeconds;
    r["cpu_seconds"] = figures.cpuSeconds;
    r["peak_memory_bytes"] = figures.peakMemoryBytes;
    // Which library ran each product (measured routes or the built-in rules): a resume or a
    // comparison across runs can tell whether the same kernels computed them.
    r["gemm_routes"] = gemmRoutesUsedJson();
    return r;
}

void printSplitSummary(std::ostream& out, const SplitRun& run, const RunFigures& figures) {
    const ParallelResult& t = run.training;
    const std::string metric = headlineMetricName(run.plan.task);
    out << metricLine("combined", run.testSummary) << "\n";
    if (run.baseline) out << metricLine("baseline", run.baseline->test) << "\n";
    const int s = run.plan.submodelCount(), k = slowest(t);
    out << "split training: wall " << fixed(t.wallSeconds, 2) << " s, slowest submodel "
        << fixed(t.submodelWallSeconds[std::size_t(k)], 2) << " s (submodel " << k + 1 << "), cpu "
        << fixed(t.cpuSeconds, 2) << " s (" << s << " submodel" << (s == 1 ? "" : "s") << " on " << t.workers
        << " worker" << (t.workers == 1 ? "" : "s") << ")\n";
    if (t.resumed())
        out << "resumed: " << t.resumedSubmodels << " submodel(s) continued from checkpoints; this session: wall "
            << fixed(t.wallSeconds, 2) << " s, cpu " << fixed(t.sessionCpuSeconds(), 2)
            << " s (the cpu above includes the earlier sessions' " << fixed(t.earlierCpuSeconds, 2)
            << " s; their wall time is not known)\n";
    if (s > 1)
        out << "on " << s << " machines like this one, a submodel each on one core: about "
            << fixed(predictedSecondsOnSMachines(run), 2)
            << " s of training (the plan's cost of the largest submodel at "
            << "this run's CPU seconds per unit of cost)\n";
    if (run.baseline) {
        const BaselineRun& b = *run.baseline;
        out << "baseline training: wall " << fixed(b.result.wallSeconds, 2) << " s, cpu "
            << fixed(b.result.cpuSeconds, 2) << " s, peak memory " << memoryText(b.result.peakBytes()) << "\n";
    }
    if (run.baseline && run.testSummary && run.baseline->test) {
        // The two figures the method is judged by: the metric lost, and the speed-up of the slowest submodel.
        const bool regression = predictsValues(run.plan.task);
        const double diff = regression ? run.testSummary->regression.r2 - run.baseline->test->regression.r2
                                       : 100 * (run.testSummary->classification.accuracy -
                                                run.baseline->test->classification.accuracy);
        const double base = run.baseline->result.wallSeconds;
        out << "vs baseline: " << metric << " " << (diff >= 0 ? "+" : "") << fixed(diff, regression ? 4 : 2)
            << (regression ? "" : " points") << ", slowest submodel "
            << fixed(base > 0 ? t.submodelWallSeconds[std::size_t(k)] / base : 0, 2)
            << "x the baseline's training time (1/S = " << fixed(1.0 / s, 2) << ")\n";
    }
    const bool regression = predictsValues(run.plan.task);
    std::vector<std::vector<std::string>> rows = {{"submodel", regression ? "outputs" : "classes", "samples", "widths",
                                                   "train s", "cpu s", "peak memory",
                                                   run.test ? "test " + metric : "train " + metric}};
    for (int i = 0; i < s; ++i) {
        const TrainResult& r = t.submodels[std::size_t(i)];
        const double m = run.test ? run.test->submodels[std::size_t(i)].metric
                                  : (r.history.empty() ? 0 : r.history.back().metric);
        rows.push_back({std::to_string(i + 1), ownedSummary(run.plan, i), samplesText(run.plan, i),
                        run.plan.submodels[std::size_t(i)].spec.widthsSummary(),
                        fixed(t.submodelWallSeconds[std::size_t(i)], 2), fixed(t.submodelCpuSeconds[std::size_t(i)], 2),
                        memoryText(run.submodelPeakBytes(i)), fixed(m)});
    }
    out << alignedTable(rows, {1, 3});
    out << "whole run: wall " << fixed(figures.wallSeconds, 2) << " s, cpu " << fixed(figures.cpuSeconds, 2)
        << " s, peak memory " << megabytes(figures.peakMemoryBytes) << " (process)\n";
}

}  // namespace skynnet::cli
