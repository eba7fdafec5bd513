#pragma once
// The progress events of a training run as one typed value: what `skynnet-cli train --progress
// json` writes, one JSON object per line, and what the desktop app reads back from a run in
// another process. Writer and reader both go through toJson and progressEventFromJson below, so
// the keys live in one place. The wire format is the one version 0.1.0 wrote, in order of a run:
//   {"event":"plan","submodels":S,"roles":[...],"epochs":E,"baseline":B,"baseline_epochs":E0}
//   {"event":"started","model":M,"submodel":I,"rank":R,"host":H,"threads":T}
//   {"event":"batch","model":M,"submodel":I, <toJson(BatchProgress)>}
//   {"event":"epoch","model":M,"submodel":I, <toJson(EpochStats)>}
//   {"event":"resources","model":M,"submodel":I,"rank":R,"host":H, <toJson(ResourceSample)>}
//   {"event":"finished","model":M,"submodel":I,"status":..,"error":..,"epochs_run":..,"wall_seconds":..,"cpu_seconds":..}
//   {"event":"result","model":..,"status":..,["message":..,] <the run's other headline figures>,
//    "wall_seconds":..,"train_seconds":..,"cpu_seconds":..,"peak_memory_bytes":..,"model_path":..,"report_path":..}
//   {"event":"error","message":..}
// M is "submodel" (I from 1), "baseline" or "network" (I = 0).
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "io/json.h"
#include "split/worker_pool.h"
#include "train/train_types.h"

namespace skynnet {

// Which model a model event is about: a submodel of the split (numbered from 1), the baseline
// (the whole network trained for comparison) or a single network trained without a split (0).
enum class EventModel { Submodel, Baseline, Network };
struct ModelTag {
    EventModel model = EventModel::Submodel;
    int submodel = 0;
};

// First, once: what the run will train. A single network has no submodels (roles empty) and
// `epochs` of its own.
struct PlanEvent {
    int submodels = 0;
    std::vector<std::string> roles;  // one per submodel
    int epochs = 0;                  // each submodel's (the plan's effective epochs)
    bool baseline = false;
    int baselineEpochs = 0;  // 0 without a baseline
};

// A model starts training at `place` (rank, host and its kernel threads).
struct StartedEvent {
    ModelTag tag;
    WorkerPlace place;
};

struct BatchEvent {
    ModelTag tag;
    BatchProgress progress;
};

struct EpochEvent {
    ModelTag tag;
    EpochStats stats;
};

// Where the model runs (as its started event said) and what it uses there.
struct ResourcesEvent {
    ModelTag tag;
    int rank = 0;
    std::string host;
    ResourceSample sample;
};

// Exactly once per model that started (and per submodel a cancelled run never started).
struct FinishedEvent {
    ModelTag tag;
    TrainStatus status = TrainStatus::Completed;
    std::string error;  // for Failed
    int epochsRun = 0;
    double wallSeconds = 0, cpuSeconds = 0;
};

// Last, on success: the run's headline. The figures every run has are typed; the rest (test
// metrics, the baseline's, a project run's number and metrics) differs between single, split and
// project runs and stays JSON, as the tool wrote it. Reading is lenient here: a typed field that is
// absent keeps its default (the result still says the run completed), one of the wrong type is an
// error naming it.
struct ResultEvent {
    std::string model;  // "combined" (a split or project run) or "network"
    TrainStatus status = TrainStatus::Completed;
    std::optional<std::string> message;  // a project run's message (the app shows it)
    double wallSeconds = 0;              // the command
    double trainSeconds = 0;             // its training
    double cpuSeconds = 0;               // the process
    std::int64_t peakMemoryBytes = 0;
    std::string modelPath, reportPath;  // the files written, "" for none
    Json details = Json::object();      // every other field, in the order written
};

// The run failed (the tool's exit status is then not 0).
struct ErrorEvent {
    std::string message;
};

using ProgressEvent = std::variant<PlanEvent, StartedEvent, BatchEvent, EpochEvent, ResourcesEvent, FinishedEvent,
                                   ResultEvent, ErrorEvent>;

// "plan", "started", ... as in the "event" field.
const char* eventName(const ProgressEvent& event);
// "submodel", "baseline", "network" and back; the parser throws Error for another name.
const char* eventModelName(EventModel model);
EventModel parseEventModel(const std::string& name);

// The model an event is about; empty for plan, result and error.
std::optional<ModelTag> modelTagOf(const ProgressEvent& event);

// A finished event from a model's training result.
FinishedEvent finishedEventOf(const ModelTag& tag, const TrainResult& result);

// One event line's object (written compact by dumpJson, one per line).
Json toJson(const ProgressEvent& event);

// Reads one event object. Empty for an "event" kind this build does not know (a newer tool's),
// which a reader skips; throws Error naming the field at fault for a value that is not an object
// with a string "event", or a known kind with a missing or bad field. Unknown fields are ignored.
std::optional<ProgressEvent> progressEventFromJson(const JsonField& j);
// A result event's fields without "event" (what a command builds its result from), and back from
// them (with or without "event"); lenient as ResultEvent says.
Json resultFields(const ResultEvent& result);
ResultEvent resultEventFromJson(const JsonField& j);

}  // namespace skynnet
