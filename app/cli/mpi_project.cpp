#include "mpi_project.h"

#include "core/error.h"
#include "mpi_train.h"

#ifdef SKYNNET_HAVE_MPI
#include "commands.h"
#include "distributed/host_rows.h"
#include "distributed/job_data.h"
#include "distributed/mpi_session.h"
#include "distributed/mpi_worker.h"
#include "mpi_worker_release.h"
#include "run/run_data.h"
#include "version.h"
#endif

namespace skynnet::cli {

#ifndef SKYNNET_HAVE_MPI

int runMpiProject(const std::string&, int, const std::function<int(const SplitBackend&)>&) {
    throw Error(noMpiBackend);
}

#else

int runMpiProject(const std::string& projectPath, int threads, const std::function<int(const SplitBackend&)>& train) {
    MpiSession session;
    if (session.rank() > 0) {
        runMpiWorker(session, skynnetVersion);  // as for `train --backend mpi`: the job carries the data
        return exitOk;
    }
    WorkerRelease release{session};
    const ProjectData project = loadProject(projectPath);
    const RunData data = skynnet::runDataOf(project.data);
    // Before anything else, so that a worker which prepares its own rows does so while this rank
    // prepares and plans (job_data.h); not for data that train() refuses.
    if (project.data.problems().empty()) sendDataAhead(session, data, shareRowsByDefault());
    MpiJob job = rank0Job(session, data);
    job.threads = threads;
    const SplitBackend choice = rank0Backend(session, std::move(job));
    return train(choice);
}

#endif

}  // namespace skynnet::cli
