#include "study/study_run.h"

#include "core/error.h"
#include "io/atomic_file.h"
#include "study/machine_schedule.h"

namespace skynnet {

StudyRun readRunReport(const StudyRunSpec& spec, const std::string& reportPath) {
    const Json doc = parseJson(readFile(reportPath), reportPath);
    const JsonField r(doc, reportPath);
    StudyRun run;
    run.spec = spec;
    run.metricName = r.at("metric").asString();
    const std::optional<JsonField> metric = r.find("test_" + run.metricName);
    if (!metric) throw Error(reportPath + ": no test_" + run.metricName + " (the run had no test set)");
    run.metric = metric->asDouble();
    run.wallSeconds = r.at("wall_seconds").asDouble();
    run.trainSeconds = r.at("train_seconds").asDouble();
    run.cpuSeconds = r.at("cpu_seconds").asDouble();
    run.processPeakMemoryBytes = r.at("peak_memory_bytes").asInt64();
    if (spec.config.original()) {
        run.S = 1;
        run.strategy = "original";
        run.slowestSubmodelSeconds = run.trainSeconds;
        run.submodelSeconds = {run.trainSeconds};
        run.peakMemoryBytes = r.at("peak_training_bytes").asInt64();
    } else {
        const JsonField plan = r.at("plan");
        run.S = plan.at("S").asInt();
        run.strategy = plan.at("strategy").asString();
        run.epochScaling = plan.at("epochs_scaled").asBool() ? EpochScaling::On : EpochScaling::Off;
        if (const auto scaling = plan.find("epoch_scaling")) run.epochScaling = parseEpochScaling(scaling->asString());
        const JsonField combined = r.at("combined");
        run.slowestSubmodelSeconds = combined.at("slowest_submodel_seconds").asDouble();
        run.peakMemoryBytes = combined.at("largest_submodel_peak_memory_bytes").asInt64();
        if (const auto predicted = combined.find("predicted_seconds_on_s_machines"))
            run.predictedSecondsOnSMachines = predicted->asDouble();
        for (const JsonField& s : r.at("submodels").asArray())
            run.submodelSeconds.push_back(s.at("train_seconds").asDouble());
        if (const auto byRule = combined.find("metric_by_rule"))
            for (const auto& [name, value] : byRule->asObject()) run.ruleMetrics[name] = value.asDouble();
    }
    run.finished = true;
    return run;
}

Json runJson(const StudyRun& run, int machines) {
    const StudyConfig& c = run.spec.config;
    Json j = Json::object({{"run", run.spec.name()},
                           {"config", c.name()},
                           {"submodels", c.submodels},
                           {"seed", run.spec.seed},
                           {"status", run.finished ? "finished" : "failed"}});
    if (!run.finished) {
        j["strategy"] = c.strategyText();
        j["error"] = run.error;
        return j;
    }
    j["S"] = run.S;
    j["strategy"] = run.strategy;
    // scale_epochs as before the sqrt setting (any scaling), epoch_scaling by name.
    j["scale_epochs"] = run.epochScaling != EpochScaling::Off;
    j["epoch_scaling"] = epochScalingName(run.epochScaling);
    j["metric"] = run.metric;
    j["metric_name"] = run.metricName;
    j["wall_seconds"] = run.wallSeconds;
    j["train_seconds"] = run.trainSeconds;
    j["slowest_submodel_seconds"] = run.slowestSubmodelSeconds;
    j["machines_seconds"] = machinesSeconds(run.submodelSeconds, machines);
    j["submodel_seconds"] = run.submodelSeconds;
    j["predicted_seconds_on_s_machines"] = run.predictedSecondsOnSMachines ? Json(*run.predictedSecondsOnSMachines)
                                                                           : Json();
    j["cpu_seconds"] = run.cpuSeconds;
    j["peak_memory_bytes"] = run.peakMemoryBytes;
    j["process_peak_memory_bytes"] = run.processPeakMemoryBytes;
    j["params"] = run.params;
    j["flops_per_sample"] = run.flopsPerSample;
    j["latency_seconds_per_batch"] = run.latencySeconds ? Json(*run.latencySeconds) : Json();
    if (!run.ruleMetrics.empty()) j["metric_by_rule"] = Json(run.ruleMetrics);
    j["reused"] = run.reused;
    return j;
}

}  // namespace skynnet
