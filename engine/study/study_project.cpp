#include "study/study_project.h"

#include <algorithm>
#include <filesystem>

#include "core/error.h"
#include "io/atomic_file.h"
#include "project/data_reference.h"
#include "project/project_json.h"
#include "spec/spec_json.h"

namespace skynnet {
namespace {

std::string folderOf(const std::string& path) {
    const std::filesystem::path parent = std::filesystem::absolute(path).parent_path();
    return parent.string();
}

}  // namespace

Json studyProjectSetup(const ProjectData& p, const std::string& projectPath) {
    ProjectDataSource data = p.data;
    data.seed = 1;
    SplitOptions split = p.split;
    split.requested = 1;
    split.seed = 1;
    ProjectTraining training = p.training;
    training.config.seed = 1;
    training.trainBaseline = false;
    training.runOn = RunPlace{};
    training.threadBudget = 0;
    return Json::object({{"project", std::filesystem::absolute(projectPath).lexically_normal().string()},
                         {"data", toJson(data, folderOf(projectPath))},
                         {"network", toJson(p.network)},
                         {"split", toJson(split)},
                         {"training", toJson(training.config)}});
}

ProjectData runProjectCopy(const ProjectData& project, const StudyRunSpec& run) {
    ProjectData p;
    p.data = project.data;
    p.network = project.network;
    p.split = project.split;
    p.training = project.training;
    p.data.seed = run.seed;
    p.split.seed = run.seed;
    p.training.config.seed = run.seed;
    p.training.trainBaseline = false;
    p.training.runOn = RunPlace{};
    const StudyConfig& c = run.config;
    if (c.original()) {
        // One data shard of every row at F = 1 is the designed network trained on all of them.
        p.split.strategy = Strategy::DataShards;
        p.split.requested = 1;
        p.split.dataShardFactor.reset();
        p.split.ensemble = false;
        return p;
    }
    p.split.requested = c.submodels;
    if (c.strategy == ensembleStrategyName) {
        p.split.strategy = Strategy::DataShards;
        p.split.ensemble = true;
        p.split.dataShardFactor.reset();  // the ensemble's own width: the split's parameters in all
    } else if (!c.strategy.empty()) {
        p.split.strategy = parseStrategy(c.strategy);
        p.split.ensemble = false;
    }
    if (!c.scaleEpochs.empty()) p.split.scaleEpochs = parseEpochScaling(c.scaleEpochs);
    if (!c.otherShare.empty()) p.split.otherShare = std::stod(c.otherShare);
    return p;
}

StudyRun readProjectRun(const StudyRunSpec& spec, const std::string& reportPath, const std::string& copyPath,
                        const std::string& modelPath) {
    const Json doc = parseJson(readFile(reportPath), reportPath);
    const JsonField report(doc, reportPath);
    const ProjectData p = loadProject(copyPath);
    if (p.runs.empty() || !p.runs.back().results) throw Error(copyPath + ": holds no trained run");
    const ProjectRun& trained = p.runs.back();
    const ProjectResults& r = *trained.results;
    if (r.evaluatedOn != "test")
        throw Error(copyPath + ": the run was evaluated on its " + r.evaluatedOn + " rows, not a test set");
    if (!r.model) throw Error(copyPath + ": the run holds no trained model");
    StudyRun run;
    run.spec = spec;
    run.metricName = r.metricName;
    run.metric = r.combinedMetric;
    run.wallSeconds = report.at("wall_seconds").asDouble();
    run.trainSeconds = r.splitWallSeconds;
    run.cpuSeconds = report.at("cpu_seconds").asDouble();
    run.processPeakMemoryBytes = report.at("peak_memory_bytes").asInt64();
    run.S = trained.plan.submodelCount();
    run.strategy = spec.config.original() ? "original" : planStrategyName(trained.plan);
    run.epochScaling = spec.config.original() ? EpochScaling::Off : trained.plan.epochScaling;
    run.submodelSeconds = r.submodelWallSeconds;
    run.slowestSubmodelSeconds = r.submodelWallSeconds.empty()
                                     ? r.splitWallSeconds
                                     : *std::max_element(r.submodelWallSeconds.begin(), r.submodelWallSeconds.end());
    run.peakMemoryBytes = r.peakSubmodelBytes;
    if (!std::filesystem::exists(modelPath)) saveCombinedModel(modelPath, *r.model);
    run.finished = true;
    return run;
}

}  // namespace skynnet
