#pragma once
// A worker rank's whole life: it waits for the job, checks that it runs rank 0's build and reads
// the same data, then trains the submodels rank 0 assigns (through trainSubmodel, as a thread
// would) and streams their progress back, until rank 0 says stop.
#include <functional>
#include <optional>
#include <string>

#include "data/dataset.h"
#include "distributed/protocol.h"

namespace skynnet {

class MpiSession;

// The rows a worker trains on, prepared from the job's options exactly as rank 0 prepared its own.
struct WorkerData {
    Dataset train;
    std::optional<Dataset> validation;
};
// Throws Error for data that cannot be read (the worker reports it, naming its host).
using PrepareWorkerData = std::function<WorkerData(const MpiJob& job)>;

// Returns when rank 0 has stopped this worker. A job this worker cannot run (another version or
// build, other data) is reported to rank 0, which refuses the run with that message.
void runMpiWorker(MpiSession& session, const std::string& version, const PrepareWorkerData& prepare);

}  // namespace skynnet
