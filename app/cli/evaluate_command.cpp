// `skynnet-cli evaluate`: a saved model (one network or a combined split) against labelled data;
// metrics on stdout and optionally as a JSON report. For a combined model each submodel is also
// judged on its own sub-problem (its classes' samples, its columns).
#include <cstdio>
#include <iostream>

#include "cli_args.h"
#include "commands.h"
#include "core/error.h"
#include "data/data_source.h"
#include "data/partition.h"
#include "data_request.h"
#include "evaluation.h"
#include "io/atomic_file.h"
#include "model_input.h"
#include "output_files.h"
#include "text_format.h"
#include "version.h"

namespace skynnet::cli {
namespace {

const std::vector<OptionSpec>& evaluateOptionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--model", "MODEL", "the model file written by 'train --save' (a single or a combined model)"},
        {"--data", "PATH",
         "labelled data: CSV/TSV, IDX images, an image folder (a subfolder per class), a text folder (a subfolder of "
         ".txt files per class) or builtin:..., laid out like the training data (a reconstruction model needs no "
         "labels)"},
        {"--labels", "PATH", "IDX labels file (default: the one beside the images)"},
        strictImagesSpec(),
        {"--text-column", "NAME", "CSV data of a text model: the column of the texts (default: the model's)"},
        {"--target", "COL", "CSV target column (default: the one the model was trained on)"},
        {"--split", "PART",
         "all, train, validation or test: the rows of --data that training assigned to that part, "
         "rebuilt from the seed and fractions in the model (default all)"},
        {"--combine", "RULE",
         "a class-groups model combined by another rule, without retraining: product, coupling, sum or stacked (the "
         "weights fitted on the validation rows in training) (default: the model's)"},
        {"--report", "FILE", "write the metrics as JSON"},
        {"--help", "", "show this help"},
    };
    return specs;
}

// The rows of `data` that the training run put into `part`, from the split settings recorded in
// the model. Only meaningful when `data` is the file the model was trained on.
Dataset selectSplit(const Dataset& data, const LoadedModel& model, const std::string& part) {
    const Json& extra = model.saved.extra;
    const auto split = extra.is_object() ? JsonField(extra, model.path, "extra").find("split") : std::nullopt;
    if (!split || !split->isObject()) Args::fail("--split", "the model records no training split");
    if (part == "test" && split->contains("test_data"))
        Args::fail("--split", "the model was tested on a separate file (" + split->at("test_data").asString() +
                                  "); evaluate on that file with --split all");
    const double validation = split->at("validation_fraction").asDouble();
    const SplitIndices rows = splitForTraining(data, validation, split->at("test_fraction").asDouble(),
                                               split->contains("test_data"), split->at("seed").get<std::uint64_t>());
    if (part == "train") return data.subset(rows.train);
    if (part == "validation") return data.subset(rows.validation);
    return data.subset(rows.test);
}

// Each submodel on its own sub-problem of `data`, from the outputs the combined model computed.
std::vector<SubmodelEvaluation> judgeSubmodels(LoadedModel& model, const Dataset& data) {
    const Matrix x = model.saved.preprocessing.fitted() ? model.saved.preprocessing.apply(data.features)
                                                        : data.features;
    Dataset inputs = data;
    inputs.features = x;
    return model.model.evaluate(inputs).submodels;
}

}  // namespace

int runEvaluate(const std::vector<std::string>& words) {
    const Args args = Args::parse(words, evaluateOptionSpecs());
    if (args.flag("--help")) {
        std::cout << "Usage: skynnet-cli evaluate --model MODEL --data PATH [options]\n\n"
                     "Prints accuracy, per-class precision and recall and the confusion matrix for classes,\n"
                     "or mse, mae and r2 for regression and reconstruction (against the inputs as scaled).\n\n"
                  << formatOptions(evaluateOptionSpecs());
        return exitOk;
    }
    const DataRequest request = dataRequest(args);
    checkRequestUsage(request);
    const std::string modelPath = args.required("--model");
    const std::string part = args.text("--split", "all");
    if (part != "all" && part != "train" && part != "validation" && part != "test")
        Args::fail("--split", "expected all, train, validation or test, got '" + part + "'");
    const std::string reportPath = args.text("--report", "");
    checkOutputPaths({{"--report", reportPath}});

    LoadedModel model = loadTrainedModel(modelPath);
    if (const auto rule = args.text("--combine")) {
        if (model.saved.rule.strategy != Strategy::ClassGroups)
            Args::fail("--combine",
                       "only applies to a class-groups model, " + modelPath + " is " +
                           (model.combined() ? strategyName(model.saved.rule.strategy) : "a single network"));
        try {
            model.saved.rule.classCombine = parseClassCombine(*rule);
        } catch (const Error& e) {
            Args::fail("--combine", e.what());
        }
        if (model.saved.rule.classCombine == ClassCombine::Stacked && !model.saved.rule.stacked)
            Args::fail("--combine", modelPath + " has no stacked weights: " + stackedMissingReason());
        model.model.setClassCombine(model.saved.rule.classCombine);
    }
    Dataset data = loadLike(request, model.saved.schema, true);
    if (const std::string w = data.skippedFilesWarning(); !w.empty()) std::fprintf(stderr, "warning: %s\n", w.c_str());
    if (part != "all") data = selectSplit(data, model, part);
    if (data.size() == 0)
        throw Error(request.path + ": no samples to evaluate" + (part == "all" ? "" : " in the " + part + " split"));
    const Matrix output = modelOutputs(model, data);
    const EvaluationSummary summary = summarize(data.task, output, modelTargets(model, data), data.classNames);
    std::vector<SubmodelEvaluation> submodels;
    if (model.combined()) submodels = judgeSubmodels(model, data);
    const std::string metric = headlineMetricName(data.task);

    if (!reportPath.empty()) {
        Json report = Json::object({{"tool", "skynnet-cli"},
                                    {"version", skynnetVersion},
                                    {"command", "evaluate"},
                                    {"model", modelPath},
                                    {"data", request.path},
                                    {"split", part},
                                    {"task", taskName(data.task)}});
        report["model_kind"] = model.combined() ? "combined" : "single";
        if (data.task == Task::Regression) report["targets"] = data.targetNames;
        else if (data.task == Task::Reconstruction) report["outputs"] = data.targetNames.size();
        else report["classes"] = data.classNames;
        addMetrics(report, summary, "");
        if (model.combined()) {
            report["strategy"] = strategyName(model.saved.rule.strategy);
            if (model.saved.rule.strategy == Strategy::ClassGroups)
                report["combine"] = classRuleDescription(model.saved.rule);
            Json subs = Json::array();
            for (const SubmodelEvaluation& e : submodels)
                subs.push_back(Json::object(
                    {{"index", e.index + 1}, {"samples", e.samples}, {"loss", e.loss}, {"metric", e.metric}}));
            report["submodels"] = subs;
        }
        writeFileAtomically(reportPath, dumpJson(report, 2) + "\n");
    }
    if (model.combined()) std::cout << "model: " << modelDescription(model) << "\n";
    printDetails(std::cout, summary);
    if (!submodels.empty()) {
        std::cout << "\neach submodel on its own sub-problem\n";
        for (const SubmodelEvaluation& e : submodels)
            std::cout << "submodel " << e.index + 1 << ": " << metric << " " << fixed(e.metric) << " (" << e.samples
                      << " samples)\n";
    }
    if (!reportPath.empty()) std::cout << "\nreport written to " << reportPath << "\n";
    std::cout.flush();
    return exitOk;
}

}  // namespace skynnet::cli
