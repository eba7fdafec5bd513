// `train --project P.skynnet`: its options, its help and where it runs (this process's threads,
// the ranks of an MPI job, or an MPI job started on a hostfile's machines); project_run.cpp trains.
#include <chrono>
#include <iostream>

#include "cli_args.h"
#include "commands.h"
#include "json_progress.h"
#include "mpi_project.h"
#include "mpi_train.h"
#include "output_files.h"
#include "project_run.h"
#include "project_train.h"
#include "text_format.h"
#include "train_options.h"

namespace skynnet::cli {
namespace {

using Clock = std::chrono::steady_clock;

const std::vector<OptionSpec>& projectOptionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--project", "P", "train the project P.skynnet made in the desktop app; the run is saved into it"},
        {"--threads", "T", "the budget all submodels share (default: the project's, else all cores)"},
        {"--quiet", "", "no progress on stderr"},
        {"--progress", "FORMAT", "text (default) or json: one JSON object per line on stdout, nothing else there"},
        {"--backend", "threads|mpi",
         "where the submodels train: threads of this process, or (run under mpirun) the ranks of an MPI job (rank 0 "
         "loads P and sends each worker the data to prepare, read from the same paths; default threads)"},
        {"--hosts", "FILE",
         "with --backend mpi: start the MPI job with mpirun on the machines of this Open MPI hostfile"},
        {"--ranks", "K",
         "with --hosts: MPI ranks, rank 0 hands out the submodels and K-1 train them (default: 1 + the hostfile's "
         "slots)"},
        {"--report", "R", "also write a JSON report of the run to R"},
        {"--resume", "", "continue the run checkpointed in P.skynnet.checkpoint (by this tool or the app)"},
        {"--help", "", "this help"},
    };
    return specs;
}

std::string optionName(const std::string& word) { return word.substr(0, word.find('=')); }

// Options of plain training (--data, --layers, ...) are the project's to decide.
void rejectTrainOptions(const std::vector<std::string>& words) {
    for (const std::string& w : words) {
        if (w.rfind("--", 0) != 0) continue;
        const std::string name = optionName(w);
        bool project = false;
        for (const OptionSpec& s : projectOptionSpecs()) project = project || s.name == name;
        if (project) continue;
        for (const OptionSpec& s : trainOptionSpecs())
            if (s.name == name)
                Args::fail(name,
                           "cannot be combined with --project (the project holds its data, network and settings)");
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

ProjectRunOptions runOptionsOf(const Args& args, const std::string& path) {
    ProjectRunOptions o;
    o.path = path;
    o.reportPath = args.text("--report", "");
    o.quiet = args.flag("--quiet");
    o.json = parseProgressFormat(args.text("--progress", "text")) == ProgressFormat::Json;
    o.resume = args.flag("--resume");
    if (args.has("--threads")) o.threads = args.positiveInt("--threads", 1);
    return o;
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
    if (backend != "threads" && backend != "mpi")
        Args::fail("--backend", "expected threads or mpi, got '" + backend + "'");
    if (args.has("--hosts") && backend != "mpi") Args::fail("--hosts", "needs --backend mpi");
    if (args.has("--ranks") && !args.has("--hosts"))
        Args::fail("--ranks", "needs --hosts (under mpirun, -np sets the ranks)");
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
                             [&](const SplitBackend& b) { return trainProject(runOptionsOf(args, path), start, b); });
    return trainProject(runOptionsOf(args, path), start, {});
}

}  // namespace skynnet::cli
