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
#include <memory>
#include <optional>

#include "io/atomic_file.h"

#include "core/parallel.h"
#include "data/idx_loader.h"
#include "distributed/build_id.h"
#include "distributed/host_rows.h"
#include "distributed/mpi_backend.h"
#include "distributed/mpi_session.h"
#include "mpi_worker_release.h"
#include "distributed/mpi_worker.h"
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

int runMpiTraining(const std::vector<std::string>&, const Args&, const TrainOptions&, std::chrono::steady_clock::time_point) {
    throw Error(noMpiBackend);
}

#else

namespace {

// The files a worker must read with the same content as rank 0: the training data and, for IDX
// images, their labels (named or beside them). Generators need none: they are seeded.
std::vector<DataFileCheck> dataFiles(const TrainOptions& o) {
    std::vector<DataFileCheck> files;
    const DataKind kind = dataKind(o.data.path);
    if (kind == DataKind::Builtin) return files;
    std::vector<std::string> paths = {o.data.path};
    if (kind == DataKind::Idx) paths.push_back(o.data.labels.empty() ? idxLabelsPathFor(o.data.path) : o.data.labels);
    for (const std::string& p : paths) files.push_back({p, fileFingerprint(p)});
    return files;
}

WorkerData prepareWorkerData(const std::vector<std::string>& words) {
    PreparedData p = prepareData(parseTrainOptions(Args::parse(words, trainOptionSpecs())), DataUse::Submodels);
    WorkerData d;
    d.train = std::move(p.train);
    if (p.validation.size() > 0) d.validation = std::move(p.validation);
    return d;
}

// A worker's life. One that prepares its own rows (the first rank of a host other than rank 0's,
// or any rank when the ranks of a host share none: host_rows.h) prepares them from its own
// command line while rank 0 prepares and plans (the same work, done at once instead of one after
// the other) and uses them when the job asks for exactly that; a job with other options is
// prepared from the job's. The others wait for the job and read their host's copy, so that a host
// prepares the data once.
void serveAsWorker(MpiSession& session, const std::vector<std::string>& words, const TrainOptions& o) {
    std::optional<WorkerData> early;
    if (!o.shipData && preparesOwnRows(session, shareRowsByDefault())) {
        try {
            early = prepareWorkerData(words);
            session.trace("data prepared (" + std::to_string(early->train.size()) + " training rows)");
        } catch (const std::exception&) {
            // Reported below, with this rank and host, if the job needs that data.
        }
    }
    runMpiWorker(session, skynnetVersion, [&](const MpiJob& job) {
        const auto jobWords = JsonField(job.options, "MPI job").at("words").get<std::vector<std::string>>();
        if (early && jobWords == words) return std::move(*early);
        return prepareWorkerData(jobWords);
    });
}

}  // namespace

bool haveMpiBackend() { return true; }

int runMpiTraining(const std::vector<std::string>& words, const Args& args, const TrainOptions& o,
                   std::chrono::steady_clock::time_point start) {
    // MPI_Init mostly waits (for the launcher and the other ranks: about 0.3 s of which it
    // computes a tenth), so rank 0 prepares its data meanwhile, on a thread of its own that calls
    // no MPI. Every other rank waits for the job first.
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
                    rowBytes.set_value(rowBytesOnHost(raw.train.size(), raw.validation.size(), columns,
                                                      raw.train.targets.cols()));
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
        serveAsWorker(session, words, o);
        return exitOk;
    }
    WorkerRelease release{session};
    const bool shareRows = shareRowsByDefault() && !o.shipData;
    if (early.valid() && shareRows && !session.dataPeers().empty())
        if (const std::size_t bytes = rowBytesKnown.get(); bytes > 0) reserveRowsOnHost(session, bytes);
    checkOutputPaths({{"--save", o.savePath}, {"--report", o.reportPath}});
    setKernelThreads(o.threads);
    MpiJob job = rank0Job(session, Json::object({{"words", words}}));
    job.dataFiles = dataFiles(o);
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
