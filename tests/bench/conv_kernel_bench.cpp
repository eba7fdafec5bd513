// One core's GFLOP/s of each direct convolution kernel alone (engine/layers/conv_direct.h) on the
// reference CNN's shapes, data already in block layout (as between the CNN's layers), as a share
// of the core's measured FMA peak: where the conv layers' time goes, kernel by kernel.
// Prints figures and asserts nothing.
//   skynnet-conv-kernel-bench [SECONDS_PER_FIGURE=0.5]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <vector>

#include "core/rng.h"
#include "fma_peak.h"
#include "layers/conv_direct.h"

using namespace skynnet;

namespace {

double threadSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

std::vector<Scalar> randomBlock(Shape shape, Rng& rng) {
    std::vector<Scalar> v(std::size_t(shape.size() * convBlockSamples()));
    for (auto& x : v) x = rng.uniform(-1, 1);
    return v;
}

// Best GFLOP/s of repeated calls, each timed in this thread's CPU time.
void report(const char* name, double flop, double seconds, double peak, const std::function<void()>& run) {
    run();
    using Clock = std::chrono::steady_clock;
    const int perBatch = std::max(1, int(2e7 / flop));
    double best = 0;
    for (const auto end = Clock::now() + std::chrono::duration<double>(seconds); Clock::now() < end;) {
        const double t = threadSeconds();
        for (int i = 0; i < perBatch; ++i) run();
        best = std::max(best, flop * perBatch / (threadSeconds() - t) * 1e-9);
    }
    std::printf("%-44s %6.1f GFLOP/s (%4.0f%%)\n", name, best, 100 * best / peak);
}

struct Case {
    const char* name;
    Shape input;  // unpadded: valid correlations, as the reference CNN's
    int filters;
};

}  // namespace

int main(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 0.5;
    const double peak = bench::fmaPeakGflops();
    const int lanes = convBlockSamples();
    std::printf("FMA peak, 1 core: %.1f GFLOP/s; blocks of %d samples\n", peak, lanes);
    Rng rng(5);
    for (const Case& c :
         {Case{"conv1 32 3x3 on 1x28x28", {1, 28, 28}, 32}, Case{"conv2 64 3x3 on 32x13x13", {32, 13, 13}, 64}}) {
        const int k = 3, OH = c.input.height - k + 1, OW = c.input.width - k + 1, F = roundUpToFilterBlock(c.filters);
        const double flop = 2.0 * lanes * OH * OW * c.filters * c.input.channels * k * k;
        Matrix weights(c.filters, c.input.channels * k * k);
        for (Index i = 0; i < weights.size(); ++i) weights.data()[i] = rng.uniform(-0.1f, 0.1f);
        const std::vector<Scalar> in = randomBlock(c.input, rng), bias(std::size_t(F), 0.1f);
        PackedFilters packed, flipped;
        packFilters(weights, c.input.channels, k, k, false, packed);
        packFilters(weights, c.input.channels, k, k, true, flipped);
        std::vector<Scalar> out(std::size_t(Shape{F, OH, OW}.size() * lanes));
        char name[96];
        std::snprintf(name, sizeof name, "%s forward", c.name);
        report(name, flop, seconds, peak,
               [&] { correlateBlock(in.data(), c.input, packed, bias.data(), true, 0, 0, out.data()); });
        // The output gradient padded by k - 1 on each side, as backward's input gradient reads it.
        const BlockPlacement gAt{Shape{F, OH + 2 * (k - 1), OW + 2 * (k - 1)}, k - 1, k - 1};
        const std::vector<Scalar> g = randomBlock(gAt.block, rng);
        std::vector<Scalar> grad(std::size_t(weights.size()));
        std::snprintf(name, sizeof name, "%s weight gradient", c.name);
        report(name, flop, seconds, peak, [&] {
            weightGradientBlock(g.data(), gAt, OH, OW, in.data(), c.input, k, k, c.filters, grad.data(), false);
        });
        if (c.input.channels == 1) continue;  // the first layer needs no input gradient
        std::vector<Scalar> dx(
            std::size_t(Shape{roundUpToFilterBlock(c.input.channels), c.input.height, c.input.width}.size() * lanes));
        std::snprintf(name, sizeof name, "%s input gradient", c.name);
        report(name, flop, seconds, peak,
               [&] { correlateBlock(g.data(), gAt.block, flipped, nullptr, false, k - 1, k - 1, dx.data()); });
    }
    return 0;
}
