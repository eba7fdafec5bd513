#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "train/metrics.h"

namespace skynnet::cli {
namespace {

std::string epochLine(const EpochStats& e, int epochs, const std::string& metric) {
    const int digits = int(std::to_string(epochs).size());
    char buf[256];
    std::snprintf(buf, sizeof buf, "epoch %*d/%d  loss %.4f  %s %.4f", digits, e.epoch, epochs, e.loss, metric.c_str(),
                  e.metric);
    std::string line = buf;
    if (e.hasValidation) {
        std::snprintf(buf, sizeof buf, "  val_loss %.4f  val_%s %.4f", e.validationLoss, metric.c_str(),
                      e.validationMetric);
        line += buf;
    }
    std::snprintf(buf, sizeof buf, "  %.2f s  %.0f samples/s\n", e.seconds, e.samplesPerSecond);
    return line + buf;
}

}  // namespace

TrainCallbacks progressCallbacks(Task task, int epochs, bool quiet, const std::string& prefix) {
    TrainCallbacks c;
    if (quiet) return c;
    // The in-place batch counter needs a terminal; in a log file it would be noise.
    const bool live = ::isatty(STDERR_FILENO) == 1;
    const std::string metric = headlineMetricName(task);
    const int digits = int(std::to_string(epochs).size());
    c.onEpoch = [=](const EpochStats& e) {
        const std::string line = (live ? "\r\033[K" : "") + prefix + epochLine(e, epochs, metric);
        std::fputs(line.c_str(), stderr);
        std::fflush(stderr);
    };
    if (live)
        c.onBatch = [=](const BatchProgress& b) {
            std::fprintf(stderr, "\r\033[K%sepoch %*d/%d  batch %d/%d  loss %.4f", prefix.c_str(), digits, b.epoch,
                         epochs, b.batch, b.batches, b.loss);
            std::fflush(stderr);
        };
    return c;
}

SubmodelEvents submodelProgress(const SplitPlan& plan, bool quiet) {
    SubmodelEvents events;
    if (quiet) return events;
    // Shared by the handlers, which the trainer copies; every handler has returned before
    // ParallelTrainer::train() does, so the lock outlives its users.
    const auto lock = std::make_shared<std::mutex>();
    const auto say = [lock](const std::string& line) {
        const std::lock_guard<std::mutex> hold(*lock);
        std::fputs(line.c_str(), stderr);
        std::fflush(stderr);
    };
    const int s = plan.submodelCount(), epochs = plan.effectiveEpochs;
    const std::string metric = headlineMetricName(plan.task);
    const auto who = [s](int i) { return "submodel " + std::to_string(i + 1) + "/" + std::to_string(s) + ": "; };
    std::vector<std::string> roles;
    for (const auto& m : plan.submodels)
        roles.push_back(m.role + ", " + m.spec.widthsSummary() + ", " + std::to_string(m.rows.size()) + " samples");
    events.onSubmodelStarted = [=](int i, const WorkerPlace& p) {
        // Rank 0 is this process (threads); an MPI worker says where it runs.
        const std::string where = p.rank > 0 ? " on rank " + std::to_string(p.rank) + " (" + p.host + ", " +
                                                   std::to_string(p.kernelThreads) + " thread" +
                                                   (p.kernelThreads == 1 ? "" : "s") + ")"
                                             : "";
        say(who(i) + "started" + where + " (" + roles[std::size_t(i)] + ")\n");
    };
    events.onEpoch = [=](int i, const EpochStats& e) { say(who(i) + epochLine(e, epochs, metric)); };
    events.onSubmodelFinished = [=](int i, const TrainResult& r) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "%s in %.2f s (cpu %.2f s)\n", statusName(r.status).c_str(), r.wallSeconds,
                      r.cpuSeconds);
        say(who(i) + buf);
    };
    return events;
}

}  // namespace skynnet::cli
