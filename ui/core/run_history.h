#pragma once
// What the app says about a kept run: whether it still matches the project (its data, network
// and split), its size in the project file, its start time, and the figures two runs are compared
// by. Pure functions over ProjectRun and the document, so the run list, the compare view and the
// pages say the same, and a test checks them without widgets.
#include <QDateTime>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

#include "project/project_file.h"

namespace skynnet::ui {

class ProjectDocument;

// The settings a run starting now is made from: the document's data, network, split and training.
RunSettings currentRunSettings(const ProjectDocument& document);

// What changed since the run was made, in this order: "data", "network", "split"; empty when it
// still matches. Data files count as the same when their contents match (fingerprints) or, where
// a fingerprint is not known yet, their paths; the preparation settings must match too. A run
// without recorded settings is judged by its plan's network alone.
QStringList outOfDateParts(const ProjectRun& run, const ProjectDocument& document);
// "Out of date: the data and the network changed since this run." Empty for no parts.
QString outOfDateText(const QStringList& parts);

bool hasWeights(const ProjectRun& run);
// The bytes the run's float blocks take in a project file: weights, test outputs and plan rows.
std::int64_t runBytes(const ProjectRun& run);
// "420 B", "2.82 kB", "1.5 MB" (powers of 1000, 3 significant digits).
QString formatSize(std::int64_t bytes);

// A start time as a run records it (ISO 8601 UTC, seconds) and as the list shows it (local time,
// "2026-12-01 22:14"; "not recorded" when the run has none).
QString isoUtc(const QDateTime& time);
QString runStartText(const ProjectRun& run);
// "class_groups, N=3": the strategy and the number of submodels asked for.
QString runStrategyText(const ProjectRun& run);
// "accuracy 0.9667" of the combined model; "none" for a run without results.
QString runMetricText(const ProjectRun& run);

// One log line as the Train page shows it and a run records it: "HH:mm:ss  text".
QString logLine(const QString& text, const QTime& at);

// The side-by-side figures of two runs: a label and each run's value as text.
struct RunComparisonRow {
    QString label, first, second;
};
std::vector<RunComparisonRow> compareRuns(const ProjectRun& first, const ProjectRun& second);

// A run's training-loss curves for the compare chart, (epoch, loss) points: the submodels' mean
// per epoch, over the epochs every submodel reached, and the baseline's when it trained.
struct RunCurve {
    QString name;  // "<runName> submodels (mean)", "<runName> baseline"
    std::vector<QPointF> points;
    bool baseline = false;
};
std::vector<RunCurve> runLossCurves(const ProjectRun& run, const QString& runName);

}  // namespace skynnet::ui
