#include "split/worker_pool.h"

#include <unistd.h>

#include <climits>

#include "data/dataset.h"
#include "split/sub_problem.h"
#include "train/trainer.h"

namespace skynnet {
namespace {

std::string who(int index) { return "submodel " + std::to_string(index + 1); }

// A user handler that throws must not escape a worker thread (std::terminate): report it instead.
void finish(SubmodelOutcome& out, int index, const SubmodelEvents& events) {
    if (!events.onSubmodelFinished) return;
    try {
        events.onSubmodelFinished(index, out.result);
    } catch (const std::exception& e) {
        out.result.status = TrainStatus::Failed;
        out.result.error = who(index) + ": finished handler failed: " + e.what();
    }
}

}  // namespace

std::string localHostName() {
    char name[HOST_NAME_MAX + 1] = {};
    if (gethostname(name, sizeof name - 1) != 0 || name[0] == 0) return "localhost";
    return name;
}

SubmodelData SubmodelData::ownFeatures(const Dataset& train, const Dataset* validation) {
    SubmodelData d;
    d.train = &train;
    d.trainFeatures = MatrixView(train.features);
    d.validation = validation;
    if (validation) d.validationFeatures = MatrixView(validation->features);
    return d;
}

SubmodelOutcome trainSubmodel(const SplitPlan& plan, int index, const Dataset& train, const Dataset* validation,
                              const TrainConfig& config, const SubmodelEvents& events, const CancelToken* cancel,
                              const WorkerPlace* place, const CheckpointHooks* checkpoint) {
    return trainSubmodel(plan, index, SubmodelData::ownFeatures(train, validation), config, events, cancel, place,
                         checkpoint);
}

SubmodelOutcome trainSubmodel(const SplitPlan& plan, int index, const SubmodelData& data, const TrainConfig& config,
                              const SubmodelEvents& events, const CancelToken* cancel, const WorkerPlace* place,
                              const CheckpointHooks* checkpoint) {
    SubmodelOutcome out;
    const SubmodelPlan& sp = plan.submodels[std::size_t(index)];
    try {
        out.network = Network(sp.spec, sp.seed);
        std::optional<SubmodelResume> resume;
        if (checkpoint && checkpoint->load) resume = checkpoint->load(index);
        if (resume) out.network.setFlatWeights(resume->weights);
        if (events.onSubmodelStarted) {
            WorkerPlace here;
            if (place) here = *place;
            else {
                here.host = localHostName();
                here.kernelThreads = config.threads > 0 ? config.threads : 1;
            }
            events.onSubmodelStarted(index, here);
        }
        // The epochs a checkpoint holds are replayed, so every listener (charts, epoch tables, a
        // progress stream) sees each submodel's whole training, resumed or not.
        if (resume && events.onEpoch)
            for (const EpochStats& e : resume->finished ? resume->result.history : resume->state.history)
                events.onEpoch(index, e);
        if (resume && resume->finished) {
            out.result = resume->result;
            // Trained in earlier sessions, all of it: none of its seconds are this session's.
            out.result.earlierWallSeconds = out.result.wallSeconds;
            out.result.earlierCpuSeconds = out.result.cpuSeconds;
            finish(out, index, events);
            return out;
        }
        // The rows stay in the shared datasets; only the targets, in this submodel's own output
        // format, are its own.
        const CombinationRule rule = plan.rule();
        const RowView x{data.trainFeatures, &sp.rows};
        const Matrix y = submodelTargets(rule, index, *data.train, sp.rows);
        std::vector<int> valRows;
        if (data.validation) valRows = ownRows(rule, index, *data.validation, data.validationFeatures.rows);
        const RowView xVal{data.validationFeatures, &valRows};
        Matrix yVal;
        if (!valRows.empty()) yVal = submodelTargets(rule, index, *data.validation, valRows);
        const bool hasVal = !valRows.empty();

        TrainConfig c = config;
        c.epochs = plan.effectiveEpochs;
        c.seed = submodelSeed(config.seed, index);
        TrainCallbacks cb;
        if (events.onEpoch) cb.onEpoch = [&](const EpochStats& s) { events.onEpoch(index, s); };
        if (events.onBatch) cb.onBatch = [&](const BatchProgress& p) { events.onBatch(index, p); };
        if (events.onResources) cb.onResources = [&](const ResourceSample& r) { events.onResources(index, r); };
        if (events.kernelThreads) cb.kernelThreads = [&] { return events.kernelThreads(index); };
        if (checkpoint && checkpoint->saveEpoch)
            cb.onCheckpoint = [&](const TrainerState& s) { checkpoint->saveEpoch(index, out.network, s); };
        Trainer trainer(out.network, c, plan.task);
        if (resume) trainer.resumeFrom(resume->state);
        out.result = trainer.fit(x, y, hasVal ? &xVal : nullptr, hasVal ? &yVal : nullptr, cb, cancel);
        if (out.result.status == TrainStatus::Failed) out.result.error = who(index) + ": " + out.result.error;
        const bool done = out.result.status == TrainStatus::Completed || out.result.status == TrainStatus::EarlyStopped;
        if (done && checkpoint && checkpoint->saveFinished) checkpoint->saveFinished(index, out);
    } catch (const std::exception& e) {
        out.result.status = TrainStatus::Failed;
        out.result.error = who(index) + ": " + e.what();
    }
    finish(out, index, events);
    return out;
}

SubmodelOutcome skippedSubmodel(const SplitPlan& plan, int index, const SubmodelEvents& events) {
    SubmodelOutcome out;
    const SubmodelPlan& sp = plan.submodels[std::size_t(index)];
    // Still a usable (untrained) network, so a combined model of a cancelled run can be built.
    out.network = Network(sp.spec, sp.seed);
    out.result.status = TrainStatus::Cancelled;
    finish(out, index, events);
    return out;
}

}  // namespace skynnet
