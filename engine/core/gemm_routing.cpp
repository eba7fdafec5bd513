#include "core/gemm_routing.h"

#include <atomic>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <set>
#include <unordered_map>

#include "core/error.h"

namespace skynnet {

std::string gemmShapeText(const GemmShape& s) {
    std::string text = s.columns ? "cols " : "";
    text += s.opA == Op::None ? 'N' : 'T';
    text += s.opB == Op::None ? 'N' : 'T';
    return text + " " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

GemmShape gemmShapeFromText(const std::string& text) {
    GemmShape s;
    std::string rest = text;
    if (rest.rfind("cols ", 0) == 0) {
        s.columns = true;
        rest = rest.substr(5);
    }
    char a = 0, b = 0;
    long long m = 0, n = 0, k = 0;
    char tail = 0;
    if (std::sscanf(rest.c_str(), "%c%c %lldx%lldx%lld%c", &a, &b, &m, &n, &k, &tail) != 5 || (a != 'N' && a != 'T') ||
        (b != 'N' && b != 'T') || m <= 0 || n <= 0 || k <= 0)
        throw Error("'" + text + "' is not a product shape (expected e.g. \"NT 64x512x784\")");
    s.opA = a == 'N' ? Op::None : Op::Transpose;
    s.opB = b == 'N' ? Op::None : Op::Transpose;
    s.m = Index(m);
    s.n = Index(n);
    s.k = Index(k);
    return s;
}

double gemmShapeFlop(const GemmShape& s) { return 2.0 * double(s.m) * double(s.n) * double(s.k); }

GemmBackend gemmBackendFromName(const std::string& name) {
    std::string names;
    for (GemmBackend b : kGemmBackends) {
        if (name == gemmBackendName(b)) return b;
        names += (names.empty() ? "" : ", ") + std::string(gemmBackendName(b));
    }
    throw Error("unknown GEMM backend '" + name + "' (" + names + ")");
}

namespace {

// "AMD EPYC 7B13 (family 25 model 1 stepping 1)": the model name alone does not tell a Zen 3 from a
// Zen 4 on some clouds.
std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string name = "unknown CPU", family = "?", model = "?", stepping = "?";
    auto value = [](const std::string& line) {
        const auto colon = line.find(':');
        return colon == std::string::npos ? std::string() : line.substr(line.find_first_not_of(" \t", colon + 1));
    };
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) break;  // the first processor's block
        if (line.rfind("model name", 0) == 0) name = value(line);
        else if (line.rfind("cpu family", 0) == 0) family = value(line);
        else if (line.rfind("model\t", 0) == 0 || line.rfind("model :", 0) == 0) model = value(line);
        else if (line.rfind("stepping", 0) == 0) stepping = value(line);
    }
    return name + " (family " + family + " model " + model + " stepping " + stepping + ")";
}

std::string buildText() {
#if defined(__AVX512F__)
    const char* width = "avx512";
#elif defined(__AVX2__)
    const char* width = "avx2";
#else
    const char* width = "sse2";
#endif
    return std::string("gcc ") + __VERSION__ + " " + width;
}

struct RoutingState {
    std::mutex mutex;
    GemmRouting table;
    std::map<GemmShape, GemmRouteUsed> used;
    std::set<GemmShape>* recording = nullptr;
    // Bumped by every install and recorder: the threads' memos of routes start afresh.
    std::atomic<std::uint64_t> generation{1};
};
RoutingState& routingState() {
    static RoutingState state;
    return state;
}

struct ShapeHash {
    std::size_t operator()(const GemmShape& s) const {
        std::size_t h = std::size_t(s.m) * 1000003u ^ std::size_t(s.n) * 9176u ^ std::size_t(s.k);
        return h * 4 + (s.opA == Op::None ? 0 : 2) + (s.opB == Op::None ? 0 : 1) + (s.columns ? 7919 : 0);
    }
};
// Each thread's routes of this generation: a product looks its backend up without a lock.
struct RouteMemo {
    std::uint64_t generation = 0;
    std::unordered_map<GemmShape, GemmBackend, ShapeHash> routes;
};
thread_local RouteMemo routeMemo;

}  // namespace

std::string gemmMachineKey() {
    static const std::string key = cpuModel() + "; " + gemmLibrariesText() + "; " + buildText();
    return key;
}

void installGemmRouting(GemmRouting routing) {
    RoutingState& s = routingState();
    std::lock_guard lock(s.mutex);
    s.table = std::move(routing);
    s.used.clear();  // a run records the routes of the table it trains under
    s.generation.fetch_add(1, std::memory_order_acq_rel);
}

std::size_t installedGemmRoutes() {
    RoutingState& s = routingState();
    std::lock_guard lock(s.mutex);
    return s.table.routes.size();
}

GemmBackend gemmRuleRoute(const GemmShape& shape) {
    return shape.columns ? gemmBackendForColumns() : gemmBackendFor(shape.opA, shape.opB, shape.m, shape.n, shape.k);
}

GemmBackend gemmRoute(const GemmShape& shape) {
    RoutingState& s = routingState();
    const std::uint64_t generation = s.generation.load(std::memory_order_acquire);
    if (routeMemo.generation != generation) {
        routeMemo.routes.clear();
        routeMemo.generation = generation;
    }
    if (const auto hit = routeMemo.routes.find(shape); hit != routeMemo.routes.end()) return hit->second;
    std::lock_guard lock(s.mutex);
    const auto measured = s.table.routes.find(shape);
    const GemmBackend backend = measured != s.table.routes.end() ? measured->second : gemmRuleRoute(shape);
    s.used.try_emplace(shape, GemmRouteUsed{shape, backend, measured != s.table.routes.end()});
    if (s.recording) s.recording->insert(shape);
    routeMemo.routes.emplace(shape, backend);
    return backend;
}

std::vector<GemmRouteUsed> gemmRoutesUsed() {
    RoutingState& s = routingState();
    std::lock_guard lock(s.mutex);
    std::vector<GemmRouteUsed> out;
    for (const auto& [shape, used] : s.used) out.push_back(used);
    return out;
}

namespace {
std::set<GemmShape> recordedShapes;
}

GemmShapeRecorder::GemmShapeRecorder() {
    RoutingState& s = routingState();
    std::lock_guard lock(s.mutex);
    recordedShapes.clear();
    s.recording = &recordedShapes;
    s.generation.fetch_add(1, std::memory_order_acq_rel);
}

GemmShapeRecorder::~GemmShapeRecorder() {
    RoutingState& s = routingState();
    std::lock_guard lock(s.mutex);
    s.recording = nullptr;
}

std::vector<GemmShape> GemmShapeRecorder::shapes() const {
    RoutingState& s = routingState();
    std::lock_guard lock(s.mutex);
    return {recordedShapes.begin(), recordedShapes.end()};
}

}  // namespace skynnet
