#pragma once
// The split's totals in words, against the original: the Split page's table beside its
// per-submodel bars (from the plan, in seconds once a run has measured this machine's speed), and
// the Results page's sentence after a run (from what the run measured). Both say what the split
// saves (memory per machine, time on S machines) and what it costs (parameters, total CPU,
// inference), which the per-submodel figures alone never told.
#include <QString>
#include <optional>
#include <vector>

#include "split/plan_totals.h"

namespace skynnet {
struct ProjectResults;
struct ProjectRun;
}  // namespace skynnet

namespace skynnet::ui {

// A speed measured by a completed run on this machine, in CPU (or wall) seconds per unit of the
// plan's work (plan_totals.h): its submodels', and its baseline's wall and CPU when it trained one.
struct MeasuredSpeed {
    double submodelSeconds = 0;                                     // per unit of work, one submodel on one core
    std::optional<double> originalWallSeconds, originalCpuSeconds;  // the baseline's, on all its threads
};
// The newest completed run's speed; nullopt when no run measured one.
std::optional<MeasuredSpeed> lastMeasuredSpeed(const std::vector<ProjectRun>& runs);

// The Split page's totals: a small HTML table (the split's column and the original's) with a note
// on where its times come from. Without a speed the times are multiples of the original's.
QString planTotalsHtml(const PlanTotals& totals, const std::optional<MeasuredSpeed>& speed);

// What each figure of planTotalsHtml() means, for its tooltip.
QString planTotalsToolTip(const PlanTotals& totals);

// The Results page's sentence: "Each machine needed 144 MB against the original's 222 MB; on 3
// machines training would take 7.8 s against 15 s; on this machine it took 14.5 s and 20.1 s of
// CPU in all against 15 s; the combined model costs 1.4x the original at inference."
QString runTotalsSentence(const ProjectResults& results, const SplitPlan& plan);

// The comparison table's "combined" row: which of its figures are the submodels' added up and
// which the process's, for the footnote under the table. `workers`: how many trained at once.
QString combinedRowNote(int workers, bool resumed);

}  // namespace skynnet::ui
