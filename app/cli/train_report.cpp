#include "train_report.h"

#include <cstdio>
#include <cstdlib>

#include "io/gemm_routing_file.h"
#include "optim/optimizer.h"
#include "train/metrics.h"
#include "version.h"

namespace skynnet::cli {
namespace {

// A float setting as the user wrote it (0.01, not 0.009999999776482582).
std::string tidyText(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.7g", double(v));
    return buf;
}

double tidy(float v) { return std::strtod(tidyText(v).c_str(), nullptr); }

std::string scheduleText(const Schedule& s) {
    switch (s.kind) {
    case Schedule::Kind::Constant: return "constant";
    case Schedule::Kind::Step: return "step:" + std::to_string(s.stepEpochs) + ":" + tidyText(s.gamma);
    case Schedule::Kind::Cosine: return "cosine:" + tidyText(s.minRate);
    }
    return "constant";
}

}  // namespace

Json historyJson(const std::vector<EpochStats>& history) {
    Json h = Json::array();
    for (const EpochStats& e : history) {
        Json item = Json::object({{"epoch", e.epoch}, {"loss", e.loss}, {"metric", e.metric}});
        if (e.hasValidation) {
            item["validation_loss"] = e.validationLoss;
            item["validation_metric"] = e.validationMetric;
        }
        item["seconds"] = e.seconds;
        item["samples_per_second"] = e.samplesPerSecond;
        item["learning_rate"] = tidy(float(e.learningRate));
        h.push_back(std::move(item));
    }
    return h;
}

Json trainingRecord(const TrainOptions& o, const TrainConfig& c) {
    const OptimizerConfig& opt = c.optimizer;
    Json settings = Json::object({{"epochs", c.epochs},
                                  {"batch", c.batchSize},
                                  {"optimizer", optimizerName(opt.kind)},
                                  {"lr", tidy(opt.learningRate)},
                                  {"momentum", tidy(opt.momentum)},
                                  {"nesterov", opt.nesterov},
                                  {"weight_decay", tidy(opt.weightDecay)},
                                  {"schedule", scheduleText(opt.schedule)},
                                  {"loss", lossName(c.loss)},
                                  {"seed", c.seed},
                                  {"threads", o.threads}});
    if (c.earlyStopping.enabled) settings["early_stopping_patience"] = c.earlyStopping.patience;
    Json split = Json::object({{"data", o.data.path},
                               {"validation_fraction", o.validationFraction},
                               {"test_fraction", o.testFraction},
                               {"seed", c.seed}});
    if (o.testData) split["test_data"] = o.testData->path;
    return Json::object({{"settings", settings}, {"split", split}});
}

Json reportHead(const TrainOptions& o, const PreparedData& data, const NetworkSpec& spec, const TrainConfig& config) {
    Json r = Json::object({{"tool", "skynnet-cli"}, {"version", skynnetVersion}, {"command", "train"}});
    r["task"] = taskName(data.task());
    Json d = Json::object({{"source", o.data.path},
                           {"features", data.schema.featureNames.size()},
                           {"train_samples", data.train.size()},
                           {"validation_samples", data.validation.size()},
                           {"test_samples", data.test.size()},
                           {"test_source", o.testData ? o.testData->path : o.data.path}});
    if (data.task() == Task::Regression) d["targets"] = data.schema.targetNames;
    else if (data.task() == Task::Reconstruction) d["outputs"] = data.schema.targetNames.size();  // one per feature
    else d["classes"] = data.schema.classNames;
    d["scaling"] = scalingName(data.preprocessing.scaling);
    r["data"] = d;
    r["network"] = Json::object({{"layers", formatLayers(spec.layers)},
                                 {"widths", spec.widthsSummary()},
                                 {"parameters", paramCount(spec)},
                                 {"output_activation", activationName(spec.outputActivation)}});
    const Json record = trainingRecord(o, config);
    r["settings"] = record.at("settings");
    return r;
}

Json buildTrainReport(const TrainOptions& o, const PreparedData& data, const NetworkSpec& spec,
                      const TrainConfig& config, const TrainResult& result,
                      const std::optional<EvaluationSummary>& test, double testLoss, const RunFigures& figures) {
    Json r = reportHead(o, data, spec, config);
    r["status"] = statusName(result.status);
    r["epochs_run"] = result.history.size();
    r["best_epoch"] = result.bestEpoch;
    r["metric"] = headlineMetricName(data.task());
    if (test) {
        r["test_loss"] = testLoss;
        addMetrics(r, *test, "test_");
    }
    r["wall_seconds"] = figures.wallSeconds;
    r["train_seconds"] = result.wallSeconds;
    r["cpu_seconds"] = figures.cpuSeconds;
    r["peak_memory_bytes"] = figures.peakMemoryBytes;
    r["peak_model_bytes"] = result.peakModelBytes;
    r["peak_training_bytes"] = result.peakBytes();  // the model's peak plus its rows, as a split's submodels count it
    r["history"] = historyJson(result.history);
    // Which library ran each product (measured routes or the built-in rules): a resume or a
    // comparison across runs can tell whether the same kernels computed them.
    r["gemm_routes"] = gemmRoutesUsedJson();
    return r;
}

}  // namespace skynnet::cli
