#pragma once
// The progress events of a study as one typed value: what `skynnet-cli study --progress json`
// writes, one JSON object per line, and what the desktop app's Study page reads back from the
// study's process. Writer and reader both go through toJson and studyEventFromJson below, so the
// keys live in one place; the run figures and the summaries keep the engine's own JSON forms
// (runJson, summaryJson, studyJson), which study.json holds and the app's study record keeps. The
// wire format is the one version 0.1.0 wrote, in order of a study:
//   {"event":"plan","out":DIR,"runs":[<toJson(PlannedRun)>...],"configurations":[names],"seeds":[S...]}
//   {"event":"run_finished","index":I, <runJson>}      each run an earlier invocation did
//   {"event":"partial_summary","summary":<summaryJson>}  when there were such runs
//   then per run to do:
//   {"event":"run_started","index":I,"run":R,"config":C,"seed":S,"command":[words],"log":PATH}
//   {"event":"run_finished","index":I, <runJson>,"remaining_seconds":T|null}
//   {"event":"partial_summary","summary":<summaryJson>}
//   {"event":"summary","summary":<summaryJson>,"runs":[<runJson>...],"files":[paths]}
//   {"event":"error","message":M}   the study failed or stopped (the exit status is then not 0)
// I counts the runs of the run list from 1. The error event is the training's (ErrorEvent of
// run/progress_event.h, written by the tool's one error path), read here as the same type.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "io/json.h"
#include "run/progress_event.h"
#include "study/study_progress.h"
#include "study/study_summary.h"

namespace skynnet {

// First, once: the study's folder, its run list (the runs already done marked) and what it
// compares.
struct StudyPlanEvent {
    std::string out;  // the study's folder
    std::vector<PlannedRun> runs;
    std::vector<std::string> configurations;  // StudyConfig::name(), in the study's order
    std::vector<std::uint64_t> seeds;
};

// A run starts as a child process: `command` (the program first), its output in `log`.
struct StudyRunStartedEvent {
    int index = 1;  // from 1
    std::string run, config;
    std::uint64_t seed = 1;
    std::vector<std::string> command;
    std::string log;
};

// A run is done, finished or failed: its figures as study.json's "runs" entry (runJson). Reading
// requires its "run", "config", "seed" and "status"; the other figures are kept as they came.
struct StudyRunFinishedEvent {
    int index = 1;  // from 1
    Json run = Json::object();
    // After a run done now: the study's estimate of the time its pending runs take
    // (StudyProgress::remainingSeconds), empty while unknown. `estimated` is false for the runs an
    // earlier invocation did, reported after the plan: their event has no "remaining_seconds".
    bool estimated = false;
    std::optional<double> remainingSeconds;
};

// The aggregates of the runs finished so far (summaryJson), without the inference figures,
// which are measured once every run is done.
struct StudyPartialSummaryEvent {
    Json summary = Json::object();
};

// Last, when every run is done: study.json's summary and runs (now with their inference figures)
// and the files the study wrote.
struct StudySummaryEvent {
    Json summary = Json::object();
    std::vector<Json> runs;  // runJson each
    std::vector<std::string> files;
};

using StudyEvent = std::variant<StudyPlanEvent, StudyRunStartedEvent, StudyRunFinishedEvent, StudyPartialSummaryEvent,
                                StudySummaryEvent, ErrorEvent>;

// "plan", "run_started", ... as in the "event" field.
const char* studyEventName(const StudyEvent& event);

// The events of a study's progress from the engine's study model. `index` counts from 0 here.
StudyPlanEvent studyPlanEvent(const StudyProgress& progress, const std::string& outDir);
StudyRunStartedEvent runStartedEvent(const StudyProgress& progress, int index, std::vector<std::string> command,
                                     std::string logPath);
// Without an estimate (as for a run an earlier invocation did); a run done now sets one.
StudyRunFinishedEvent runFinishedEvent(const StudyProgress& progress, int index, int machines);
StudyPartialSummaryEvent partialSummaryEvent(const StudySummary& summary);
// From study.json's document (studyJson) and the files written.
StudySummaryEvent studySummaryEvent(const Json& studyDocument, std::vector<std::string> files);

// One event line's object (written compact by dumpJson, one per line).
Json toJson(const StudyEvent& event);

// Reads one event object. Empty for an "event" kind this build does not know (a newer tool's),
// which a reader skips; throws Error naming the field at fault for a value that is not an object
// with a string "event", or a known kind with a missing or bad field. Unknown fields are ignored,
// but for a run's figures and the summaries, which are kept whole.
std::optional<StudyEvent> studyEventFromJson(const JsonField& j);

}  // namespace skynnet
