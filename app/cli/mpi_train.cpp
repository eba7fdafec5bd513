#include "mpi_train.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "commands.h"
#include "core/error.h"
#include "interrupt.h"
#include "mpi_launch.h"

#ifdef SKYNNET_HAVE_MPI
#include <future>

#include "core/parallel.h"
#include "distributed/host_rows.h"
#include "distributed/job_data.h"
#include "distributed/mpi_session.h"
#include "distributed/mpi_worker.h"
#include "mpi_worker_release.h"
#include "output_files.h"
#include "split_train.h"
#include "train_setup.h"
#include "version.h"
#endif

namespace skynnet::cli {
namespace {

// The words of the command without --hosts and --ranks (and their values), for every rank.
std::vector<std::string> withoutLaunchOptions(const std::vector<std::string>& words) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w == "--hosts" || w == "--ranks") {
            ++i;
            continue;
        }
        if (w.rfind("--hosts=", 0) == 0 || w.rfind("--ranks=", 0) == 0) continue;
        out.push_back(w);
    }
    return out;
}

// rank -> (host, 1-based submodel or 0) from rank 0's table; empty if it wrote none.
std::map<int, std::pair<std::string, int>> readAssignments(const std::string& path) {
    std::map<int, std::pair<std::string, int>> table;
    std::ifstream in(path);
    int rank = 0, submodel = 0;
    std::string host;
    while (in >> rank >> host >> submodel) table[rank] = {host, submodel};
    return table;
}

std::string resumeHint(const TrainOptions& o) {
    if (o.checkpointDir.empty())
        return "; with --save MODEL or --checkpoint DIR the submodels that finish are kept for --resume";
    return "; the submodels that finished are checkpointed in " + o.checkpointDir +
           ": run the same command with --resume to train only the missing ones";
}

struct TempFile {
    std::string path;
    TempFile() {
        char name[] = "/tmp/skynnet-mpi-ranks-XXXXXX";
        const int fd = mkstemp(name);
        if (fd < 0) throw Error("cannot create a temporary file in /tmp");
        close(fd);
        path = name;
    }
    ~TempFile() { std::remove(path.c_str()); }
};

}  // namespace

int runMpiLaunch(const std::vector<std::string>& words, const MpiLaunch& launch, const std::string& resumeHint) {
    if (!haveMpiBackend()) throw Error(noMpiBackend);
    TempFile assignments;
    setenv(assignmentsVariable, assignments.path.c_str(), 1);
    std::vector<std::string> program = {selfExecutable(), "train"};
    for (const std::string& w : withoutLaunchOptions(words)) program.push_back(w);
    const MpirunResult r = runMpirun(mpirunCommand(launch, {assignmentsVariable}, program));
    if (r.exitCode == 0) return exitOk;
    if (r.interrupted) return interruptedExit(" while the MPI job ran");
    if (const auto dead = deadRankIn(r.stderrLines)) {
        const auto table = readAssignments(assignments.path);
        const auto it = table.find(dead->rank);
        std::string what = dead->rank == 0 ? " (rank 0, which hands out the submodels)" : " while it had no submodel";
        if (dead->rank > 0 && it != table.end() && it->second.second > 0)
            what = " while training submodel " + std::to_string(it->second.second);
        printError("MPI rank " + std::to_string(dead->rank) + " on host " + dead->host + " was ended by " + dead->how +
                   what + "; every rank of the job has ended" + resumeHint);
        return exitFailure;
    }
    return r.exitCode;
}

int runMpiLaunch(const std::vector<std::string>& words, const TrainOptions& o) {
    return runMpiLaunch(words, MpiLaunch{o.hostsFile, o.ranks}, resumeHint(o));
}

#ifndef SKYNNET_HAVE_MPI

bool haveMpiBackend() { return false; }

int runMpiTraining(const Args&, const TrainOptions&, std::chrono::steady_clock::time_point) {
    throw Error(noMpiBackend);
}

#else

bool haveMpiBackend() { return true; }

int runMpiTraining(const Args& args, const TrainOptions& o, std::chrono::steady_clock::time_point start) {
    // MPI_Init mostly waits (for the launcher and the other ranks: about 0.3 s of which it
    // computes a tenth), so rank 0 prepares its data meanwhile, on a thread of its own that calls
    // no MPI. Every other rank waits for rank 0's data request (job_data.h).
    // As soon as the preparation knows the rows' size, rank 0 allocates the block it shares them
    // in with the other ranks of its host and fills its pages (host_rows.h), while the
    // preparation goes on.
    std::future<PreparedData> early;
    std::promise<std::size_t> rowBytes;
    std::future<std::size_t> rowBytesKnown = rowBytes.get_future();
    if (MpiSession::launchedByMpi() && MpiSession::launcherRank() == 0)
        early = std::async(std::launch::async, [&o, &rowBytes] {
            bool told = false;
            try {
                PreparedData p = prepareData(o, DataUse::Training, [&](const PreparedData& raw) {
                    const Index columns = raw.preprocessing.outputColumns();
                    rowBytes.set_value(
                        rowBytesOnHost(raw.train.size(), raw.validation.size(), columns, raw.train.targets.cols()));
                    told = true;
                });
                return p;
            } catch (...) {
                if (!told) rowBytes.set_value(0);  // no block: the error comes out of early.get()
                throw;
            }
        });
    MpiSession session;
    if (session.tracing())
        session.trace("MPI_Init returned " +
                      std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()) +
                      " s after the command started");
    if (session.rank() > 0) {
        runMpiWorker(session, skynnetVersion);
        return exitOk;
    }
    WorkerRelease release{session};
    // First of all, so that a worker which prepares its own rows does so while this rank
    // prepares and plans (job_data.h).
    const RunData data = runDataOf(o);
    if (!o.shipData) sendDataAhead(session, data, shareRowsByDefault());
    const bool shareRows = shareRowsByDefault() && !o.shipData;
    if (early.valid() && shareRows && !session.dataPeers().empty())
        if (const std::size_t bytes = rowBytesKnown.get(); bytes > 0) reserveRowsOnHost(session, bytes);
    checkOutputPaths({{"--save", o.savePath}, {"--report", o.reportPath}});
    setKernelThreads(o.threads);
    MpiJob job = rank0Job(session, data);
    job.threads = o.threadsGiven ? o.threads : 0;
    job.shipData = o.shipData;
    const SplitBackend choice = rank0Backend(session, std::move(job));
    if (!early.valid()) return runSplitTraining(args, o, start, choice);
    return runSplitTraining(args, o, start, choice, [&early, &session] {
        PreparedData data = early.get();
        session.trace("data prepared (" + std::to_string(data.train.size()) + " training rows)");
        return data;
    });
}

#endif

}  // namespace skynnet::cli
