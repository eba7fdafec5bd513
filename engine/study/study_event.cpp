#include "study/study_event.h"

#include <array>
#include <string_view>
#include <type_traits>

#include "core/error.h"
#include "io/json_fields.h"

namespace skynnet {
namespace {

// Each event type's "event" name, the one place the names are spelled: the writer puts it first,
// the reader dispatches on it.
template <typename T>
constexpr const char* eventKind = nullptr;
template <>
constexpr const char* eventKind<StudyPlanEvent> = "plan";
template <>
constexpr const char* eventKind<StudyRunStartedEvent> = "run_started";
template <>
constexpr const char* eventKind<StudyRunFinishedEvent> = "run_finished";
template <>
constexpr const char* eventKind<StudyPartialSummaryEvent> = "partial_summary";
template <>
constexpr const char* eventKind<StudySummaryEvent> = "summary";
template <>
constexpr const char* eventKind<ErrorEvent> = "error";

template <typename T>
using As = std::type_identity<T>;

// The run_finished event's own keys; its other members are the run's figures.
constexpr std::array<std::string_view, 3> runEventKeys = {"event", "index", "remaining_seconds"};

bool isRunEventKey(std::string_view key) {
    for (std::string_view k : runEventKeys)
        if (k == key) return true;
    return false;
}

// A run's figures as runJson wrote them: what the app's record needs of them checked, kept whole
// but for the run event's own keys.
Json runFiguresFrom(const JsonField& j) {
    if (!j.isObject()) j.fail("must be an object (a run's figures)");
    (void)j.at("run").asString();
    (void)j.at("config").asString();
    (void)j.at("seed").get<std::uint64_t>();
    (void)j.at("status").asString();
    Json run = Json::object();
    const Json& all = j.json();
    for (auto it = all.begin(); it != all.end(); ++it)
        if (!isRunEventKey(it.key())) run[it.key()] = it.value();
    return run;
}

// A summary as summaryJson wrote it: an object with its configurations, kept whole.
Json summaryFrom(const JsonField& j) {
    if (!j.isObject()) j.fail("must be an object (a study's summary)");
    for (const JsonField& c : j.at("configurations").asArray()) {
        if (!c.isObject()) c.fail("must be an object (a configuration's aggregates)");
        (void)c.at("config").asString();
    }
    return j.json();
}

// Each event's fields after "event", and back. Unknown fields are ignored on reading.

void write(Json& j, const StudyPlanEvent& e) {
    j["out"] = e.out;
    Json runs = Json::array();
    for (const PlannedRun& r : e.runs) runs.push_back(toJson(r));
    j["runs"] = runs;
    j["configurations"] = e.configurations;
    j["seeds"] = e.seeds;
}

StudyPlanEvent read(const JsonField& j, As<StudyPlanEvent>) {
    StudyPlanEvent e;
    e.out = j.at("out").asString();
    for (const JsonField& r : j.at("runs").asArray()) e.runs.push_back(plannedRunFromJson(r));
    e.configurations = j.at("configurations").get<std::vector<std::string>>();
    e.seeds = j.at("seeds").get<std::vector<std::uint64_t>>();
    return e;
}

void write(Json& j, const StudyRunStartedEvent& e) {
    j["index"] = e.index;
    j["run"] = e.run;
    j["config"] = e.config;
    j["seed"] = e.seed;
    j["command"] = e.command;
    j["log"] = e.log;
}

StudyRunStartedEvent read(const JsonField& j, As<StudyRunStartedEvent>) {
    StudyRunStartedEvent e;
    e.index = intAtLeast(j.at("index"), 1);
    e.run = j.at("run").asString();
    e.config = j.at("config").asString();
    e.seed = j.at("seed").get<std::uint64_t>();
    e.command = j.at("command").get<std::vector<std::string>>();
    e.log = j.at("log").asString();
    return e;
}

// The figures between the index and the estimate, as 0.1.0 wrote them; a figure named like one
// of the event's own keys never overrides it.
void write(Json& j, const StudyRunFinishedEvent& e) {
    j["index"] = e.index;
    for (auto it = e.run.begin(); it != e.run.end(); ++it)
        if (!isRunEventKey(it.key())) j[it.key()] = it.value();
    if (e.estimated) j["remaining_seconds"] = e.remainingSeconds ? Json(*e.remainingSeconds) : Json();
}

StudyRunFinishedEvent read(const JsonField& j, As<StudyRunFinishedEvent>) {
    StudyRunFinishedEvent e;
    e.index = intAtLeast(j.at("index"), 1);
    e.run = runFiguresFrom(j);
    if (const auto left = j.find("remaining_seconds")) {
        e.estimated = true;
        if (!left->isNull()) e.remainingSeconds = left->asDouble();
    }
    return e;
}

void write(Json& j, const StudyPartialSummaryEvent& e) { j["summary"] = e.summary; }

StudyPartialSummaryEvent read(const JsonField& j, As<StudyPartialSummaryEvent>) {
    return StudyPartialSummaryEvent{summaryFrom(j.at("summary"))};
}

void write(Json& j, const StudySummaryEvent& e) {
    j["summary"] = e.summary;
    j["runs"] = e.runs;
    j["files"] = e.files;
}

StudySummaryEvent read(const JsonField& j, As<StudySummaryEvent>) {
    StudySummaryEvent e;
    e.summary = summaryFrom(j.at("summary"));
    for (const JsonField& r : j.at("runs").asArray()) e.runs.push_back(runFiguresFrom(r));
    e.files = j.at("files").get<std::vector<std::string>>();
    return e;
}

// The error event is the training's: its one writer and reader.
void write(Json& j, const ErrorEvent& e) { j = toJson(ProgressEvent(e)); }

ErrorEvent read(const JsonField& j, As<ErrorEvent>) { return std::get<ErrorEvent>(*progressEventFromJson(j)); }

// The reader of the variant's alternative named `kind`, from the first; none for an unknown kind.
template <std::size_t I = 0>
std::optional<StudyEvent> readKind(const std::string& kind, const JsonField& j) {
    if constexpr (I == std::variant_size_v<StudyEvent>) {
        return std::nullopt;
    } else {
        using T = std::variant_alternative_t<I, StudyEvent>;
        if (kind == eventKind<T>) return StudyEvent(read(j, As<T>{}));
        return readKind<I + 1>(kind, j);
    }
}

}  // namespace

const char* studyEventName(const StudyEvent& event) {
    return std::visit([](const auto& e) { return eventKind<std::decay_t<decltype(e)>>; }, event);
}

StudyPlanEvent studyPlanEvent(const StudyProgress& progress, const std::string& outDir) {
    StudyPlanEvent e{outDir, progress.runList(), {}, progress.plan().seeds};
    for (const StudyConfig& c : progress.plan().configs()) e.configurations.push_back(c.name());
    return e;
}

StudyRunStartedEvent runStartedEvent(const StudyProgress& progress, int index, std::vector<std::string> command,
                                     std::string logPath) {
    const StudyRunSpec& spec = progress.runs()[std::size_t(index)].spec;
    return StudyRunStartedEvent{index + 1, spec.name(),        spec.config.name(),
                                spec.seed, std::move(command), std::move(logPath)};
}

StudyRunFinishedEvent runFinishedEvent(const StudyProgress& progress, int index, int machines) {
    return StudyRunFinishedEvent{index + 1, runJson(progress.runs()[std::size_t(index)], machines), false,
                                 std::nullopt};
}

StudyPartialSummaryEvent partialSummaryEvent(const StudySummary& summary) {
    return StudyPartialSummaryEvent{summaryJson(summary)};
}

StudySummaryEvent studySummaryEvent(const Json& studyDocument, std::vector<std::string> files) {
    return StudySummaryEvent{studyDocument.at("summary"), studyDocument.at("runs").get<std::vector<Json>>(),
                             std::move(files)};
}

Json toJson(const StudyEvent& event) {
    Json j = Json::object({{"event", studyEventName(event)}});
    std::visit([&j](const auto& e) { write(j, e); }, event);
    return j;
}

std::optional<StudyEvent> studyEventFromJson(const JsonField& j) {
    if (!j.isObject()) j.fail("must be an object (a study's progress event)");
    return readKind(j.at("event").asString(), j);
}

}  // namespace skynnet
