#include "mpi_train.h"

#include "core/error.h"

#ifdef SKYNNET_HAVE_MPI
#include <memory>

#include "commands.h"
#include "core/parallel.h"
#include "data/idx_loader.h"
#include "distributed/build_id.h"
#include "distributed/mpi_backend.h"
#include "distributed/mpi_session.h"
#include "distributed/mpi_worker.h"
#include "output_files.h"
#include "split_train.h"
#include "train_setup.h"
#include "version.h"
#endif

namespace skynnet::cli {

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

WorkerData prepareWorkerData(const MpiJob& job) {
    const JsonField options(job.options, "MPI job");
    const Args args = Args::parse(options.at("words").get<std::vector<std::string>>(), trainOptionSpecs());
    PreparedData p = prepareData(parseTrainOptions(args), DataUse::Submodels);
    WorkerData d;
    d.train = std::move(p.train);
    if (p.validation.size() > 0) d.validation = std::move(p.validation);
    return d;
}

// However rank 0 leaves (success, a refused job, bad options), the workers are released first:
// otherwise they would wait for a job forever.
struct WorkerRelease {
    MpiSession& session;
    ~WorkerRelease() {
        try {
            stopWorkers(session);
        } catch (const std::exception& e) {
            printError(std::string("could not stop the MPI workers: ") + e.what());
        }
    }
};

}  // namespace

bool haveMpiBackend() { return true; }

int runMpiTraining(const std::vector<std::string>& words, const Args& args, const TrainOptions& o,
                   std::chrono::steady_clock::time_point start) {
    MpiSession session;
    if (session.rank() > 0) {
        runMpiWorker(session, skynnetVersion, prepareWorkerData);
        return exitOk;
    }
    WorkerRelease release{session};
    checkOutputPaths({{"--save", o.savePath}, {"--report", o.reportPath}});
    setKernelThreads(o.threads);
    MpiJob job;
    job.version = skynnetVersion;
    job.build = buildId();
    job.host = session.host();
    job.options = Json::object({{"words", words}});
    job.dataFiles = dataFiles(o);
    job.threads = o.threadsGiven ? o.threads : 0;
    job.shipData = o.shipData;
    auto backend = std::make_shared<MpiBackend>(session, std::move(job));
    SplitBackend choice;
    choice.backend = backend;
    choice.report = [backend, &session] {
        return Json::object({{"name", "mpi"},
                             {"ranks", session.size()},
                             {"build", buildId()},
                             {"bytes_sent_per_rank", backend->bytesSentPerRank()}});
    };
    return runSplitTraining(args, o, start, choice);
}

#endif

}  // namespace skynnet::cli
