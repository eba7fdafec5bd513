#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "train/metrics.h"

namespace skynnet::cli {

TrainCallbacks progressCallbacks(Task task, int epochs, bool quiet) {
    TrainCallbacks c;
    if (quiet) return c;
    // The in-place batch counter needs a terminal; in a log file it would be noise.
    const bool live = ::isatty(STDERR_FILENO) == 1;
    const std::string metric = headlineMetricName(task);
    const int digits = int(std::to_string(epochs).size());
    c.onEpoch = [=](const EpochStats& e) {
        std::string line = live ? "\r\033[K" : "";
        char buf[256];
        std::snprintf(buf, sizeof buf, "epoch %*d/%d  loss %.4f  %s %.4f", digits, e.epoch, epochs, e.loss, metric.c_str(),
                      e.metric);
        line += buf;
        if (e.hasValidation) {
            std::snprintf(buf, sizeof buf, "  val_loss %.4f  val_%s %.4f", e.validationLoss, metric.c_str(), e.validationMetric);
            line += buf;
        }
        std::snprintf(buf, sizeof buf, "  %.2f s  %.0f samples/s\n", e.seconds, e.samplesPerSecond);
        line += buf;
        std::fputs(line.c_str(), stderr);
        std::fflush(stderr);
    };
    if (live)
        c.onBatch = [=](const BatchProgress& b) {
            std::fprintf(stderr, "\r\033[Kepoch %*d/%d  batch %d/%d  loss %.4f", digits, b.epoch, epochs, b.batch, b.batches,
                         b.loss);
            std::fflush(stderr);
        };
    return c;
}

}  // namespace skynnet::cli
