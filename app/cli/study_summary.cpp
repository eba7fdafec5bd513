#include "study_summary.h"

#include <algorithm>
#include <map>

namespace skynnet::cli {
namespace {

double meanBy(const std::vector<const StudyRun*>& runs, double (*field)(const StudyRun&)) {
    std::vector<double> v;
    for (const StudyRun* r : runs) v.push_back(field(*r));
    return meanOf(v);
}

std::optional<double> median(std::vector<double> v) {
    if (v.empty()) return std::nullopt;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Json optionalNumber(const std::optional<double>& v) { return v ? Json(*v) : Json(); }

Json recommendationJson(const std::optional<Recommendation>& r) {
    if (!r) return Json();
    return Json::object({{"config", r->config},
                         {"submodels", r->submodels},
                         {"strategy", r->strategy},
                         {"seconds", r->seconds},
                         {"metric_mean", r->metricMean}});
}

// The shortest `seconds` among the configurations whose mean metric reaches the threshold.
std::optional<Recommendation> fastestWithin(const StudySummary& s, double (*seconds)(const ConfigSummary&)) {
    if (!s.threshold) return std::nullopt;
    std::optional<Recommendation> best;
    for (const ConfigSummary& c : s.configs) {
        if (c.metricMean < *s.threshold) continue;
        if (best && seconds(c) >= best->seconds) continue;
        best = Recommendation{c.config.name(), c.config.submodels, c.strategy, seconds(c), c.metricMean};
    }
    return best;
}

}  // namespace

StudySummary summarizeStudy(const std::vector<StudyRun>& runs, const StudyOptions& options) {
    StudySummary s;
    s.machines = options.machines;
    std::map<std::uint64_t, double> originalBySeed;
    for (const StudyRun& r : runs)
        if (r.finished && r.spec.config.original()) originalBySeed[r.spec.seed] = r.metric;

    for (const StudyConfig& config : options.configs()) {
        std::vector<const StudyRun*> mine;
        for (const StudyRun& r : runs)
            if (r.finished && r.spec.config.name() == config.name()) mine.push_back(&r);
        if (mine.empty()) continue;
        if (s.metricName.empty()) s.metricName = mine.front()->metricName;
        ConfigSummary c;
        c.config = config;
        c.strategy = mine.front()->strategy;
        c.scaleEpochs = mine.front()->scaleEpochs;
        c.S = mine.front()->S;
        c.runs = int(mine.size());
        std::vector<double> metrics, walls, latencies, mineMatched, originalMatched;
        for (const StudyRun* r : mine) {
            metrics.push_back(r->metric);
            walls.push_back(r->wallSeconds);
            if (r->latencySeconds) latencies.push_back(*r->latencySeconds);
            c.peakMemoryBytes = std::max(c.peakMemoryBytes, r->peakMemoryBytes);
            if (const auto o = originalBySeed.find(r->spec.seed); o != originalBySeed.end()) {
                mineMatched.push_back(r->metric);
                originalMatched.push_back(o->second);
            }
        }
        c.metricMean = meanOf(metrics);
        c.metricStdDev = sampleStdDev(metrics);
        c.wallSeconds = meanOf(walls);
        c.wallStdDev = sampleStdDev(walls);
        c.trainSeconds = meanBy(mine, [](const StudyRun& r) { return r.trainSeconds; });
        c.slowestSubmodelSeconds = meanBy(mine, [](const StudyRun& r) { return r.slowestSubmodelSeconds; });
        c.cpuSeconds = meanBy(mine, [](const StudyRun& r) { return r.cpuSeconds; });
        std::vector<double> onMachines;
        for (const StudyRun* r : mine) onMachines.push_back(machinesSeconds(r->submodelSeconds, options.machines));
        c.machinesSeconds = meanOf(onMachines);
        // The architecture is the seed's to vary only through the plan's data (shards): the mean.
        c.params = std::int64_t(meanBy(mine, [](const StudyRun& r) { return double(r.params); }) + 0.5);
        c.flopsPerSample = std::int64_t(meanBy(mine, [](const StudyRun& r) { return double(r.flopsPerSample); }) + 0.5);
        c.latencySeconds = median(latencies);
        if (!config.original() && !mineMatched.empty()) {
            const std::vector<double> d = pairedDifferences(mineMatched, originalMatched);
            PairedDifference p;
            p.pairs = int(d.size());
            p.mean = meanOf(d);
            p.interval = tInterval(d, 0.95);
            c.difference = p;
        }
        s.configs.push_back(std::move(c));
    }
    if (const ConfigSummary* original = originalOf(s)) {
        s.originalMean = original->metricMean;
        s.originalStdDev = original->metricStdDev;
        s.threshold = original->metricMean - original->metricStdDev.value_or(0.0);
    }
    s.thisMachine = fastestWithin(s, [](const ConfigSummary& c) { return c.wallSeconds; });
    s.onMachines = fastestWithin(s, [](const ConfigSummary& c) { return c.machinesSeconds; });
    return s;
}

const ConfigSummary* originalOf(const StudySummary& summary) {
    for (const ConfigSummary& c : summary.configs)
        if (c.config.original()) return &c;
    return nullptr;
}

Json summaryJson(const StudySummary& s) {
    Json configs = Json::array();
    for (const ConfigSummary& c : s.configs) {
        Json j = Json::object({{"config", c.config.name()},
                               {"submodels", c.config.submodels},
                               {"S", c.S},
                               {"strategy", c.strategy},
                               {"scale_epochs", c.scaleEpochs},
                               {"runs", c.runs},
                               {"metric_mean", c.metricMean},
                               {"metric_sd", optionalNumber(c.metricStdDev)}});
        if (c.difference) {
            const PairedDifference& d = *c.difference;
            Json diff = Json::object({{"pairs", d.pairs}, {"mean", d.mean}});
            diff["sd"] = d.interval ? Json(d.interval->stdDev) : Json();
            diff["ci95_low"] = d.interval ? Json(d.interval->low()) : Json();
            diff["ci95_high"] = d.interval ? Json(d.interval->high()) : Json();
            j["difference"] = diff;
        } else {
            j["difference"] = Json();
        }
        j["wall_seconds_mean"] = c.wallSeconds;
        j["wall_seconds_sd"] = optionalNumber(c.wallStdDev);
        j["train_seconds_mean"] = c.trainSeconds;
        j["slowest_submodel_seconds_mean"] = c.slowestSubmodelSeconds;
        j["machines_seconds_mean"] = c.machinesSeconds;
        j["cpu_seconds_mean"] = c.cpuSeconds;
        j["peak_memory_bytes_max"] = c.peakMemoryBytes;
        j["params"] = c.params;
        j["flops_per_sample"] = c.flopsPerSample;
        j["latency_seconds_per_batch_median"] = optionalNumber(c.latencySeconds);
        configs.push_back(std::move(j));
    }
    Json recommendation = Json::object(
        {{"rule", "the shortest mean time among the configurations whose mean " + s.metricName +
                      " is at least the original's mean minus its standard deviation over the seeds"},
         {"threshold", optionalNumber(s.threshold)},
         {"this_machine", recommendationJson(s.thisMachine)},
         {"machines", s.machines},
         {"on_machines", recommendationJson(s.onMachines)}});
    return Json::object({{"metric_name", s.metricName},
                         {"original", Json::object({{"metric_mean", optionalNumber(s.originalMean)},
                                                    {"metric_sd", optionalNumber(s.originalStdDev)}})},
                         {"configurations", configs},
                         {"recommendation", recommendation}});
}

}  // namespace skynnet::cli
