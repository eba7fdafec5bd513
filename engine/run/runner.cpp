#include "run/runner.h"

#include <cstdio>
#include <new>

#include "core/error.h"
#include "core/parallel.h"
#include "losses/task_losses.h"
#include "optim/optimizer.h"
#include "split/combined_model_file.h"
#include "split/thread_backend.h"
#include "train/metrics.h"

namespace skynnet {
namespace {

std::string fixed2(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", v);
    return buffer;
}

std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

// After a duration in the log: that the run's pauses meanwhile are not in it, so nobody adds
// them back. pausedBefore: the token's pausedSeconds() when the measured part began.
std::string pausedNote(const CancelToken& cancel, double pausedBefore) {
    const double paused = cancel.pausedSeconds() - pausedBefore;
    return paused > 0 ? " (not counting " + fixed2(paused) + " s paused)" : std::string();
}

// "split run: 3 submodel(s) in 6.81 s wall, 6.80 s CPU": the wall and the CPU of the same work.
// A resumed run's wall is this session's, so its CPU is too, and the earlier sessions' CPU is
// told apart (their wall time is not known: ParallelResult).
std::string splitTimesLine(const ParallelResult& r) {
    std::string line = "split run: " + std::to_string(r.submodels.size()) + " submodel(s) in " + fixed2(r.wallSeconds) +
                       " s wall, " + fixed2(r.sessionCpuSeconds()) + " s CPU";
    if (r.resumed())
        line += " in this session; " + std::to_string(r.resumedSubmodels) +
                " submodel(s) continued from checkpoints, whose earlier sessions spent " + fixed2(r.earlierCpuSeconds) +
                " s CPU more (" + fixed2(r.cpuSeconds) + " s CPU in all)";
    return line;
}

std::string startLine(const SplitPlan& plan, int threads, bool baseline) {
    std::string line = "training " + std::to_string(plan.submodelCount()) +
                       " submodel(s): " + strategyName(plan.strategy) + ", N=" + std::to_string(plan.requested) +
                       ", F=" + number(plan.factor) + ", " + std::to_string(plan.effectiveEpochs) + " epoch(s) each, " +
                       std::to_string(plan.samples) + " training samples, " + std::to_string(threads) + " thread(s)";
    if (baseline) line += "; then the baseline for " + std::to_string(plan.epochs) + " epoch(s)";
    return line;
}

std::string finishLineOf(const std::string& what, const TrainResult& r) {
    std::string line = what + ": " + statusName(r.status);
    if (r.status == TrainStatus::Failed) line += ": " + r.error;
    else if (r.status != TrainStatus::Cancelled || !r.history.empty())
        line += " after " + std::to_string(r.history.size()) + " epoch(s) in " + fixed2(r.wallSeconds) + " s";
    return line;
}

// The request's checkpoint folder opened for `plan` (the network alone: singleNetworkPlan).
std::optional<CheckpointStore> openCheckpoints(const RunRequest& in, const SplitPlan& plan, const TrainConfig& config,
                                               const PreparedData& data, RunObserver& observer) {
    if (in.checkpointFolder.empty()) return std::nullopt;
    const Dataset* validation = data.validation.size() > 0 ? &data.validation : nullptr;
    const CheckpointRunKey key = checkpointRunKey(plan, config, data.train, validation);
    if (in.checkpointStart == CheckpointStart::Resume) {
        CheckpointStore store = CheckpointStore::resume(in.checkpointFolder, plan, key);
        const std::string progress = store.progressText();
        observer.resuming(in.checkpointFolder, progress);
        observer.log("resuming from " + in.checkpointFolder + ": " + progress);
        return store;
    }
    if (in.checkpointStart == CheckpointStart::Fresh && CheckpointStore::holdsRun(in.checkpointFolder))
        throw Error("the checkpoint folder " + in.checkpointFolder +
                    " holds the checkpoints of an earlier run: add --resume to continue from them, or remove the "
                    "folder to start afresh");
    return CheckpointStore::start(in.checkpointFolder, plan, key);
}

CheckpointHooks hooksOf(const RunRequest& in, const CheckpointStore& store) {
    return in.checkpointHooks ? in.checkpointHooks(store) : store.hooks();
}

// A stop: the outcome says during what.
RunOutcome& stopped(RunOutcome& out, const std::string& during) {
    out.status = TrainStatus::Cancelled;
    out.message = during;
    return out;
}

RunOutcome& failed(RunOutcome& out, const std::string& why) {
    out.status = TrainStatus::Failed;
    out.message = why;
    return out;
}

void finishRecord(RunOutcome& out, const Dataset& eval) {
    const SplitPlan& plan = *out.plan;
    const SavedCombinedModel model = toSaved(out.split->model, out.data->preprocessing, out.data->schema);
    out.record = completedRun(plan, *out.split, out.baseline ? &*out.baseline : nullptr, &model, out.message);
    ProjectResults& r = *out.record->results;
    r.evaluatedOn = out.evaluatedOn;
    r.evaluatedSamples = out.evaluatedSamples;
    r.metricName = headlineMetricName(plan.task);
    r.combinedMetric = out.combined->metric;
    r.combinedTestOutput = out.combined->output;
    if (plan.strategy == Strategy::ClassGroups) {
        r.submodelTestOutputs = out.combined->submodelOutputs;
        r.classCombine = plan.classCombine;
    }
    for (const auto& s : out.combined->submodels) r.submodelMetrics.push_back(s.metric);
    r.testTargets = eval.targetMatrix();
    if (out.baselineEvaluation) {
        r.baselineMetric = out.baselineEvaluation->metric;
        r.baselineTestOutput = out.baselineEvaluation->output;
    }
}

// Class groups with validation rows: the stacked rule fitted on them (stacked_rule.h), whatever the
// chosen rule, so that a front end can switch to it without retraining. Here, the one place every
// front end trains, so the thread and MPI backends give the same model. False once cancelled.
bool fitStackedRuleOn(const Dataset* validation, RunOutcome& out, RunObserver& observer, const CancelToken& cancel) {
    const SplitPlan& plan = *out.plan;
    if (plan.strategy != Strategy::ClassGroups || !validation) return true;
    CombinedModel& model = out.split->model;
    const std::vector<Matrix> outputs = model.submodelOutputs(validation->features, &cancel);
    if (cancel.cancelled()) return false;
    const CombinationRule& rule = model.rule();
    const StackedFit fit = fitStackedRule(outputs, validation->labels, rule.classes, rule.outputs, rule.otherOutput);
    model.setStackedWeights(fit.weights);
    observer.log("stacked rule: fitted on " + std::to_string(validation->size()) + " validation rows in " +
                 std::to_string(fit.iterations) + " iteration(s), validation cross-entropy " + number(fit.loss) +
                 " (the product's " + number(fit.startLoss) + ")" + (fit.keptStart ? ", the product's kept" : ""));
    return true;
}

// Steps 3 to 7 of a split run (runner.h).
RunOutcome& runSplit(const RunRequest& in, TrainConfig config, RunObserver& observer, const CancelToken& cancel,
                     RunOutcome& out) {
    const PreparedData& data = *out.data;
    const Dataset* validation = data.validation.size() > 0 ? &data.validation : nullptr;
    // The stacked rule is fitted on the validation rows: without them the product combines, said
    // in the log (the command line refuses an explicit --combine stacked before it gets here).
    if (out.plan->strategy == Strategy::ClassGroups && out.plan->classCombine == ClassCombine::Stacked && !validation) {
        out.plan->classCombine = ClassCombine::Product;
        observer.log("stacked rule: this run has no validation rows to fit it on, so the class groups are combined "
                     "by the product (set a validation fraction above 0 for the stacked rule)");
    }
    const SplitPlan& plan = *out.plan;
    const std::optional<CheckpointStore> store = openCheckpoints(in, plan, config, data, observer);
    const std::optional<CheckpointHooks> hooks = store ? std::optional(hooksOf(in, *store)) : std::nullopt;

    ParallelTrainer trainer(plan, config, in.backend ? in.backend : std::make_shared<ThreadBackend>(out.threads));
    double pausedBefore = cancel.pausedSeconds();
    out.split = trainer.train(data.train, validation, observer.submodelEvents(), &cancel, hooks ? &*hooks : nullptr);
    if (out.split->status == TrainStatus::Cancelled || cancel.cancelled())
        return stopped(out, " while the submodels trained");
    if (out.split->status == TrainStatus::Failed) return failed(out, out.split->error);
    observer.log(splitTimesLine(*out.split) + pausedNote(cancel, pausedBefore));
    if (!fitStackedRuleOn(validation, out, observer, cancel)) return stopped(out, " while fitting the stacked rule");

    if (in.baseline) {
        pausedBefore = cancel.pausedSeconds();
        observer.log("baseline: training the original model " + plan.original.widthsSummary() + " for " +
                     std::to_string(plan.epochs) + " epoch(s)");
        observer.modelStarted(RunModel::Baseline, WorkerPlace{0, localHostName(), out.threads});
        out.baseline = trainBaseline(plan, data.train, validation, config, out.threads,
                                     observer.modelCallbacks(RunModel::Baseline), &cancel);
        const TrainResult& b = out.baseline->result;
        observer.modelFinished(RunModel::Baseline, b);
        if (b.status == TrainStatus::Cancelled || cancel.cancelled())
            return stopped(out, " while the baseline trained");
        if (b.status == TrainStatus::Failed) return failed(out, "baseline: " + b.error);
        observer.log(finishLineOf("baseline", b) + pausedNote(cancel, pausedBefore));
    }

    const Dataset* eval = evaluationRows(data, in.evaluation, out.evaluatedOn);
    if (eval) {
        out.evaluatedSamples = long(eval->size());
        out.combined = out.split->model.evaluate(*eval, &cancel);
        if (out.combined->cancelled || cancel.cancelled()) return stopped(out, " while testing the combined model");
        out.message = "combined " + headlineMetricName(plan.task) + " " + number(out.combined->metric) + " on " +
                      out.evaluatedOn + " " + std::to_string(eval->size()) + " samples";
        if (out.baseline) {
            Trainer evaluator(out.baseline->network, config, plan.task);
            out.baselineEvaluation = evaluator.evaluate(eval->features, eval->targetMatrix(), &cancel);
            if (cancel.cancelled()) return stopped(out, " while testing the baseline");
            out.message += ", baseline " + number(out.baselineEvaluation->metric);
        }
        finishRecord(out, *eval);
    } else {
        out.message = "combined model trained (no test rows to measure it on)";
    }
    out.status = TrainStatus::Completed;
    observer.log("finished: " + out.message);
    if (store && !in.keepCheckpoints) store->removeFolder();
    return out;
}

// Steps 3 to 7 of a run of the network alone: the network is submodel 0 of a one-model run for
// its checkpoints.
RunOutcome& runNetwork(const RunRequest& in, const TrainConfig& config, RunObserver& observer,
                       const CancelToken& cancel, RunOutcome& out) {
    const PreparedData& data = *out.data;
    const bool validating = data.validation.size() > 0;
    out.network.emplace(out.spec, config.seed);
    Network& network = *out.network;
    Trainer trainer(network, config, data.task());
    observer.modelStarted(RunModel::Network, WorkerPlace{0, localHostName(), out.threads});
    TrainCallbacks callbacks = observer.modelCallbacks(RunModel::Network);
    const SplitPlan single = singleNetworkPlan(out.spec, config.seed, config.epochs, data.task(),
                                               long(data.train.size()));
    const std::optional<CheckpointStore> store = openCheckpoints(in, single, config, data, observer);
    std::optional<CheckpointHooks> hooks;
    std::optional<SubmodelResume> resume;
    if (store) {
        hooks = hooksOf(in, *store);
        resume = hooks->load(0);
        if (resume) network.setFlatWeights(resume->weights);
        callbacks.onCheckpoint = [&](const TrainerState& s) { hooks->saveEpoch(0, network, s); };
    }
    TrainResult& result = out.networkResult;
    if (resume && resume->finished) {
        result = resume->result;
    } else {
        if (resume) trainer.resumeFrom(resume->state);
        const Matrix yTrain = data.train.targetMatrix(), yValidation = data.validation.targetMatrix();
        result = trainer.fit(data.train.features, yTrain, validating ? &data.validation.features : nullptr,
                             validating ? &yValidation : nullptr, callbacks, &cancel);
        if (hooks && (result.status == TrainStatus::Completed || result.status == TrainStatus::EarlyStopped))
            hooks->saveFinished(0, SubmodelOutcome{network, result});
    }
    observer.modelFinished(RunModel::Network, result);
    if (result.status == TrainStatus::Cancelled || cancel.cancelled())
        return stopped(out, " after " + std::to_string(result.history.size()) + " complete epoch(s)");
    if (result.status == TrainStatus::Failed) return failed(out, result.error);
    observer.log(finishLineOf("network", result));

    if (const Dataset* eval = evaluationRows(data, in.evaluation, out.evaluatedOn)) {
        out.evaluatedSamples = long(eval->size());
        out.networkEvaluation = trainer.evaluate(eval->features, eval->targetMatrix(), &cancel);
        if (cancel.cancelled()) return stopped(out, " while testing the model");
        out.message = headlineMetricName(data.task()) + " " + number(out.networkEvaluation->metric) + " on " +
                      out.evaluatedOn + " " + std::to_string(eval->size()) + " samples";
    } else {
        out.message = "network trained (no test rows to measure it on)";
    }
    out.status = TrainStatus::Completed;
    observer.log("finished: " + out.message);
    if (store && !in.keepCheckpoints) store->removeFolder();
    return out;
}

}  // namespace

std::string submodelFinishLine(int index, const TrainResult& result) {
    return finishLineOf("submodel " + std::to_string(index + 1), result);
}

const char* runModelName(RunModel model) {
    switch (model) {
    case RunModel::Baseline: return "baseline";
    case RunModel::Network: return "network";
    }
    return "network";
}

NetworkSpec networkFor(const NetworkSpec& designed, const PreparedData& data, LossKind loss) {
    NetworkSpec spec = designed;
    spec.input = networkInputShape(data);
    spec.outputActivation = outputActivationFor(data.task(), loss);
    spec.setOutputFor(data.task(), data.train.outputCount());
    spec.bindVocabulary(vocabularySize(data));  // embeddings read the text data's token ids
    return spec;
}

SplitOptions splitOptionsFor(const SplitOptions& split, const TrainConfig& config) {
    SplitOptions o = split;
    o.epochs = config.epochs;
    o.batchSize = config.batchSize;
    o.optimizerSlots = slotsPerParam(config.optimizer.kind, config.optimizer.momentum);
    return o;
}

const Dataset* evaluationRows(const PreparedData& data, EvaluationRows rule, std::string& name) {
    if (data.test.size() > 0) return name = "test", &data.test;
    name.clear();
    if (rule == EvaluationRows::TestOnly) return nullptr;
    if (data.validation.size() > 0) return name = "validation", &data.validation;
    name = "training";
    return &data.train;
}

RunOutcome performRun(const RunRequest& in, RunObserver& observer, const CancelToken& cancel) {
    const RunStopwatch clock(&cancel);  // the run's time without its pauses
    RunOutcome out;
    out.threads = in.threads > 0 ? in.threads : hardwareThreads();
    try {
        // The budget holds for every step, the measurement included, not only for the training.
        const KernelThreadScope threads(out.threads);
        out.data = in.prepared;
        if (!out.data) {
            if (!in.data) throw Error("the run names no data");
            out.data = std::make_shared<const PreparedData>(prepareRunData(*in.data));
        }
        observer.dataReady(*out.data);
        if (cancel.cancelled()) return stopped(out, " before training started");
        const PreparedData& data = *out.data;
        // Reconstruction: binary cross-entropy only for targets (the scaled inputs) in [0, 1].
        if (data.task() == Task::Reconstruction) checkLossFitsData(in.config.loss, data.task(), data.train.features);
        out.spec = networkFor(in.network, data, in.config.loss);
        // One clock for the whole run, so the charts place every model where it ran.
        TrainConfig config = in.config;
        config.clockOrigin = in.clockOrigin.value_or(CancelToken::Clock::now());
        if (!in.split) {
            observer.networkPlanned(out.spec, data, in);
            runNetwork(in, config, observer, cancel, out);
        } else {
            // A project keeps its "other" share when its data has no classes; the plan drops it.
            out.plan = in.plan ? *in.plan
                               : makePlan(out.spec, data.train,
                                          withOtherShareFor(splitOptionsFor(*in.split, config), data.task()));
            observer.planned(*out.plan, in);
            observer.log(startLine(*out.plan, out.threads, in.baseline));
            for (const std::string& w : out.plan->warnings) observer.log("note: " + w);
            runSplit(in, config, observer, cancel, out);
        }
    } catch (const Error& e) {
        failed(out, e.what());
    } catch (const std::bad_alloc&) {
        failed(out, "out of memory");
    } catch (const std::exception& e) {  // a bug, not the user's data: said so, as the CLI's main() says it
        failed(out, std::string("internal error: ") + e.what());
    }
    out.seconds = clock.seconds();
    if (out.record && out.record->results) out.record->results->wallSeconds = out.seconds;
    return out;
}

}  // namespace skynnet
