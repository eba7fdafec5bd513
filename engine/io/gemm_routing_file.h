#pragma once
// The cache of measured GEMM routes (core/gemm_routing.h): one JSON file per user, holding a table
// for each machine key it was tuned on (a home folder shared by several machines keeps each one's),
//   {"kind": "skynnet-gemm-routing", "version": 1, "machines": [{"machine": "<gemmMachineKey()>",
//    "tuned": "2026-12-07T01:02:03Z", "routes": [{"shape": "NT 64x512x784", "backend": "blis",
//    "gflops": {"eigen": 41.0, "openblas": 70.2, ...}}, ...]}]}
// Written atomically: a failed write leaves the previous cache as it was.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/gemm_routing.h"
#include "io/json.h"

namespace skynnet {

struct GemmMeasuredRoute {
    GemmShape shape;
    GemmBackend backend = GemmBackend::Eigen;  // the fastest
    std::map<GemmBackend, double> gflops;      // each backend's measured speed on the shape
};
struct GemmMachineRoutes {
    std::string machine, tuned;
    std::vector<GemmMeasuredRoute> routes;
};
struct GemmRoutingCache {
    std::vector<GemmMachineRoutes> machines;
    // This machine's table (gemmMachineKey()), or nullptr.
    const GemmMachineRoutes* forMachine(const std::string& key) const;
    // Adds the routes to `key`'s table: a shape measured again takes its new route.
    void merge(const std::string& key, const std::string& tuned, const std::vector<GemmMeasuredRoute>& routes);
};

// $SKYNNET_GEMM_CACHE, else $XDG_CACHE_HOME/skynnet/gemm-routing.json, else
// ~/.cache/skynnet/gemm-routing.json.
std::string gemmRoutingCachePath();
// An empty cache when the file does not exist; throws Error naming the file and field when it is
// not a routing cache or is damaged.
GemmRoutingCache readGemmRoutingCache(const std::string& path);
void writeGemmRoutingCache(const std::string& path, const GemmRoutingCache& cache);

// Installs this machine's table from the cache at gemmRoutingCachePath() (nothing from a damaged
// one: the built-in rules, and the warning says why), and returns one line saying what gemm()
// now follows, e.g. "GEMM routing: 23 shapes measured on this machine (~/.cache/...)". Call it once
// at start-up, before any training.
struct GemmRoutingLoad;
GemmRoutingLoad loadGemmRoutingCache();

// The routes this process has used (gemmRoutesUsed()), for a report or a checkpoint:
//   [{"shape": "NT 64x512x784", "backend": "blis", "measured": true}, ...]
Json gemmRoutesUsedJson();
// Throws Error "<what> was made under other matrix-product routes: ..." naming the first recorded
// shape that this process sends to another backend: continuing from it would not give the floats
// an uninterrupted run gives.
void requireSameGemmRoutes(const JsonField& recorded, const std::string& what);

struct GemmRoutingLoad {
    std::string summary;
    std::string warning;  // a cache that could not be read
};

}  // namespace skynnet
