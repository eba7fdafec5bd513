#include "project/project_file.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "core/error.h"
#include "data/model_schema_json.h"
#include "data/preprocessing_json.h"
#include "io/atomic_file.h"
#include "io/container.h"
#include "io/json_fields.h"
#include "model/network.h"
#include "project/project_json.h"
#include "spec/spec_json.h"

namespace skynnet {
namespace fs = std::filesystem;
namespace {

constexpr char containerMagic[8] = {'S', 'K', 'Y', 'N', 'N', 'E', 'T', 'M'};
fs::path absoluteNormal(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    return (ec ? fs::path(path) : p).lexically_normal();
}

std::string projectDirOf(const std::string& projectPath) { return absoluteNormal(projectPath).parent_path().string(); }

Json numbersJson(const std::vector<double>& values) {
    Json a = Json::array();
    for (double v : values) a.push_back(numberToJson(v));
    return a;
}

std::vector<double> numbersFromJson(const JsonField& j) {
    std::vector<double> v;
    for (const JsonField& x : j.asArray()) v.push_back(numberFromJson(x));
    return v;
}

// ---- runs ----

Json toJson(const ModelHistory& h) {
    Json epochs = Json::array(), resources = Json::array();
    for (const auto& e : h.epochs) epochs.push_back(toJson(e));
    for (const auto& r : h.resources) resources.push_back(toJson(r));
    return Json::object({{"submodel", h.submodel},
                         {"finished", h.finished},
                         {"status", statusName(h.status)},
                         {"lastBatch", toJson(h.lastBatch)},
                         {"epochs", std::move(epochs)},
                         {"resources", std::move(resources)}});
}

ModelHistory historyFromJson(const JsonField& j) {
    ModelHistory h;
    h.submodel = j.at("submodel").get<int>();
    if (h.submodel < -1) j.at("submodel").fail("must be a submodel index, or -1 for the baseline");
    h.finished = j.at("finished").asBool();
    h.status = trainStatusFromJson(j.at("status"));
    h.lastBatch = batchProgressFromJson(j.at("lastBatch"));
    for (const JsonField& e : j.at("epochs").asArray()) h.epochs.push_back(epochStatsFromJson(e));
    for (const JsonField& r : j.at("resources").asArray()) h.resources.push_back(resourceSampleFromJson(r));
    return h;
}

Json matrixJson(const Matrix& m, BlockWriter& blocks) {
    return Json::object({{"rows", m.rows()},
                         {"columns", m.cols()},
                         {"block", blocks.add(std::span<const float>(m.data(), std::size_t(m.size())))}});
}

Matrix matrixFromJson(const JsonField& j, BlockReader& blocks) {
    const JsonField rows = j.at("rows"), cols = j.at("columns");
    const std::int64_t r = rows.asInt64(), c = cols.asInt64();
    if (r < 0 || r > INT32_MAX) rows.fail("must be a row count");
    if (c < 0 || c > INT32_MAX) cols.fail("must be a column count");
    const std::vector<float> values = blocks.take(j.at("block"), r * c);
    Matrix m(static_cast<Index>(r), static_cast<Index>(c));
    if (!values.empty()) std::memcpy(m.data(), values.data(), values.size() * sizeof(float));
    return m;
}

bool sameRule(const CombinationRule& a, const CombinationRule& b) {
    return a.strategy == b.strategy && a.task == b.task && a.outputs == b.outputs && a.classes == b.classes &&
           a.columns == b.columns && a.otherOutput == b.otherOutput &&
           (a.strategy != Strategy::BinaryShards || a.binaryCombine == b.binaryCombine);
    // The class-group rule may differ: it can be switched on a trained run without retraining.
}

Json modelJson(const SavedCombinedModel& m, const SplitPlan& plan, BlockWriter& blocks, const std::string& field) {
    if (!sameRule(m.rule, plan.rule())) throw Error(field + ": its combination rule is not the run's plan's");
    if (m.specs.size() != plan.submodels.size() || m.weights.size() != m.specs.size())
        throw Error(field + ": " + std::to_string(m.specs.size()) + " networks for the plan's " +
                    std::to_string(plan.submodels.size()) + " submodels");
    for (std::size_t i = 0; i < m.specs.size(); ++i)
        if (!(m.specs[i] == plan.submodels[i].spec))
            throw Error(field + ": network " + std::to_string(i) + " is not the plan's submodel " +
                        std::to_string(i + 1));
    validate(m, field);
    Json weights = Json::array();
    for (const auto& w : m.weights) weights.push_back(blocks.add(w));
    Json j = Json::object({{"loss", lossName(m.loss)},
                           {"preprocessing", toJson(m.preprocessing)},
                           {"weightsBlocks", std::move(weights)}});
    writeSchemaFields(j, m.schema, m.extra);  // the task is the plan's
    // The stacked rule's weights, fitted with the run: the plan's rule cannot hold them.
    if (m.rule.stacked) j["stacked"] = stackedToJson(*m.rule.stacked);
    return j;
}

SavedCombinedModel modelFromJson(const JsonField& j, const SplitPlan& plan, BlockReader& blocks) {
    SavedCombinedModel m;
    m.rule = plan.rule();
    try {
        m.loss = parseLoss(j.at("loss").asString());
    } catch (const Error& e) {
        throw Error(j.at("loss").where() + ": " + e.what());
    }
    for (const auto& s : plan.submodels) m.specs.push_back(s.spec);
    const JsonField& weights = j.at("weightsBlocks");
    if (weights.size() != m.specs.size())
        weights.fail("lists " + std::to_string(weights.size()) + " blocks for the plan's " +
                     std::to_string(m.specs.size()) + " submodels");
    for (const JsonField& b : weights.asArray()) m.weights.push_back(blocks.take(b));
    m.preprocessing = preprocessingFromJson(j.at("preprocessing"));
    m.schema = readSchemaFields(j, m.preprocessing, m.specs.empty() ? Shape() : m.specs.front().input, plan.task);
    m.extra = j.value("extra", Json());
    if (const auto w = j.find("stacked"); w && !w->isNull()) m.rule.stacked = stackedFromJson(*w);
    validate(m, j.where());
    return m;
}

Json toJson(const ProjectResults& r, const SplitPlan& plan, BlockWriter& blocks, const std::string& field) {
    Json subs = Json::array();
    for (const auto& s : r.submodels) subs.push_back(toJson(s));
    Json j = Json::object({{"submodels", std::move(subs)},
                           {"submodelWallSeconds", numbersJson(r.submodelWallSeconds)},
                           {"submodelCpuSeconds", numbersJson(r.submodelCpuSeconds)},
                           {"submodelMetrics", numbersJson(r.submodelMetrics)},
                           {"splitWallSeconds", r.splitWallSeconds},
                           {"splitCpuSeconds", r.splitCpuSeconds},
                           {"workers", r.workers},
                           {"peakSubmodelBytes", r.peakSubmodelBytes},
                           {"peakConcurrentBytes", r.peakConcurrentBytes},
                           {"combinedMetric", numberToJson(r.combinedMetric)},
                           {"baselineMetric", numberToJson(r.baselineMetric)},
                           {"metricName", r.metricName},
                           {"evaluatedOn", r.evaluatedOn},
                           {"evaluatedSamples", r.evaluatedSamples},
                           {"wallSeconds", r.wallSeconds},
                           {"combinedTestOutput", matrixJson(r.combinedTestOutput, blocks)},
                           {"baselineTestOutput", matrixJson(r.baselineTestOutput, blocks)},
                           {"testTargets", matrixJson(r.testTargets, blocks)}});
    if (r.baseline) j["baseline"] = toJson(*r.baseline);
    if (r.classCombine != ClassCombine::Product) j["classCombine"] = classCombineName(r.classCombine);
    if (!r.submodelTestOutputs.empty()) {  // written only when kept, so older runs read and write as before
        Json outputs = Json::array();
        for (const Matrix& m : r.submodelTestOutputs) outputs.push_back(matrixJson(m, blocks));
        j["submodelTestOutputs"] = std::move(outputs);
    }
    if (r.model) j["model"] = modelJson(*r.model, plan, blocks, field + ".model");
    if (r.baselineWeights) {
        if (std::int64_t(r.baselineWeights->size()) != weightCount(plan.original))
            throw Error(field + ".baselineWeights: " + std::to_string(r.baselineWeights->size()) +
                        " weights for the plan's original network of " + weightCountText(plan.original));
        j["baselineWeightsBlock"] = blocks.add(*r.baselineWeights);
    }
    return j;
}

ProjectResults resultsFromJson(const JsonField& j, const SplitPlan& plan, BlockReader& blocks) {
    ProjectResults r;
    const JsonField& subs = j.at("submodels");
    for (const JsonField& s : subs.asArray()) r.submodels.push_back(trainResultFromJson(s));
    if (r.submodels.size() != plan.submodels.size())
        subs.fail("has " + std::to_string(r.submodels.size()) + " entries for the plan's " +
                  std::to_string(plan.submodels.size()) + " submodels");
    r.submodelWallSeconds = numbersFromJson(j.at("submodelWallSeconds"));
    r.submodelCpuSeconds = numbersFromJson(j.at("submodelCpuSeconds"));
    r.submodelMetrics = numbersFromJson(j.at("submodelMetrics"));
    r.splitWallSeconds = numberFromJson(j.at("splitWallSeconds"));
    r.splitCpuSeconds = numberFromJson(j.at("splitCpuSeconds"));
    r.workers = j.at("workers").get<int>();
    // Files written before the rows were counted have the model-only peaks under older names.
    const auto peak = j.find("peakSubmodelBytes");
    r.peakSubmodelBytes = (peak ? *peak : j.at("peakModelBytes")).asInt64();
    const auto concurrent = j.find("peakConcurrentBytes");
    r.peakConcurrentBytes = (concurrent ? *concurrent : j.at("peakConcurrentModelBytes")).asInt64();
    r.combinedMetric = numberFromJson(j.at("combinedMetric"));
    r.baselineMetric = numberFromJson(j.at("baselineMetric"));
    r.metricName = j.at("metricName").asString();
    r.evaluatedOn = j.at("evaluatedOn").asString();
    r.evaluatedSamples = long(j.at("evaluatedSamples").asInt64());
    r.wallSeconds = numberFromJson(j.at("wallSeconds"));
    r.combinedTestOutput = matrixFromJson(j.at("combinedTestOutput"), blocks);
    r.baselineTestOutput = matrixFromJson(j.at("baselineTestOutput"), blocks);
    r.testTargets = matrixFromJson(j.at("testTargets"), blocks);
    if (const auto b = j.find("baseline"); b && !b->isNull()) r.baseline = trainResultFromJson(*b);
    if (j.contains("classCombine")) r.classCombine = parseNamed(j.at("classCombine"), parseClassCombine);
    if (const auto outputs = j.find("submodelTestOutputs")) {
        for (const JsonField& m : outputs->asArray()) r.submodelTestOutputs.push_back(matrixFromJson(m, blocks));
        if (r.submodelTestOutputs.size() != plan.submodels.size())
            outputs->fail("has " + std::to_string(r.submodelTestOutputs.size()) + " entries for the plan's " +
                          std::to_string(plan.submodels.size()) + " submodels");
    }
    if (const auto m = j.find("model"); m && !m->isNull()) r.model = modelFromJson(*m, plan, blocks);
    if (r.model) r.model->rule.classCombine = r.classCombine;  // the rule the run was last combined by
    if (const auto b = j.find("baselineWeightsBlock"); b && !b->isNull())
        r.baselineWeights = blocks.take(*b, weightCountUpTo(plan.original,
                                                            INT64_MAX / 2));  // a hostile spec cannot overflow
    return r;
}

Json pausesJson(const std::vector<PauseInterval>& pauses) {
    Json a = Json::array();
    for (const PauseInterval& p : pauses)
        a.push_back(Json::object({{"startSeconds", p.startSeconds}, {"endSeconds", p.endSeconds}}));
    return a;
}

// Each pause within the run's clock and after the one before it, so a chart can shade them as read.
std::vector<PauseInterval> pausesFromJson(const JsonField& j) {
    std::vector<PauseInterval> pauses;
    for (const JsonField& p : j.asArray()) {
        const JsonField start = p.at("startSeconds"), end = p.at("endSeconds");
        PauseInterval interval{start.asDouble(), end.asDouble()};
        const double previousEnd = pauses.empty() ? 0.0 : pauses.back().endSeconds;
        if (!std::isfinite(interval.startSeconds) || interval.startSeconds < previousEnd)
            start.fail(pauses.empty() ? "must be a number of seconds, at least 0"
                                      : "must not be before the previous pause's end");
        if (!std::isfinite(interval.endSeconds) || interval.endSeconds < interval.startSeconds)
            end.fail("must be a number of seconds, at least startSeconds");
        pauses.push_back(interval);
    }
    return pauses;
}

Json runPlaceJson(const RunPlace& r) {
    return Json::object({{"hosts", r.onHosts}, {"hostfile", r.hostfile}, {"ranks", r.ranks}});
}

// Every member optional, so a newer file's smaller runOn still loads.
RunPlace runPlaceFromJson(const JsonField& j) {
    RunPlace r;
    if (j.contains("hosts")) r.onHosts = j.at("hosts").asBool();
    if (j.contains("hostfile")) r.hostfile = j.at("hostfile").asString();
    if (j.contains("ranks")) {
        r.ranks = j.at("ranks").get<int>();
        if (r.ranks < 2) j.at("ranks").fail("must be at least 2 (rank 0 and one worker)");
    }
    return r;
}

Json trainingJson(const ProjectTraining& t) {
    return Json::object({{"config", toJson(t.config)},
                         {"threadBudget", t.threadBudget},
                         {"trainBaseline", t.trainBaseline},
                         {"runOn", runPlaceJson(t.runOn)}});
}

ProjectTraining trainingFromJson(const JsonField& t) {
    ProjectTraining training;
    training.config = trainConfigFromJson(t.at("config"));
    training.threadBudget = t.at("threadBudget").get<int>();
    if (training.threadBudget < 0) t.at("threadBudget").fail("must not be negative");
    training.trainBaseline = t.at("trainBaseline").asBool();
    if (t.contains("runOn")) training.runOn = runPlaceFromJson(t.at("runOn"));
    return training;
}

Json toJson(const RunSettings& s, const std::string& projectDir) {
    return Json::object({{"data", toJson(s.data, projectDir)},
                         {"network", toJson(s.network)},
                         {"split", toJson(s.split)},
                         {"training", trainingJson(s.training)}});
}

// The data as the run recorded it: not located again (that is the project's own data's business).
RunSettings runSettingsFromJson(const JsonField& j, const std::string& projectDir) {
    RunSettings s;
    s.data = dataSourceFromJson(j.at("data"), projectDir, false);
    s.network = networkSpecFromJson(j.at("network"));
    s.split = splitOptionsFromJson(j.at("split"));
    s.training = trainingFromJson(j.at("training"));
    return s;
}

Json toJson(const ProjectRun& run, BlockWriter& blocks, const std::string& field, const std::string& projectDir) {
    if (run.submodels.size() != run.plan.submodels.size())
        throw Error(field + ".submodels: " + std::to_string(run.submodels.size()) + " histories for the plan's " +
                    std::to_string(run.plan.submodels.size()) + " submodels");
    Json subs = Json::array();
    for (const auto& h : run.submodels) subs.push_back(toJson(h));
    Json j = Json::object({{"status", statusName(run.status)},
                           {"message", run.message},
                           {"plan", toJson(run.plan, blocks)},
                           {"submodels", std::move(subs)}});
    if (run.baseline) j["baseline"] = toJson(*run.baseline);
    if (run.results) j["results"] = toJson(*run.results, run.plan, blocks, field + ".results");
    if (!run.pauses.empty()) j["pauses"] = pausesJson(run.pauses);
    // The record: written only when there is one, so a run without it reads as before everywhere.
    if (!run.id.empty()) j["id"] = run.id;
    if (!run.startedAt.empty()) j["startedAt"] = run.startedAt;
    if (run.settings) j["settings"] = toJson(*run.settings, projectDir);
    if (!run.log.empty()) j["log"] = run.log;
    return j;
}

ProjectRun runFromJson(const JsonField& j, BlockReader& blocks, const std::string& projectDir) {
    ProjectRun run;
    run.status = trainStatusFromJson(j.at("status"));
    run.message = j.at("message").asString();
    run.plan = splitPlanFromJson(j.at("plan"), blocks);
    const JsonField& subs = j.at("submodels");
    for (const JsonField& h : subs.asArray()) run.submodels.push_back(historyFromJson(h));
    if (run.submodels.size() != run.plan.submodels.size())
        subs.fail("has " + std::to_string(run.submodels.size()) + " histories for the plan's " +
                  std::to_string(run.plan.submodels.size()) + " submodels");
    if (const auto b = j.find("baseline"); b && !b->isNull()) run.baseline = historyFromJson(*b);
    if (const auto r = j.find("results"); r && !r->isNull()) run.results = resultsFromJson(*r, run.plan, blocks);
    if (const auto p = j.find("pauses"); p && !p->isNull()) run.pauses = pausesFromJson(*p);
    if (const auto id = j.find("id"); id && !id->isNull()) run.id = id->asString();
    if (const auto at = j.find("startedAt"); at && !at->isNull()) run.startedAt = at->asString();
    if (const auto s = j.find("settings"); s && !s->isNull()) run.settings = runSettingsFromJson(*s, projectDir);
    if (const auto log = j.find("log"); log && !log->isNull()) run.log = log->asString();
    return run;
}

// The container's own errors speak of a "model file"; a file that is not a container at all is
// reported here first in the words of a project.
void checkMagic(const std::string& path) {
    InputFile in(path);
    char head[sizeof containerMagic];
    std::size_t got = 0;
    while (got < sizeof head) {
        const std::size_t n = in.read(head + got, sizeof head - got);
        if (n == 0) break;
        got += n;
    }
    if (got == 0) throw Error(path + " is empty, not a Skynnet project file");
    if (std::memcmp(head, containerMagic, got) != 0) throw Error(path + " is not a Skynnet project file");
    if (got < sizeof head) throw Error(path + " is truncated");
}

}  // namespace

void saveProject(const std::string& path, const ProjectData& p) {
    const std::string context = "cannot save " + path;
    Json header;
    BlockWriter blocks;
    try {
        Json runs = Json::array();
        const std::string dir = projectDirOf(path);
        for (std::size_t i = 0; i < p.runs.size(); ++i)
            runs.push_back(toJson(p.runs[i], blocks, "runs[" + std::to_string(i) + "]", dir));
        header = Json::object({{"kind", "project"},
                               {"projectFormat", projectFormatVersion},
                               {"data", toJson(p.data, dir)},
                               {"network", toJson(p.network)},
                               {"split", toJson(p.split)},
                               {"training", trainingJson(p.training)},
                               {"runs", std::move(runs)}});
        if (!p.extra.is_null()) header["extra"] = p.extra;
        // The study: only when there is one, so a project without it is written as before.
        if (p.study) {
            Json study = Json::object({{"record", p.study->record}});
            if (p.study->settings) study["settings"] = toJson(*p.study->settings, dir);
            header["study"] = std::move(study);
        }
    } catch (const Error& e) {
        throw Error(context + ": " + e.what());
    }
    saveModelFile(path, header, blocks.blocks());
}

ProjectData loadProject(const std::string& path) {
    checkMagic(path);
    ModelFileContents file = loadModelFile(path);
    const JsonField h = file.headerField();
    (void)h.asObject();  // throws "<path>: the top-level value must be an object, ..."
    const std::string& kind = h.at("kind").asString();
    if (kind != "project")
        throw Error(path + " holds a Skynnet model (kind '" + kind + "'), not a project: open it as a model instead");
    const JsonField& format = h.at("projectFormat");
    const int version = format.get<int>();
    if (version < 1) format.fail("must be at least 1");
    if (version > projectFormatVersion)
        throw Error(path + " was written by a newer Skynnet (project format " + std::to_string(version) +
                    ", this build reads up to " + std::to_string(projectFormatVersion) + ")");

    ProjectData p;
    BlockReader blocks(std::move(file.blocks));
    const std::string dir = projectDirOf(path);
    p.data = dataSourceFromJson(h.at("data"), dir);
    p.network = networkSpecFromJson(h.at("network"));
    p.split = splitOptionsFromJson(h.at("split"));
    p.training = trainingFromJson(h.at("training"));
    for (const JsonField& run : h.at("runs").asArray()) p.runs.push_back(runFromJson(run, blocks, dir));
    p.extra = h.value("extra", Json());
    if (const auto study = h.find("study"); study && !study->isNull()) {
        ProjectStudy s;
        s.record = study->value("record", Json());
        if (const auto settings = study->find("settings"); settings && !settings->isNull())
            s.settings = runSettingsFromJson(*settings, dir);
        p.study = std::move(s);
    }
    return p;
}

ProjectRun completedRun(const SplitPlan& plan, const ParallelResult& split, const BaselineResult* baseline,
                        const SavedCombinedModel* model, const std::string& message) {
    const auto historyOf = [](int index, const TrainResult& r) {
        ModelHistory h;
        h.submodel = index;
        h.finished = true;
        h.status = r.status;
        h.epochs = r.history;
        return h;
    };
    ProjectRun run;
    run.status = split.status;
    run.message = message;
    run.plan = plan;
    ProjectResults r;
    for (std::size_t i = 0; i < split.submodels.size(); ++i)
        run.submodels.push_back(historyOf(int(i), split.submodels[i]));
    r.submodels = split.submodels;
    r.submodelWallSeconds = split.submodelWallSeconds;
    r.submodelCpuSeconds = split.submodelCpuSeconds;
    r.splitWallSeconds = split.wallSeconds;
    r.splitCpuSeconds = split.cpuSeconds;
    r.workers = split.workers;
    r.peakSubmodelBytes = split.peakSubmodelBytes;
    r.peakConcurrentBytes = split.peakConcurrentBytes;
    if (baseline) {
        run.baseline = historyOf(-1, baseline->result);
        r.baseline = baseline->result;
        r.baselineWeights = baseline->network.flatWeights();
    }
    if (model) r.model = *model;
    run.results = std::move(r);
    return run;
}

}  // namespace skynnet
