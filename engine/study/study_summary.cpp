#include "study/study_summary.h"

#include <algorithm>
#include <functional>
#include <map>

#include "study/machine_schedule.h"

namespace skynnet {
namespace {

double meanBy(const std::vector<const StudyRun*>& runs, const std::function<double(const StudyRun&)>& field) {
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

std::optional<Recommendation> fastestBy(const StudySummary& s, double (*seconds)(const ConfigSummary&)) {
    if (!s.threshold) return std::nullopt;
    std::vector<RecommendationCandidate> candidates;
    for (const ConfigSummary& c : s.configs)
        candidates.push_back({c.config.name(), c.config.submodels, c.strategy, c.metricMean, seconds(c)});
    return fastestWithin(candidates, *s.threshold);
}

// The paired difference to the original over the seeds both finished; empty without a pair.
// `metricOf` a run: its own metric, or its metric under a rule.
std::optional<PairedDifference> differenceToOriginal(const std::vector<const StudyRun*>& mine,
                                                     const std::map<std::uint64_t, double>& originalBySeed,
                                                     const std::function<double(const StudyRun&)>& metricOf) {
    std::vector<double> mineMatched, originalMatched;
    for (const StudyRun* r : mine)
        if (const auto o = originalBySeed.find(r->spec.seed); o != originalBySeed.end()) {
            mineMatched.push_back(metricOf(*r));
            originalMatched.push_back(o->second);
        }
    if (mineMatched.empty()) return std::nullopt;
    const std::vector<double> d = pairedDifferences(mineMatched, originalMatched);
    return PairedDifference{int(d.size()), meanOf(d), tInterval(d, 0.95)};
}

// The rules every run of a configuration reports (class groups), each against the original.
std::vector<RuleSummary> ruleSummaries(const std::vector<std::string>& rules, const std::vector<const StudyRun*>& mine,
                                       const std::map<std::uint64_t, double>& originalBySeed) {
    std::vector<RuleSummary> out;
    for (const std::string& rule : rules) {
        if (!std::all_of(mine.begin(), mine.end(), [&](const StudyRun* r) { return r->ruleMetrics.count(rule) > 0; }))
            continue;
        const auto metricOf = [&](const StudyRun& r) { return r.ruleMetrics.at(rule); };
        RuleSummary s{rule, meanBy(mine, metricOf), differenceToOriginal(mine, originalBySeed, metricOf)};
        out.push_back(std::move(s));
    }
    return out;
}

ConfigSummary summarizeConfig(const StudyConfig& config, const std::vector<const StudyRun*>& mine, int machines) {
    ConfigSummary c;
    c.config = config;
    c.strategy = mine.front()->strategy;
    c.epochScaling = mine.front()->epochScaling;
    c.S = mine.front()->S;
    c.runs = int(mine.size());
    std::vector<double> metrics, walls, latencies, onMachines;
    for (const StudyRun* r : mine) {
        metrics.push_back(r->metric);
        walls.push_back(r->wallSeconds);
        if (r->latencySeconds) latencies.push_back(*r->latencySeconds);
        c.peakMemoryBytes = std::max(c.peakMemoryBytes, r->peakMemoryBytes);
        onMachines.push_back(machinesSeconds(r->submodelSeconds, machines));
    }
    c.metricMean = meanOf(metrics);
    c.metricStdDev = sampleStdDev(metrics);
    c.wallSeconds = meanOf(walls);
    c.wallStdDev = sampleStdDev(walls);
    c.trainSeconds = meanBy(mine, [](const StudyRun& r) { return r.trainSeconds; });
    c.slowestSubmodelSeconds = meanBy(mine, [](const StudyRun& r) { return r.slowestSubmodelSeconds; });
    c.cpuSeconds = meanBy(mine, [](const StudyRun& r) { return r.cpuSeconds; });
    c.machinesSeconds = meanOf(onMachines);
    // The architecture is the seed's to vary only through the plan's data (shards): the mean.
    c.params = std::int64_t(meanBy(mine, [](const StudyRun& r) { return double(r.params); }) + 0.5);
    c.flopsPerSample = std::int64_t(meanBy(mine, [](const StudyRun& r) { return double(r.flopsPerSample); }) + 0.5);
    c.latencySeconds = median(latencies);
    return c;
}

Json configJson(const ConfigSummary& c) {
    Json j = Json::object({{"config", c.config.name()},
                           {"submodels", c.config.submodels},
                           {"S", c.S},
                           {"strategy", c.strategy},
                           {"scale_epochs", c.epochScaling != EpochScaling::Off},
                           {"epoch_scaling", epochScalingName(c.epochScaling)},
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
    if (!c.rules.empty()) {
        Json rules = Json::array();
        for (const RuleSummary& r : c.rules) {
            Json rule = Json::object({{"rule", r.rule}, {"metric_mean", r.metricMean}});
            rule["difference_mean"] = r.difference ? Json(r.difference->mean) : Json();
            rule["ci95_low"] = r.difference && r.difference->interval ? Json(r.difference->interval->low()) : Json();
            rule["ci95_high"] = r.difference && r.difference->interval ? Json(r.difference->interval->high()) : Json();
            rules.push_back(std::move(rule));
        }
        j["rules"] = std::move(rules);
    }
    return j;
}

}  // namespace

double recommendationThreshold(double originalMean, const std::optional<double>& originalStdDev) {
    return originalMean - originalStdDev.value_or(0.0);
}

std::optional<Recommendation> fastestWithin(const std::vector<RecommendationCandidate>& candidates, double threshold) {
    std::optional<Recommendation> best;
    for (const RecommendationCandidate& c : candidates) {
        if (c.metricMean < threshold || !c.seconds) continue;
        if (best && *c.seconds >= best->seconds) continue;
        best = Recommendation{c.config, c.submodels, c.strategy, *c.seconds, c.metricMean};
    }
    return best;
}

StudySummary summarizeStudy(const std::vector<StudyRun>& runs, const StudyPlan& plan, int machines) {
    StudySummary s;
    s.machines = machines;
    s.rules = plan.combine;
    std::map<std::uint64_t, double> originalBySeed;
    for (const StudyRun& r : runs)
        if (r.finished && r.spec.config.original()) originalBySeed[r.spec.seed] = r.metric;

    for (const StudyConfig& config : plan.configs()) {
        std::vector<const StudyRun*> mine;
        for (const StudyRun& r : runs)
            if (r.finished && r.spec.config.name() == config.name()) mine.push_back(&r);
        if (mine.empty()) continue;
        if (s.metricName.empty()) s.metricName = mine.front()->metricName;
        ConfigSummary c = summarizeConfig(config, mine, machines);
        if (!config.original()) {
            c.difference = differenceToOriginal(mine, originalBySeed, [](const StudyRun& r) { return r.metric; });
            c.rules = ruleSummaries(plan.combine, mine, originalBySeed);
        }
        s.configs.push_back(std::move(c));
    }
    if (const ConfigSummary* original = originalOf(s)) {
        s.originalMean = original->metricMean;
        s.originalStdDev = original->metricStdDev;
        s.threshold = recommendationThreshold(original->metricMean, original->metricStdDev);
    }
    s.thisMachine = fastestBy(s, [](const ConfigSummary& c) { return c.wallSeconds; });
    s.onMachines = fastestBy(s, [](const ConfigSummary& c) { return c.machinesSeconds; });
    return s;
}

const ConfigSummary* originalOf(const StudySummary& summary) {
    for (const ConfigSummary& c : summary.configs)
        if (c.config.original()) return &c;
    return nullptr;
}

Json summaryJson(const StudySummary& s) {
    Json configs = Json::array();
    for (const ConfigSummary& c : s.configs) configs.push_back(configJson(c));
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

}  // namespace skynnet
