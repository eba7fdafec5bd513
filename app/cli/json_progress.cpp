#include "json_progress.h"

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>

#include "cli_args.h"

namespace skynnet::cli {
namespace {

// One lock for stdout: events come from every worker thread, and a line must never be split.
std::mutex& stdoutLock() {
    static std::mutex lock;
    return lock;
}

std::atomic<bool> errorsAsJson{false};

WorkerPlace thisProcess() {
    WorkerPlace p;
    p.host = localHostName();
    return p;
}

// Where each submodel runs, shared by the handlers: its resources events name the place its
// started event reported. (The trainer already throttles batch reports: TrainConfig::batchReportSeconds.)
struct SubmodelPlaces {
    std::mutex mutex;
    std::vector<WorkerPlace> places;

    WorkerPlace& at(int index) {
        if (std::size_t(index) >= places.size()) places.resize(std::size_t(index) + 1, thisProcess());
        return places[std::size_t(index)];
    }
};

ResourcesEvent resourcesEvent(const ModelTag& tag, const WorkerPlace& place, const ResourceSample& r) {
    return ResourcesEvent{tag, place.rank, place.host, r};
}

// Submodel `index` (from 0) of the plan, numbered from 1 in the events.
ModelTag submodelTag(int index) { return ModelTag{EventModel::Submodel, index + 1}; }

}  // namespace

ProgressFormat progressFormatIn(const std::vector<std::string>& words) {
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (words[i] == "--progress=json") return ProgressFormat::Json;
        if (words[i] == "--progress" && i + 1 < words.size() && words[i + 1] == "json") return ProgressFormat::Json;
    }
    return ProgressFormat::Text;
}

ProgressFormat parseProgressFormat(const std::string& value) {
    if (value == "text") return ProgressFormat::Text;
    if (value == "json") return ProgressFormat::Json;
    Args::fail("--progress", "expected text or json, not '" + value + "'");
}

std::string progressHelp() {
    return "\nWith --progress json, stdout gets one JSON object per line and nothing else (the summary goes to\n"
           "stderr). Every object has \"event\": plan, then per model started, batch (throttled),\n"
           "epoch, resources and finished, each with \"model\" (submodel, baseline or network) and \"submodel\"\n"
           "(from 1; 0 for the baseline or the single network), started and resources with the \"rank\" and\n"
           "\"host\" it runs on; then one result (test metrics, times, output paths), or an error {\"message\"}\n"
           "with a non-zero exit status.\n";
}

void writeResultEvent(const Json& fields) { writeEvent(resultEventFromJson(JsonField(fields, "result event"))); }

void addResultFigures(Json& r, double wallSeconds, double trainSeconds, double cpuSeconds, std::int64_t peakBytes,
                      const std::string& modelPath, const std::string& reportPath) {
    ResultEvent e = resultEventFromJson(JsonField(r, "result event"));
    e.wallSeconds = wallSeconds;
    e.trainSeconds = trainSeconds;
    e.cpuSeconds = cpuSeconds;
    e.peakMemoryBytes = peakBytes;
    e.modelPath = modelPath;
    e.reportPath = reportPath;
    r = resultFields(e);
}

void reportErrorsAsJson() { errorsAsJson.store(true); }
bool errorsReportedAsJson() { return errorsAsJson.load(); }

void writeEvent(const ProgressEvent& event) { writeEvent(toJson(event)); }

void writeEvent(const Json& event) {
    const std::string line = dumpJson(event) + "\n";
    const std::lock_guard<std::mutex> hold(stdoutLock());
    std::fputs(line.c_str(), stdout);
    std::fflush(stdout);
}

void writeErrorEvent(const std::string& message) { writeEvent(ErrorEvent{message}); }

void writePlanEvent(const SplitPlan& plan, bool baseline) {
    PlanEvent e;
    e.submodels = plan.submodelCount();
    for (const auto& m : plan.submodels) e.roles.push_back(m.role);
    e.epochs = plan.effectiveEpochs;
    e.baseline = baseline;
    e.baselineEpochs = baseline ? plan.epochs : 0;
    writeEvent(e);
}

void writeNetworkPlanEvent(int epochs) {
    PlanEvent e;
    e.epochs = epochs;
    writeEvent(e);
}

void writeStartedEvent(const std::string& model, int submodel, const WorkerPlace& place) {
    writeEvent(StartedEvent{ModelTag{parseEventModel(model), submodel}, place});
}

void writeFinishedEvent(const std::string& model, int submodel, const TrainResult& r) {
    writeEvent(finishedEventOf(ModelTag{parseEventModel(model), submodel}, r));
}

SubmodelEvents jsonSubmodelEvents() {
    // Shared by the handlers, which the trainer copies; they have all returned before train() does.
    const auto where = std::make_shared<SubmodelPlaces>();
    SubmodelEvents events;
    events.onSubmodelStarted = [=](int i, const WorkerPlace& place) {
        {
            const std::lock_guard<std::mutex> hold(where->mutex);
            where->at(i) = place;
        }
        writeEvent(StartedEvent{submodelTag(i), place});
    };
    events.onBatch = [](int i, const BatchProgress& b) { writeEvent(BatchEvent{submodelTag(i), b}); };
    events.onEpoch = [](int i, const EpochStats& s) { writeEvent(EpochEvent{submodelTag(i), s}); };
    events.onResources = [=](int i, const ResourceSample& r) {
        WorkerPlace place;
        {
            const std::lock_guard<std::mutex> hold(where->mutex);
            place = where->at(i);
        }
        writeEvent(resourcesEvent(submodelTag(i), place, r));
    };
    events.onSubmodelFinished = [](int i, const TrainResult& r) { writeEvent(finishedEventOf(submodelTag(i), r)); };
    return events;
}

TrainCallbacks jsonTrainCallbacks(const std::string& model) {
    const WorkerPlace place = thisProcess();
    const ModelTag tag{parseEventModel(model), 0};
    TrainCallbacks c;
    c.onBatch = [=](const BatchProgress& b) { writeEvent(BatchEvent{tag, b}); };
    c.onEpoch = [=](const EpochStats& s) { writeEvent(EpochEvent{tag, s}); };
    c.onResources = [=](const ResourceSample& r) { writeEvent(resourcesEvent(tag, place, r)); };
    return c;
}

}  // namespace skynnet::cli
