#include "ui/core/run_summary.h"

#include <QCoreApplication>
#include <algorithm>

#include "ui/core/formatting.h"
#include "ui/core/training_session.h"

namespace skynnet::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("RunSummary", text); }

// The last epoch's training loss of each submodel, averaged: what the loss chart ends on.
std::optional<double> lastLoss(const std::vector<ModelHistory>& models) {
    double sum = 0;
    int count = 0;
    for (const ModelHistory& m : models)
        if (!m.epochs.empty()) {
            sum += m.epochs.back().loss;
            ++count;
        }
    if (count == 0) return std::nullopt;
    return sum / count;
}

// "3 submodels, 7 epochs each, then the baseline, 10 epochs"
QString whatTrained(const SplitPlan& plan, bool baseline) {
    // Spelled out: without a translation loaded, Qt writes "%n epoch(s)" as "10 epoch(s)".
    const auto epochs = [](int n) { return (n == 1 ? tr("%1 epoch") : tr("%1 epochs")).arg(n); };
    QString text = plan.submodelCount() == 1
                       ? tr("1 model, %1").arg(epochs(plan.effectiveEpochs))
                       : tr("%1 submodels, %2 each").arg(plan.submodelCount()).arg(epochs(plan.effectiveEpochs));
    if (baseline) text += tr(", then the baseline, %1").arg(epochs(plan.epochs));
    return text;
}

QString completedText(const TrainingSession& session, const ProjectResults& r) {
    const SplitPlan& plan = *session.plan();
    // This session's CPU beside this session's wall: a resumed run's submodels count the sessions
    // before the resume too, told apart.
    const double earlier = r.earlierSubmodelCpuSeconds() + (r.baseline ? r.baseline->earlierCpuSeconds : 0.0);
    const double cpu = r.splitCpuSeconds + (r.baseline ? r.baseline->cpuSeconds : 0.0) - earlier;
    const QString cpuText =
        earlier > 0
            ? tr("CPU %1 in this session, %2 before the resume").arg(formatDuration(cpu), formatDuration(earlier))
            : tr("CPU %1").arg(formatDuration(cpu));
    const bool early = session.lastStatus() == TrainStatus::EarlyStopped;
    QString text = tr("<b>Finished</b> in %1 (%2): %3%4.")
                       .arg(formatDuration(r.wallSeconds), cpuText, whatTrained(plan, session.runHadBaseline()),
                            early ? tr(", stopped early") : QString());
    const QString metric = QString::fromStdString(r.metricName);
    text += QLatin1Char(' ') +
            tr("%1 %2 %3").arg(QString::fromStdString(r.evaluatedOn), metric, formatMetric(r.combinedMetric));
    if (r.baseline) text += tr(" (the original: %1)").arg(formatMetric(r.baselineMetric));
    if (const auto loss = lastLoss(session.submodels())) text += tr("; last training loss %1").arg(formatLoss(*loss));
    return text + QLatin1Char('.');
}

QString stoppedText(const TrainingSession& session) {
    const SplitPlan& plan = *session.plan();
    int done = 0, total = plan.submodelCount() * plan.effectiveEpochs;
    double seconds = 0;
    const auto count = [&](const ModelHistory& m) {
        done += int(m.epochs.size());
        if (!m.resources.empty()) seconds = std::max(seconds, m.resources.back().elapsedSeconds);
    };
    for (const ModelHistory& m : session.submodels()) count(m);
    if (session.runHadBaseline()) {
        total += plan.epochs;
        count(session.baseline());
    }
    return tr("<b>Stopped</b> after %1 of %2 epochs, %3.").arg(done).arg(total).arg(formatDuration(seconds));
}

}  // namespace

QString runSummaryText(const TrainingSession& session) {
    if (session.running() || !session.plan()) return {};
    switch (session.lastStatus()) {
    case TrainStatus::Completed:
    case TrainStatus::EarlyStopped:
        if (const auto r = session.results()) return completedText(session, *r);
        return {};
    case TrainStatus::Cancelled: return stoppedText(session);
    case TrainStatus::Failed: return {};
    }
    return {};
}

}  // namespace skynnet::ui
