#include "study_option_specs.h"

#include <algorithm>

#include "split_options.h"
#include "train_options.h"

namespace skynnet::cli {

const std::vector<OptionSpec>& studyOwnSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--submodels", "LIST", "the N to compare, e.g. 1,3,6,10; N=1 (the original model) is always run"},
        {"--seeds", "LIST", "the seeds every configuration runs with (default 1,2,3)"},
        {"--strategies", "LIST", "split strategies, e.g. class-groups,data-shards (default auto: the one train picks)"},
        {"--scale-epochs", "LIST",
         "on, off, sqrt or a list of them (on,sqrt,off): the epoch choices to compare (default: train's default)"},
        {"--combine", "LIST",
         "class-groups combination rules to compare on the same trained submodels, a column each, e.g. "
         "product,coupling,sum,stacked (no retraining: every run reports its metric under each rule; stacked needs "
         "validation rows)"},
        {"--other-share", "LIST",
         "class groups: the 'other' output's shares to compare, e.g. 0,0.3 (0 is off; default: train's default)"},
        {"--no-ensemble", "", "leave out the plain ensemble of each N (N thin networks on all the data)"},
        {"--out", "DIR", "the study's folder, created if needed; a rerun with the same options continues it"},
        {"--machines", "K",
         "the recommendation on K machines: S submodels scheduled on them longest first (default 1)"},
        {"--progress", "FORMAT",
         "text (default: progress lines on stderr) or json: one JSON object per line on stdout"},
        {"--project", "P",
         "study the project P.skynnet made in the app: each run trains a copy of it (train --project) with the run's "
         "N, strategy, epoch choice and seed"},
        {"--help", "", "show this help"},
    };
    return specs;
}

const std::map<std::string, std::string>& studyRefusedOptions() {
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

bool isStudyOwnOption(const std::string& name) {
    return std::any_of(studyOwnSpecs().begin(), studyOwnSpecs().end(),
                       [&](const OptionSpec& s) { return s.name == name; });
}

bool isSplitKnob(const std::string& name) {
    return name != "--submodels" && name != "--strategy" && name != "--scale-epochs" && name != "--combine" &&
           name != "--other-share" &&
           std::any_of(splitOptionSpecs().begin(), splitOptionSpecs().end(),
                       [&](const OptionSpec& s) { return s.name == name; });
}

const std::vector<OptionSpec>& studySpecs() {
    static const std::vector<OptionSpec> specs = [] {
        std::vector<OptionSpec> all = studyOwnSpecs();
        for (const OptionSpec& s : trainOptionSpecs())
            if (!isStudyOwnOption(s.name) && !studyRefusedOptions().count(s.name)) all.push_back(s);
        return all;
    }();
    return specs;
}

const OptionSpec* studySpecOf(const std::string& name) {
    for (const OptionSpec& s : studySpecs())
        if (s.name == name) return &s;
    return nullptr;
}

}  // namespace skynnet::cli
