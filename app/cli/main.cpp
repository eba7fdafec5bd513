// skynnet-cli: the engine on the command line, without any Qt. Dispatches to the sub-commands
// and turns every failure into one line on stderr and a distinct exit status.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "cli_args.h"
#include "commands.h"
#include "core/error.h"
#include "io/gemm_routing_file.h"
#include "json_progress.h"
#include "version.h"

namespace skynnet::cli {

void printError(const std::string& message) {
    std::string line = message;
    for (char& c : line)
        if (c == '\n' || c == '\r') c = ' ';
    std::fflush(stdout);
    std::fprintf(stderr, "skynnet-cli: %s\n", line.c_str());
    // A program reading --progress json learns why the run ended from the same stream.
    if (errorsReportedAsJson()) writeErrorEvent(line);
}

}  // namespace skynnet::cli

namespace {

const char* const usage =
    "Usage: skynnet-cli COMMAND [options]\n"
    "\n"
    "Commands:\n"
    "  train     train a network on a CSV/TSV file, IDX images, an image folder or a built-in dataset;\n"
    "            with --submodels N, the Skynnet split: N smaller submodels in parallel, combined\n"
    "  plan      preview the split (submodels, widths, parameters, memory) without training\n"
    "  evaluate  metrics of a saved model (single or combined) on labelled data\n"
    "  predict   predictions of a saved model, as CSV\n"
    "  export    a saved model as a model file, an ONNX graph or a C++ header\n"
    "  mpi-check start a short MPI job that lists each rank's host, cores and build (for --backend mpi)\n"
    "  study     train every N (and the plain ensemble) over several seeds: what the split costs and gains\n"
    "  tune      measure which matrix-product library is fastest here for a network's products (kept)\n"
    "\n"
    "Run 'skynnet-cli COMMAND --help' for the options of a command.\n"
    "Other options: --help, --version.\n"
    "\n"
    "Example, offline:\n"
    "  skynnet-cli train --data builtin:spirals --layers dense:64:relu,dense:64:relu --epochs 50 --save spirals.skym\n"
    "  skynnet-cli plan --data builtin:blobs:classes=10 --layers dense:64:relu --submodels 3\n"
    "\n"
    "Exit status: 0 success, 1 bad data, model or file, 2 bad command line, 130 interrupted.\n";

int dispatch(const std::vector<std::string>& argv) {
    using namespace skynnet::cli;
    if (argv.empty()) {
        std::cerr << usage;
        return exitUsage;
    }
    const std::string& command = argv[0];
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << usage;
        return exitOk;
    }
    if (command == "--version") {
        std::cout << "skynnet-cli " << skynnetVersion << "\n";
        return exitOk;
    }
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    // Before anything computes: every product of this process follows the measured routes.
    const skynnet::GemmRoutingLoad routing = skynnet::loadGemmRoutingCache();
    if (!routing.warning.empty()) std::cerr << "skynnet-cli: warning: " << routing.warning << "\n";
    if (command == "train") return runTrain(rest);
    if (command == "evaluate") return runEvaluate(rest);
    if (command == "predict") return runPredict(rest);
    if (command == "plan") return runPlan(rest);
    if (command == "export") return runExport(rest);
    if (command == "mpi-check") return runMpiCheck(rest);
    if (command == "study") return runStudy(rest);
    if (command == "tune") return runTune(rest);
    if (command.rfind("-", 0) == 0)
        throw UsageError("unknown option '" + command + "' (expected a command first; see --help)");
    throw UsageError("unknown command '" + command +
                     "' (expected train, plan, evaluate, predict, export, mpi-check, study or tune)");
}

}  // namespace

int main(int argc, char** argv) {
    using namespace skynnet::cli;
    try {
        return dispatch(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const UsageError& e) {
        // Every rank of an MPI job parses the same words: one copy of the message is enough.
        // mpirun names the rank OMPI_COMM_WORLD_RANK, srun (PMIx) PMIX_RANK.
        const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
        if (!rank) rank = std::getenv("PMIX_RANK");
        if (!rank || std::atoi(rank) == 0) {
            printError(e.what());
        } else {
            // mpirun ends the whole job at the first rank that exits with an error: had another
            // rank gone first, rank 0 could be killed before its message is out. It prints at
            // once; the others give it that moment (mpirun ends them when rank 0 exits).
            std::this_thread::sleep_for(std::chrono::seconds(2));
        }
        return exitUsage;
    } catch (const skynnet::Error& e) {
        printError(e.what());
        return exitFailure;
    } catch (const std::bad_alloc&) {
        printError("out of memory");
        return exitFailure;
    } catch (const std::exception& e) {
        printError(std::string("internal error: ") + e.what());
        return exitFailure;
    }
}
