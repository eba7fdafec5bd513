#pragma once
// Rank 0's side of an MPI run, as a WorkerBackend: ParallelTrainer and everything after it (the
// combination, evaluation, report and model file) run on rank 0 exactly as with threads. train()
// sends the job to ranks 1..K-1, hands them submodels longest first (the next one to the first
// rank that comes free), relays their progress to the SubmodelEvents handlers on the calling
// thread, and rebuilds each submodel's network from the weights it sends back.
#include <cstdint>
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
    // its rank and host). Stops every worker before it returns or throws.
    std::vector<SubmodelOutcome> train(const SplitPlan& plan, const Dataset& train, const Dataset* validation,
                                       const TrainConfig& config, const SubmodelEvents& events,
                                       const CancelToken* cancel, const CheckpointHooks* checkpoint = nullptr) override;

    // After train(): the message bytes each rank sent, rank 0 first.
    const std::vector<std::int64_t>& bytesSentPerRank() const { return bytesSent_; }

private:
    MpiSession& session_;
    MpiJob job_;
    std::vector<std::int64_t> bytesSent_;
};

// Tells every worker there is no (more) work and waits until each has said goodbye, so that no
// message is left in flight when MPI finalizes. Done once per session; later calls return at once.
// bytesSent, if given, gets each rank's sent bytes (rank 0 first).
void stopWorkers(MpiSession& session, std::vector<std::int64_t>* bytesSent = nullptr);

}  // namespace skynnet
