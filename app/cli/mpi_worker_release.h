#pragma once
// Rank 0's guard for the MPI workers and its table of who trains what, shared by `train --backend
// mpi` and `train --project P --backend mpi`. Only included where SKYNNET_HAVE_MPI is defined.
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "core/error.h"
#include "io/atomic_file.h"
#include "mpi_train.h"

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

}  // namespace skynnet::cli
