#include "ui/widgets/split_totals_text.h"

#include <QObject>
#include <QStringList>
#include <algorithm>

#include "project/project_file.h"
#include "ui/core/formatting.h"
#include "ui/widgets/format.h"

namespace skynnet::ui {
namespace {

// Both figures of a comparison in one unit (the tables' kB or MB), so they read side by side.
QString memoryPair(std::int64_t split, std::int64_t original, QString* originalText) {
    const MemoryUnit unit = memoryUnitFor(std::max(split, original));
    *originalText = unit.format(original) + QLatin1Char(' ') + unit.name;
    return unit.format(split) + QLatin1Char(' ') + unit.name;
}

QString machines(int n) { return n == 1 ? QObject::tr("1 machine") : QObject::tr("%1 machines").arg(n); }

QString times(double ratio) { return QString::number(ratio, 'f', ratio < 10 ? 2 : 1) + QStringLiteral("x"); }

// "1.56x" of the original, or empty when the original's figure is not known.
QString ratioOf(double split, double original) { return original > 0 ? times(split / original) : QString(); }

QString withRatio(const QString& figure, double split, double original) {
    const QString r = ratioOf(split, original);
    return r.isEmpty() ? figure : QObject::tr("%1 (%2)").arg(figure, r);
}

QString row(const QString& label, const QString& split, const QString& original) {
    return QStringLiteral(
               "<tr><td>%1</td><td align=\"right\">&nbsp;&nbsp;%2</td><td align=\"right\">&nbsp;&nbsp;%3</td></tr>")
        .arg(label.toHtmlEscaped(), split.toHtmlEscaped(), original.toHtmlEscaped());
}

}  // namespace

std::optional<MeasuredSpeed> lastMeasuredSpeed(const std::vector<ProjectRun>& runs) {
    for (auto run = runs.rbegin(); run != runs.rend(); ++run) {
        if (!run->results) continue;
        const ProjectResults& r = *run->results;
        const std::optional<double> rate = secondsPerWork(run->plan, r.submodelCpuSeconds);
        if (!rate) continue;
        MeasuredSpeed s;
        s.submodelSeconds = *rate;
        const double original = originalCost(run->plan);
        if (r.baseline && original > 0 && r.baseline->wallSeconds > 0) {
            s.originalWallSeconds = r.baseline->wallSeconds / original;
            s.originalCpuSeconds = r.baseline->cpuSeconds / original;
        }
        return s;
    }
    return std::nullopt;
}

QString planTotalsHtml(const PlanTotals& t, const std::optional<MeasuredSpeed>& speed) {
    QString originalMemory;
    const QString machineMemory = memoryPair(t.machineMemoryBytes, t.originalMemoryBytes, &originalMemory);
    // Seconds at the measured speeds, or multiples of the original's training without one.
    const auto splitTime = [&](double work) {
        return speed ? formatDuration(work * speed->submodelSeconds) : ratioOf(work, t.originalWork);
    };
    const auto originalTime = [&](const std::optional<double> MeasuredSpeed::*rate) {
        if (!speed) return QStringLiteral("1x");
        return formatDuration(t.originalWork * ((*speed).*rate).value_or(speed->submodelSeconds));
    };
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\">");
    html += QStringLiteral("<tr><th></th><th align=\"right\">&nbsp;%1</th><th align=\"right\">&nbsp;%2</th></tr>")
                .arg(QObject::tr("split (S=%1)").arg(t.submodels), QObject::tr("original"));
    html += row(QObject::tr("Parameters, combined"),
                withRatio(formatCount(t.combinedParams), double(t.combinedParams), double(t.originalParams)),
                formatCount(t.originalParams));
    html += row(QObject::tr("Memory per machine"), machineMemory, originalMemory);
    html += row(QObject::tr("Training on %1").arg(machines(t.submodels)), splitTime(t.slowestWork),
                originalTime(&MeasuredSpeed::originalWallSeconds));
    html += row(QObject::tr("Training on this machine"), splitTime(t.thisMachineWork),
                originalTime(&MeasuredSpeed::originalWallSeconds));
    html += row(QObject::tr("Total CPU"),
                speed ? withRatio(splitTime(t.work), t.work * speed->submodelSeconds,
                                  t.originalWork * speed->originalCpuSeconds.value_or(speed->submodelSeconds))
                      : splitTime(t.work),
                originalTime(&MeasuredSpeed::originalCpuSeconds));
    html += row(QObject::tr("Inference per sample"),
                withRatio(formatFlops(t.inferenceFlops) + QStringLiteral(" FLOP"), double(t.inferenceFlops),
                          double(t.originalInferenceFlops)),
                formatFlops(t.originalInferenceFlops) + QStringLiteral(" FLOP"));
    html += QStringLiteral("</table>");
    html += QStringLiteral("<small>%1</small>")
                .arg(speed ? QObject::tr("Times: the plan's FLOPs at the speed<br>the last run measured here.")
                           : QObject::tr("Times as multiples of the original's,<br>in seconds once a run has "
                                         "measured this machine."));
    return html;
}

QString planTotalsToolTip(const PlanTotals& t) {
    return QObject::tr("What the split saves and costs against the original.\n"
                       "Parameters: the combined model holds every submodel's weights.\n"
                       "Memory per machine: the largest submodel's training memory, each on a machine of its own "
                       "(on this machine %1 train at once and need %2 together).\n"
                       "Training on %3: every submodel at once, the largest one's time.\n"
                       "Training on this machine: %1 at a time, longest first.\n"
                       "Total CPU: every submodel's training added up.\n"
                       "Inference: every submodel sees every sample, so the combined model costs their sum.")
        .arg(t.workers)
        .arg(memoryUnitFor(t.concurrentMemoryBytes).format(t.concurrentMemoryBytes) + QLatin1Char(' ') +
             memoryUnitFor(t.concurrentMemoryBytes).name)
        .arg(machines(t.submodels));
}

QString runTotalsSentence(const ProjectResults& r, const SplitPlan& plan) {
    const PlanTotals planned = planTotals(plan, std::max(1, r.workers));
    QStringList parts;
    // Memory: measured peaks when the baseline was trained alongside, else the plan's estimates.
    std::int64_t machine = 0;
    for (const TrainResult& s : r.submodels) machine = std::max(machine, s.peakBytes());
    QString original;
    if (r.baseline && machine > 0) {
        const QString each = memoryPair(machine, r.baseline->peakBytes(), &original);
        parts << QObject::tr("each machine needed %1 against the original's %2").arg(each, original);
    } else {
        const QString each = memoryPair(planned.machineMemoryBytes, planned.originalMemoryBytes, &original);
        parts << QObject::tr("each machine needs about %1 against the original's %2 (planned)").arg(each, original);
    }
    // Time on S machines: the largest submodel's cost at the CPU speed this run measured.
    const double onMachines = trainingSecondsOnMachines(plan, r.submodelCpuSeconds);
    const std::optional<double> rate = secondsPerWork(plan, r.submodelCpuSeconds);
    const QString originalTime = r.baseline ? formatDuration(r.baseline->wallSeconds)
                                 : rate     ? QObject::tr("about %1").arg(formatDuration(planned.originalWork * *rate))
                                            : QString();
    if (onMachines > 0)
        parts << (originalTime.isEmpty()
                      ? QObject::tr("on %1 training would take %2")
                            .arg(machines(plan.submodelCount()), formatDuration(onMachines))
                      : QObject::tr("on %1 training would take %2 against %3")
                            .arg(machines(plan.submodelCount()), formatDuration(onMachines), originalTime));
    // This machine: the process's wall; a resumed run's covers this session only.
    const double earlierCpu = r.earlierSubmodelCpuSeconds();
    const bool resumed = r.resumed();
    QString here = resumed ? QObject::tr("on this machine this session took %1 and %2 of CPU (the sessions before "
                                         "the resume %3 of CPU more)")
                                 .arg(formatDuration(r.splitWallSeconds),
                                      formatDuration(r.splitCpuSeconds - earlierCpu), formatDuration(earlierCpu))
                           : QObject::tr("on this machine it took %1, and %2 of CPU in all")
                                 .arg(formatDuration(r.splitWallSeconds), formatDuration(r.splitCpuSeconds));
    if (r.baseline && !resumed)
        here += QObject::tr(" against the original's %1").arg(formatDuration(r.baseline->cpuSeconds));
    parts << here;
    if (planned.originalInferenceFlops > 0)
        parts << QObject::tr("the combined model costs %1 the original at inference")
                     .arg(times(double(planned.inferenceFlops) / double(planned.originalInferenceFlops)));
    QString text = parts.join(QStringLiteral("; ")) + QLatin1Char('.');
    text[0] = text[0].toUpper();
    return text;
}

QString combinedRowNote(int workers, bool resumed) {
    // One line at 1600 pixels: the Results page's charts need the height.
    const QString memory = workers <= 1 ? QObject::tr("the largest submodel's peak")
                                        : QObject::tr("the %1 largest peaks' sum").arg(workers);
    QString note = QObject::tr("Combined row: Params and CPU time are the submodels' sums, Peak memory %1, "
                               "Wall time the whole split run's.")
                       .arg(memory);
    if (resumed)
        note += QObject::tr(" This run was resumed: its wall time is this session's, its CPU time includes the "
                            "earlier sessions'.");
    return note;
}

}  // namespace skynnet::ui
