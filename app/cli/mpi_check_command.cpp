// `skynnet-cli mpi-check`: a short MPI job in which every rank says where it runs, so a hostfile
// can be checked before a long run. Started by a user, it launches itself through mpirun; as a
// rank of that job (or of any mpirun or srun), it answers.
#include <cstdio>
#include <iostream>

#include "cli_args.h"
#include "commands.h"
#include "core/error.h"
#include "mpi_launch.h"
#include "mpi_train.h"
#include "version.h"

#ifdef SKYNNET_HAVE_MPI
#include "distributed/mpi_hello.h"
#include "distributed/mpi_session.h"
#endif

namespace skynnet::cli {
namespace {

const std::vector<OptionSpec>& mpiCheckOptionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--hosts", "FILE", "an Open MPI hostfile (default: this machine only)"},
        {"--ranks", "K", "ranks to start (default: 1 + the hostfile's slots, or 1 + this machine's cores)"},
        {"--json", "", "one JSON object per rank and line: rank, host, cores, version, build"},
        {"--help", "", "show this help"},
    };
    return specs;
}

std::string mpiCheckHelp() {
    return "Usage: skynnet-cli mpi-check [--hosts FILE] [--ranks K] [--json]\n\n"
           "Starts a short MPI job (mpirun, as train --hosts does) in which every rank reports its host, cores,\n"
           "version and build, one line per rank on stdout. Run under mpirun or srun, it is one of those ranks.\n\n" +
           formatOptions(mpiCheckOptionSpecs());
}

#ifdef SKYNNET_HAVE_MPI
int answer(bool json) {
    MpiSession session;
    const std::vector<Json> ranks = mpiHello(session, skynnetVersion);
    for (const Json& r : ranks) {
        if (json) {
            std::cout << dumpJson(r) << "\n";
            continue;
        }
        std::printf("rank %d: host %s, %d cores, skynnet %s build %s\n", r["rank"].get<int>(),
                    r["host"].get<std::string>().c_str(), r["cores"].get<int>(),
                    r["version"].get<std::string>().c_str(), r["build"].get<std::string>().c_str());
    }
    std::cout.flush();
    return exitOk;
}
#endif

}  // namespace

int runMpiCheck(const std::vector<std::string>& words) {
    const Args args = Args::parse(words, mpiCheckOptionSpecs());
    if (args.flag("--help")) {
        std::cout << mpiCheckHelp();
        return exitOk;
    }
    if (!haveMpiBackend()) throw Error(noMpiBackend);
#ifdef SKYNNET_HAVE_MPI
    if (MpiSession::launchedByMpi()) return answer(args.flag("--json"));
#endif
    MpiLaunch launch;
    launch.hostsFile = args.text("--hosts", "");
    if (args.has("--hosts") && launch.hostsFile.empty()) Args::fail("--hosts", "expects a hostfile");
    if (args.has("--ranks")) launch.ranks = args.positiveInt("--ranks", 1);
    std::vector<std::string> program = {selfExecutable(), "mpi-check"};
    if (args.flag("--json")) program.push_back("--json");
    const MpirunResult r = runMpirun(mpirunCommand(launch, {}, program));
    if (r.interrupted) return exitInterrupted;
    if (r.exitCode != 0)
        throw Error("mpirun failed (exit status " + std::to_string(r.exitCode) + "): see its messages above");
    return exitOk;
}

}  // namespace skynnet::cli
