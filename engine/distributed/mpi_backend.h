#pragma once
// Rank 0's side of an MPI run, as a WorkerBackend: ParallelTrainer and everything after it (the
// combination, evaluation, report and model file) run on rank 0 exactly as with threads. train()
// sends the job to ranks 1..K-1, hands them submodels longest first (the next one to the first
// rank that comes free), relays their progress to the SubmodelEvents handlers on the calling
// thread, and rebuilds each submodel's network from the weights it sends back.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "distributed/protocol.h"
#include "split/worker_pool.h"

namespace skynnet {

class MpiSession;

class MpiBackend final : public WorkerBackend {
public:
    // job: everything but the plan and config, which train() fills in. The session must outlive
    // the backend; it must be rank 0 of at least 2 ranks.
    MpiBackend(MpiSession& session, MpiJob job);

    std::string name() const override { return "mpi"; }
    int workers(int submodels) const override;
    // Throws Error when a worker refuses the job (another build, other data: the message names
    // its rank and host). Stops every worker before it returns or throws (stopWorkers): a backend
    // trains once. The job ends with releaseWorkers, once rank 0 has written its outputs.
    // checkpoint: submodels it holds as finished are loaded, not sent out; each submodel that
    // finishes is saved through it on rank 0 as it arrives (a dead rank ends the whole job, so
    // that is what survives). Epoch states stay with the workers, in the hooks' folder as it is on
    // their machine: a submodel that had not finished continues from its last epoch end saved
    // there, or trains again from its start where there is none; both end with the same weights.
    // Once a submodel is saved here as finished, the worker that trained it removes its epoch state
    // (a successful run leaves nothing on a worker's machine).
    std::vector<SubmodelOutcome> train(const SplitPlan& plan, const Dataset& train, const Dataset* validation,
                                       const TrainConfig& config, const SubmodelEvents& events,
                                       const CancelToken* cancel, const CheckpointHooks* checkpoint = nullptr) override;

    // Called on rank 0's thread each time a rank is handed a submodel (its 0-based index) and with
    // -1 once it is free for good, so that whoever launched the job can say which submodel a rank
    // that died was training: Open MPI ends every rank when one dies, rank 0 included.
    using AssignmentObserver = std::function<void(int rank, const std::string& host, int index)>;
    void setAssignmentObserver(AssignmentObserver observer) { observer_ = std::move(observer); }

    // After train(): the message bytes each rank sent, rank 0 first.
    const std::vector<std::int64_t>& bytesSentPerRank() const { return bytesSent_; }
    // After train(): rank 0's CPU seconds during it (its waits sleep: this stays near zero).
    double rank0CpuSeconds() const { return rank0Cpu_; }
    // After train(): how often a rank with no more work handed its cores to a busy rank on its host
    // (only when the job does not fix the workers' threads).
    int coresHandedOn() const { return coresHandedOn_; }

private:
    MpiSession& session_;
    MpiJob job_;
    AssignmentObserver observer_;
    std::vector<std::int64_t> bytesSent_;
    double rank0Cpu_ = 0;
    int coresHandedOn_ = 0;
};

// Tells every worker there is no (more) work and waits until each has said goodbye, so that no
// message is left in flight when MPI finalizes. Done once per session; later calls return at once.
// bytesSent, if given, gets each rank's sent bytes (rank 0 first). The workers then sleep (they
// hold their host's block) until releaseWorkers.
void stopWorkers(MpiSession& session, std::vector<std::int64_t>* bytesSent = nullptr);
// Stops the workers if that has not happened yet, then lets them end: they free their host's
// block (with rank 0 on its own host) and finalize, as rank 0 does next (MpiSession::finish, or its
// destructor). Done once per session.
void releaseWorkers(MpiSession& session);

}  // namespace skynnet
