#include "study_reporter.h"

#include <cstdio>
#include <iostream>

#include "study/study_event.h"
#include "study/study_outputs.h"
#include "text_format.h"

namespace skynnet::cli {
namespace {

std::string durationText(double seconds) {
    const long s = long(seconds + 0.5);
    if (s < 60) return std::to_string(s) + " s";
    if (s < 3600) return std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
    return std::to_string(s / 3600) + " h " + std::to_string(s % 3600 / 60) + " min";
}

std::string metricText(const StudyRun& r) {
    if (!r.finished) return "failed: " + r.error;
    return r.metricName + " " + fixed(r.metric, 4) + ", wall " + fixed(r.wallSeconds, 2) + " s";
}

// One line of the study's stream: every event goes through the engine's one writer.
void writeStudyEvent(const StudyEvent& event) { writeEvent(toJson(event)); }

}  // namespace

StudyReporter::StudyReporter(const StudyOptions& options, const StudyProgress& progress)
    : options_(options), progress_(progress), json_(options.progress == ProgressFormat::Json) {}

// With --progress json: the aggregates of the runs finished so far, without the inference figures
// (measured once all runs are done), so that a front end shows a stopped study's table too.
void StudyReporter::partialSummary() {
    writeStudyEvent(partialSummaryEvent(summarizeStudy(progress_.runs(), progress_.plan(), options_.machines)));
}

void StudyReporter::planned(const std::vector<std::pair<std::string, std::string>>& runAgain) {
    for (const auto& [run, why] : runAgain)
        std::fprintf(stderr, "study: running %s again: %s\n", run.c_str(), why.c_str());
    const StudyPlan& plan = progress_.plan();
    if (json_) {
        writeStudyEvent(studyPlanEvent(progress_, options_.outDir));
        // The runs an earlier invocation did, without an estimate.
        for (int i = 0; i < progress_.total(); ++i)
            if (!progress_.pending(i)) writeStudyEvent(runFinishedEvent(progress_, i, options_.machines));
        if (progress_.reused() > 0) partialSummary();
    }
    std::fprintf(stderr, "study: %d runs (%zu configurations x %zu seeds) in %s, %d already done\n", progress_.total(),
                 plan.configs().size(), plan.seeds.size(), options_.outDir.c_str(), progress_.reused());
}

void StudyReporter::runStarted(int index, const std::vector<std::string>& command, const std::string& logPath) {
    const StudyRunSpec& spec = progress_.runs()[std::size_t(index)].spec;
    std::fprintf(stderr, "study: run %d/%d %s started (log %s)\n", index + 1, progress_.total(), spec.name().c_str(),
                 logPath.c_str());
    if (json_) writeStudyEvent(runStartedEvent(progress_, index, command, logPath));
}

void StudyReporter::runFinished(int index) {
    const StudyRun& run = progress_.runs()[std::size_t(index)];
    const std::optional<double> left = progress_.remainingSeconds();
    std::fprintf(stderr, "study: run %d/%d %s: %s; %s\n", index + 1, progress_.total(), run.spec.name().c_str(),
                 metricText(run).c_str(),
                 left ? ("about " + durationText(*left) + " left").c_str() : "time left unknown");
    if (!json_) return;
    StudyRunFinishedEvent e = runFinishedEvent(progress_, index, options_.machines);
    e.estimated = true;
    e.remainingSeconds = left;
    writeStudyEvent(e);
    partialSummary();
}

void StudyReporter::summarized(const Json& document, const std::vector<std::string>& files,
                               const StudySummary& summary) {
    if (json_) writeStudyEvent(studySummaryEvent(document, files));  // the runs again, now with their inference figures
    // With --progress json stdout holds events only: the table is for the person watching stderr.
    std::ostream& out = json_ ? std::cerr : std::cout;
    out << alignedTable(studyTableRows(summary), {0, 3, 8}) << "\n" << recommendationText(summary);
    out << "study written to " << options_.outDir << "/study.json, study.csv, study.md and study.png\n";
    out.flush();
}

}  // namespace skynnet::cli
