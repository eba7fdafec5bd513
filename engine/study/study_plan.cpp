#include "study/study_plan.h"

#include <algorithm>

#include "split/split_plan.h"

namespace skynnet {
namespace {

// A recorded list for a message: "1,2,3", or the train options' words separated by spaces.
std::string listText(const Json& j) {
    const bool words = !j.empty() && j.front().is_string() && j.front().get<std::string>().rfind("--", 0) == 0;
    std::string s;
    for (const Json& item : j)
        s += (s.empty() ? "" : words ? " " : ",") + (item.is_string() ? item.get<std::string>() : dumpJson(item));
    return s.empty() ? "none" : s;
}

std::string recordedText(const Json& j) {
    if (j.is_array()) return listText(j);
    if (j.is_boolean()) return j.get<bool>() ? "with the ensemble" : "without the ensemble";
    return j.is_null() ? "nothing" : dumpJson(j);
}

}  // namespace

std::string StudyConfig::name() const {
    if (original()) return "N1";
    std::string n = "N" + std::to_string(submodels);
    if (!strategy.empty()) n += "-" + strategy;
    if (!scaleEpochs.empty()) n += "-scale-" + scaleEpochs;
    if (!otherShare.empty()) n += "-other-" + otherShare;
    return n;
}

std::string StudyConfig::strategyText() const { return original() ? "original" : strategy.empty() ? "auto" : strategy; }

std::vector<StudyConfig> StudyPlan::configs() const {
    std::vector<StudyConfig> all = {StudyConfig{}};
    std::vector<std::string> kinds = strategies;
    if (ensemble && std::find(kinds.begin(), kinds.end(), ensembleStrategyName) == kinds.end())
        kinds.push_back(ensembleStrategyName);
    for (int n : submodels) {
        if (n == 1) continue;
        for (const std::string& strategy : kinds)
            for (const std::string& scale : scaleEpochs) {
                if (strategy == ensembleStrategyName) {
                    all.push_back(StudyConfig{n, strategy, scale, ""});
                    continue;
                }
                for (const std::string& other : otherShares) all.push_back(StudyConfig{n, strategy, scale, other});
            }
    }
    return all;
}

std::vector<StudyRunSpec> StudyPlan::runs() const {
    std::vector<StudyRunSpec> list;
    for (std::uint64_t seed : seeds)
        for (const StudyConfig& c : configs()) list.push_back(StudyRunSpec{c, seed});
    return list;
}

Json StudyPlan::setupJson() const {
    Json strategyNames = Json::array(), scaleNames = Json::array();
    for (const std::string& s : strategies) strategyNames.push_back(s.empty() ? "auto" : s);
    for (const std::string& s : scaleEpochs) scaleNames.push_back(s.empty() ? "default" : s);
    Json j = Json::object({{"train_options", trainWords},
                           {"submodels", submodels},
                           {"seeds", seeds},
                           {"strategies", strategyNames},
                           {"scale_epochs", scaleNames},
                           {"ensemble", ensemble},
                           {"project", project}});
    // Only when asked for, so that studies recorded before the list continue as before.
    if (otherShares != std::vector<std::string>{""}) j["other_shares"] = otherShares;
    return j;
}

std::vector<std::string> studySetupDifferences(const Json& recorded, const StudyPlan& here) {
    const Json mine = here.setupJson();
    static const std::vector<std::pair<const char*, const char*>> fields = {{"train_options", "the train options"},
                                                                            {"submodels", "--submodels"},
                                                                            {"seeds", "--seeds"},
                                                                            {"strategies", "--strategies"},
                                                                            {"scale_epochs", "--scale-epochs"},
                                                                            {"other_shares", "--other-share"},
                                                                            {"ensemble", "--no-ensemble"}};
    std::vector<std::string> differences;
    const Json recordedProject = recorded.contains("project") ? recorded.at("project") : Json();
    if (recordedProject != mine.at("project"))
        differences.push_back(recordedProject.is_null() ? "--project: a study of train options there, of a project here"
                              : !here.onProject()
                                  ? "--project: a study of a project there, of train options here"
                                  : "--project: the project's path, data, network, split or training differ");
    for (const auto& [key, option] : fields) {
        const Json there = recorded.contains(key) ? recorded.at(key) : Json();
        const Json here = mine.contains(key) ? mine.at(key) : Json();
        if (there == here) continue;
        differences.push_back(std::string(option) + ": " + recordedText(there) + " there, " + recordedText(here) +
                              " here");
    }
    return differences;
}

}  // namespace skynnet
