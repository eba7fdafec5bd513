#include "split_train.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "checkpoint_option.h"
#include "cli_run_request.h"
#include "commands.h"
#include "core/error.h"
#include "interrupt.h"
#include "json_progress.h"
#include "output_files.h"
#include "plan_view.h"
#include "project/checkpoint_store.h"
#include "run/runner.h"
#include "run_observers.h"
#include "split/combined_model_file.h"
#include "split_options.h"
#include "split_report.h"
#include "text_format.h"
#include "train/metrics.h"
#include "train/resources.h"
#include "train_setup.h"

namespace skynnet::cli {
namespace {

// What the run made, as the report and the summary read it: the measurements on the test rows.
SplitRun splitRunOf(RunOutcome& out, int threads) {
    SplitRun run;
    run.plan = *out.plan;
    run.threads = threads;
    run.training = std::move(*out.split);
    const Dataset& test = out.data->test;
    if (out.combined) {
        run.test = std::move(out.combined);
        run.testSummary = summarize(run.plan.task, run.test->output, test.targetMatrix(), test.classNames);
    }
    if (out.baseline) {
        BaselineRun& b = run.baseline.emplace();
        b.result = out.baseline->result;
        b.params = run.plan.originalParams;
        if (out.baselineEvaluation) {
            b.testLoss = out.baselineEvaluation->loss;
            b.test = summarize(run.plan.task, out.baselineEvaluation->output, test.targetMatrix(), test.classNames);
        }
    }
    return run;
}

// "on 2 mpi workers (ranks 1-2; rank 0 hands out the submodels)" for the plan table; empty for threads.
std::string placementOf(const SplitBackend& backend, int submodels) {
    if (!backend.backend) return {};
    const int w = backend.backend->workers(submodels);
    const bool mpi = backend.backend->name() == "mpi";
    return "on " + std::to_string(w) + " " + backend.backend->name() + " worker" + (w == 1 ? "" : "s") +
           (mpi ? std::string(w == 1 ? " (rank 1" : " (ranks 1-" + std::to_string(w)) +
                      "; rank 0 hands out the submodels)"
                : "");
}

// The result event's headline: the combined model's test metrics, the baseline's, the times.
Json splitResultEvent(const SplitRun& run, const RunFigures& figures, const TrainOptions& o) {
    Json r = Json::object({{"model", "combined"},
                           {"status", statusName(run.training.status)},
                           {"submodels", run.plan.submodelCount()},
                           {"metric", headlineMetricName(run.plan.task)}});
    if (run.testSummary) {
        addMetrics(r, *run.testSummary, "test_");
        r["test_loss"] = run.test->loss;
        Json each = Json::array();
        for (const auto& m : run.test->submodels) each.push_back(m.metric);
        r["submodel_test_metrics"] = std::move(each);
    }
    if (run.baseline) {
        Json b = Json::object(
            {{"status", statusName(run.baseline->result.status)}, {"train_seconds", run.baseline->result.wallSeconds}});
        if (run.baseline->test) {
            addMetrics(b, *run.baseline->test, "test_");
            b["test_loss"] = run.baseline->testLoss;
        }
        r["baseline"] = std::move(b);
    }
    addResultFigures(r, figures.wallSeconds, run.training.wallSeconds, figures.cpuSeconds, figures.peakMemoryBytes,
                     o.savePath, o.reportPath);
    return r;
}

}  // namespace

int runSplitTraining(const Args& args, const TrainOptions& o, std::chrono::steady_clock::time_point start,
                     const SplitBackend& backend, const std::function<PreparedData()>& prepared) {
    CancelToken cancel;
    InterruptGuard interrupt(cancel);
    const auto data = std::make_shared<const PreparedData>(prepared ? prepared() : prepareData(o));
    if (interrupt.interrupted()) return interruptedExit();
    RunRequest request = runRequestOf(o, data);
    const NetworkSpec network = networkFor(request.network, *data, request.config.loss);
    Json head = reportHead(o, *data, network, request.config);
    request.split = fitSplitOptions(args, *o.split, data->train.task);
    request.plan = makePlan(network, data->train, *request.split);
    checkSplitOptionsUsed(args, *request.split, *request.plan);
    if (request.plan->classCombine == ClassCombine::Stacked && data->validation.size() == 0) {
        if (args.has("--combine"))
            Args::fail("--combine", "stacked is fitted on the validation rows, and there are none: set --validation "
                                    "above 0 (it is " +
                                        fixed(o.validationFraction, 2) + ")");
        // The default rule: the runner combines by the product instead, which the user should know.
        std::fprintf(stderr,
                     "warning: no validation rows (--validation %s), so the class groups are combined by "
                     "the product instead of the default stacked rule\n",
                     fixed(o.validationFraction, 2).c_str());
    }
    request.backend = backend.backend;

    TextObserverOptions shown{o.quiet, o.threads, placementOf(backend, request.plan->submodelCount())};
    std::unique_ptr<TextObserver> observer = o.progress == ProgressFormat::Json ? std::make_unique<JsonObserver>(shown)
                                                                                : std::make_unique<TextObserver>(shown);
    RunOutcome out = performRun(request, *observer, cancel);
    const Json backendFigures = backend.report ? backend.report() : Json();
    if (out.status == TrainStatus::Cancelled || interrupt.interrupted()) return interruptedExit(stoppedDuring(out));
    if (out.status == TrainStatus::Failed) throw Error(out.message);
    const SplitRun run = splitRunOf(out, o.threads);

    RunFigures figures;
    figures.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    figures.cpuSeconds = processCpuSeconds();
    figures.peakMemoryBytes = processPeakResidentBytes();
    Json report = buildSplitReport(std::move(head), run, figures);
    if (!backendFigures.is_null()) report["backend"] = backendFigures;
    std::optional<SavedCombinedModel> model;
    if (!o.savePath.empty()) {
        model = toSaved(run.training.model, data->preprocessing, data->schema);  // the schema adds target_column
        Json extra = trainingRecord(o, request.config);
        if (run.testSummary) addMetrics(extra, *run.testSummary, "test_");
        extra["plan"] = planJson(run.plan, o.threads);
        model->extra = std::move(extra);
    }
    if (interrupt.interrupted()) return interruptedExit();
    writeReportAndModel(o.reportPath, dumpJson(report, 2) + "\n", o.savePath,
                        [&](const std::string& path) { saveCombinedModel(path, *model); });
    if (!o.checkpointDir.empty() && !o.savePath.empty()) CheckpointStore::removeFolder(o.checkpointDir);

    const bool json = o.progress == ProgressFormat::Json;
    if (json) writeResultEvent(splitResultEvent(run, figures, o));
    // With --progress json stdout holds events only: the summary is for the person watching stderr.
    std::ostream& text = json ? std::cerr : std::cout;
    printSplitSummary(text, run, figures);
    if (!o.savePath.empty()) text << "combined model saved to " << o.savePath << "\n";
    if (!o.reportPath.empty()) text << "report written to " << o.reportPath << "\n";
    text.flush();
    return exitOk;
}

}  // namespace skynnet::cli
