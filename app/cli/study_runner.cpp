#include "study_runner.h"

#include <filesystem>
#include <optional>

#include "core/error.h"
#include "io/atomic_file.h"
#include "mpi_launch.h"
#include "study_child.h"
#include "study_project.h"

namespace skynnet::cli {
namespace {

namespace fs = std::filesystem;

// The last "skynnet-cli: <message>" line of a run's log: why it failed, in its own words.
std::string failureIn(const std::string& logPath) {
    std::string text;
    try {
        text = readFile(logPath);
    } catch (const Error&) {
        return "";
    }
    const std::string prefix = "skynnet-cli: ";
    std::string found;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        if (text.compare(at, prefix.size(), prefix) == 0)
            found = text.substr(at + prefix.size(), end - at - prefix.size());
        at = end + 1;
    }
    return found;
}

// Clears what an earlier, stopped attempt at the run left and returns its train command (without
// the program); with a project, writes the copy the run trains.
std::vector<std::string> prepareRun(const StudyOptions& o, const std::optional<ProjectData>& project,
                                    const StudyRunSpec& spec, const StudyRunFiles& f) {
    // A run stopped earlier left its checkpoints: this one starts afresh, so its times are whole.
    std::error_code ec;
    fs::remove_all(f.model + ".checkpoint", ec);
    if (!project) return runTrainArgs(o, spec, f.report, f.model);
    fs::remove_all(f.project + ".checkpoint", ec);
    fs::remove(f.model, ec);  // a model left from an earlier copy is not this run's
    saveProject(f.project, runProjectCopy(*project, spec));
    return projectRunArgs(f.project, f.report, o.train.threadsGiven ? o.train.threads : 0);
}

// A run that ended on its own: its figures from its files, or why it failed.
StudyRun outcomeOf(const StudyProgress& progress, int index, const ChildExit& exit) {
    const StudyRunFiles f = progress.files(index);
    StudyRun run;
    if (exit.exitCode == 0 && fs::exists(f.report)) {
        try {
            return progress.readRun(index);
        } catch (const Error& e) {
            run.error = e.what();
            return run;
        }
    }
    const std::string why = failureIn(f.log);
    run.error = exit.describe() + (why.empty() ? "" : ": " + why) + " (see " + f.log + ")";
    return run;
}

}  // namespace

StudyStop runPendingRuns(const StudyOptions& o, StudyProgress& progress, StudyReporter& reporter) {
    const std::string self = selfExecutable();
    std::optional<ProjectData> project;
    if (o.onProject()) project = loadStudyProject(o.project);
    StudyStop end;
    StudyStopGuard guard;
    for (int i = 0; i < progress.total() && !guard.stopped(); ++i) {
        if (!progress.pending(i)) continue;
        const StudyRunFiles f = progress.files(i);
        const std::vector<std::string> args = prepareRun(o, project, progress.runs()[std::size_t(i)].spec, f);
        std::vector<std::string> command = {self};
        command.insert(command.end(), args.begin(), args.end());
        reporter.runStarted(i, command, f.log);
        const ChildExit exit = runChild(self, args, f.log);
        const bool succeeded = exit.exitCode == 0 && fs::exists(f.report);
        if (exit.stopped && !succeeded) break;  // stopped mid-run: it stays pending
        progress.record(i, outcomeOf(progress, i, exit));
        reporter.runFinished(i);
    }
    end.stopped = guard.stopped();
    end.signal = guard.signalName();
    return end;
}

}  // namespace skynnet::cli
