#include "run/progress_event.h"

#include <array>
#include <string_view>
#include <type_traits>

#include "core/error.h"
#include "io/json_fields.h"
#include "project/project_json.h"

namespace skynnet {
namespace {

// Each event type's "event" name, the one place the names are spelled: the writer puts it first,
// the reader dispatches on it.
template <typename T>
constexpr const char* eventKind = nullptr;
template <>
constexpr const char* eventKind<PlanEvent> = "plan";
template <>
constexpr const char* eventKind<StartedEvent> = "started";
template <>
constexpr const char* eventKind<BatchEvent> = "batch";
template <>
constexpr const char* eventKind<EpochEvent> = "epoch";
template <>
constexpr const char* eventKind<ResourcesEvent> = "resources";
template <>
constexpr const char* eventKind<FinishedEvent> = "finished";
template <>
constexpr const char* eventKind<ResultEvent> = "result";
template <>
constexpr const char* eventKind<ErrorEvent> = "error";

template <typename T>
using As = std::type_identity<T>;

// The keys of the result's typed fields: the other members of a result object are its details.
constexpr std::array<std::string_view, 10> resultKeys = {"event",        "model",
                                                         "status",       "message",
                                                         "wall_seconds", "train_seconds",
                                                         "cpu_seconds",  "peak_memory_bytes",
                                                         "model_path",   "report_path"};

bool isResultKey(std::string_view key) {
    for (std::string_view k : resultKeys)
        if (k == key) return true;
    return false;
}

void merge(Json& into, const Json& fields) {
    for (auto it = fields.begin(); it != fields.end(); ++it) into[it.key()] = it.value();
}

void writeTag(Json& j, const ModelTag& tag) {
    j["model"] = eventModelName(tag.model);
    j["submodel"] = tag.submodel;
}

ModelTag readTag(const JsonField& j) {
    return ModelTag{parseNamed(j.at("model"), parseEventModel), intAtLeast(j.at("submodel"), 0)};
}

// Each event's fields after "event", and back. Unknown fields are ignored on reading.

void write(Json& j, const PlanEvent& e) {
    j["submodels"] = e.submodels;
    j["roles"] = e.roles;
    j["epochs"] = e.epochs;
    j["baseline"] = e.baseline;
    j["baseline_epochs"] = e.baselineEpochs;
}

PlanEvent read(const JsonField& j, As<PlanEvent>) {
    PlanEvent e;
    e.submodels = intAtLeast(j.at("submodels"), 0);
    e.roles = j.at("roles").get<std::vector<std::string>>();
    e.epochs = intAtLeast(j.at("epochs"), 0);
    e.baseline = j.at("baseline").asBool();
    e.baselineEpochs = intAtLeast(j.at("baseline_epochs"), 0);
    return e;
}

void write(Json& j, const StartedEvent& e) {
    writeTag(j, e.tag);
    j["rank"] = e.place.rank;
    j["host"] = e.place.host;
    j["threads"] = e.place.kernelThreads;
}

StartedEvent read(const JsonField& j, As<StartedEvent>) {
    StartedEvent e{readTag(j), {}};
    e.place.rank = intAtLeast(j.at("rank"), 0);
    e.place.host = j.at("host").asString();
    e.place.kernelThreads = intAtLeast(j.at("threads"), 0);
    return e;
}

void write(Json& j, const BatchEvent& e) {
    writeTag(j, e.tag);
    merge(j, toJson(e.progress));
}

BatchEvent read(const JsonField& j, As<BatchEvent>) { return BatchEvent{readTag(j), batchProgressFromJson(j)}; }

void write(Json& j, const EpochEvent& e) {
    writeTag(j, e.tag);
    merge(j, toJson(e.stats));
}

EpochEvent read(const JsonField& j, As<EpochEvent>) { return EpochEvent{readTag(j), epochStatsFromJson(j)}; }

void write(Json& j, const ResourcesEvent& e) {
    writeTag(j, e.tag);
    j["rank"] = e.rank;
    j["host"] = e.host;
    merge(j, toJson(e.sample));
}

ResourcesEvent read(const JsonField& j, As<ResourcesEvent>) {
    return ResourcesEvent{readTag(j), intAtLeast(j.at("rank"), 0), j.at("host").asString(), resourceSampleFromJson(j)};
}

// wall_seconds and cpu_seconds as plain numbers, as 0.1.0 wrote them (they are always finite).
void write(Json& j, const FinishedEvent& e) {
    writeTag(j, e.tag);
    j["status"] = statusName(e.status);
    j["error"] = e.error;
    j["epochs_run"] = e.epochsRun;
    j["wall_seconds"] = e.wallSeconds;
    j["cpu_seconds"] = e.cpuSeconds;
}

FinishedEvent read(const JsonField& j, As<FinishedEvent>) {
    FinishedEvent e;
    e.tag = readTag(j);
    e.status = trainStatusFromJson(j.at("status"));
    e.error = j.at("error").asString();
    e.epochsRun = intAtLeast(j.at("epochs_run"), 0);
    e.wallSeconds = numberFromJson(j.at("wall_seconds"));
    e.cpuSeconds = numberFromJson(j.at("cpu_seconds"));
    return e;
}

// The typed fields first and the details after them, as the tool's writers put them; the figures
// every result has last.
void write(Json& j, const ResultEvent& e) {
    j["model"] = e.model;
    j["status"] = statusName(e.status);
    if (e.message) j["message"] = *e.message;
    for (auto it = e.details.begin(); it != e.details.end(); ++it)
        if (!isResultKey(it.key())) j[it.key()] = it.value();
    j["wall_seconds"] = e.wallSeconds;
    j["train_seconds"] = e.trainSeconds;
    j["cpu_seconds"] = e.cpuSeconds;
    j["peak_memory_bytes"] = e.peakMemoryBytes;
    j["model_path"] = e.modelPath;
    j["report_path"] = e.reportPath;
}

ResultEvent read(const JsonField& j, As<ResultEvent>) { return resultEventFromJson(j); }

void write(Json& j, const ErrorEvent& e) { j["message"] = e.message; }

ErrorEvent read(const JsonField& j, As<ErrorEvent>) { return ErrorEvent{j.at("message").asString()}; }

// The reader of the variant's alternative named `kind`, from the first; none for an unknown kind.
template <std::size_t I = 0>
std::optional<ProgressEvent> readKind(const std::string& kind, const JsonField& j) {
    if constexpr (I == std::variant_size_v<ProgressEvent>) {
        return std::nullopt;
    } else {
        using T = std::variant_alternative_t<I, ProgressEvent>;
        if (kind == eventKind<T>) return ProgressEvent(read(j, As<T>{}));
        return readKind<I + 1>(kind, j);
    }
}

template <typename T, typename Read>
void readIfPresent(const JsonField& j, std::string_view key, T& into, Read read) {
    if (const auto v = j.find(key)) into = read(*v);
}

std::string stringOf(const JsonField& j) { return j.asString(); }

}  // namespace

const char* eventName(const ProgressEvent& event) {
    return std::visit([](const auto& e) { return eventKind<std::decay_t<decltype(e)>>; }, event);
}

const char* eventModelName(EventModel model) {
    switch (model) {
    case EventModel::Submodel: return "submodel";
    case EventModel::Baseline: return "baseline";
    case EventModel::Network: return "network";
    }
    return "submodel";
}

EventModel parseEventModel(const std::string& name) {
    if (name == "submodel") return EventModel::Submodel;
    if (name == "baseline") return EventModel::Baseline;
    if (name == "network") return EventModel::Network;
    throw Error("unknown model '" + name + "' (expected submodel, baseline or network)");
}

std::optional<ModelTag> modelTagOf(const ProgressEvent& event) {
    return std::visit(
        [](const auto& e) -> std::optional<ModelTag> {
            if constexpr (requires { e.tag; }) return e.tag;
            else return std::nullopt;
        },
        event);
}

FinishedEvent finishedEventOf(const ModelTag& tag, const TrainResult& result) {
    return FinishedEvent{tag,
                         result.status,
                         result.error,
                         int(result.history.size()),
                         result.wallSeconds,
                         result.cpuSeconds};
}

Json toJson(const ProgressEvent& event) {
    Json j = Json::object({{"event", eventName(event)}});
    std::visit([&j](const auto& e) { write(j, e); }, event);
    return j;
}

std::optional<ProgressEvent> progressEventFromJson(const JsonField& j) {
    if (!j.isObject()) j.fail("must be an object (a progress event)");
    return readKind(j.at("event").asString(), j);
}

Json resultFields(const ResultEvent& result) {
    Json j = Json::object();
    write(j, result);
    return j;
}

ResultEvent resultEventFromJson(const JsonField& j) {
    if (!j.isObject()) j.fail("must be an object (a result event)");
    ResultEvent e;
    readIfPresent(j, "model", e.model, stringOf);
    readIfPresent(j, "status", e.status, trainStatusFromJson);
    if (const auto v = j.find("message")) e.message = v->asString();
    readIfPresent(j, "wall_seconds", e.wallSeconds, numberFromJson);
    readIfPresent(j, "train_seconds", e.trainSeconds, numberFromJson);
    readIfPresent(j, "cpu_seconds", e.cpuSeconds, numberFromJson);
    readIfPresent(j, "peak_memory_bytes", e.peakMemoryBytes, [](const JsonField& v) { return v.asInt64(); });
    readIfPresent(j, "model_path", e.modelPath, stringOf);
    readIfPresent(j, "report_path", e.reportPath, stringOf);
    const Json& all = j.json();
    for (auto it = all.begin(); it != all.end(); ++it)
        if (!isResultKey(it.key())) e.details[it.key()] = it.value();
    return e;
}

}  // namespace skynnet
