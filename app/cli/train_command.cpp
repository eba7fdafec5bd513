// `skynnet-cli train`: options -> data, spec and config (train_setup) -> the engine's run (run/runner.h) -> test
// metrics -> report and model, written only after everything succeeded. With --submodels the
// Skynnet split runs instead (split_train.h).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli_run_request.h"
#include "commands.h"
#include "core/error.h"
#include "core/parallel.h"
#include "interrupt.h"
#include "json_progress.h"
#include "mpi_train.h"
#include "output_files.h"
#include "project/checkpoint_store.h"
#include "project_train.h"
#include "run/runner.h"
#include "run_observers.h"
#include "split_train.h"
#include "text_format.h"
#include "train/metrics.h"
#include "train/resources.h"
#include "train/trainer.h"
#include "train_report.h"

namespace skynnet::cli {
namespace {

using Clock = std::chrono::steady_clock;

std::string epochsDone(const TrainResult& result) {
    return " after " + std::to_string(result.history.size()) + " complete epoch(s)";
}

}  // namespace

int runTrain(const std::vector<std::string>& words) {
    const auto start = Clock::now();
    if (progressFormatIn(words) == ProgressFormat::Json) reportErrorsAsJson();
    if (wantsProjectTraining(words)) return runProjectTraining(words);
    const Args args = Args::parse(words, trainOptionSpecs());
    if (args.flag("--help")) {
        std::cout << trainHelp();
        return exitOk;
    }
    const TrainOptions o = parseTrainOptions(args);
    if (o.mpi && !o.hostsFile.empty()) return runMpiLaunch(words, o);
    if (o.mpi) return runMpiTraining(args, o, start);
    checkOutputPaths({{"--save", o.savePath}, {"--report", o.reportPath}});
    setKernelThreads(o.threads);
    if (o.split) return runSplitTraining(args, o, start);

    CancelToken cancel;
    InterruptGuard interrupt(cancel);
    const auto data = std::make_shared<const PreparedData>(prepareData(o));
    if (interrupt.interrupted()) return interruptedExit();
    const RunRequest request = runRequestOf(o, data);
    const TextObserverOptions shown{o.quiet, o.threads, {}, nullptr};
    std::unique_ptr<TextObserver> observer = o.progress == ProgressFormat::Json ? std::make_unique<JsonObserver>(shown)
                                                                                : std::make_unique<TextObserver>(shown);
    RunOutcome out = performRun(request, *observer, cancel);
    if (out.status == TrainStatus::Cancelled || interrupt.interrupted()) return interruptedExit(stoppedDuring(out));
    if (out.status == TrainStatus::Failed) throw Error(out.message);
    const TrainResult& result = out.networkResult;
    std::optional<EvaluationSummary> test;
    double testLoss = 0;
    if (out.networkEvaluation) {
        testLoss = out.networkEvaluation->loss;
        test = summarize(data->task(), out.networkEvaluation->output, data->test.targetMatrix(),
                         data->schema.classNames);
    }

    RunFigures figures;
    figures.wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    figures.cpuSeconds = processCpuSeconds();
    figures.peakMemoryBytes = processPeakResidentBytes();
    const Json report = buildTrainReport(o, *data, out.spec, request.config, result, test, testLoss, figures);
    std::optional<SavedModel> model;
    if (!o.savePath.empty()) {
        Json extra = trainingRecord(o, request.config);  // the schema adds target_column
        if (test) addMetrics(extra, *test, "test_");
        model = buildSavedModel(*data, *out.network, std::move(extra));
    }
    if (interrupt.interrupted()) return interruptedExit(epochsDone(result));
    writeReportAndModel(o.reportPath, dumpJson(report, 2) + "\n", o.savePath,
                        [&](const std::string& path) { saveModel(path, *model); });
    if (!o.checkpointDir.empty() && !o.savePath.empty()) CheckpointStore::removeFolder(o.checkpointDir);

    const bool json = o.progress == ProgressFormat::Json;
    if (json) {
        Json r = Json::object({{"model", "network"},
                               {"status", statusName(result.status)},
                               {"metric", headlineMetricName(data->task())}});
        if (test) {
            addMetrics(r, *test, "test_");
            r["test_loss"] = testLoss;
        }
        addResultFigures(r, figures.wallSeconds, result.wallSeconds, figures.cpuSeconds, figures.peakMemoryBytes,
                         o.savePath, o.reportPath);
        writeResultEvent(r);
    }
    // With --progress json stdout holds events only: the summary is for the person watching stderr.
    std::ostream& text = json ? std::cerr : std::cout;
    if (test) text << "test " << headline(*test) << "\n";
    else text << "no test set (--test-fraction 0 and no --test-data)\n";
    text << "wall " << fixed(figures.wallSeconds, 2) << " s, training " << fixed(result.wallSeconds, 2) << " s, cpu "
         << fixed(figures.cpuSeconds, 2) << " s, peak memory " << megabytes(figures.peakMemoryBytes) << "\n";
    if (!o.savePath.empty()) text << "model saved to " << o.savePath << "\n";
    if (!o.reportPath.empty()) text << "report written to " << o.reportPath << "\n";
    text.flush();
    return exitOk;
}

}  // namespace skynnet::cli
