#include "ui/core/study_estimate.h"

#include <QCoreApplication>
#include <algorithm>
#include <map>

#include "core/error.h"
#include "run/run_request.h"
#include "split/plan_totals.h"
#include "split/schedule.h"
#include "study/study_project.h"
#include "ui/core/formatting.h"
#include "ui/core/project_document.h"

namespace skynnet::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("StudyEstimate", text); }

// A process that starts, reads its project, tests and writes its files, on top of the data: a
// few tenths of a second measured on small projects here.
constexpr double processSecondsPerRun = 0.4;

std::vector<std::string> words(const QStringList& list, const QString& meansDefault) {
    if (list == QStringList{meansDefault}) return {""};
    std::vector<std::string> out;
    for (const QString& s : list) out.push_back(s == meansDefault ? std::string() : s.toStdString());
    return out;
}

}  // namespace

StudyPlan studyPlanOf(const StudyChoice& choice) {
    StudyPlan plan;
    plan.submodels = choice.submodels;
    if (std::find(plan.submodels.begin(), plan.submodels.end(), 1) == plan.submodels.end()) plan.submodels.push_back(1);
    std::sort(plan.submodels.begin(), plan.submodels.end());
    plan.seeds = choice.seeds;
    plan.strategies = words(choice.strategies, QStringLiteral("auto"));
    plan.scaleEpochs = words(choice.scaleEpochs, QStringLiteral("default"));
    plan.ensemble = choice.ensemble;
    return plan;
}

RunCost studyRunCost(const ProjectDocument& document, const StudyConfig& config) {
    if (!document.hasData()) throw Error("no data loaded");
    ProjectData project;
    project.data = document.dataSettings();
    project.network = document.network();
    project.split = document.splitOptions();
    project.training = document.trainSettings();
    const ProjectData copy = runProjectCopy(project, StudyRunSpec{config, 1});
    // The options as the run's own planning sees them (ProjectDocument::effectiveSplitOptions).
    const SplitOptions options = withOtherShareFor(splitOptionsFor(copy.split, copy.training.config),
                                                   document.dataset()->task);
    const SplitPlan plan = makePlan(copy.network, document.planDataInfo(), options);
    RunCost cost;
    for (int i = 0; i < plan.submodelCount(); ++i) {
        const double c = submodelCost(plan, i);
        cost.total += c;
        cost.largest = std::max(cost.largest, c);
        cost.submodels.push_back(c);
    }
    return cost;
}

StudyEstimate estimateStudy(const ProjectDocument& document, const StudyChoice& choice,
                            const std::optional<TrainingSpeed>& speed, int cores) {
    const StudyPlan plan = studyPlanOf(choice);
    StudyEstimate e;
    e.configurations = int(plan.configs().size());
    e.seeds = int(plan.seeds.size());
    e.runs = int(plan.runs().size());
    double seconds = 0;
    for (const StudyConfig& config : plan.configs()) {
        RunCost cost;
        try {
            cost = studyRunCost(document, config);
        } catch (const std::exception& ex) {
            e.problem = QStringLiteral("%1: %2").arg(QString::fromStdString(config.name()),
                                                     QString::fromUtf8(ex.what()));
            return e;
        }
        if (!speed) continue;
        // The submodels train side by side, one a core, longest first: the Split page's "Training
        // on this machine" (plan_totals.h) at the measured speed.
        const double training = longestFirstMakespan(cost.submodels, std::max(cores, 1)) / speed->costPerSecond;
        seconds += e.seeds * (training + speed->dataSecondsPerRun + processSecondsPerRun);
    }
    if (speed) e.seconds = seconds;
    return e;
}

QString estimateText(const StudyEstimate& e, bool measuring) {
    // Spelled out: without a translation loaded, Qt writes "%n run(s)" as "9 run(s)".
    const auto count = [](int n, const char* one, const char* many) { return (n == 1 ? tr(one) : tr(many)).arg(n); };
    QString text = count(e.runs, "%1 run", "%1 runs") + QStringLiteral(": ") +
                   count(e.configurations, "%1 configuration", "%1 configurations") + QStringLiteral(" × ") +
                   count(e.seeds, "%1 seed", "%1 seeds") + QLatin1Char('.');
    if (!e.problem.isEmpty()) return text + QLatin1Char(' ') + tr("Cannot plan %1").arg(e.problem);
    if (e.seconds)
        return text + QLatin1Char(' ') +
               tr("Roughly %1 on this machine, by the plan's costs at the speed measured here; the study's "
                  "own estimate follows its first run.")
                   .arg(formatDuration(*e.seconds));
    if (measuring) return text + QLatin1Char(' ') + tr("Measuring this machine's speed for a time estimate…");
    return text;
}

}  // namespace skynnet::ui
