#pragma once
// The reading side of `skynnet-cli train --progress json` (app/cli/json_progress.h): each line
// the tool writes becomes the same RunEventBuffer calls the engine's callbacks make in an
// in-process run, so a run in another process (under mpirun, on other machines) reaches the
// session, its charts and tables through the one path. Lines that are not events (mpirun's own
// messages) go to the run's log; events that do not fit the plan (a submodel beyond it) are
// logged and dropped, never indexed. The lines are read by the engine's progressEventFromJson
// (engine/run/progress_event.h), the code that also writes them.
#include <QByteArray>
#include <QString>
#include <optional>
#include <vector>

#include "run/progress_event.h"
#include "ui/core/run_events.h"

namespace skynnet::ui {

class ProgressEventReader {
public:
    // `submodels`: the plan's count, the range every submodel event must fall in. The buffer must
    // outlive the reader.
    ProgressEventReader(RunEventBuffer& buffer, int submodels);

    // One line of the tool's stdout (without or with its newline).
    void feed(const QByteArray& line);

    // The result event, once it came.
    const std::optional<ResultEvent>& result() const { return result_; }
    // The message of the error event; empty when none came.
    const QString& error() const { return error_; }
    // How many lines were events (the rest were logged as text).
    int events() const { return events_; }

private:
    void apply(const ProgressEvent& event);
    void submodelEvent(int index, const ProgressEvent& event);
    void baselineEvent(const ProgressEvent& event);

    RunEventBuffer& buffer_;
    SubmodelEvents submodel_;
    TrainCallbacks baseline_;
    int submodels_;
    // Each submodel's epochs so far: a finished event's TrainResult carries them, as the engine's does.
    std::vector<std::vector<EpochStats>> history_;
    std::optional<ResultEvent> result_;
    QString error_;
    int events_ = 0;
};

}  // namespace skynnet::ui
