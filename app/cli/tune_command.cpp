// `skynnet-cli tune`: measures, on this machine, which matrix-product library is fastest for each
// product the given network (and with --submodels, its split's submodels) computes, and keeps the
// answer in the routing cache (io/gemm_routing_file.h) that every later train, study and app run
// on this machine reads at start. It runs only when asked: nothing tunes silently.
#include <chrono>
#include <cstdio>
#include <iostream>

#include <unistd.h>

#include "commands.h"
#include "core/error.h"
#include "core/gemm_routing.h"
#include "io/gemm_routing_file.h"
#include "split_options.h"
#include "train/gemm_tuning.h"
#include "train_options.h"
#include "train_setup.h"

namespace skynnet::cli {

namespace {

const std::vector<OptionSpec>& tuneOptionSpecs() {
    static const std::vector<OptionSpec> specs = [] {
        std::vector<OptionSpec> all;
        for (const OptionSpec& s : planOptionSpecs())
            if (s.name != "--json" && s.name != "--help") all.push_back(s);
        all.push_back({"--seconds", "S", "time spent measuring each product shape (default 0.05)"});
        all.push_back({"--show", "", "print this machine's measured routes and exit"});
        all.push_back({"--help", "", "show this help"});
        return all;
    }();
    return specs;
}

std::string tuneHelp() {
    return "Usage: skynnet-cli tune --data PATH [--layers ...] [--submodels N ...] [--seconds S]\n"
           "       skynnet-cli tune --show\n\n"
           "Times each matrix-product library (Eigen, OpenBLAS, BLIS, oneDNN) on every product shape the\n"
           "network computes in training and evaluation (with --submodels, the split's submodels too), and\n"
           "keeps the fastest for each shape in the routing cache of this machine:\n"
           "  " +
           gemmRoutingCachePath() +
           "\n(SKYNNET_GEMM_CACHE names another file). Every train, study and app run on this machine then\n"
           "follows it, and its report records the routes used. Shapes not measured follow built-in\n"
           "rules. A checkpoint made under other routes is refused by --resume.\n\n" +
           formatOptions(tuneOptionSpecs());
}

int showRoutes() {
    const std::string path = gemmRoutingCachePath();
    const GemmRoutingCache cache = readGemmRoutingCache(path);
    const GemmMachineRoutes* table = cache.forMachine(gemmMachineKey());
    std::cout << "machine: " << gemmMachineKey() << "\ncache: " << path << "\n";
    if (!table) {
        std::cout << "no routes measured on this machine: the built-in rules apply\n";
        return exitOk;
    }
    std::cout << "tuned " << table->tuned << ", " << table->routes.size() << " shapes\n";
    for (const GemmMeasuredRoute& r : table->routes)
        std::cout << "  " << gemmShapeText(r.shape) << " -> " << gemmBackendName(r.backend) << "\n";
    return exitOk;
}

std::vector<GemmTuningNetwork> networksOf(const Args& args, const TrainOptions& o) {
    const PreparedData data = prepareData(o, DataUse::Planning);
    const Matrix scaled = data.task() == Task::Reconstruction ? data.preprocessing.apply(data.train.features)
                                                              : Matrix();
    const TrainConfig config = buildTrainConfig(o, data.task(), scaled);
    const NetworkSpec spec = buildNetworkSpec(o, data, config.loss);
    const Index evaluationRows = Index(data.validation.size() > 0 ? data.validation.size() : data.test.size());
    std::vector<GemmTuningNetwork> networks{{spec, config, data.task(), Index(data.train.size()), evaluationRows}};
    if (!o.split) return networks;
    const SplitOptions split = fitSplitOptions(args, *o.split, data.train.task);
    const SplitPlan plan = makePlan(spec, data.train, split);
    TrainConfig subConfig = config;
    subConfig.epochs = plan.effectiveEpochs;
    for (const SubmodelPlan& s : plan.submodels)
        networks.push_back({s.spec, subConfig, plan.task, Index(s.rows.size()), evaluationRows});
    return networks;
}

}  // namespace

int runTune(const std::vector<std::string>& words) {
    const Args args = Args::parse(words, tuneOptionSpecs());
    if (args.flag("--help")) {
        std::cout << tuneHelp();
        return exitOk;
    }
    if (args.flag("--show")) return showRoutes();
    const double seconds = args.positiveNumber("--seconds", 0.05);
    const TrainOptions o = parseTrainOptions(args);
    const auto start = std::chrono::steady_clock::now();
    const std::vector<GemmShape> shapes = gemmShapesOf(networksOf(args, o));
    std::cerr << "measuring " << shapes.size() << " product shapes, about " << shapes.size() * seconds << " s\n";
    // A counter on a terminal; a log gets the one line above.
    const bool terminal = isatty(STDERR_FILENO);
    const std::vector<GemmMeasuredRoute> routes = measureGemmRoutes(shapes, seconds, [terminal](int done, int total) {
        if (!terminal) return;
        std::fprintf(stderr, "\r%d of %d shapes", done, total);
        if (done == total) std::fprintf(stderr, "\n");
        std::fflush(stderr);
    });

    const std::string path = gemmRoutingCachePath();
    GemmRoutingCache cache = readGemmRoutingCache(path);
    cache.merge(gemmMachineKey(), "", routes);
    writeGemmRoutingCache(path, cache);

    std::printf("%-24s %-9s", "shape", "route");
    for (GemmBackend b : kGemmBackends) std::printf(" %8s", gemmBackendName(b));
    std::printf("  (GFLOP/s on one thread)\n");
    for (const GemmMeasuredRoute& r : routes) {
        std::printf("%-24s %-9s", gemmShapeText(r.shape).c_str(), gemmBackendName(r.backend));
        for (GemmBackend b : kGemmBackends) {
            const auto it = r.gflops.find(b);
            if (it == r.gflops.end()) std::printf(" %8s", "-");
            else std::printf(" %8.1f", it->second);
        }
        const GemmBackend rule = gemmRuleRoute(r.shape);
        if (r.backend != rule) std::printf("  (rules: %s)", gemmBackendName(rule));
        std::printf("\n");
    }
    std::printf("%zu shapes measured in %.1f s, kept in %s for\n  %s\n", routes.size(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), path.c_str(),
                gemmMachineKey().c_str());
    return exitOk;
}

}  // namespace skynnet::cli
