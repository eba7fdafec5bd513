#pragma once
// A worker rank's whole life: it waits for the job, checks that it runs rank 0's build and reads
// the same data, then trains the submodels rank 0 assigns (through trainSubmodel, as a thread
// would) and streams their progress back, until rank 0 says stop.
#include <string>

namespace skynnet {

class MpiSession;

// Returns when rank 0 has stopped this worker. The worker prepares its rows from the job's data
// request (job_data.h), starting as soon as rank 0 sends it ahead. A job this worker cannot run
// (another version or build, other data) is reported to rank 0, which refuses the run with that
// message; so is data it cannot read, naming its host.
void runMpiWorker(MpiSession& session, const std::string& version);

}  // namespace skynnet
