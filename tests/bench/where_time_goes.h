#pragma once
// skynnet-bench's table of where a training epoch's time went (SKYNNET_PROFILE=1), per training
// step, in thread time (with 2 threads a step has twice its wall time to spend): each layer's
// forward and backward pass, the optimiser's update, gathering the slices' rows, the threads idle
// in the slices' region (waking, and waiting for the last slice), and the rest (the loss, the
// step's bookkeeping); then the matrix products inside the layers, by shape and backend, with
// their share of one core's FMA peak.
#include <cstdio>
#include <string>
#include <vector>

#include "core/work_profile.h"

namespace skynnet::bench {

inline void printWorkRow(const workprofile::Entry& e, double steps, double threadMs, double corePeakGflops) {
    const double ms = e.seconds * 1e3 / steps;
    std::printf("  %-36s %10.1f %9.3f %6.1f%%", e.name.c_str(), double(e.calls) / steps, ms, 100 * ms / threadMs);
    if (e.flops > 0) {
        const double gflops = e.flops / e.seconds * 1e-9;
        std::printf(" %9.1f %8.0f%%", gflops, 100 * gflops / corePeakGflops);
    }
    std::printf("\n");
}

// Prints the rows, those under half a percent each (the epoch's last, short batch, the smallest
// layers) as one; returns their ms per step.
inline double printWorkRows(const std::vector<workprofile::Entry>& rows, double steps, double threadMs,
                            double corePeakGflops) {
    double ms = 0;
    workprofile::Entry small;
    int smallKinds = 0;
    for (const workprofile::Entry& e : rows) {
        ms += e.seconds * 1e3 / steps;
        if (e.seconds * 1e3 / steps < 0.005 * threadMs) {
            small.calls += e.calls;
            small.seconds += e.seconds;
            small.flops += e.flops;
            ++smallKinds;
        } else {
            printWorkRow(e, steps, threadMs, corePeakGflops);
        }
    }
    if (smallKinds > 0) {
        small.name = "the other " + std::to_string(smallKinds);
        printWorkRow(small, steps, threadMs, corePeakGflops);
    }
    return ms;
}

inline void printWhereTimeGoes(const char* net, int threads, double steps, double wallSeconds, double corePeakGflops) {
    std::vector<workprofile::Entry> work, products;
    for (const workprofile::Entry& e : workprofile::entries())
        (e.name.rfind("product ", 0) == 0 ? products : work).push_back(e);
    const double threadMs = threads * wallSeconds * 1e3 / steps;
    std::printf("where the last epoch's time went: net=%s threads=%d, %.0f steps, %.3f ms of thread time a step\n", net,
                threads, steps, threadMs);
    std::printf("  %-36s %10s %9s %7s %9s %9s\n", "work", "calls/step", "ms/step", "share", "GFLOP/s", "core peak");
    const double timed = printWorkRows(work, steps, threadMs, corePeakGflops);
    std::printf("  %-36s %10s %9.3f %6.1f%%\n", "everything else", "", threadMs - timed,
                100 * (threadMs - timed) / threadMs);
    std::printf("  of which, in the layers' matrix products:\n");
    printWorkRows(products, steps, threadMs, corePeakGflops);
}

}  // namespace skynnet::bench
