#pragma once
// Rank 0's guard for the MPI workers, shared by `train --backend mpi` and `train --project P
// --backend mpi`. Only included where SKYNNET_HAVE_MPI is defined.
#include <exception>
#include <string>

#include "commands.h"
#include "distributed/mpi_backend.h"
#include "distributed/mpi_session.h"

namespace skynnet::cli {

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

}  // namespace skynnet::cli
