#include "json_progress.h"

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>

#include "cli_args.h"
#include "project/project_json.h"

namespace skynnet::cli {
namespace {

// One lock for stdout: events come from every worker thread, and a line must never be split.
std::mutex& stdoutLock() {
    static std::mutex lock;
    return lock;
}

std::atomic<bool> errorsAsJson{false};

void merge(Json& into, const Json& fields) {
    for (auto it = fields.begin(); it != fields.end(); ++it) into[it.key()] = it.value();
}

Json placeFields(Json event, const WorkerPlace& place) {
    event["rank"] = place.rank;
    event["host"] = place.host;
    return event;
}

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

Json batchEvent(const std::string& model, int submodel, const BatchProgress& b) {
    Json e = modelEvent("batch", model, submodel);
    merge(e, toJson(b));
    return e;
}

Json epochEvent(const std::string& model, int submodel, const EpochStats& s) {
    Json e = modelEvent("epoch", model, submodel);
    merge(e, toJson(s));
    return e;
}

Json resourcesEvent(const std::string& model, int submodel, const WorkerPlace& place, const ResourceSample& r) {
    Json e = placeFields(modelEvent("resources", model, submodel), place);
    merge(e, toJson(r));
    return e;
}

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

void writeResultEvent(const Json& fields) {
    Json e = Json::object({{"event", "result"}});
    merge(e, fields);
    writeEvent(e);
}

void addResultFigures(Json& r, double wallSeconds, double trainSeconds, double cpuSeconds, std::int64_t peakBytes,
                      const std::string& modelPath, const std::string& reportPath) {
    r["wall_seconds"] = wallSeconds;
    r["train_seconds"] = trainSeconds;
    r["cpu_seconds"] = cpuSeconds;
    r["peak_memory_bytes"] = peakBytes;
    r["model_path"] = modelPath;
    r["report_path"] = reportPath;
}

void reportErrorsAsJson() { errorsAsJson.store(true); }
bool errorsReportedAsJson() { return errorsAsJson.load(); }

void writeEvent(const Json& event) {
    const std::string line = dumpJson(event) + "\n";
    const std::lock_guard<std::mutex> hold(stdoutLock());
    std::fputs(line.c_str(), stdout);
    std::fflush(stdout);
}

Json modelEvent(const char* event, const std::string& model, int submodel) {
    return Json::object({{"event", event}, {"model", model}, {"submodel", submodel}});
}

void writePlanEvent(const SplitPlan& plan, bool baseline) {
    Json roles = Json::array();
    for (const auto& m : plan.submodels) roles.push_back(m.role);
    writeEvent(Json::object({{"event", "plan"},
                             {"submodels", plan.submodelCount()},
                             {"roles", std::move(roles)},
                             {"epochs", plan.effectiveEpochs},
                             {"baseline", baseline},
                             {"baseline_epochs", baseline ? plan.epochs : 0}}));
}

void writeNetworkPlanEvent(int epochs) {
    writeEvent(Json::object({{"event", "plan"},
                             {"submodels", 0},
                             {"roles", Json::array()},
                             {"epochs", epochs},
                             {"baseline", false},
                             {"baseline_epochs", 0}}));
}

void writeStartedEvent(const std::string& model, int submodel, const WorkerPlace& place) {
    Json e = placeFields(modelEvent("started", model, submodel), place);
    e["threads"] = place.kernelThreads;
    writeEvent(e);
}

void writeFinishedEvent(const std::string& model, int submodel, const TrainResult& r) {
    Json e = modelEvent("finished", model, submodel);
    e["status"] = statusName(r.status);
    e["error"] = r.error;
    e["epochs_run"] = int(r.history.size());
    e["wall_seconds"] = r.wallSeconds;
    e["cpu_seconds"] = r.cpuSeconds;
    writeEvent(e);
}

SubmodelEvents jsonSubmodelEvents() {
    // Shared by the handlers, which the trainer copies; they have all returned before train() does.
    const auto where = std::make_shared<SubmodelPlaces>();
    const std::string model = "submodel";
    SubmodelEvents events;
    events.onSubmodelStarted = [=](int i, const WorkerPlace& place) {
        {
            const std::lock_guard<std::mutex> hold(where->mutex);
            where->at(i) = place;
        }
        writeStartedEvent(model, i + 1, place);
    };
    events.onBatch = [=](int i, const BatchProgress& b) { writeEvent(batchEvent(model, i + 1, b)); };
    events.onEpoch = [=](int i, const EpochStats& s) { writeEvent(epochEvent(model, i + 1, s)); };
    events.onResources = [=](int i, const ResourceSample& r) {
        WorkerPlace place;
        {
            const std::lock_guard<std::mutex> hold(where->mutex);
            place = where->at(i);
        }
        writeEvent(resourcesEvent(model, i + 1, place, r));
    };
    events.onSubmodelFinished = [=](int i, const TrainResult& r) { writeFinishedEvent(model, i + 1, r); };
    return events;
}

TrainCallbacks jsonTrainCallbacks(const std::string& model) {
    const WorkerPlace place = thisProcess();
    TrainCallbacks c;
    c.onBatch = [=](const BatchProgress& b) { writeEvent(batchEvent(model, 0, b)); };
    c.onEpoch = [=](const EpochStats& s) { writeEvent(epochEvent(model, 0, s)); };
    c.onResources = [=](const ResourceSample& r) { writeEvent(resourcesEvent(model, 0, place, r)); };
    return c;
}

}  // namespace skynnet::cli
