#include "study_options.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "core/error.h"
#include "core/parallel.h"
#include "split/split_plan.h"
#include "study_option_specs.h"
#include "study_project.h"

namespace skynnet::cli {
namespace {

std::vector<std::string> listItems(const std::string& option, const std::string& text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        items.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    std::set<std::string> seen;
    for (const std::string& item : items)
        if (item.empty()) Args::fail(option, "expects a comma-separated list without empty items, got '" + text + "'");
    for (const std::string& item : items)
        if (!seen.insert(item).second) Args::fail(option, "'" + item + "' is given twice");
    return items;
}

template <typename T>
T listNumber(const std::string& option, const std::string& item, const char* expected) {
    T v{};
    const char* end = item.data() + item.size();
    const auto r = std::from_chars(item.data(), end, v);
    if (r.ec != std::errc() || r.ptr != end)
        Args::fail(option, std::string("expected ") + expected + ", got '" + item + "'");
    return v;
}

// The words that are not the study's own: the train options, as given.
std::vector<std::string> trainWordsOf(const std::vector<std::string>& words) {
    std::vector<std::string> train;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        const std::string name = w == "-h" ? "--help" : w.substr(0, w.find('='));
        const OptionSpec* spec = studySpecOf(name);
        const bool withValue = spec && !spec->valueName.empty() && w.find('=') == std::string::npos;
        if (!isStudyOwnOption(name)) {
            train.push_back(w);
            if (withValue) train.push_back(words[i + 1]);
        }
        if (withValue) ++i;
    }
    return train;
}

std::vector<std::string> strategyList(const Args& a) {
    std::vector<std::string> list;
    for (const std::string& item :
         listItems("--strategies", a.has("--strategies") ? a.required("--strategies") : "auto")) {
        if (item != ensembleStrategyName) {
            try {
                parseStrategy(item);
            } catch (const Error&) {
                Args::fail("--strategies",
                           "unknown split strategy '" + item +
                               "' (expected auto, class-groups, binary-shards, output-split, data-shards or ensemble)");
            }
        }
        list.push_back(item == "auto" ? "" : item);
    }
    if (std::count(list.begin(), list.end(), "") > 1) Args::fail("--strategies", "'auto' is given twice");
    return list;
}

// The lists of what the study compares: N, seeds, strategies, epoch choices, the ensemble.
void parseLists(const Args& a, StudyPlan& plan) {
    for (const std::string& item : listItems("--submodels", a.required("--submodels"))) {
        const int n = listNumber<int>("--submodels", item, "positive whole numbers");
        if (n < 1) Args::fail("--submodels", "N must be at least 1, got '" + item + "'");
        plan.submodels.push_back(n);
    }
    if (std::find(plan.submodels.begin(), plan.submodels.end(), 1) == plan.submodels.end()) plan.submodels.push_back(1);
    std::sort(plan.submodels.begin(), plan.submodels.end());
    for (const std::string& item : listItems("--seeds", a.has("--seeds") ? a.required("--seeds") : "1,2,3"))
        plan.seeds.push_back(listNumber<std::uint64_t>("--seeds", item, "non-negative whole numbers"));
    plan.strategies = strategyList(a);
    plan.ensemble = !a.flag("--no-ensemble");
    if (!plan.ensemble &&
        std::find(plan.strategies.begin(), plan.strategies.end(), ensembleStrategyName) != plan.strategies.end())
        Args::fail("--no-ensemble", "contradicts --strategies, which lists ensemble");
    if (a.has("--combine"))
        for (const std::string& item : listItems("--combine", a.required("--combine"))) {
            try {
                plan.combine.push_back(classCombineName(parseClassCombine(item)));
            } catch (const Error& e) {
                Args::fail("--combine", e.what());
            }
        }
    if (a.has("--other-share")) {
        plan.otherShares.clear();
        for (const std::string& item : listItems("--other-share", a.required("--other-share"))) {
            if (listNumber<double>("--other-share", item, "numbers of at least 0") < 0)
                Args::fail("--other-share", "expected numbers of at least 0, got '" + item + "'");
            plan.otherShares.push_back(item);
        }
    }
    plan.scaleEpochs = {""};
    if (!a.has("--scale-epochs")) return;
    plan.scaleEpochs.clear();
    for (const std::string& item : listItems("--scale-epochs", a.required("--scale-epochs"))) {
        if (item != "on" && item != "off" && item != "sqrt")
            Args::fail("--scale-epochs", "expected a list of on, off and sqrt, got '" + item + "'");
        plan.scaleEpochs.push_back(item);
    }
}

// --project: the project holds its data, network and settings; only where the runs train is the study's.
void parseProjectStudy(const Args& a, StudyOptions& o) {
    for (const std::string& w : o.plan.trainWords) {
        const std::string name = w.substr(0, w.find('='));
        if (name.rfind("--", 0) == 0 && name != "--threads")
            Args::fail(name, "cannot be combined with --project (the project holds its data, network and settings)");
    }
    o.project = a.required("--project");
    const ProjectData project = loadStudyProject(o.project);
    o.plan.project = studyProjectSetup(project, o.project);
    o.train.threadsGiven = a.has("--threads");
    o.train.threads = o.train.threadsGiven                ? a.positiveInt("--threads", 1)
                      : project.training.threadBudget > 0 ? project.training.threadBudget
                                                          : hardwareThreads();
}

// Every run's command line is checked now, not when its turn comes after hours of others.
void checkRunCommands(StudyOptions& o) {
    for (const StudyConfig& c : o.plan.configs()) {
        std::vector<std::string> args = runTrainArgs(o, StudyRunSpec{c, o.plan.seeds.front()}, "report.json",
                                                     "model.skym");
        args.erase(args.begin());
        TrainOptions parsed = parseTrainOptions(Args::parse(args, trainOptionSpecs()));
        if (c.original()) o.train = std::move(parsed);
    }
    if (o.train.testFraction <= 0 && !o.train.testData)
        Args::fail("--test-fraction",
                   "a study compares test metrics: it needs a test set (a fraction above 0, or --test-data)");
}

}  // namespace

std::vector<std::string> runTrainArgs(const StudyOptions& o, const StudyRunSpec& run, const std::string& reportPath,
                                      const std::string& modelPath) {
    std::vector<std::string> args = {"train"};
    std::vector<std::string> splitKnobs;
    const std::vector<std::string>& words = o.plan.trainWords;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        const std::string name = w.substr(0, w.find('='));
        const OptionSpec* spec = studySpecOf(name);
        const bool withValue = spec && !spec->valueName.empty() && w.find('=') == std::string::npos &&
                               i + 1 < words.size();
        std::vector<std::string>& to = isSplitKnob(name) ? splitKnobs : args;
        to.push_back(w);
        if (withValue) to.push_back(words[++i]);
    }
    const StudyConfig& c = run.config;
    if (!c.original()) {
        args.insert(args.end(), {"--submodels", std::to_string(c.submodels)});
        if (!c.strategy.empty()) args.insert(args.end(), {"--strategy", c.strategy});
        if (!c.scaleEpochs.empty()) args.insert(args.end(), {"--scale-epochs", c.scaleEpochs});
        if (!c.otherShare.empty()) args.insert(args.end(), {"--other-share", c.otherShare});
        // The strategy knobs are the split's; the ensemble sets its own width and sees every row.
        if (c.strategy != ensembleStrategyName) args.insert(args.end(), splitKnobs.begin(), splitKnobs.end());
    }
    args.insert(args.end(), {"--seed", std::to_string(run.seed), "--report", reportPath, "--save", modelPath});
    return args;
}

StudyOptions parseStudyOptions(const std::vector<std::string>& words) {
    for (const std::string& w : words) {
        const std::string name = w.substr(0, w.find('='));
        if (const auto it = studyRefusedOptions().find(name); it != studyRefusedOptions().end())
            Args::fail(name, it->second);
    }
    const Args a = Args::parse(words, studySpecs());
    StudyOptions o;
    if (a.flag("--help")) {
        o.help = true;  // the caller prints the help
        return o;
    }
    o.plan.trainWords = trainWordsOf(words);
    parseLists(a, o.plan);
    o.outDir = a.required("--out");
    o.machines = a.positiveInt("--machines", 1);
    o.progress = parseProgressFormat(a.text("--progress", "text"));
    if (a.has("--project")) parseProjectStudy(a, o);
    else checkRunCommands(o);
    return o;
}

}  // namespace skynnet::cli
