#include "project_train.h"

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
#include "project/project_file.h"
#include "output_files.h"
#include "plan_view.h"
#include "progress.h"
#include "mpi_project.h"
#include "mpi_train.h"
#include "project_data.h"
#include "run_record.h"
#include "split/thread_backend.h"
#include "text_format.h"
#include "train/metrics.h"
#include "train/resources.h"
#include "train_options.h"
#include "version.h"

namespace skynnet::cli {
namespace {

using Clock = std::chrono::steady_clock;

const std::vector<OptionSpec>& projectOptionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--project", "P", "train the project P.skynnet made in the desktop app; the run is saved into it"},
        {"--threads", "T", "the budget all submodels share (default: the project's, else all cores)"},
        {"--quiet", "", "no progress on stderr"},
        {"--progress", "FORMAT", "text (default) or json: one JSON object per line on stdout, nothing else there"},
        {"--backend", "threads|mpi", "where the submodels train: threads of this process, or (run under mpirun) the ranks of an MPI job, each loading P from the same path (default threads)"},
        {"--hosts", "FILE", "with --backend mpi: start the MPI job with mpirun on the machines of this Open MPI hostfile"},
        {"--ranks", "K", "with --hosts: MPI ranks, rank 0 hands out the submodels and K-1 train them (default: 1 + the hostfile's slots)"},
        {"--report", "R", "also write a JSON report of the run to R"},
        {"--resume", "", "continue the run checkpointed in P.skynnet.checkpoint (by this tool or the app)"},
        {"--help", "", "this help"},
    };
    return specs;
}

std::string optionName(const std::string& word) { return word.substr(0, word.find('=')); }

// The run itself, on this process's threads or (backend set) on the ranks of an MPI job.
int trainProject(const Args& args, const std::string& path, Clock::time_point start, const SplitBackend& backend);

// Options of plain training (--data, --layers, ...) are the project's to decide.
void rejectTrainOptions(const std::vector<std::string>& words) {
    for (const std::string& w : words) {
        if (w.rfind("--", 0) != 0) continue;
        const std::string name = optionName(w);
        bool project = false;
        for (const OptionSpec& s : projectOptionSpecs()) project = project || s.name == name;
        if (project) continue;
        for (const OptionSpec& s : trainOptionSpecs())
            if (s.name == name) Args::fail(name, "cannot be combined with --project (the project holds its data, network and settings)");
    }
}

std::string projectHelp() {
    return "Usage: skynnet-cli train --project P.skynnet [--threads T] [--quiet] [--report R.json] [--resume]\n"
           "       [--progress json] [--backend threads|mpi [--hosts FILE [--ranks K]]]\n\n"
           "Trains the project made in the desktop app (its data, network, split options and training\n"
           "settings, as the app would) and saves the trained run into the project file (atomically), so\n"
           "the app shows it on reopening. Ctrl-C stops and leaves the project file as it was.\n"
           "The submodels are checkpointed at each epoch end into P.skynnet.checkpoint/, which --resume\n"
           "continues after a crash or Ctrl-C; the folder is removed once the run is saved.\n\n" +
           formatOptions(projectOptionSpecs()) + progressHelp();
}

// The held-out set the metrics are measured on, as the app chooses it (ui/core/run_job.cpp).
const Dataset& evaluationSet(const Dataset& train, const std::optional<Dataset>& validation,
                             const std::optional<Dataset>& test, std::string& name) {
    if (test && test->size() > 0) return name = "test", *test;
    if (validation && validation->size() > 0) return name = "validation", *validation;
    name = "training";
    return train;
}

std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
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

}  // namespace

bool wantsProjectTraining(const std::vector<std::string>& words) {
    for (const std::string& w : words)
        if (optionName(w) == "--project") return true;
    return false;
}

int runProjectTraining(const std::vector<std::string>& words) {
    const auto start = Clock::now();
    rejectTrainOptions(words);
    const Args args = Args::parse(words, projectOptionSpecs());
    if (args.flag("--help")) {
        std::cout << projectHelp();
        return exitOk;
    }
    const std::string path = args.required("--project");
    checkOutputPaths({{"--project", path}, {"--report", args.text("--report", "")}});
    parseProgressFormat(args.text("--progress", "text"));  // a bad value fails before any rank starts work
    const std::string backend = args.text("--backend", "threads");
    if (backend != "threads" && backend != "mpi") Args::fail("--backend", "expected threads or mpi, got '" + backend + "'");
    if (args.has("--hosts") && backend != "mpi") Args::fail("--hosts", "needs --backend mpi");
    if (args.has("--ranks") && !args.has("--hosts")) Args::fail("--ranks", "needs --hosts (under mpirun, -np sets the ranks)");
    if (args.has("--hosts")) {
        MpiLaunch launch{args.text("--hosts", ""), args.has("--ranks") ? args.positiveInt("--ranks", 2) : 0};
        if (launch.hostsFile.empty()) Args::fail("--hosts", "expects a hostfile");
        if (args.has("--ranks") && launch.ranks < 2)
            Args::fail("--ranks", "must be at least 2 (rank 0 hands out the submodels, the others train them)");
        return runMpiLaunch(words, launch,
                            "; the submodels that finished are checkpointed in " + path +
                                ".checkpoint: run the same command with --resume to train only the missing ones");
    }
    if (backend == "mpi")
        return runMpiProject(path, args.has("--threads") ? args.positiveInt("--threads", 1) : 0,
                             [&](const SplitBackend& b) { return trainProject(args, path, start, b); });
    return trainProject(args, path, start, {});
}

namespace {

int trainProject(const Args& args, const std::string& path, Clock::time_point start, const SplitBackend& backend) {
    const std::string reportPath = args.text("--report", "");
    const bool quiet = args.flag("--quiet");
    const bool json = parseProgressFormat(args.text("--progress", "text")) == ProgressFormat::Json;

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
    const int threads = args.positiveInt("--threads", budget);
    setKernelThreads(threads);

    CancelToken cancel;
    InterruptGuard interrupt(cancel);
    PreparedData data = prepareProjectData(p.data);
    if (interrupt.interrupted()) return interruptedExit();
    const NetworkSpec spec = projectNetwork(p.network, data);
    const TrainConfig& config = p.training.config;
    try {  // the app refuses such a project's run with the same words
        checkLossFitsTask(config.loss, data.task());
    } catch (const Error& e) {
        throw Error(path + ": training.config.loss: " + e.what());
    }
    const Dataset train = std::move(data.train);
    std::optional<Dataset> validation, test;
    if (data.validation.size() > 0) validation = std::move(data.validation);
    if (data.test.size() > 0) test = std::move(data.test);
    const Dataset* val = validation ? &*validation : nullptr;

    const SplitPlan plan = makePlan(spec, train, projectSplitOptions(p.split, config));
    if (!quiet) std::fputs((planTable(plan, threads) + "\n").c_str(), stderr);
    else
        for (const std::string& w : plan.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());

    log.add(runStartLine(plan, threads, p.training.trainBaseline));
    for (const std::string& w : plan.warnings) log.add("note: " + w);

    if (json) writePlanEvent(plan, p.training.trainBaseline);
    const std::optional<CheckpointStore> checkpoints =
        openCheckpoints(path + ".checkpoint", args.flag("--resume"), quiet, plan, config, train, val);
    if (args.flag("--resume")) log.add("resuming from " + path + ".checkpoint: " + checkpoints->progressText());
    const CheckpointHooks hooks = checkpointHooks(*checkpoints);
    ParallelTrainer trainer(plan, config, backend.backend ? backend.backend : std::make_shared<ThreadBackend>(threads));
    ParallelResult split = trainer.train(
        train, val, loggingFinishes(json ? jsonSubmodelEvents() : submodelProgress(plan, quiet), log), &cancel, &hooks);
    const Json backendFigures = backend.report ? backend.report() : Json();
    if (split.status == TrainStatus::Cancelled || interrupt.interrupted())
        return interruptedExit(" while the submodels trained");
    if (split.status == TrainStatus::Failed) throw Error(split.error);
    log.add("split run: " + std::to_string(plan.submodelCount()) + " submodel(s) in " + fixed(split.wallSeconds, 2) +
            " s wall, " + fixed(split.cpuSeconds, 2) + " s CPU");
    std::optional<BaselineResult> baseline;
    if (p.training.trainBaseline) {
        log.add("baseline: training the original model " + plan.original.widthsSummary() + " for " +
                std::to_string(plan.epochs) + " epoch(s)");
        if (!quiet)
            std::fprintf(stderr, "baseline: training the original model %s (%lld parameters), %d epochs\n",
                         plan.original.widthsSummary().c_str(), static_cast<long long>(plan.originalParams), plan.epochs);
        if (json) writeStartedEvent("baseline", 0, WorkerPlace{0, localHostName(), threads});
        baseline = trainBaseline(plan, train, val, config, threads,
                                 json ? jsonTrainCallbacks("baseline") : progressCallbacks(plan.task, plan.epochs, quiet, "baseline: "),
                                 &cancel);
        if (json) writeFinishedEvent("baseline", 0, baseline->result);
        if (baseline->result.status == TrainStatus::Cancelled || interrupt.interrupted())
            return interruptedExit(" while the baseline trained");
        if (baseline->result.status == TrainStatus::Failed) throw Error("baseline: " + baseline->result.error);
        log.add("baseline: " + statusName(baseline->result.status) + " after " +
                std::to_string(baseline->result.history.size()) + " epoch(s) in " + fixed(baseline->result.wallSeconds, 2) +
                " s");
    }

    std::string evaluatedOn;
    const Dataset& eval = evaluationSet(train, validation, test, evaluatedOn);
    CombinedEvaluation e = split.model.evaluate(eval, &cancel);
    if (e.cancelled || interrupt.interrupted()) return interruptedExit(" while testing the combined model");
    SavedCombinedModel model = toSaved(split.model, data.preprocessing, data.schema);
    const std::string metricName = headlineMetricName(plan.task);
    std::string message = "combined " + metricName + " " + number(e.metric) + " on " + evaluatedOn + " " +
                          std::to_string(eval.size()) + " samples";
    Matrix baselineOutput;
    double baselineMetric = 0;
    if (baseline) {
        baselineOutput = baseline->network.predict(eval.features, &cancel);
        if (interrupt.interrupted()) return interruptedExit(" while testing the baseline");
        baselineMetric = headlineMetric(plan.task, baselineOutput, eval.targetMatrix());
        message += ", baseline " + number(baselineMetric);
    }

    ProjectRun run = completedRun(plan, split, baseline ? &*baseline : nullptr, &model, message);
    ProjectResults& r = *run.results;
    r.combinedMetric = e.metric;
    for (const auto& s : e.submodels) r.submodelMetrics.push_back(s.metric);
    r.baselineMetric = baselineMetric;
    r.metricName = metricName;
    r.evaluatedOn = evaluatedOn;
    r.evaluatedSamples = long(eval.size());
    r.combinedTestOutput = std::move(e.output);
    r.baselineTestOutput = std::move(baselineOutput);
    r.testTargets = eval.targetMatrix();
    r.wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    log.add("finished: " + message);
    run.id = newRunId(p.runs);
    run.startedAt = startedAt;
    run.settings = std::move(settings);
    run.log = log.text();
    p.runs.push_back(std::move(run));
    // The app opens a project on the run it showed when saved: this one now.
    if (p.extra.is_null()) p.extra = Json::object();
    if (p.extra.is_object()) p.extra[shownRunKey] = int(p.runs.size()) - 1;

    if (interrupt.interrupted()) return interruptedExit();
    Json report = reportOf(path, p, p.runs.back(), threads, r.wallSeconds);
    if (!backendFigures.is_null()) report["backend"] = backendFigures;
    // The project is saved first (atomically); the report is only written once that succeeded.
    saveProject(path, p);
    checkpoints->removeFolder();
    if (!reportPath.empty()) writeReportAndModel(reportPath, dumpJson(report, 2) + "\n", "", {});

    if (json) {
        Json result = report;
        result.erase("plan");  // the plan event had it; the app reads the run from the project
        result["model"] = "combined";
        addResultFigures(result, r.wallSeconds, r.splitWallSeconds, processCpuSeconds(), processPeakResidentBytes(), "",
                         reportPath);
        writeResultEvent(result);
    }
    // With --progress json stdout holds events only: the summary is for the person watching stderr.
    std::ostream& out = json ? std::cerr : std::cout;
    out << message << "\n";
    out << "wall " << fixed(r.wallSeconds, 2) << " s, training " << fixed(r.splitWallSeconds, 2) << " s, cpu "
        << fixed(processCpuSeconds(), 2) << " s, peak memory " << megabytes(processPeakResidentBytes()) << "\n";
    out << "run " << p.runs.size() << " saved to " << path << "\n";
    if (!reportPath.empty()) out << "report written to " << reportPath << "\n";
    out.flush();
    return exitOk;
}

}  // namespace

}  // namespace skynnet::cli
