#include "ui/core/run_events.h"

#include <QString>

#include "run/runner.h"

namespace skynnet::ui {

RunEventBuffer::RunEventBuffer(int submodels) : submodels_(submodels) {
    pending_.submodels.resize(std::size_t(submodels));
}

SubmodelEvents RunEventBuffer::submodelEvents() {
    SubmodelEvents e;
    e.onEpoch = [this](int i, const EpochStats& s) {
        std::lock_guard lock(mutex_);
        pending_.submodels[std::size_t(i)].epochs.push_back(s);
    };
    e.onBatch = [this](int i, const BatchProgress& p) {
        std::lock_guard lock(mutex_);
        pending_.submodels[std::size_t(i)].lastBatch = p;
    };
    e.onResources = [this](int i, const ResourceSample& r) {
        std::lock_guard lock(mutex_);
        pending_.submodels[std::size_t(i)].resources.push_back(r);
    };
    e.onSubmodelStarted = [this](int i, const WorkerPlace& place) {
        std::lock_guard lock(mutex_);
        pending_.submodels[std::size_t(i)].place = place;
    };
    e.onSubmodelFinished = [this](int i, const TrainResult& r) {
        const QString line = QString::fromStdString(submodelFinishLine(i, r));
        std::lock_guard lock(mutex_);
        pending_.submodels[std::size_t(i)].finished = r.status;
        pending_.log.append(line);
    };
    return e;
}

TrainCallbacks RunEventBuffer::baselineCallbacks() {
    TrainCallbacks c;
    c.onEpoch = [this](const EpochStats& s) {
        std::lock_guard lock(mutex_);
        pending_.baseline.epochs.push_back(s);
    };
    c.onBatch = [this](const BatchProgress& p) {
        std::lock_guard lock(mutex_);
        pending_.baseline.lastBatch = p;
    };
    c.onResources = [this](const ResourceSample& r) {
        std::lock_guard lock(mutex_);
        pending_.baseline.resources.push_back(r);
    };
    return c;
}

void RunEventBuffer::log(const QString& line) {
    std::lock_guard lock(mutex_);
    pending_.log.append(line);
}

void RunEventBuffer::baselineFinished(TrainStatus status) {
    std::lock_guard lock(mutex_);
    pending_.baseline.finished = status;
}

CollectedEvents RunEventBuffer::take() {
    CollectedEvents fresh;
    fresh.submodels.resize(std::size_t(submodels_));
    std::lock_guard lock(mutex_);
    std::swap(fresh, pending_);
    return fresh;
}

}  // namespace skynnet::ui
