#include "study_options.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "core/error.h"
#include "core/parallel.h"
#include "split_options.h"
#include "study_project.h"

namespace skynnet::cli {
namespace {

const std::vector<OptionSpec>& ownSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--submodels", "LIST", "the N to compare, e.g. 1,3,6,10; N=1 (the original model) is always run"},
        {"--seeds", "LIST", "the seeds every configuration runs with (default 1,2,3)"},
        {"--strategies", "LIST", "split strategies, e.g. class-groups,data-shards (default auto: the one train picks)"},
        {"--scale-epochs", "LIST", "on, off or on,off: the epoch choices to compare (default: train's default)"},
        {"--no-ensemble", "", "leave out the plain ensemble of each N (N thin networks on all the data)"},
        {"--out", "DIR", "the study's folder, created if needed; a rerun with the same options continues it"},
        {"--machines", "K", "the recommendation on K machines: S submodels scheduled on them longest first (default 1)"},
        {"--progress", "FORMAT", "text (default: progress lines on stderr) or json: one JSON object per line on stdout"},
        {"--project", "P", "study the project P.skynnet made in the app: each run trains a copy of it (train --project) with the run's N, strategy, epoch choice and seed"},
        {"--help", "", "show this help"},
    };
    return specs;
}

// Train options a study sets for each run itself, and why they cannot be given.
const std::map<std::string, std::string>& refusedOptions() {
    static const std::map<std::string, std::string> refused = {
        {"--seed", "the study sets each run's seed: use --seeds LIST"},
        {"--strategy", "use --strategies LIST"},
        {"--save", "the study saves each run's model in --out DIR/runs"},
        {"--report", "the study writes each run's report in --out DIR/runs"},
        {"--checkpoint", "the study keeps each run's checkpoints beside its model in --out DIR/runs"},
        {"--resume", "a study continues by itself when run again with the same --out"},
        {"--baseline", "the original model is the study's N=1 runs"},
        {"--backend", "the study's runs train on this machine's threads"},
        {"--hosts", "the study's runs train on this machine's threads"},
        {"--ranks", "the study's runs train on this machine's threads"},
        {"--ship-data", "the study's runs train on this machine's threads"},
    };
    return refused;
}

bool isOwn(const std::string& name) {
    return std::any_of(ownSpecs().begin(), ownSpecs().end(), [&](const OptionSpec& s) { return s.name == name; });
}

bool isSplitKnob(const std::string& name) {
    return name != "--submodels" && name != "--strategy" && name != "--scale-epochs" &&
           std::any_of(splitOptionSpecs().begin(), splitOptionSpecs().end(), [&](const OptionSpec& s) { return s.name == name; });
}

// The options a study accepts: its own, then every train option it passes on.
const std::vector<OptionSpec>& studySpecs() {
    static const std::vector<OptionSpec> specs = [] {
        std::vector<OptionSpec> all = ownSpecs();
        for (const OptionSpec& s : trainOptionSpecs())
            if (!isOwn(s.name) && !refusedOptions().count(s.name)) all.push_back(s);
        return all;
    }();
    return specs;
}

const OptionSpec* specOf(const std::string& name) {
    for (const OptionSpec& s : studySpecs())
        if (s.name == name) return &s;
    return nullptr;
}

std::vector<std::string> listItems(const std::string& option, const std::string& text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        items.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    for (const std::string& item : items)
        if (item.empty()) Args::fail(option, "expects a comma-separated list without empty items, got '" + text + "'");
    std::set<std::string> seen;
    for (const std::string& item : items)
        if (!seen.insert(item).second) Args::fail(option, "'" + item + "' is given twice");
    return items;
}

template <typename T>
T listNumber(const std::string& option, const std::string& item, const char* expected) {
    T v{};
    const char* end = item.data() + item.size();
    const auto r = std::from_chars(item.data(), end, v);
    if (r.ec != std::errc() || r.ptr != end) Args::fail(option, std::string("expected ") + expected + ", got '" + item + "'");
    return v;
}

std::string joined(const std::vector<std::string>& words, const char* separator) {
    std::string s;
    for (const std::string& w : words) s += (s.empty() ? "" : separator) + w;
    return s;
}

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
    return n;
}

std::vector<StudyConfig> StudyOptions::configs() const {
    std::vector<StudyConfig> all = {StudyConfig{}};
    std::vector<std::string> kinds = strategies;
    if (ensemble && std::find(kinds.begin(), kinds.end(), ensembleStrategyName) == kinds.end())
        kinds.push_back(ensembleStrategyName);
    for (int n : submodels) {
        if (n == 1) continue;
        for (const std::string& strategy : kinds)
            for (const std::string& scale : scaleEpochs) all.push_back(StudyConfig{n, strategy, scale});
    }
    return all;
}

Json StudyOptions::setupJson() const {
    Json strategyNames = Json::array(), scaleNames = Json::array();
    for (const std::string& s : strategies) strategyNames.push_back(s.empty() ? "auto" : s);
    for (const std::string& s : scaleEpochs) scaleNames.push_back(s.empty() ? "default" : s);
    return Json::object({{"train_options", trainWords},
                         {"submodels", submodels},
                         {"seeds", seeds},
                         {"strategies", strategyNames},
                         {"scale_epochs", scaleNames},
                         {"ensemble", ensemble},
                         {"project", projectSetup}});
}

std::vector<StudyRunSpec> studyRuns(const StudyOptions& options) {
    std::vector<StudyRunSpec> runs;
    for (std::uint64_t seed : options.seeds)
        for (const StudyConfig& c : options.configs()) runs.push_back(StudyRunSpec{c, seed});
    return runs;
}

std::vector<std::string> runTrainArgs(const StudyOptions& o, const StudyRunSpec& run, const std::string& reportPath,
                                      const std::string& modelPath) {
    std::vector<std::string> args = {"train"};
    std::vector<std::string> splitKnobs;
    for (std::size_t i = 0; i < o.trainWords.size(); ++i) {
        const std::string& w = o.trainWords[i];
        const std::string name = w.substr(0, w.find('='));
        const OptionSpec* spec = specOf(name);
        const bool withValue = spec && !spec->valueName.empty() && w.find('=') == std::string::npos && i + 1 < o.trainWords.size();
        std::vector<std::string>& to = isSplitKnob(name) ? splitKnobs : args;
        to.push_back(w);
        if (withValue) to.push_back(o.trainWords[++i]);
    }
    const StudyConfig& c = run.config;
    if (!c.original()) {
        args.insert(args.end(), {"--submodels", std::to_string(c.submodels)});
        if (!c.strategy.empty()) args.insert(args.end(), {"--strategy", c.strategy});
        if (!c.scaleEpochs.empty()) args.insert(args.end(), {"--scale-epochs", c.scaleEpochs});
        // The strategy knobs are the split's; the ensemble sets its own width and sees every row.
        if (c.strategy != ensembleStrategyName) args.insert(args.end(), splitKnobs.begin(), splitKnobs.end());
    }
    args.insert(args.end(), {"--seed", std::to_string(run.seed), "--report", reportPath, "--save", modelPath});
    return args;
}

std::string studyHelp() {
    std::vector<OptionSpec> own = ownSpecs();
    return "Usage: skynnet-cli study --data PATH [train options] --submodels 1,3,6,10 [--seeds 1,2,3]\n"
           "                         [--strategies LIST] [--scale-epochs on,off] --out DIR\n\n"
           "What the split costs and gains on this data, over seeds. Every run is the command\n"
           "  skynnet-cli train <train options> --submodels N [--strategy X] [--scale-epochs Y] --seed S\n"
           "                    --report DIR/runs/<config>-seed<S>.json --save DIR/runs/<config>-seed<S>.skym\n"
           "started as a child process (N=1: without the split options: the original model), its output in\n"
           "DIR/runs/<config>-seed<S>.log. Besides each N's split, the plain ensemble runs too (strategy\n"
           "ensemble: N thin networks on all the data, the split's parameters in all): the fair alternative.\n"
           "A run whose report is in DIR/runs is not run again: after Ctrl-C (the running child is stopped,\n"
           "finished runs are kept) the same command continues; other options with the same DIR are refused.\n\n"
           "Per configuration: the test metric's mean and standard deviation, the paired difference to the\n"
           "original on the same seeds with its 95% Student's t interval, wall, slowest-submodel and CPU time,\n"
           "the largest submodel's peak memory (with its rows), the combined model's parameters, FLOPs per\n"
           "sample and measured latency per batch of 128 rows; and a recommendation: the shortest time whose\n"
           "mean metric is within one standard deviation (over the seeds) of the original's, on this machine\n"
           "and on --machines K. Written to DIR/study.json, study.csv (one row per run), study.md and study.png.\n\n" +
           formatOptions(own) +
           "\nEvery other option is a train option ('skynnet-cli train --help'), passed to each run as given;\n"
           "the split's strategy knobs (--shard-factor, --binary-combine, ...) to the split runs only. A test set\n"
           "is needed. Not accepted: --seed, --strategy, --save, --report, --checkpoint, --resume, --baseline,\n"
           "--backend, --hosts, --ranks, --ship-data.\n"
           "\nWith --project P (a project made in the app, with a test set) every run is instead\n"
           "  skynnet-cli train --project DIR/runs/<config>-seed<S>.skynnet --report DIR/runs/<config>-seed<S>.json\n"
           "on a copy of P with the run's seed (as the data split's, the split's and the batch order's seed), N\n"
           "(N=1: the project's network on all its training rows), strategy (auto: the project's own) and epoch\n"
           "choice (default: the project's), without a baseline; only --threads goes with it.\n"
           "\nWith --progress json, stdout gets one JSON object per line: {\"event\":\"plan\",\"runs\":[...]},\n"
           "then per run \"run_started\" and \"run_finished\" (its figures, \"remaining_seconds\") followed by\n"
           "\"partial_summary\" (the aggregates of the runs finished so far, no inference figures yet), then\n"
           "\"summary\" (the aggregates and the recommendation, and the runs, as in study.json), or \"error\"\n"
           "{\"message\"}.\n";
}

StudyOptions parseStudyOptions(const std::vector<std::string>& words) {
    for (const std::string& w : words) {
        const std::string name = w.substr(0, w.find('='));
        if (const auto it = refusedOptions().find(name); it != refusedOptions().end()) Args::fail(name, it->second);
    }
    const Args a = Args::parse(words, studySpecs());
    StudyOptions o;
    if (a.flag("--help")) {
        o.help = true;  // the caller prints the help
        return o;
    }
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        const std::string name = w == "-h" ? "--help" : w.substr(0, w.find('='));
        const OptionSpec* spec = specOf(name);
        const bool withValue = spec && !spec->valueName.empty() && w.find('=') == std::string::npos;
        if (!isOwn(name)) {
            o.trainWords.push_back(w);
            if (withValue) o.trainWords.push_back(words[i + 1]);
        }
        if (withValue) ++i;
    }
    for (const std::string& item : listItems("--submodels", a.required("--submodels"))) {
        const int n = listNumber<int>("--submodels", item, "positive whole numbers");
        if (n < 1) Args::fail("--submodels", "N must be at least 1, got '" + item + "'");
        o.submodels.push_back(n);
    }
    if (std::find(o.submodels.begin(), o.submodels.end(), 1) == o.submodels.end()) o.submodels.push_back(1);
    std::sort(o.submodels.begin(), o.submodels.end());
    for (const std::string& item : listItems("--seeds", a.has("--seeds") ? a.required("--seeds") : "1,2,3"))
        o.seeds.push_back(listNumber<std::uint64_t>("--seeds", item, "non-negative whole numbers"));
    for (const std::string& item : listItems("--strategies", a.has("--strategies") ? a.required("--strategies") : "auto")) {
        if (item != ensembleStrategyName) {
            try {
                parseStrategy(item);
            } catch (const Error&) {
                Args::fail("--strategies", "unknown split strategy '" + item +
                                               "' (expected auto, class-groups, binary-shards, output-split, data-shards or ensemble)");
            }
        }
        o.strategies.push_back(item == "auto" ? "" : item);
    }
    if (std::count(o.strategies.begin(), o.strategies.end(), "") > 1) Args::fail("--strategies", "'auto' is given twice");
    o.ensemble = !a.flag("--no-ensemble");
    if (!o.ensemble && std::find(o.strategies.begin(), o.strategies.end(), ensembleStrategyName) != o.strategies.end())
        Args::fail("--no-ensemble", "contradicts --strategies, which lists ensemble");
    if (a.has("--scale-epochs")) {
        for (const std::string& item : listItems("--scale-epochs", a.required("--scale-epochs"))) {
            if (item != "on" && item != "off") Args::fail("--scale-epochs", "expected on, off or on,off, got '" + item + "'");
            o.scaleEpochs.push_back(item);
        }
    } else {
        o.scaleEpochs = {""};
    }
    o.outDir = a.required("--out");
    o.machines = a.positiveInt("--machines", 1);
    o.progress = parseProgressFormat(a.text("--progress", "text"));
    if (a.has("--project")) {
        // The project holds its data, network and settings; only where the runs train is the study's.
        for (const std::string& w : o.trainWords) {
            const std::string name = w.substr(0, w.find('='));
            if (name.rfind("--", 0) == 0 && name != "--threads")
                Args::fail(name, "cannot be combined with --project (the project holds its data, network and settings)");
        }
        o.project = a.required("--project");
        const ProjectData project = loadStudyProject(o.project);
        o.projectSetup = studyProjectSetup(project, o.project);
        o.train.threadsGiven = a.has("--threads");
        o.train.threads = o.train.threadsGiven                  ? a.positiveInt("--threads", 1)
                          : project.training.threadBudget > 0 ? project.training.threadBudget
                                                              : hardwareThreads();
        return o;
    }

    // Every run's command line is checked now, not when its turn comes after hours of others.
    for (const StudyConfig& c : o.configs()) {
        std::vector<std::string> args = runTrainArgs(o, StudyRunSpec{c, o.seeds.front()}, "report.json", "model.skym");
        args.erase(args.begin());
        TrainOptions parsed = parseTrainOptions(Args::parse(args, trainOptionSpecs()));
        if (c.original()) o.train = std::move(parsed);
    }
    if (o.train.testFraction <= 0 && !o.train.testData)
        Args::fail("--test-fraction", "a study compares test metrics: it needs a test set (a fraction above 0, or --test-data)");
    return o;
}

void checkSameStudy(const Json& recorded, const StudyOptions& options, const std::string& setupPath) {
    const Json here = options.setupJson();
    static const std::vector<std::pair<const char*, const char*>> fields = {
        {"train_options", "the train options"}, {"submodels", "--submodels"}, {"seeds", "--seeds"},
        {"strategies", "--strategies"},         {"scale_epochs", "--scale-epochs"}, {"ensemble", "--no-ensemble"}};
    std::vector<std::string> differences;
    const Json recordedProject = recorded.contains("project") ? recorded.at("project") : Json();
    if (recordedProject != here.at("project"))
        differences.push_back(recordedProject.is_null()   ? "--project: a study of train options there, of a project here"
                              : !options.onProject() ? "--project: a study of a project there, of train options here"
                                                     : "--project: the project's path, data, network, split or training differ");
    for (const auto& [key, option] : fields) {
        const Json there = recorded.contains(key) ? recorded.at(key) : Json();
        if (there == here.at(key)) continue;
        differences.push_back(std::string(option) + ": " + recordedText(there) + " there, " + recordedText(here.at(key)) + " here");
    }
    if (differences.empty()) return;
    throw Error("--out " + options.outDir + " holds a study made with other options (" + joined(differences, "; ") +
                "; recorded in " + setupPath + "): use another --out folder, or the same options to continue that study");
}

}  // namespace skynnet::cli
