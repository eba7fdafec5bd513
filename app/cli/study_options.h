#pragma once
// The options of `skynnet-cli study`: its own (the lists of N, seeds, strategies and epoch
// choices, --out, --machines, --progress) and every other train option, kept word for word and
// passed to each run as it was given, so that a run is exactly the train command it names.
#include <cstdint>
#include <string>
#include <vector>

#include "io/json.h"
#include "json_progress.h"
#include "train_options.h"

namespace skynnet::cli {

// One configuration: what the runs of one row of the study's table share.
struct StudyConfig {
    int submodels = 1;        // N; 1 is the original model (a plain train without --submodels)
    std::string strategy;     // passed as --strategy: empty for train's own choice (auto), or "ensemble"
    std::string scaleEpochs;  // passed as --scale-epochs: empty for train's default, "on" or "off"

    bool original() const { return submodels == 1; }
    // "N1", "N3", "N3-ensemble", "N6-class-groups-scale-off": the start of its runs' file names.
    std::string name() const;
};

struct StudyOptions {
    bool help = false;                    // --help: nothing else is read
    std::vector<std::string> trainWords;  // the train options, as given
    TrainOptions train;                   // the same, parsed (threads, test set)
    std::vector<int> submodels;           // N; 1 always first (the original)
    std::vector<std::uint64_t> seeds;
    std::vector<std::string> strategies;   // as given, "" for auto
    std::vector<std::string> scaleEpochs;  // "" (train's default), "on", "off"
    bool ensemble = true;                  // add the plain ensemble of each N > 1
    std::string outDir;
    int machines = 1;  // K, for the recommendation
    ProgressFormat progress = ProgressFormat::Text;
    // --project P: the runs train copies of this project (study_project.h) instead of the train words.
    std::string project;
    Json projectSetup;  // studyProjectSetup of it, for setupJson

    bool onProject() const { return !project.empty(); }

    // The original first, then per N > 1 each strategy and epoch choice (the ensemble last).
    std::vector<StudyConfig> configs() const;
    // What must match for a rerun to continue a study: the train words and the lists.
    Json setupJson() const;
};

// One run: a configuration and a seed.
struct StudyRunSpec {
    StudyConfig config;
    std::uint64_t seed = 1;
    std::string name() const { return config.name() + "-seed" + std::to_string(seed); }
};

// Seed by seed, every configuration within a seed: a study stopped early has whole seeds, which
// is what the paired differences need.
std::vector<StudyRunSpec> studyRuns(const StudyOptions& options);

// The train command of a run (without the program): "train", the train words, --submodels N
// [--strategy X] [--scale-epochs Y] (not for N = 1), --seed S, --report, --save.
std::vector<std::string> runTrainArgs(const StudyOptions& options, const StudyRunSpec& run, const std::string& reportPath,
                                      const std::string& modelPath);

std::string studyHelp();
// Throws UsageError naming the option at fault.
StudyOptions parseStudyOptions(const std::vector<std::string>& words);

// Throws Error naming the folder and every option that differs when `recorded` (the setupJson of
// the study already in the folder) is not this study's.
void checkSameStudy(const Json& recorded, const StudyOptions& options, const std::string& setupPath);

}  // namespace skynnet::cli
