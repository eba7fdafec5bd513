#include "split/parallel_trainer.h"

#include <algorithm>
#include <functional>

#include "core/error.h"
#include "core/parallel.h"
#include "data/dataset.h"
#include "split/thread_backend.h"
#include "train/trainer.h"

namespace skynnet {
namespace {

// samples < 0: any number of rows (validation data).
void requireFits(const SplitPlan& plan, const Dataset& data, long samples, const char* what) {
    if (data.task == plan.task && data.outputCount() == plan.outputs && (samples < 0 || long(data.size()) == samples))
        return;
    throw Error(std::string("the ") + what + " (" + taskName(data.task) + ", " + std::to_string(data.size()) +
                " samples, " + std::to_string(data.outputCount()) + " outputs) does not fit the plan (" +
                taskName(plan.task) + ", " + std::to_string(plan.samples) + " training samples, " +
                std::to_string(plan.outputs) + " outputs): make the plan again");
}

void requirePlanData(const SplitPlan& plan, const Dataset& train, const Dataset* validation) {
    requireFits(plan, train, plan.samples, "training data");
    if (validation) requireFits(plan, *validation, -1, "validation data");
}

}  // namespace

ParallelTrainer::ParallelTrainer(SplitPlan plan, TrainConfig config, std::shared_ptr<WorkerBackend> backend)
    : plan_(std::move(plan)), config_(config),
      backend_(backend ? std::move(backend) : std::make_shared<ThreadBackend>()) {
    if (plan_.submodels.empty()) throw Error("the split plan has no submodels");
}

ParallelResult ParallelTrainer::train(const Dataset& train, const Dataset* validation, const SubmodelEvents& events,
                                      const CancelToken* cancel, const CheckpointHooks* checkpoint) {
    requirePlanData(plan_, train, validation);
    const RunStopwatch clock(cancel);  // the time the run was paused is no one's training time
    ParallelResult r;
    r.workers = backend_->workers(plan_.submodelCount());
    std::vector<SubmodelOutcome> outcomes = backend_->train(plan_, train, validation, config_, events, cancel,
                                                            checkpoint);

    std::vector<Network> networks;
    std::vector<std::int64_t> peaks;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        TrainResult& t = outcomes[i].result;
        if (t.status == TrainStatus::Failed && r.status != TrainStatus::Failed) {
            r.status = TrainStatus::Failed;
            r.error = t.error;
        }
        r.submodelWallSeconds.push_back(t.wallSeconds);
        r.submodelCpuSeconds.push_back(t.cpuSeconds);
        r.cpuSeconds += t.cpuSeconds;
        r.earlierCpuSeconds += t.earlierCpuSeconds;
        if (t.resumed()) ++r.resumedSubmodels;
        peaks.push_back(t.peakBytes());
        r.submodels.push_back(std::move(t));
        networks.push_back(std::move(outcomes[i].network));
    }
    if (cancel && cancel->cancelled() && r.status != TrainStatus::Failed) r.status = TrainStatus::Cancelled;
    std::sort(peaks.begin(), peaks.end(), std::greater<>());
    if (!peaks.empty()) r.peakSubmodelBytes = peaks.front();
    for (std::size_t i = 0; i < peaks.size() && i < std::size_t(r.workers); ++i) r.peakConcurrentBytes += peaks[i];
    r.model = CombinedModel(plan_.rule(), std::move(networks), config_.loss);
    r.wallSeconds = clock.seconds();
    return r;
}

BaselineResult trainBaseline(const SplitPlan& plan, const Dataset& train, const Dataset* validation,
                             const TrainConfig& config, int threadBudget, const TrainCallbacks& callbacks,
                             const CancelToken* cancel) {
    requirePlanData(plan, train, validation);
    const int previous = kernelThreads();
    BaselineResult b;
    b.network = Network(plan.original, submodelSeed(plan.seed, 0));
    TrainConfig c = config;
    c.epochs = plan.epochs;
    c.seed = submodelSeed(config.seed, 0);
    c.threads = threadBudget > 0 ? threadBudget : hardwareThreads();
    const Matrix y = train.targetMatrix();
    Matrix yVal;
    if (validation) yVal = validation->targetMatrix();
    const bool hasVal = validation && validation->size() > 0;
    try {
        Trainer trainer(b.network, c, plan.task);
        b.result = trainer.fit(train.features, y, hasVal ? &validation->features : nullptr, hasVal ? &yVal : nullptr,
                               callbacks, cancel);
    } catch (...) {
        setKernelThreads(previous);
        throw;
    }
    setKernelThreads(previous);
    return b;
}

}  // namespace skynnet
