#include "study/study_progress.h"

#include <filesystem>
#include <map>

#include "core/error.h"
#include "io/json_fields.h"
#include "study/study_project.h"

namespace skynnet {

StudyRunFiles studyRunFiles(const std::string& folder, const StudyRunSpec& run) {
    const std::string base = folder + "/runs/" + run.name();
    return {base + ".json", base + ".skym", base + ".log", base + ".skynnet"};
}

Json toJson(const PlannedRun& r) {
    return Json::object({{"index", r.index},
                         {"run", r.run},
                         {"config", r.config},
                         {"submodels", r.submodels},
                         {"strategy", r.strategy},
                         {"scale_epochs", r.scaleEpochs},
                         {"seed", r.seed},
                         {"done", r.done}});
}

PlannedRun plannedRunFromJson(const JsonField& j) {
    if (!j.isObject()) j.fail("must be an object (a planned run)");
    PlannedRun r;
    r.index = intAtLeast(j.at("index"), 1);
    r.run = j.at("run").asString();
    r.config = j.at("config").asString();
    r.submodels = intAtLeast(j.at("submodels"), 1);
    r.strategy = j.at("strategy").asString();
    r.scaleEpochs = j.at("scale_epochs").asString();
    r.seed = j.at("seed").get<std::uint64_t>();
    r.done = j.at("done").asBool();
    return r;
}

StudyProgress::StudyProgress(StudyPlan plan, std::string folder) : plan_(std::move(plan)), folder_(std::move(folder)) {
    for (const StudyRunSpec& spec : plan_.runs()) {
        StudyRun r;
        r.spec = spec;
        runs_.push_back(std::move(r));
    }
    pending_.assign(runs_.size(), true);
}

int StudyProgress::reused() const {
    int n = 0;
    for (const StudyRun& r : runs_) n += r.reused;
    return n;
}

int StudyProgress::finished() const {
    int n = 0;
    for (std::size_t i = 0; i < runs_.size(); ++i) n += !pending_[i] && runs_[i].finished;
    return n;
}

std::vector<const StudyRun*> StudyProgress::failed() const {
    std::vector<const StudyRun*> list;
    for (std::size_t i = 0; i < runs_.size(); ++i)
        if (!pending_[i] && !runs_[i].finished) list.push_back(&runs_[i]);
    return list;
}

std::vector<std::pair<std::string, std::string>> StudyProgress::resume() {
    namespace fs = std::filesystem;
    std::vector<std::pair<std::string, std::string>> again;
    for (int i = 0; i < total(); ++i) {
        if (!pending(i)) continue;
        const StudyRunFiles f = files(i);
        // The report is written last by a train run that finished; the model (or the project copy
        // that holds it) must be there too for the inference figures.
        const bool left = fs::exists(f.report) && (fs::exists(f.model) || (plan_.onProject() && fs::exists(f.project)));
        if (!left) continue;
        try {
            StudyRun r = readRun(i);
            r.reused = true;
            record(i, std::move(r));
        } catch (const Error& e) {
            again.emplace_back(runs_[std::size_t(i)].spec.name(), e.what());
        }
    }
    return again;
}

StudyRun StudyProgress::readRun(int index) const {
    const StudyRunSpec& spec = runs_[std::size_t(index)].spec;
    const StudyRunFiles f = files(index);
    return plan_.onProject() ? readProjectRun(spec, f.report, f.project, f.model) : readRunReport(spec, f.report);
}

void StudyProgress::record(int index, StudyRun run) {
    run.spec = runs_[std::size_t(index)].spec;
    runs_[std::size_t(index)] = std::move(run);
    pending_[std::size_t(index)] = false;
}

std::optional<double> StudyProgress::remainingSeconds() const {
    std::map<std::string, std::pair<double, int>> byConfig;
    double all = 0;
    int count = 0;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        const StudyRun& r = runs_[i];
        if (pending_[i] || !r.finished) continue;
        auto& c = byConfig[r.spec.config.name()];
        c.first += r.wallSeconds;
        ++c.second;
        all += r.wallSeconds;
        ++count;
    }
    double left = 0;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        if (!pending_[i]) continue;
        const auto it = byConfig.find(runs_[i].spec.config.name());
        if (it != byConfig.end()) left += it->second.first / it->second.second;
        else if (count > 0) left += all / count;
        else return std::nullopt;
    }
    return left;
}

std::vector<PlannedRun> StudyProgress::runList() const {
    std::vector<PlannedRun> list;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        const StudyRunSpec& spec = runs_[i].spec;
        const StudyConfig& c = spec.config;
        list.push_back(PlannedRun{int(i) + 1, spec.name(), c.name(), c.submodels, c.strategyText(),
                                  c.scaleEpochs.empty() ? "default" : c.scaleEpochs, spec.seed, !pending_[i]});
    }
    return list;
}

Json StudyProgress::runListJson() const {
    Json list = Json::array();
    for (const PlannedRun& r : runList()) list.push_back(toJson(r));
    return list;
}

}  // namespace skynnet
