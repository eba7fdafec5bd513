#pragma once
// Rank 0's side of the CLI's MPI runs, shared by `train --backend mpi` and `train --project P
// --backend mpi`: the guard for the workers, the job with its data, and the backend with its table
// of who trains what and its report figures. (Their workers have one path, the engine's
// runMpiWorker: they prepare their rows from the job's data request, never from a command line.)
// Only included where SKYNNET_HAVE_MPI is defined.
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "core/error.h"
#include "distributed/build_id.h"
#include "io/atomic_file.h"
#include "mpi_launch.h"
#include "run/run_data.h"
#include "split_train.h"
#include "version.h"

#include "commands.h"
#include "distributed/host_rows.h"
#include "distributed/job_data.h"
#include "distributed/mpi_backend.h"
#include "distributed/mpi_session.h"

namespace skynnet::cli {

// However rank 0 leaves (success, a refused job, bad options), the workers are released first:
// otherwise they would wait for a job forever. On success this is after rank 0 has written its
// outputs, the job's end (freeing the shared block, MPI_Finalize) kept out of the run's time.
struct WorkerRelease {
    MpiSession& session;
    ~WorkerRelease() {
        try {
            releaseWorkers(session);
        } catch (const std::exception& e) {
            printError(std::string("could not stop the MPI workers: ") + e.what());
        }
    }
};

// When the launching process asked for it (assignmentsVariable names a file), rank 0 keeps there
// which submodel each rank trains, so that the launcher can name it when a rank dies.
inline void keepAssignmentTable(MpiBackend& backend) {
    const char* variable = std::getenv(assignmentsVariable);
    if (!variable || !*variable) return;
    auto table = std::make_shared<std::map<int, std::pair<std::string, int>>>();
    backend.setAssignmentObserver([table, path = std::string(variable)](int rank, const std::string& host, int index) {
        (*table)[rank] = {host, index + 1};
        std::ostringstream text;
        for (const auto& [r, entry] : *table) text << r << ' ' << entry.first << ' ' << entry.second << '\n';
        try {
            AtomicFileWriter w(path);
            w.write(text.str());
            w.commit();
        } catch (const Error& e) {
            printError(std::string("warning: ") + e.what());  // only the death message loses the submodel
        }
    });
}

// The job with what every run sends: this build, rank 0's host, the data request and the
// fingerprints of the files the workers read; the caller adds threads and --ship-data.
inline MpiJob rank0Job(MpiSession& session, const RunData& data) {
    MpiJob job;
    job.version = skynnetVersion;
    job.build = buildId();
    job.host = session.host();
    job.data = data;
    job.dataFiles = workerDataFiles(data);
    job.shareData = shareRowsByDefault();
    return job;
}

// Rank 0's backend for the job, keeping the assignment table when asked for, and its figures for
// the report's "backend".
inline SplitBackend rank0Backend(MpiSession& session, MpiJob job) {
    auto backend = std::make_shared<MpiBackend>(session, std::move(job));
    keepAssignmentTable(*backend);
    SplitBackend choice;
    choice.backend = backend;
    choice.report = [backend, &session] {
        return Json::object({{"name", "mpi"},
                             {"ranks", session.size()},
                             {"build", buildId()},
                             {"bytes_sent_per_rank", backend->bytesSentPerRank()},
                             {"rank0_cpu_seconds", backend->rank0CpuSeconds()},
                             {"cores_handed_on", backend->coresHandedOn()}});
    };
    return choice;
}

}  // namespace skynnet::cli
