// `skynnet-cli study`, the driver: the options, the engine's study model (engine/study/: the run
// list, the resume rule, the summary, the files' text), each pending run as a child train process
// (study_runner.h), then the summary files. See study_options.h for the command line.
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include "commands.h"
#include "core/error.h"
#include "io/atomic_file.h"
#include "study_inference.h"
#include "study_outputs.h"
#include "study_reporter.h"
#include "study_runner.h"

namespace skynnet::cli {
namespace {

namespace fs = std::filesystem;

// A word as a shell would need it.
std::string shellWord(const std::string& w) {
    if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:+@%") ==
                          std::string::npos)
        return w;
    std::string q = "'";
    for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string commandText(const std::vector<std::string>& words) {
    std::string s = "skynnet-cli study";
    for (const std::string& w : words) s += " " + shellWord(w);
    return s;
}

// The study's folder, created if needed. The study already in it must be this one (the engine's
// resume rule continues only the same setup); a new folder records this study's setup.
void openStudyFolder(const StudyOptions& o) {
    std::error_code ec;
    fs::create_directories(o.outDir + "/runs", ec);
    if (ec) throw Error("--out " + o.outDir + ": cannot create the folder " + o.outDir + "/runs: " + ec.message());
    if (::access((o.outDir + "/runs").c_str(), W_OK) != 0)
        throw Error("--out " + o.outDir + ": the folder is not writable");
    const std::string path = o.outDir + "/study_options.json";
    if (!fs::exists(path)) {
        writeFileAtomically(path, dumpJson(o.plan.setupJson(), 2) + "\n");
        return;
    }
    const std::vector<std::string> differences = studySetupDifferences(parseJson(readFile(path), path), o.plan);
    if (differences.empty()) return;
    std::string list;
    for (const std::string& d : differences) list += (list.empty() ? "" : "; ") + d;
    throw Error("--out " + o.outDir + " holds a study made with other options (" + list + "; recorded in " + path +
                "): use another --out folder, or the same options to continue that study");
}

// 0 when every run finished; otherwise the failures named, and status 1.
int failureStatus(const StudyProgress& progress) {
    const std::vector<const StudyRun*> failed = progress.failed();
    if (failed.empty()) return exitOk;
    std::string list;
    for (const StudyRun* r : failed) list += (list.empty() ? "" : "; ") + r->spec.name() + ": " + r->error;
    printError(std::to_string(failed.size()) + " of " + std::to_string(progress.total()) + " runs failed (" + list +
               "); the study's files hold the others");
    return exitFailure;
}

}  // namespace

int runStudy(const std::vector<std::string>& words) {
    if (progressFormatIn(words) == ProgressFormat::Json) reportErrorsAsJson();
    const StudyOptions o = parseStudyOptions(words);
    if (o.help) {
        std::cout << studyHelp();
        return exitOk;
    }
    const std::string commandLine = commandText(words);
    openStudyFolder(o);
    StudyProgress progress(o.plan, o.outDir);
    StudyReporter reporter(o, progress);
    reporter.planned(progress.resume());

    const StudyStop stop = runPendingRuns(o, progress, reporter);
    if (stop.stopped) {
        printError("interrupted by " + stop.signal + ": " + std::to_string(progress.finished()) + " of " +
                   std::to_string(progress.total()) + " runs are finished and kept in " + o.outDir +
                   "/runs; run the same command again to continue the study");
        return exitInterrupted;
    }
    measureStudyRuns(progress, o.train.threads);  // inference cost, with no training beside it
    const StudySummary summary = summarizeStudy(progress.runs(), o.plan, o.machines);
    const Json document = writeStudyFiles(o, progress, summary, commandLine);
    reporter.summarized(document, studyFiles(o.outDir), summary);
    return failureStatus(progress);
}

}  // namespace skynnet::cli
