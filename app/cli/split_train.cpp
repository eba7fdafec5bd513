#include "split_train.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "checkpoint_option.h"
#include "commands.h"
#include "core/error.h"
#include "interrupt.h"
#include "json_progress.h"
#include "split/combined_model_file.h"
#include "output_files.h"
#include "plan_view.h"
#include "progress.h"
#include "split/thread_backend.h"
#include "split_options.h"
#include "split_report.h"
#include "train/metrics.h"
#include "train/resources.h"
#include "train/trainer.h"
#include "train_setup.h"

namespace skynnet::cli {
namespace {

BaselineRun trainOriginal(const SplitPlan& plan, const Dataset& train, const Dataset* validation,
                          const std::optional<Dataset>& test, const TrainConfig& config, const TrainOptions& o,
                          const CancelToken& cancel) {
    if (!o.quiet)
        std::fprintf(stderr, "baseline: training the original model %s (%lld parameters), %d epochs\n",
                     plan.original.widthsSummary().c_str(), static_cast<long long>(plan.originalParams), plan.epochs);
    const bool json = o.progress == ProgressFormat::Json;
    if (json) writeStartedEvent("baseline", 0, WorkerPlace{0, localHostName(), o.threads});
    BaselineResult b = trainBaseline(plan, train, validation, config, o.threads,
                                     json ? jsonTrainCallbacks("baseline")
                                          : progressCallbacks(plan.task, plan.epochs, o.quiet, "baseline: "),
                                     &cancel);
    if (json) writeFinishedEvent("baseline", 0, b.result);
    BaselineRun run;
    run.result = b.result;
    run.params = plan.originalParams;
    if (run.result.status == TrainStatus::Failed) throw Error("baseline: " + run.result.error);
    if (run.result.status == TrainStatus::Cancelled || !test) return run;
    Trainer evaluator(b.network, config, plan.task);
    const Matrix y = test->targetMatrix();
    const Evaluation e = evaluator.evaluate(test->features, y, &cancel);
    if (cancel.cancelled()) return run;
    run.testLoss = e.loss;
    run.test = summarize(plan.task, e.output, y, test->classNames);
    return run;
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
        Json b = Json::object({{"status", statusName(run.baseline->result.status)},
                               {"train_seconds", run.baseline->result.wallSeconds}});
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
    PreparedData data = prepared ? prepared() : prepareData(o);
    if (interrupt.interrupted()) return interruptedExit();
    const NetworkSpec spec = buildNetworkSpec(o, data);
    const TrainConfig config = buildTrainConfig(o, data.task());
    Json head = reportHead(o, data, spec, config);  // before the matrices are handed on below

    // The engine's split code takes datasets of network inputs; they move, not copy.
    const Dataset train = std::move(data.train);
    std::optional<Dataset> validation, test;
    if (data.validation.size() > 0) validation = std::move(data.validation);
    if (data.test.size() > 0) test = std::move(data.test);
    const Dataset* val = validation ? &*validation : nullptr;

    SplitRun run;
    run.threads = o.threads;
    run.plan = makePlan(spec, train, *o.split);
    checkSplitOptionsUsed(args, *o.split, run.plan);
    // The warnings are not progress: --quiet keeps them.
    std::string placement;
    if (backend.backend) {
        const int w = backend.backend->workers(run.plan.submodelCount());
        placement = "on " + std::to_string(w) + " " + backend.backend->name() + " worker" + (w == 1 ? "" : "s") +
                    (backend.backend->name() == "mpi"
                         ? std::string(w == 1 ? " (rank 1" : " (ranks 1-" + std::to_string(w)) + "; rank 0 hands out the submodels)"
                         : "");
    }
    if (!o.quiet) std::fputs((planTable(run.plan, o.threads, placement) + "\n").c_str(), stderr);
    else
        for (const std::string& w : run.plan.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());

    const bool json = o.progress == ProgressFormat::Json;
    if (json) writePlanEvent(run.plan, o.baseline);
    const std::optional<CheckpointStore> checkpoints = openCheckpoints(o, run.plan, config, train, val);
    const std::optional<CheckpointHooks> hooks =
        checkpoints ? std::optional<CheckpointHooks>(checkpointHooks(*checkpoints)) : std::nullopt;
    ParallelTrainer trainer(run.plan, config,
                            backend.backend ? backend.backend : std::make_shared<ThreadBackend>(o.threads));
    run.training = trainer.train(train, val, json ? jsonSubmodelEvents() : submodelProgress(run.plan, o.quiet), &cancel,
                                 hooks ? &*hooks : nullptr);
    const Json backendFigures = backend.report ? backend.report() : Json();
    if (run.training.status == TrainStatus::Cancelled || interrupt.interrupted())
        return interruptedExit(" while the submodels trained");
    if (run.training.status == TrainStatus::Failed) throw Error(run.training.error);
    if (test) {
        run.test = run.training.model.evaluate(*test, &cancel);
        if (run.test->cancelled || interrupt.interrupted()) return interruptedExit(" while testing the combined model");
        run.testSummary = summarize(run.plan.task, run.test->output, test->targetMatrix(), test->classNames);
    }
    if (o.baseline) {
        run.baseline = trainOriginal(run.plan, train, val, test, config, o, cancel);
        if (run.baseline->result.status == TrainStatus::Cancelled || interrupt.interrupted())
            return interruptedExit(" while the baseline trained");
    }

    RunFigures figures;
    figures.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    figures.cpuSeconds = processCpuSeconds();
    figures.peakMemoryBytes = processPeakResidentBytes();
    Json report = buildSplitReport(std::move(head), run, figures);
    if (!backendFigures.is_null()) report["backend"] = backendFigures;
    std::optional<SavedCombinedModel> model;
    if (!o.savePath.empty()) {
        model = toSaved(run.training.model, data.preprocessing, data.schema);  // the schema adds target_column
        Json extra = trainingRecord(o, config);
        if (run.testSummary) addMetrics(extra, *run.testSummary, "test_");
        extra["plan"] = planJson(run.plan, o.threads);
        model->extra = std::move(extra);
    }
    if (interrupt.interrupted()) return interruptedExit();
    writeReportAndModel(o.reportPath, dumpJson(report, 2) + "\n", o.savePath,
                        [&](const std::string& path) { saveCombinedModel(path, *model); });
    if (checkpoints && !o.savePath.empty()) checkpoints->removeFolder();

    if (json) writeResultEvent(splitResultEvent(run, figures, o));
    // With --progress json stdout holds events only: the summary is for the person watching stderr.
    std::ostream& out = json ? std::cerr : std::cout;
    printSplitSummary(out, run, figures);
    if (!o.savePath.empty()) out << "combined model saved to " << o.savePath << "\n";
    if (!o.reportPath.empty()) out << "report written to " << o.reportPath << "\n";
    out.flush();
    return exitOk;
}

}  // namespace skynnet::cli
