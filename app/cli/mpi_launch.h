#pragma once
// Starting an MPI job from skynnet-cli itself (`train --hosts FILE --ranks K`, `mpi-check`): the
// mpirun command line, running it with its output relayed, and reading what mpirun says when a
// rank dies (Open MPI 4.1 has no fault tolerance: it then ends every rank, rank 0 included, so
// only the launching side is left to explain what happened).
#include <optional>
#include <string>
#include <vector>

namespace skynnet::cli {

struct MpiLaunch {
    std::string hostsFile;  // empty: this machine
    int ranks = 0;          // 0: defaultRanks()
};

// The slots of an Open MPI hostfile ("host slots=N", a host alone counting 1, '#' comments);
// throws Error naming the file and line of a bad entry.
int hostfileSlots(const std::string& path);
// One rank per slot (this machine: per core) plus rank 0, which hands out work and sleeps.
int defaultRanks(const MpiLaunch& launch);
// mpirun's arguments (mpirun itself first): --allow-run-as-root as root, --oversubscribe when the
// ranks outnumber the slots, --bind-to none, --hostfile, -x for each exported environment
// variable, the program.
std::vector<std::string> mpirunCommand(const MpiLaunch& launch, const std::vector<std::string>& exported,
                                       const std::vector<std::string>& program);

struct MpirunResult {
    int exitCode = 0;                      // mpirun's; 128 + signal if it was killed
    bool interrupted = false;              // SIGINT or SIGTERM reached this process meanwhile
    std::vector<std::string> stderrLines;  // everything mpirun and the ranks wrote on stderr
};
// Runs the command (Error if it cannot start, naming it): stdout passes through untouched, stderr
// is relayed line by line and kept. SIGINT and SIGTERM to this process are passed on to mpirun,
// which ends every rank; this waits for it, so no process outlives the call.
MpirunResult runMpirun(const std::vector<std::string>& command);

struct DeadRank {
    int rank = -1;
    std::string host;
    std::string how;  // "signal 9 (Killed)", "exit code 1"
};
// mpirun's report of a rank that ended abnormally ("... process rank 2 with PID 123 on node vm
// exited on signal 9 (Killed)."), if any.
std::optional<DeadRank> deadRankIn(const std::vector<std::string>& lines);

// This program's own path (/proc/self/exe), so every rank runs exactly this build.
std::string selfExecutable();

// The environment variable through which the launching process learns which submodel each rank
// trains: rank 0 keeps that table in the file it names.
inline constexpr const char* assignmentsVariable = "SKYNNET_MPI_ASSIGNMENTS";

}  // namespace skynnet::cli
