#pragma once
// What a study of the Study page's choices will do before it starts: how many runs it makes and
// roughly how long they take here. Each run's training cost is the planner's (submodelCost) for the
// copy of the project the study trains in that run (runProjectCopy, as `skynnet-cli study
// --project` writes it), divided by a speed measured on this machine (training_speed.h); its
// submodels share the project's cores; each run adds the time its process spends on the data.
#include <QString>
#include <optional>
#include <vector>

#include "study/study_plan.h"
#include "ui/core/study_record.h"
#include "ui/core/training_speed.h"

namespace skynnet::ui {

class ProjectDocument;

// The lists `skynnet-cli study` makes of the page's choices (studyArguments): the same run list.
StudyPlan studyPlanOf(const StudyChoice& choice);

// One configuration's run on `document`: the plan's summed cost, its largest submodel's, and
// each submodel's (for the longest-first schedule on this machine's cores).
struct RunCost {
    double total = 0, largest = 0;
    std::vector<double> submodels;
};
// Throws Error when the configuration cannot be planned on the document (no data, too many N).
RunCost studyRunCost(const ProjectDocument& document, const StudyConfig& config);

struct StudyEstimate {
    int runs = 0, configurations = 0, seeds = 0;
    std::optional<double> seconds;  // with a speed, and when every configuration could be planned
    QString problem;                // a configuration that cannot be planned, in the planner's words
};
// `cores`: what the project's runs may use (its thread budget, or every core).
StudyEstimate estimateStudy(const ProjectDocument& document, const StudyChoice& choice,
                            const std::optional<TrainingSpeed>& speed, int cores);

// "9 runs: 3 configurations × 3 seeds", then "about 1 min 20 s on this machine" or why not.
QString estimateText(const StudyEstimate& estimate, bool measuring);

}  // namespace skynnet::ui
