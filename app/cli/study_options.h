#pragma once
// The options of `skynnet-cli study`: its own (the lists of N, seeds, strategies and epoch
// choices, --out, --machines, --progress, --project) and every other train option, kept word for
// word and passed to each run as it was given, so that a run is exactly the train command it
// names. What the study compares is the engine's StudyPlan (engine/study/study_plan.h).
#include <string>
#include <vector>

#include "json_progress.h"
#include "study/study_plan.h"
#include "train_options.h"

namespace skynnet::cli {

struct StudyOptions {
    bool help = false;   // --help: nothing else is read
    StudyPlan plan;      // the configurations, seeds, train words and (with --project) the project's setup
    TrainOptions train;  // the train words parsed (threads, test set)
    std::string outDir;
    int machines = 1;  // K, for the recommendation
    ProgressFormat progress = ProgressFormat::Text;
    // --project P: the runs train copies of this project (engine/study/study_project.h) instead
    // of the train words.
    std::string project;

    bool onProject() const { return !project.empty(); }
};

// The train command of a run (without the program): "train", the train words, --submodels N
// [--strategy X] [--scale-epochs Y] (not for N = 1), --seed S, --report, --save.
std::vector<std::string> runTrainArgs(const StudyOptions& options, const StudyRunSpec& run,
                                      const std::string& reportPath, const std::string& modelPath);

std::string studyHelp();
// Throws UsageError naming the option at fault.
StudyOptions parseStudyOptions(const std::vector<std::string>& words);

}  // namespace skynnet::cli
