#pragma once
// What a split study compares: its configurations (N, strategy, epoch choice) and the run list
// (every configuration on every seed), and the setup a rerun must match to continue the study in
// its folder. The front ends fill a StudyPlan from their own options (skynnet-cli study, the app's
// Study page through it); nothing here starts a run.
#include <cstdint>
#include <string>
#include <vector>

#include "io/json.h"

namespace skynnet {

// One configuration: what the runs of one row of the study's table share.
struct StudyConfig {
    int submodels = 1;        // N; 1 is the original model (a plain train without --submodels)
    std::string strategy;     // passed as --strategy: empty for train's own choice (auto), or "ensemble"
    std::string scaleEpochs;  // passed as --scale-epochs: empty for train's default, "on", "off" or "sqrt"
    std::string otherShare;   // passed as --other-share (class groups): empty for train's default, or R

    bool original() const { return submodels == 1; }
    // "N1", "N3", "N3-ensemble", "N6-class-groups-scale-off-other-0.3": the start of its runs' file names.
    std::string name() const;
    // The strategy as the study's files name it before a run reports its own: "original", "auto",
    // or the name given.
    std::string strategyText() const;
};

// One run: a configuration and a seed.
struct StudyRunSpec {
    StudyConfig config;
    std::uint64_t seed = 1;
    std::string name() const { return config.name() + "-seed" + std::to_string(seed); }
};

struct StudyPlan {
    // The train options every run gets, as given (a study of train options; empty with a project).
    std::vector<std::string> trainWords;
    // The project's settings the runs depend on (studyProjectSetup, study_project.h); null for a
    // study of train options.
    Json project;
    std::vector<int> submodels;  // N; 1 always first (the original)
    std::vector<std::uint64_t> seeds;
    std::vector<std::string> strategies = {""};   // as given, "" for auto
    std::vector<std::string> scaleEpochs = {""};  // "" (train's default), "on", "off", "sqrt"
    // "" (train's default) or the R of --other-share, as given; the ensemble gets none (it is not
    // class groups).
    std::vector<std::string> otherShares = {""};
    bool ensemble = true;  // add the plain ensemble of each N > 1
    // Class-group rules whose metrics the table shows beside the runs' own (StudyRun::ruleMetrics);
    // not part of the setup: they change no run.
    std::vector<std::string> combine;

    bool onProject() const { return !project.is_null(); }
    // The original first, then per N > 1 each strategy, epoch choice and other share (the ensemble
    // last).
    std::vector<StudyConfig> configs() const;
    // Seed by seed, every configuration within a seed: a study stopped early has whole seeds,
    // which is what the paired differences need.
    std::vector<StudyRunSpec> runs() const;
    // What must match for a rerun to continue a study (the folder's study_options.json): the
    // train words, the lists and the project's settings.
    Json setupJson() const;
};

// How the setup recorded in a study's folder differs from `here`'s, one text per difference in
// the study's option names ("--seeds: 1 there, 1,2 here"); empty when a rerun may continue it.
std::vector<std::string> studySetupDifferences(const Json& recorded, const StudyPlan& here);

}  // namespace skynnet
