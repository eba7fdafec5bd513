#pragma once
// What the Study page shows of a study, from its record: the table (study.md's columns), the chart's
// points and the recommendation. The means, spreads and intervals are the CLI's summary as it
// reported them; what depends on K machines is recomputed here from the runs' submodel times with
// the engine's schedule and recommendation rule (engine/study/), the ones the CLI's files use, so
// changing K needs no rerun.
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "io/json.h"
#include "study/machine_schedule.h"
#include "ui/core/study_record.h"

namespace skynnet::ui {

// The mean over a configuration's finished runs of machinesSeconds (engine/study/machine_schedule.h);
// nullopt when it has none.
std::optional<double> configMachinesSeconds(const std::vector<Json>& runs, const std::string& config, int machines);

struct StudyPick {
    QString config;  // "N3", "N3-ensemble"
    int submodels = 1;
    QString strategy;
    double seconds = 0;
    double metricMean = 0;
};

struct StudyRecommendation {
    QString metricName;
    std::optional<double> originalMean, originalStdDev;
    std::optional<double> threshold;  // the original's mean minus its standard deviation (0 with one seed)
    int machines = 1;
    std::optional<StudyPick> thisMachine;  // the shortest mean wall time within the threshold
    std::optional<StudyPick> onMachines;   // the shortest time on K machines within the threshold
};

// The recommendation for K machines from the record's summary and runs.
StudyRecommendation recommendStudy(const StudyRecord& record, int machines);
// "Original: accuracy 0.9667 ± 0.0111 over 3 seeds. On this machine: N3 (class-groups), 1.23 s ..."
QString recommendationText(const StudyRecommendation& r);

// The table: a header, then one row per configuration of the summary (study.md's columns, the
// "on K machines" one for `machines`).
std::vector<QStringList> studyTableRows(const StudyRecord& record, int machines);

// One point of the chart per configuration: its mean metric against its mean wall time, with one
// standard deviation each way (0 when unknown).
struct StudyPoint {
    QString config;
    bool original = false;
    double seconds = 0, secondsStdDev = 0;
    double metric = 0, metricStdDev = 0;
};
std::vector<StudyPoint> studyPoints(const StudyRecord& record);

}  // namespace skynnet::ui
