#pragma once
// How far one run of a study has got, read from its log while it trains. The study starts each run
// as `skynnet-cli train --project ... --progress json` with stdout and stderr in the run's log, so
// the log holds the run's progress events (engine/run/progress_event.h) between the human lines;
// each poll reads what was appended since the last, whole lines only, through the engine's own
// reader of those events. The study's events say when a run starts and ends; this says how far the
// run in between has got, which the study's own events cannot tell until it ends.
#include <QByteArray>
#include <QString>
#include <vector>

#include "run/progress_event.h"

namespace skynnet::ui {

class RunLogProgress {
public:
    RunLogProgress() = default;
    explicit RunLogProgress(QString logPath) : path_(std::move(logPath)) {}

    const QString& path() const { return path_; }
    // Reads the lines appended to the log since the last poll; true when the progress changed.
    bool poll();
    // One line of the log (the tool's output, with or without its newline); lines that are not
    // events, and events this build cannot read, are skipped. True when the progress changed.
    bool feed(const QByteArray& line);

    // The run's plan event came: its models and their epochs are known.
    bool planned() const { return !totals_.empty(); }
    int models() const { return int(totals_.size()); }  // the submodels, and the baseline if any
    // Epochs of every model together, done (a started epoch counts by its batches) and planned.
    double epochsDone() const;
    int epochsTotal() const;
    // epochsDone() / epochsTotal(), 0 before the plan.
    double fraction() const;

private:
    int indexOf(const ModelTag& tag) const;  // into totals_; -1 when outside the plan
    bool advance(int index, double epochs);

    QString path_;
    qint64 offset_ = 0;
    QByteArray partial_;        // a line still being written
    std::vector<int> totals_;   // per model: its epochs
    std::vector<double> done_;  // per model: epochs done, fractions within one
    int submodels_ = 0;         // of the plan (0: one network, no split)
};

}  // namespace skynnet::ui
