#include "io/gemm_routing_file.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "core/error.h"
#include "io/atomic_file.h"
#include "io/json.h"
#include "io/utc_time.h"

namespace skynnet {

namespace {

constexpr const char* kKind = "skynnet-gemm-routing";
constexpr int kVersion = 1;

Json toJson(const GemmMachineRoutes& table) {
    Json routes = Json::array();
    for (const GemmMeasuredRoute& r : table.routes) {
        Json speeds = Json::object();
        for (const auto& [backend, gflops] : r.gflops) speeds[gemmBackendName(backend)] = gflops;
        routes.push_back(
            {{"shape", gemmShapeText(r.shape)}, {"backend", gemmBackendName(r.backend)}, {"gflops", speeds}});
    }
    return {{"machine", table.machine}, {"tuned", table.tuned}, {"routes", routes}};
}

GemmMachineRoutes machineRoutesFromJson(const JsonField& j) {
    GemmMachineRoutes table;
    table.machine = j.at("machine").asString();
    table.tuned = j.value("tuned", "");
    for (const JsonField& r : j.at("routes").asArray()) {
        GemmMeasuredRoute route;
        const JsonField shape = r.at("shape");
        try {
            route.shape = gemmShapeFromText(shape.asString());
        } catch (const Error& e) {
            shape.fail(e.what());
        }
        const JsonField backend = r.at("backend");
        try {
            route.backend = gemmBackendFromName(backend.asString());
            if (const auto speeds = r.find("gflops"))
                for (const auto& [name, gflops] : speeds->asObject())
                    route.gflops[gemmBackendFromName(name)] = gflops.asDouble();
        } catch (const Error& e) {
            backend.fail(e.what());
        }
        table.routes.push_back(route);
    }
    return table;
}

}  // namespace

const GemmMachineRoutes* GemmRoutingCache::forMachine(const std::string& key) const {
    for (const GemmMachineRoutes& table : machines)
        if (table.machine == key) return &table;
    return nullptr;
}

void GemmRoutingCache::merge(const std::string& key, const std::string& tuned,
                             const std::vector<GemmMeasuredRoute>& routes) {
    GemmMachineRoutes* table = nullptr;
    for (GemmMachineRoutes& t : machines)
        if (t.machine == key) table = &t;
    if (!table) table = &machines.emplace_back(GemmMachineRoutes{key, tuned, {}});
    table->tuned = tuned.empty() ? isoUtcNow() : tuned;
    for (const GemmMeasuredRoute& r : routes) {
        auto same = std::find_if(table->routes.begin(), table->routes.end(),
                                 [&](const GemmMeasuredRoute& old) { return old.shape == r.shape; });
        if (same != table->routes.end()) *same = r;
        else table->routes.push_back(r);
    }
    std::sort(table->routes.begin(), table->routes.end(),
              [](const GemmMeasuredRoute& a, const GemmMeasuredRoute& b) { return a.shape < b.shape; });
}

std::string gemmRoutingCachePath() {
    if (const char* path = std::getenv("SKYNNET_GEMM_CACHE"); path && *path) return path;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/skynnet/gemm-routing.json";
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : ".") + "/.cache/skynnet/gemm-routing.json";
}

GemmRoutingCache readGemmRoutingCache(const std::string& path) {
    GemmRoutingCache cache;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return cache;
    const Json doc = parseJson(readFile(path), path);
    const JsonField root(doc, path);
    if (!root.isObject() || root.value("kind", "") != std::string(kKind))
        root.fail("is not a GEMM routing cache (no \"kind\": \"" + std::string(kKind) + "\")");
    if (const int version = root.at("version").asInt(); version != kVersion)
        root.at("version").fail("is " + std::to_string(version) + ": this build reads version " +
                                std::to_string(kVersion) + " (run skynnet-cli tune again)");
    for (const JsonField& table : root.at("machines").asArray()) cache.machines.push_back(machineRoutesFromJson(table));
    return cache;
}

void writeGemmRoutingCache(const std::string& path, const GemmRoutingCache& cache) {
    Json machines = Json::array();
    for (const GemmMachineRoutes& table : cache.machines) machines.push_back(toJson(table));
    const Json doc = {{"kind", kKind}, {"version", kVersion}, {"machines", machines}};
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!folder.empty()) std::filesystem::create_directories(folder, ec);
    if (ec) throw Error("cannot save " + path + ": cannot create " + folder.string() + ": " + ec.message());
    writeFileAtomically(path, dumpJson(doc, 2) + "\n");
}

GemmRoutingLoad loadGemmRoutingCache() {
    const std::string path = gemmRoutingCachePath();
    GemmRoutingLoad load;
    GemmRouting routing;
    routing.machine = gemmMachineKey();
    try {
        const GemmRoutingCache cache = readGemmRoutingCache(path);
        if (const GemmMachineRoutes* table = cache.forMachine(routing.machine)) {
            for (const GemmMeasuredRoute& r : table->routes) routing.routes[r.shape] = r.backend;
            load.summary = "GEMM routing: " + std::to_string(routing.routes.size()) +
                           " product shapes measured on this machine (" + path + ", tuned " + table->tuned +
                           "); the built-in rules for the others";
        } else {
            load.summary = std::string("GEMM routing: the built-in rules (") +
                           (cache.machines.empty() ? "not tuned" : "no table for this machine") + " in " + path +
                           "; skynnet-cli tune measures them)";
        }
    } catch (const Error& e) {
        load.warning = std::string("the GEMM routing cache is ignored: ") + e.what();
        load.summary = "GEMM routing: the built-in rules (the cache " + path + " could not be read)";
    }
    installGemmRouting(std::move(routing));
    return load;
}

Json gemmRoutesUsedJson() {
    Json routes = Json::array();
    for (const GemmRouteUsed& r : gemmRoutesUsed())
        routes.push_back(
            {{"shape", gemmShapeText(r.shape)}, {"backend", gemmBackendName(r.backend)}, {"measured", r.measured}});
    return routes;
}

void requireSameGemmRoutes(const JsonField& recorded, const std::string& what) {
    for (const JsonField& r : recorded.asArray()) {
        GemmShape shape;
        GemmBackend then;
        try {
            shape = gemmShapeFromText(r.at("shape").asString());
            then = gemmBackendFromName(r.at("backend").asString());
        } catch (const Error& e) {
            r.fail(e.what());
        }
        const GemmBackend now = gemmRoute(shape);
        if (now != then)
            throw Error(what + " was made under other matrix-product routes: the product " + gemmShapeText(shape) +
                        " ran on " + gemmBackendName(then) + ", this process runs it on " + gemmBackendName(now) +
                        " (the routing cache " + gemmRoutingCachePath() +
                        " changed since), so resuming would not give the floats of an uninterrupted run. Restore "
                        "that cache, or train afresh without resuming");
    }
}

}  // namespace skynnet
