#include "run_observers.h"

#include <cstdio>

#include "json_progress.h"
#include "plan_view.h"
#include "progress.h"
#include "run/run_request.h"
#include "spec/network_spec.h"

namespace skynnet::cli {

void TextObserver::planned(const SplitPlan& plan, const RunRequest& request) {
    plan_ = plan;
    task_ = plan.task;
    epochs_ = plan.epochs;
    baseline_ = request.baseline;
    // The warnings are not progress: --quiet keeps them.
    if (!o_.quiet) std::fputs((planTable(plan, o_.threads, o_.placement) + "\n").c_str(), stderr);
    else
        for (const std::string& w : plan.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
}

void TextObserver::networkPlanned(const NetworkSpec& spec, const PreparedData& data, const RunRequest& request) {
    task_ = data.task();
    epochs_ = request.config.epochs;
    if (o_.quiet) return;
    std::fprintf(stderr,
                 "training %s (%lld parameters) on %lld samples, validating on %lld, testing on %lld; %d thread%s\n",
                 spec.widthsSummary().c_str(), static_cast<long long>(paramCount(spec)),
                 static_cast<long long>(data.train.size()), static_cast<long long>(data.validation.size()),
                 static_cast<long long>(data.test.size()), o_.threads, o_.threads == 1 ? "" : "s");
}

void TextObserver::resuming(const std::string& folder, const std::string& progress) {
    if (!o_.quiet) std::fprintf(stderr, "resuming from %s: %s\n", folder.c_str(), progress.c_str());
}

SubmodelEvents TextObserver::submodelEvents() { return recorded(submodelProgress(*plan_, o_.quiet)); }

SubmodelEvents TextObserver::recorded(SubmodelEvents events) {
    return o_.record ? loggingFinishes(std::move(events), *o_.record) : events;
}

void TextObserver::modelStarted(RunModel model, const WorkerPlace&) {
    if (model != RunModel::Baseline || o_.quiet) return;
    std::fprintf(stderr, "baseline: training the original model %s (%lld parameters), %d epochs\n",
                 plan_->original.widthsSummary().c_str(), static_cast<long long>(plan_->originalParams), plan_->epochs);
}

TrainCallbacks TextObserver::modelCallbacks(RunModel model) {
    return progressCallbacks(task_, epochs_, o_.quiet, model == RunModel::Baseline ? "baseline: " : "");
}

void TextObserver::modelFinished(RunModel model, const TrainResult& result) {
    if (model == RunModel::Network && result.status == TrainStatus::EarlyStopped && !o_.quiet)
        std::fprintf(stderr, "early stopping after epoch %zu; keeping the weights of epoch %d\n", result.history.size(),
                     result.bestEpoch);
}

void TextObserver::log(const std::string& line) {
    if (o_.record) o_.record->add(line);
}

void JsonObserver::planned(const SplitPlan& plan, const RunRequest& request) {
    TextObserver::planned(plan, request);
    writePlanEvent(plan, request.baseline);
}

void JsonObserver::networkPlanned(const NetworkSpec& spec, const PreparedData& data, const RunRequest& request) {
    TextObserver::networkPlanned(spec, data, request);
    writeNetworkPlanEvent(request.config.epochs);
}

SubmodelEvents JsonObserver::submodelEvents() { return recorded(jsonSubmodelEvents()); }

void JsonObserver::modelStarted(RunModel model, const WorkerPlace& place) {
    TextObserver::modelStarted(model, place);
    writeStartedEvent(runModelName(model), 0, place);
}

TrainCallbacks JsonObserver::modelCallbacks(RunModel model) { return jsonTrainCallbacks(runModelName(model)); }

void JsonObserver::modelFinished(RunModel model, const TrainResult& result) {
    TextObserver::modelFinished(model, result);
    writeFinishedEvent(runModelName(model), 0, result);
}

}  // namespace skynnet::cli
