#pragma once
// The data of an MPI job. Rank 0 states it as the run's data request (run/run_data.h), which the
// job carries with the fingerprints of the files a worker reads; each worker prepares its rows
// from that request exactly as rank 0 prepared its own, and never from a command line. Rank 0
// also sends the request ahead, as its first message, so that a worker which prepares its own
// rows does so while rank 0 prepares and plans (the same work, done at once instead of one after
// the other).
#include <exception>
#include <optional>
#include <vector>

#include "data/dataset.h"
#include "distributed/protocol.h"
#include "run/run_data.h"

namespace skynnet {

class MpiSession;
struct MpiMessage;

// The rows a worker trains on, prepared from the job's data request.
struct WorkerData {
    Dataset train;
    std::optional<Dataset> validation;
};

// The files a worker's preparation reads (the training file, and the labels beside IDX images;
// never a separate test file, which only rank 0 reads), with their contents' fingerprints: a
// worker whose copy differs refuses the job, naming its host. Generators ("builtin:") read none.
std::vector<DataFileCheck> workerDataFiles(const RunData& data);

// A worker's rows: the training and validation parts as network inputs (DataUse::Submodels, no
// warnings: rank 0 prints them). Throws Error for data that cannot be read.
WorkerData prepareWorkerData(MpiSession& s, const RunData& data);

// Rank 0, first of all (before its own data is prepared; not with --ship-data): DataAhead with the
// job's data request to every worker, and whether the ranks of a host share one copy of the rows
// (what the job's shareData will say), so that each worker knows whether it prepares its own.
void sendDataAhead(MpiSession& s, const RunData& data, bool shareData);

// A worker's side of DataAhead: the request, and the rows prepared from it when this worker
// prepares its own (host_rows.h: preparesOwnRows), or why that failed. The job says later
// whether those are the rows it wants.
struct DataAhead {
    RunData data;
    std::optional<WorkerData> rows;
    std::exception_ptr error;  // the preparation's failure, reported only if the job needs the rows
};
// nullopt when the message cannot be read: the job, which carries the request too, says why.
std::optional<DataAhead> prepareDataAhead(MpiSession& s, const MpiMessage& message);

}  // namespace skynnet
