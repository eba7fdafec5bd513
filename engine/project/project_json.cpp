#include "project/project_json.h"
#include "io/json_fields.h"

#include <bit>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "data/augmentation.h"
#include "data/preprocessing_json.h"
#include "layers/activation.h"
#include "spec/spec_json.h"

namespace skynnet {
namespace {

std::int64_t int64AtLeast(const JsonField& j, std::int64_t min) {
    const std::int64_t v = j.asInt64();
    if (v < min) j.fail("must be at least " + std::to_string(min) + ", not " + std::to_string(v));
    return v;
}

// Absent in files written before the rows were counted: their figures are the model's alone.
std::int64_t dataBytesFromJson(const JsonField& j) {
    const auto v = j.find("dataBytes");
    return v ? int64AtLeast(*v, 0) : 0;
}

// SplitOptions::otherShare and SplitPlan::otherShare (written only above 0; 0 is off).
double otherShareFromJson(const JsonField& j) {
    const double share = j.asDouble();
    if (!(share >= 0) || !std::isfinite(share)) j.fail("must be a number of at least 0");
    return share;
}

// SplitOptions::shardOverlap and SplitPlan::shardOverlap (written only above 0; 0 is disjoint).
double shardOverlapFromJson(const JsonField& j) {
    const double overlap = j.asDouble();
    if (!(overlap >= 0) || !std::isfinite(overlap)) j.fail("must be a number of at least 0");
    return overlap;
}

float floatOf(const JsonField& j) {
    const double d = j.asDouble();
    if (!std::isfinite(float(d))) j.fail("must be a finite number within float range");
    return float(d);
}

// The optional<T> convention of the options: null (or absent) means "unset, decide automatically".
template <typename T, typename Read>
std::optional<T> optionalOf(const JsonField& j, std::string_view key, Read read) {
    const auto v = j.find(key);
    if (!v || v->isNull()) return std::nullopt;
    return read(*v);
}

const char* scheduleName(Schedule::Kind k) {
    switch (k) {
    case Schedule::Kind::Constant: return "constant";
    case Schedule::Kind::Step: return "step";
    case Schedule::Kind::Cosine: return "cosine";
    }
    return "constant";
}

Schedule::Kind parseScheduleKind(const std::string& name) {
    if (name == "constant") return Schedule::Kind::Constant;
    if (name == "step") return Schedule::Kind::Step;
    if (name == "cosine") return Schedule::Kind::Cosine;
    throw Error("unknown schedule '" + name + "' (expected constant, step or cosine)");
}

const char* monitorName(EarlyStopping::Monitor m) {
    return m == EarlyStopping::Monitor::ValidationLoss ? "validation_loss" : "validation_metric";
}

EarlyStopping::Monitor parseMonitor(const std::string& name) {
    if (name == "validation_loss") return EarlyStopping::Monitor::ValidationLoss;
    if (name == "validation_metric") return EarlyStopping::Monitor::ValidationMetric;
    throw Error("unknown early-stopping monitor '" + name + "' (expected validation_loss or validation_metric)");
}

TrainStatus parseStatus(const std::string& name) {
    for (TrainStatus s :
         {TrainStatus::Completed, TrainStatus::EarlyStopped, TrainStatus::Cancelled, TrainStatus::Failed})
        if (statusName(s) == name) return s;
    throw Error("unknown training status '" + name + "' (expected completed, early_stopped, cancelled or failed)");
}

Json toJson(const OptimizerConfig& o) {
    const Schedule& s = o.schedule;
    return Json::object({{"kind", optimizerName(o.kind)},
                         {"learningRate", o.learningRate},
                         {"momentum", o.momentum},
                         {"nesterov", o.nesterov},
                         {"beta1", o.beta1},
                         {"beta2", o.beta2},
                         {"rho", o.rho},
                         {"epsilon", o.epsilon},
                         {"weightDecay", o.weightDecay},
                         {"schedule", Json::object({{"kind", scheduleName(s.kind)},
                                                    {"stepEpochs", s.stepEpochs},
                                                    {"gamma", s.gamma},
                                                    {"totalEpochs", s.totalEpochs},
                                                    {"minRate", s.minRate}})}});
}

OptimizerConfig optimizerFromJson(const JsonField& j) {
    OptimizerConfig o;
    o.kind = parseNamed(j.at("kind"), parseOptimizer);
    o.learningRate = floatOf(j.at("learningRate"));
    if (!(o.learningRate > 0)) j.at("learningRate").fail("must be positive");
    o.momentum = floatOf(j.at("momentum"));
    o.nesterov = j.at("nesterov").asBool();
    o.beta1 = floatOf(j.at("beta1"));
    o.beta2 = floatOf(j.at("beta2"));
    o.rho = floatOf(j.at("rho"));
    o.epsilon = floatOf(j.at("epsilon"));
    o.weightDecay = floatOf(j.at("weightDecay"));
    const JsonField& s = j.at("schedule");
    o.schedule.kind = parseNamed(s.at("kind"), parseScheduleKind);
    o.schedule.stepEpochs = intAtLeast(s.at("stepEpochs"), 1);
    o.schedule.gamma = floatOf(s.at("gamma"));
    o.schedule.totalEpochs = intAtLeast(s.at("totalEpochs"), 0);
    o.schedule.minRate = floatOf(s.at("minRate"));
    return o;
}

Json toJson(const SubmodelPlan& s, BlockWriter& blocks) {
    Json j = Json::object({{"index", s.index},
                           {"network", toJson(s.spec)},
                           {"classes", s.classes},
                           {"columnBegin", s.columnBegin},
                           {"columnEnd", s.columnEnd},
                           {"rows", Json::object({{"block", blocks.addIndices(s.rows)}, {"count", s.rows.size()}})},
                           {"role", s.role},
                           {"seed", unsignedToJson(s.seed)},
                           {"params", s.params},
                           {"flopsPerSample", s.flopsPerSample},
                           {"memoryBytes", s.memoryBytes}});
    if (s.otherRows > 0) j["otherRows"] = s.otherRows;        // as SplitPlan::otherShare: only when set
    if (s.overlapRows > 0) j["overlapRows"] = s.overlapRows;  // as SplitPlan::shardOverlap
    return j;
}

SubmodelPlan submodelPlanFromJson(const JsonField& j, BlockReader& blocks) {
    SubmodelPlan s;
    s.index = intAtLeast(j.at("index"), 0);
    s.spec = networkSpecFromJson(j.at("network"));
    s.classes = j.at("classes").get<std::vector<int>>();
    s.columnBegin = intAtLeast(j.at("columnBegin"), 0);
    s.columnEnd = intAtLeast(j.at("columnEnd"), 0);
    const JsonField& rows = j.at("rows");
    s.rows = blocks.takeIndices(rows.at("block"), int64AtLeast(rows.at("count"), 0));
    s.role = j.at("role").asString();
    s.seed = unsignedFromJson(j.at("seed"));
    s.params = int64AtLeast(j.at("params"), 0);
    s.flopsPerSample = int64AtLeast(j.at("flopsPerSample"), 0);
    s.memoryBytes = int64AtLeast(j.at("memoryBytes"), 0);
    if (j.contains("otherRows")) s.otherRows = intAtLeast(j.at("otherRows"), 0);
    if (std::size_t(s.otherRows) > s.rows.size()) j.at("otherRows").fail("is more than the submodel's rows");
    if (j.contains("overlapRows")) s.overlapRows = intAtLeast(j.at("overlapRows"), 0);
    if (std::size_t(s.overlapRows) > s.rows.size()) j.at("overlapRows").fail("is more than the submodel's rows");
    return s;
}

// on and off as true and false, as projects before the sqrt setting wrote them; sqrt by name.
Json scaleEpochsToJson(const std::optional<EpochScaling>& s) {
    if (!s) return Json();
    if (*s == EpochScaling::Sqrt) return Json(epochScalingName(*s));
    return Json(*s == EpochScaling::On);
}

EpochScaling scaleEpochsFromJson(const JsonField& v) {
    if (v.isBool()) return v.asBool() ? EpochScaling::On : EpochScaling::Off;
    return parseNamed(v, parseEpochScaling);
}

}  // namespace

int BlockWriter::add(std::span<const float> block) {
    blocks_.push_back(block);
    return int(blocks_.size() - 1);
}

int BlockWriter::addOwned(std::vector<float> block) {
    owned_.push_back(std::move(block));
    return add(owned_.back());
}

int BlockWriter::addIndices(const std::vector<int>& values) {
    std::vector<float> bits(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (values[i] < 0) throw Error("cannot store the negative index " + std::to_string(values[i]));
        bits[i] = std::bit_cast<float>(std::uint32_t(values[i]));
    }
    return addOwned(std::move(bits));
}

BlockReader::BlockReader(std::vector<std::vector<float>> blocks)
    : blocks_(std::move(blocks)), used_(blocks_.size(), false) {}

std::vector<float> BlockReader::take(const JsonField& index, std::int64_t expected) {
    const std::int64_t b = index.isInteger() ? index.asInt64() : -1;
    if (b < 0 || std::uint64_t(b) >= blocks_.size())
        index.fail("must be the index of one of the file's " + std::to_string(blocks_.size()) + " data blocks");
    if (used_[std::size_t(b)])
        index.fail("names data block " + std::to_string(b) + ", which another field already uses");
    used_[std::size_t(b)] = true;
    std::vector<float>& block = blocks_[std::size_t(b)];
    if (expected >= 0 && std::int64_t(block.size()) != expected)
        index.fail("names data block " + std::to_string(b) + " of " + std::to_string(block.size()) +
                   " values, expected " + std::to_string(expected));
    return std::move(block);
}

std::vector<int> BlockReader::takeIndices(const JsonField& index, std::int64_t expected) {
    const std::vector<float> bits = take(index, expected);
    std::vector<int> values(bits.size());
    for (std::size_t i = 0; i < bits.size(); ++i) {
        const std::uint32_t v = std::bit_cast<std::uint32_t>(bits[i]);
        if (v > std::uint32_t(std::numeric_limits<int>::max()))
            index.fail("names data block whose value " + std::to_string(i) + " is not a valid index");
        values[i] = int(v);
    }
    return values;
}

Json numberToJson(double value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
    return value;
}

double numberFromJson(const JsonField& j) {
    if (j.isString()) {
        const std::string& s = j.asString();
        if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
        if (s == "Infinity") return std::numeric_limits<double>::infinity();
        if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
        j.fail("must be a number (or \"NaN\", \"Infinity\", \"-Infinity\"), not \"" + s + "\"");
    }
    return j.asDouble();
}

Json unsignedToJson(std::uint64_t value) {
    if (value <= std::uint64_t(std::numeric_limits<std::int64_t>::max())) return std::int64_t(value);
    return std::to_string(value);
}

std::uint64_t unsignedFromJson(const JsonField& j) {
    if (j.isString()) {
        const std::string& s = j.asString();
        std::uint64_t v = 0;
        bool ok = !s.empty() && s.size() <= 20;
        for (char c : s) {
            if (c < '0' || c > '9' || v > (std::numeric_limits<std::uint64_t>::max() - std::uint64_t(c - '0')) / 10) {
                ok = false;
                break;
            }
            v = v * 10 + std::uint64_t(c - '0');
        }
        if (!ok) j.fail("must be a non-negative 64-bit integer, not \"" + s + "\"");
        return v;
    }
    return std::uint64_t(int64AtLeast(j, 0));
}

Json toJson(const TrainConfig& c) {
    const EarlyStopping& e = c.earlyStopping;
    Json j = Json::object({{"epochs", c.epochs},
                           {"batchSize", c.batchSize},
                           {"optimizer", toJson(c.optimizer)},
                           {"loss", lossName(c.loss)},
                           {"seed", unsignedToJson(c.seed)},
                           {"threads", c.threads},
                           {"earlyStopping", Json::object({{"enabled", e.enabled},
                                                           {"patience", e.patience},
                                                           {"monitor", monitorName(e.monitor)},
                                                           {"restoreBest", e.restoreBest}})},
                           {"batchReportSeconds", c.batchReportSeconds},
                           {"resourceReportSeconds", c.resourceReportSeconds}});
    // Written only when on, so a project without augmentation reads as before everywhere.
    if (c.augmentation.enabled()) j["augmentation"] = augmentationText(c.augmentation);
    return j;
}

TrainConfig trainConfigFromJson(const JsonField& j) {
    TrainConfig c;
    c.epochs = intAtLeast(j.at("epochs"), 0);
    c.batchSize = intAtLeast(j.at("batchSize"), 1);
    c.optimizer = optimizerFromJson(j.at("optimizer"));
    c.loss = parseNamed(j.at("loss"), parseLoss);
    c.seed = unsignedFromJson(j.at("seed"));
    c.threads = intAtLeast(j.at("threads"), 0);
    const JsonField& e = j.at("earlyStopping");
    c.earlyStopping.enabled = e.at("enabled").asBool();
    c.earlyStopping.patience = intAtLeast(e.at("patience"), 0);
    c.earlyStopping.monitor = parseNamed(e.at("monitor"), parseMonitor);
    c.earlyStopping.restoreBest = e.at("restoreBest").asBool();
    c.batchReportSeconds = j.at("batchReportSeconds").asDouble();
    c.resourceReportSeconds = j.at("resourceReportSeconds").asDouble();
    if (const auto a = j.find("augmentation"); a && !a->isNull()) c.augmentation = parseNamed(*a, parseAugmentation);
    return c;
}

Json toJson(const SplitOptions& o) {
    Json j = Json::object({{"strategy", strategyName(o.strategy)},
                           {"requested", o.requested},
                           {"scaleEpochs", scaleEpochsToJson(o.scaleEpochs)},
                           {"dataShardFactor", o.dataShardFactor ? Json(*o.dataShardFactor) : Json()},
                           {"shuffleShards", o.shuffleShards},
                           {"binaryCombine", binaryCombineName(o.binaryCombine)},
                           {"regressionFallbackToShards", o.regressionFallbackToShards},
                           {"seed", unsignedToJson(o.seed)},
                           {"batchSize", o.batchSize},
                           {"optimizerSlots", o.optimizerSlots},
                           {"epochs", o.epochs}});
    // The plain ensemble (a study's comparison runs): written only when set, so every other
    // project reads and writes as before, and builds before it read it as its data shards.
    if (o.ensemble) j["ensemble"] = true;
    // Written only when not the product, so projects without a rule read and write as before.
    if (o.classCombine != ClassCombine::Product) j["classCombine"] = classCombineName(o.classCombine);
    // The same for the "other" output: only when on.
    if (o.otherShare > 0) j["otherShare"] = o.otherShare;
    if (o.shardOverlap > 0) j["shardOverlap"] = o.shardOverlap;  // and the shards' overlap
    return j;
}

SplitOptions splitOptionsFromJson(const JsonField& j) {
    SplitOptions o;
    o.strategy = parseNamed(j.at("strategy"), parseStrategy);
    o.requested = intAtLeast(j.at("requested"), 1);
    o.scaleEpochs = optionalOf<EpochScaling>(j, "scaleEpochs", scaleEpochsFromJson);
    o.dataShardFactor = optionalOf<double>(j, "dataShardFactor", [](const JsonField& v) {
        const double f = v.asDouble();
        if (!(f >= 1.0) || !std::isfinite(f)) v.fail("must be a number of at least 1");
        return f;
    });
    o.shuffleShards = j.at("shuffleShards").asBool();
    o.binaryCombine = parseNamed(j.at("binaryCombine"), parseBinaryCombine);
    o.regressionFallbackToShards = j.at("regressionFallbackToShards").asBool();
    o.seed = unsignedFromJson(j.at("seed"));
    o.batchSize = intAtLeast(j.at("batchSize"), 1);
    o.optimizerSlots = intAtLeast(j.at("optimizerSlots"), 0);
    o.epochs = intAtLeast(j.at("epochs"), 0);
    o.ensemble = j.value("ensemble", false);
    if (j.contains("classCombine")) o.classCombine = parseNamed(j.at("classCombine"), parseClassCombine);
    if (j.contains("otherShare")) o.otherShare = otherShareFromJson(j.at("otherShare"));
    if (j.contains("shardOverlap")) o.shardOverlap = shardOverlapFromJson(j.at("shardOverlap"));
    return o;
}

Json toJson(const SplitPlan& p, BlockWriter& blocks) {
    Json groups = Json::array();
    for (const auto& g : p.groupClasses) groups.push_back(Json(g));
    Json subs = Json::array();
    for (const auto& s : p.submodels) subs.push_back(toJson(s, blocks));
    Json j = Json::object({{"strategy", strategyName(p.strategy)},
                           {"task", taskName(p.task)},
                           {"requested", p.requested},
                           {"factor", p.factor},
                           {"groups", p.groups},
                           {"groupClasses", std::move(groups)},
                           {"epochs", p.epochs},
                           {"effectiveEpochs", p.effectiveEpochs},
                           {"epochsScaled", p.epochsScaled()},
                           {"binaryCombine", binaryCombineName(p.binaryCombine)},
                           {"outputs", p.outputs},
                           {"samples", p.samples},
                           {"seed", unsignedToJson(p.seed)},
                           {"original", toJson(p.original)},
                           {"originalParams", p.originalParams},
                           {"originalFlopsPerSample", p.originalFlopsPerSample},
                           {"originalMemoryBytes", p.originalMemoryBytes},
                           {"submodels", std::move(subs)},
                           {"warnings", p.warnings}});
    if (p.ensemble) j["ensemble"] = true;  // as SplitOptions: only when set
    if (p.classCombine != ClassCombine::Product) j["classCombine"] = classCombineName(p.classCombine);
    if (p.otherShare > 0) j["otherShare"] = p.otherShare;
    if (p.shardOverlap > 0) j["shardOverlap"] = p.shardOverlap;
    // Older builds read epochsScaled alone: sqrt is told beside it, and only when it is used.
    if (p.epochScaling == EpochScaling::Sqrt) j["epochScaling"] = epochScalingName(p.epochScaling);
    return j;
}

SplitPlan splitPlanFromJson(const JsonField& j, BlockReader& blocks) {
    SplitPlan p;
    p.strategy = parseNamed(j.at("strategy"), parseStrategy);
    if (p.strategy == Strategy::Auto) j.at("strategy").fail("must be the strategy used, not auto");
    p.task = parseNamed(j.at("task"), parseTask);
    p.requested = intAtLeast(j.at("requested"), 1);
    p.factor = j.at("factor").asDouble();
    if (!(p.factor >= 1.0)) j.at("factor").fail("must be at least 1");
    p.groups = intAtLeast(j.at("groups"), 0);
    for (const JsonField& g : j.at("groupClasses").asArray()) p.groupClasses.push_back(g.get<std::vector<int>>());
    p.epochs = intAtLeast(j.at("epochs"), 0);
    p.effectiveEpochs = intAtLeast(j.at("effectiveEpochs"), 0);
    p.epochScaling = j.at("epochsScaled").asBool() ? EpochScaling::On : EpochScaling::Off;
    if (const auto scaling = j.find("epochScaling")) p.epochScaling = parseNamed(*scaling, parseEpochScaling);
    p.binaryCombine = parseNamed(j.at("binaryCombine"), parseBinaryCombine);
    p.outputs = intAtLeast(j.at("outputs"), 1);
    p.samples = long(int64AtLeast(j.at("samples"), 0));
    p.seed = unsignedFromJson(j.at("seed"));
    p.original = networkSpecFromJson(j.at("original"));
    p.originalParams = int64AtLeast(j.at("originalParams"), 0);
    p.originalFlopsPerSample = int64AtLeast(j.at("originalFlopsPerSample"), 0);
    p.originalMemoryBytes = int64AtLeast(j.at("originalMemoryBytes"), 0);
    const JsonField& subs = j.at("submodels");
    if (subs.asArray().empty()) subs.fail("must list at least one submodel");
    for (const JsonField& s : subs.asArray()) p.submodels.push_back(submodelPlanFromJson(s, blocks));
    p.warnings = j.at("warnings").get<std::vector<std::string>>();
    p.ensemble = j.value("ensemble", false);
    if (j.contains("classCombine")) p.classCombine = parseNamed(j.at("classCombine"), parseClassCombine);
    if (j.contains("otherShare")) p.otherShare = otherShareFromJson(j.at("otherShare"));
    if (p.otherShare > 0 && p.strategy != Strategy::ClassGroups)
        j.at("otherShare").fail("is only for the class-groups strategy");
    if (j.contains("shardOverlap")) p.shardOverlap = shardOverlapFromJson(j.at("shardOverlap"));
    if (p.shardOverlap > 0 && (p.strategy != Strategy::DataShards || p.ensemble))
        j.at("shardOverlap").fail("is only for the data-shards strategy");
    if (p.ensemble && p.strategy != Strategy::DataShards) j.at("ensemble").fail("is only for the data-shards strategy");
    return p;
}

Json toJson(const EpochStats& e) {
    return Json::object({{"epoch", e.epoch},
                         {"loss", numberToJson(e.loss)},
                         {"metric", numberToJson(e.metric)},
                         {"hasValidation", e.hasValidation},
                         {"validationLoss", numberToJson(e.validationLoss)},
                         {"validationMetric", numberToJson(e.validationMetric)},
                         {"seconds", e.seconds},
                         {"samplesPerSecond", e.samplesPerSecond},
                         {"learningRate", e.learningRate}});
}

EpochStats epochStatsFromJson(const JsonField& j) {
    EpochStats e;
    e.epoch = intAtLeast(j.at("epoch"), 0);
    e.loss = numberFromJson(j.at("loss"));
    e.metric = numberFromJson(j.at("metric"));
    e.hasValidation = j.at("hasValidation").asBool();
    e.validationLoss = numberFromJson(j.at("validationLoss"));
    e.validationMetric = numberFromJson(j.at("validationMetric"));
    e.seconds = numberFromJson(j.at("seconds"));
    e.samplesPerSecond = numberFromJson(j.at("samplesPerSecond"));
    e.learningRate = numberFromJson(j.at("learningRate"));
    return e;
}

Json toJson(const ResourceSample& r) {
    return Json::object({{"elapsedSeconds", r.elapsedSeconds},
                         {"cpuSeconds", r.cpuSeconds},
                         {"modelBytes", r.modelBytes},
                         {"dataBytes", r.dataBytes},
                         {"processResidentBytes", r.processResidentBytes}});
}

ResourceSample resourceSampleFromJson(const JsonField& j) {
    ResourceSample r;
    r.elapsedSeconds = numberFromJson(j.at("elapsedSeconds"));
    r.cpuSeconds = numberFromJson(j.at("cpuSeconds"));
    r.modelBytes = int64AtLeast(j.at("modelBytes"), 0);
    r.dataBytes = dataBytesFromJson(j);
    r.processResidentBytes = int64AtLeast(j.at("processResidentBytes"), 0);
    return r;
}

Json toJson(const BatchProgress& b) {
    return Json::object(
        {{"epoch", b.epoch}, {"batch", b.batch}, {"batches", b.batches}, {"loss", numberToJson(b.loss)}});
}

BatchProgress batchProgressFromJson(const JsonField& j) {
    BatchProgress b;
    b.epoch = intAtLeast(j.at("epoch"), 0);
    b.batch = intAtLeast(j.at("batch"), 0);
    b.batches = intAtLeast(j.at("batches"), 0);
    b.loss = numberFromJson(j.at("loss"));
    return b;
}

Json toJson(const TrainResult& r) {
    Json history = Json::array();
    for (const auto& e : r.history) history.push_back(toJson(e));
    return Json::object({{"status", statusName(r.status)},
                         {"error", r.error},
                         {"history", std::move(history)},
                         {"bestEpoch", r.bestEpoch},
                         {"wallSeconds", r.wallSeconds},
                         {"cpuSeconds", r.cpuSeconds},
                         {"earlierWallSeconds", r.earlierWallSeconds},
                         {"earlierCpuSeconds", r.earlierCpuSeconds},
                         {"peakModelBytes", r.peakModelBytes},
                         {"dataBytes", r.dataBytes}});
}

TrainResult trainResultFromJson(const JsonField& j) {
    TrainResult r;
    r.status = trainStatusFromJson(j.at("status"));
    r.error = j.at("error").asString();
    for (const JsonField& e : j.at("history").asArray()) r.history.push_back(epochStatsFromJson(e));
    r.bestEpoch = intAtLeast(j.at("bestEpoch"), 0);
    r.wallSeconds = numberFromJson(j.at("wallSeconds"));
    r.cpuSeconds = numberFromJson(j.at("cpuSeconds"));
    // Written since resumed runs say which seconds are earlier sessions' (0 before: none known).
    if (const auto w = j.find("earlierWallSeconds")) r.earlierWallSeconds = numberFromJson(*w);
    if (const auto c = j.find("earlierCpuSeconds")) r.earlierCpuSeconds = numberFromJson(*c);
    r.peakModelBytes = int64AtLeast(j.at("peakModelBytes"), 0);
    r.dataBytes = dataBytesFromJson(j);
    return r;
}

TrainStatus trainStatusFromJson(const JsonField& j) { return parseNamed(j, parseStatus); }

}  // namespace skynnet
