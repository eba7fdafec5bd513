// One core's GFLOP/s of each direct convolution kernel alone (engine/layers/conv_direct.h) on the
// reference CNN's shapes, data already in block layout (as between the CNN's layers), as a share
// of the core's measured FMA peak: where the conv layers' time goes, kernel by kernel. The input
// gradient both ways: the padded output gradient correlated with the flipped filters (as training
// computed it before), and scattered (as it does now), with the largest difference between them.
// Prints figures and asserts nothing.
//   skynnet-conv-kernel-bench [SECONDS_PER_FIGURE=0.5] [TEXT: the kernels whose name has it]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "core/rng.h"
#include "cpu_time.h"
#include "fma_peak.h"
#include "layers/conv_direct.h"

using namespace skynnet;

namespace {

// Blocks aligned as the engine's (Eigen's 64 bytes): with malloc's 16, every other vector load
// crossed a cache line, and the figures moved by a third from one build of this bench to the next.
using Block = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;

Block randomBlock(Shape shape, Rng& rng) {
    Block v(shape.size() * convBlockSamples());
    for (Index i = 0; i < v.size(); ++i) v[i] = rng.uniform(-1, 1);
    return v;
}

std::string only;

// Best GFLOP/s of repeated calls, each timed in this thread's CPU time.
void report(const char* name, double flop, double seconds, double peak, const std::function<void()>& run) {
    if (std::string(name).find(only) == std::string::npos) return;
    run();
    using Clock = std::chrono::steady_clock;
    const int perBatch = std::max(1, int(2e7 / flop));
    double best = 0;
    for (const auto end = Clock::now() + std::chrono::duration<double>(seconds); Clock::now() < end;) {
        const double t = bench::threadSeconds();
        for (int i = 0; i < perBatch; ++i) run();
        best = std::max(best, flop * perBatch / (bench::threadSeconds() - t) * 1e-9);
    }
    std::printf("%-66s %6.1f GFLOP/s (%4.0f%%)\n", name, best, 100 * best / peak);
}

struct Case {
    const char* name;
    Shape input;  // unpadded: valid correlations, as the reference CNN's
    int filters;
};

}  // namespace

int main(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 0.5;
    only = argc > 2 ? argv[2] : "";
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
        const Block in = randomBlock(c.input, rng), bias = Block::Constant(F, 0.1f);
        PackedFilters packed, flipped;
        packFilters(weights, c.input.channels, k, k, false, packed);
        packFilters(weights, c.input.channels, k, k, true, flipped);
        Block out(Shape{F, OH, OW}.size() * lanes);
        char name[96];
        std::snprintf(name, sizeof name, "%s forward", c.name);
        report(name, flop, seconds, peak,
               [&] { correlateBlock(in.data(), c.input, packed, bias.data(), true, 0, 0, out.data()); });
        // The output gradient as training holds it.
        const BlockPlacement gAt{Shape{F, OH, OW}};
        const Block g = randomBlock(gAt.block, rng);
        Block grad(weights.size());
        std::snprintf(name, sizeof name, "%s weight gradient", c.name);
        report(name, flop, seconds, peak, [&] {
            weightGradientBlock(g.data(), gAt, OH, OW, in.data(), c.input, k, k, c.filters, grad.data(), false);
        });
        if (c.input.channels == 1) continue;  // the first layer needs no input gradient
        // The padded copy the correlation reads: each of g's rows k - 1 vectors in.
        const BlockPlacement paddedAt{Shape{F, OH + 2 * (k - 1), OW + 2 * (k - 1)}, k - 1, k - 1};
        Block padded(paddedAt.block.size() * lanes);
        zeroBlockPadding(gAt.block, paddedAt, padded.data());
        for (Index row = 0; row < Index(F) * OH; ++row) {
            const Index f = row / OH, h = row % OH;
            std::copy_n(g.data() + row * OW * lanes, OW * lanes,
                        padded.data() +
                            ((f * paddedAt.block.height + h + k - 1) * paddedAt.block.width + k - 1) * lanes);
        }
        const Shape dxShape{roundUpToFilterBlock(c.input.channels), c.input.height, c.input.width};
        Block dx(dxShape.size() * lanes);
        std::snprintf(name, sizeof name, "%s input gradient, padded correlation", c.name);
        report(name, flop, seconds, peak, [&] {
            correlateBlock(padded.data(), paddedAt.block, flipped, nullptr, false, k - 1, k - 1, dx.data());
        });
        // The reference for the scatter's figure, computed whatever the name filter runs.
        correlateBlock(padded.data(), paddedAt.block, flipped, nullptr, false, k - 1, k - 1, dx.data());
        const Block byCorrelation = dx;
        std::snprintf(name, sizeof name, "%s input gradient, scatter (training's)", c.name);
        report(name, flop, seconds, peak,
               [&] { scatterInputGradientBlock(g.data(), gAt, OH, OW, flipped, dxShape, dx.data()); });
        if (std::string(name).find(only) != std::string::npos)
            std::printf("  largest difference from the correlation's: %.3g (largest value %.3g)\n",
                        double((dx - byCorrelation).cwiseAbs().maxCoeff()),
                        double(byCorrelation.cwiseAbs().maxCoeff()));
    }
    return 0;
}
