// `skynnet-cli train`: options -> data, spec and config (train_setup) -> Trainer::fit -> test
// metrics -> report and model, written only after everything succeeded. With --submodels the
// Skynnet split runs instead (split_train.h).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

#include "checkpoint_option.h"
#include "commands.h"
#include "core/error.h"
#include "core/parallel.h"
#include "interrupt.h"
#include "json_progress.h"
#include "mpi_train.h"
#include "output_files.h"
#include "progress.h"
#include "project_train.h"
#include "split_train.h"
#include "text_format.h"
#include "train/metrics.h"
#include "train/resources.h"
#include "train/trainer.h"
#include "train_report.h"

namespace skynnet::cli {
namespace {

using Clock = std::chrono::steady_clock;

void announce(const PreparedData& data, const NetworkSpec& spec, int threads) {
    std::fprintf(stderr, "training %s (%lld parameters) on %lld samples, validating on %lld, testing on %lld; %d thread%s\n",
                 spec.widthsSummary().c_str(), static_cast<long long>(paramCount(spec)),
                 static_cast<long long>(data.train.size()), static_cast<long long>(data.validation.size()),
                 static_cast<long long>(data.test.size()), threads, threads == 1 ? "" : "s");
}

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
    if (o.mpi) return runMpiTraining(words, args, o, start);
    checkOutputPaths({{"--save", o.savePath}, {"--report", o.reportPath}});
    setKernelThreads(o.threads);
    if (o.split) return runSplitTraining(args, o, start);

    CancelToken cancel;
    InterruptGuard interrupt(cancel);
    PreparedData data = prepareData(o);
    if (interrupt.interrupted()) return interruptedExit();
    const NetworkSpec spec = buildNetworkSpec(o, data);
    const TrainConfig config = buildTrainConfig(o, data.task());
    Network network(spec, o.config.seed);
    Trainer trainer(network, config, data.task());

    if (!o.quiet) announce(data, spec, o.threads);
    const bool json = o.progress == ProgressFormat::Json;
    if (json) {
        writeNetworkPlanEvent(config.epochs);
        writeStartedEvent("network", 0, WorkerPlace{0, localHostName(), o.threads});
    }
    const bool validating = data.validation.size() > 0;
    const Matrix yTrain = data.train.targetMatrix(), yValidation = data.validation.targetMatrix();
    TrainCallbacks callbacks = json ? jsonTrainCallbacks("network") : progressCallbacks(data.task(), config.epochs, o.quiet);
    // Checkpoints: the network is submodel 0 of a one-model run.
    const SplitPlan single = singleNetworkPlan(spec, o.config.seed, config.epochs, data.task(), long(data.train.size()));
    const std::optional<CheckpointStore> checkpoints =
        openCheckpoints(o, single, config, data.train, validating ? &data.validation : nullptr);
    std::optional<CheckpointHooks> hooks;
    std::optional<SubmodelResume> resume;
    if (checkpoints) {
        hooks = checkpointHooks(*checkpoints);
        resume = hooks->load(0);
        if (resume) network.setFlatWeights(resume->weights);
        callbacks.onCheckpoint = [&](const TrainerState& s) { hooks->saveEpoch(0, network, s); };
    }
    TrainResult result;
    if (resume && resume->finished) {
        result = resume->result;
    } else {
        if (resume) trainer.resumeFrom(resume->state);
        result = trainer.fit(data.train.features, yTrain, validating ? &data.validation.features : nullptr,
                             validating ? &yValidation : nullptr, callbacks, &cancel);
        if (hooks && (result.status == TrainStatus::Completed || result.status == TrainStatus::EarlyStopped))
            hooks->saveFinished(0, SubmodelOutcome{network, result});
    }
    if (json) writeFinishedEvent("network", 0, result);
    if (result.status == TrainStatus::Cancelled || interrupt.interrupted()) return interruptedExit(epochsDone(result));
    if (result.status == TrainStatus::Failed) throw Error(result.error);
    if (result.status == TrainStatus::EarlyStopped && !o.quiet)
        std::fprintf(stderr, "early stopping after epoch %zu; keeping the weights of epoch %d\n", result.history.size(),
                     result.bestEpoch);

    std::optional<EvaluationSummary> test;
    double testLoss = 0;
    if (data.test.size() > 0) {
        const Matrix yTest = data.test.targetMatrix();
        const Evaluation e = trainer.evaluate(data.test.features, yTest, &cancel);
        if (interrupt.interrupted()) return interruptedExit(" while testing the model");
        testLoss = e.loss;
        test = summarize(data.task(), e.output, yTest, data.schema.classNames);
    }

    RunFigures figures;
    figures.wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    figures.cpuSeconds = processCpuSeconds();
    figures.peakMemoryBytes = processPeakResidentBytes();
    const Json report = buildTrainReport(o, data, spec, config, result, test, testLoss, figures);
    std::optional<SavedModel> model;
    if (!o.savePath.empty()) {
        Json extra = trainingRecord(o, config);  // the schema adds target_column
        if (test) addMetrics(extra, *test, "test_");
        model = buildSavedModel(data, network, std::move(extra));
    }
    if (interrupt.interrupted()) return interruptedExit(epochsDone(result));
    writeReportAndModel(o.reportPath, dumpJson(report, 2) + "\n", o.savePath,
                        [&](const std::string& path) { saveModel(path, *model); });
    if (checkpoints && !o.savePath.empty()) checkpoints->removeFolder();

    if (json) {
        Json r = Json::object({{"model", "network"}, {"status", statusName(result.status)},
                               {"metric", headlineMetricName(data.task())}});
        if (test) {
            addMetrics(r, *test, "test_");
            r["test_loss"] = testLoss;
        }
        addResultFigures(r, figures.wallSeconds, result.wallSeconds, figures.cpuSeconds, figures.peakMemoryBytes, o.savePath,
                         o.reportPath);
        writeResultEvent(r);
    }
    // With --progress json stdout holds events only: the summary is for the person watching stderr.
    std::ostream& out = json ? std::cerr : std::cout;
    if (test) out << "test " << headline(*test) << "\n";
    else out << "no test set (--test-fraction 0 and no --test-data)\n";
    out << "wall " << fixed(figures.wallSeconds, 2) << " s, training " << fixed(result.wallSeconds, 2) << " s, cpu "
        << fixed(figures.cpuSeconds, 2) << " s, peak memory " << megabytes(figures.peakMemoryBytes) << "\n";
    if (!o.savePath.empty()) out << "model saved to " << o.savePath << "\n";
    if (!o.reportPath.empty()) out << "report written to " << o.reportPath << "\n";
    out.flush();
    return exitOk;
}

}  // namespace skynnet::cli
