#include "project_run.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "checkpoint_option.h"
#include "cli_args.h"
#include "commands.h"
#include "core/error.h"
#include "core/parallel.h"
#include "interrupt.h"
#include "json_progress.h"
#include "losses/task_losses.h"
#include "mpi_project.h"
#include "mpi_train.h"
#include "output_files.h"
#include "plan_view.h"
#include "project/project_file.h"
#include "project_data.h"
#include "run/runner.h"
#include "run_observers.h"
#include "run_record.h"
#include "text_format.h"
#include "train/resources.h"
#include "train_options.h"
#include "version.h"

namespace skynnet::cli {
namespace {

using Clock = std::chrono::steady_clock;

// The project's run: its data (prepared), network, split and training settings, measured as the
// app measures it, checkpointed beside the project.
RunRequest projectRunRequest(const ProjectData& p, std::shared_ptr<const PreparedData> data, const std::string& path,
                             bool resume, int threads, std::shared_ptr<WorkerBackend> backend) {
    RunRequest r;
    r.prepared = std::move(data);
    r.network = p.network;
    r.split = p.split;
    r.config = p.training.config;
    r.baseline = p.training.trainBaseline;
    r.evaluation = EvaluationRows::HeldOut;
    r.checkpointFolder = path + ".checkpoint";
    r.checkpointStart = resume ? CheckpointStart::Resume : CheckpointStart::Fresh;
    r.keepCheckpoints = true;  // removed once the project is saved
    r.checkpointHooks = checkpointHooks;
    r.threads = threads;
    r.backend = std::move(backend);
    return r;
}

Json reportOf(const std::string& path, const ProjectData& p, const ProjectRun& run, int threads, double wallSeconds) {
    const ProjectResults& r = *run.results;
    Json j = Json::object();
    j["mode"] = "project";
    j["project"] = path;
    j["run"] = int(p.runs.size());
    j["status"] = statusName(run.status);
    j["message"] = run.message;
    j["plan"] = planJson(run.plan, threads);
    j["metric"] = r.metricName;
    j["evaluated_on"] = r.evaluatedOn;
    j["evaluated_samples"] = r.evaluatedSamples;
    j["combined"] = r.combinedMetric;
    j["submodels"] = r.submodelMetrics;
    if (r.baseline) j["baseline"] = r.baselineMetric;
    j["wall_seconds"] = wallSeconds;
    j["train_seconds"] = r.splitWallSeconds;
    j["cpu_seconds"] = processCpuSeconds();
    j["peak_memory_bytes"] = processPeakResidentBytes();
    return j;
}

// The result event (--progress json) and the summary for the person watching.
void tellResult(const ProjectRunOptions& o, const ProjectData& p, const Json& report, const std::string& message) {
    const ProjectResults& r = *p.runs.back().results;
    if (o.json) {
        Json result = report;
        result.erase("plan");  // the plan event had it; the app reads the run from the project
        result["model"] = "combined";
        addResultFigures(result, r.wallSeconds, r.splitWallSeconds, processCpuSeconds(), processPeakResidentBytes(), "",
                         o.reportPath);
        writeResultEvent(result);
    }
    // With --progress json stdout holds events only: the summary is for the person watching stderr.
    std::ostream& text = o.json ? std::cerr : std::cout;
    text << message << "\n";
    text << "wall " << fixed(r.wallSeconds, 2) << " s, training " << fixed(r.splitWallSeconds, 2) << " s, cpu "
         << fixed(processCpuSeconds(), 2) << " s, peak memory " << megabytes(processPeakResidentBytes()) << "\n";
    text << "run " << p.runs.size() << " saved to " << o.path << "\n";
    if (!o.reportPath.empty()) text << "report written to " << o.reportPath << "\n";
    text.flush();
}

}  // namespace

int trainProject(const ProjectRunOptions& o, Clock::time_point start, const SplitBackend& backend) {
    const std::string& path = o.path;
    const std::string& reportPath = o.reportPath;
    const bool quiet = o.quiet, json = o.json;

    const std::string startedAt = isoUtcNow();
    ProjectData p = loadProject(path);
    if (const auto problems = p.data.problems(); !problems.empty()) {
        std::string list;
        for (const std::string& s : problems) list += (list.empty() ? "" : "; ") + s;
        throw Error(path + ": data file " + list + " (open the project in the app to point to the data)");
    }
    // The run's record as the app keeps one: what it is made from, taken before it trains.
    RunSettings settings = runSettingsOf(p);
    RunLog log;
    log.add(std::string("skynnet-cli ") + skynnetVersion + " train --project " + path + " on " + localHostName());
    const int budget = p.training.threadBudget > 0 ? p.training.threadBudget : hardwareThreads();
    const int threads = o.threads.value_or(budget);

    setKernelThreads(threads);  // the preparation's kernels too, not only the run's
    CancelToken cancel;
    InterruptGuard interrupt(cancel);
    const auto data = std::make_shared<const PreparedData>(prepareProjectData(p.data));
    if (interrupt.interrupted()) return interruptedExit();
    try {  // the app refuses such a project's run with the same words
        checkLossFitsTask(p.training.config.loss, data->task());
    } catch (const Error& e) {
        throw Error(path + ": training.config.loss: " + e.what());
    }
    const RunRequest request = projectRunRequest(p, data, path, o.resume, threads, backend.backend);
    const TextObserverOptions shown{quiet, threads, {}, &log};
    std::unique_ptr<TextObserver> observer = json ? std::make_unique<JsonObserver>(shown)
                                                  : std::make_unique<TextObserver>(shown);
    RunOutcome out = performRun(request, *observer, cancel);
    const Json backendFigures = backend.report ? backend.report() : Json();
    if (out.status == TrainStatus::Cancelled || interrupt.interrupted()) return interruptedExit(stoppedDuring(out));
    if (out.status == TrainStatus::Failed) throw Error(out.message);

    ProjectRun run = std::move(*out.record);
    const std::string message = run.message;
    run.results->wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    run.id = newRunId(p.runs);
    run.startedAt = startedAt;
    run.settings = std::move(settings);
    run.log = log.text();
    p.runs.push_back(std::move(run));
    // The app opens a project on the run it showed when saved: this one now.
    if (p.extra.is_null()) p.extra = Json::object();
    if (p.extra.is_object()) p.extra[shownRunKey] = int(p.runs.size()) - 1;

    const ProjectResults& r = *p.runs.back().results;
    if (interrupt.interrupted()) return interruptedExit();
    Json report = reportOf(path, p, p.runs.back(), threads, r.wallSeconds);
    if (!backendFigures.is_null()) report["backend"] = backendFigures;
    // The project is saved first (atomically); the report is only written once that succeeded.
    saveProject(path, p);
    CheckpointStore::removeFolder(request.checkpointFolder);
    if (!reportPath.empty()) writeReportAndModel(reportPath, dumpJson(report, 2) + "\n", "", {});

    tellResult(o, p, report, message);
    return exitOk;
}

}  // namespace skynnet::cli
