#include "ui/core/run_job.h"

#include <QString>

#include "run/runner.h"

namespace skynnet::ui {
namespace {

// The app's observer of a run: everything goes into the buffer the GUI thread takes from.
class BufferObserver : public RunObserver {
public:
    explicit BufferObserver(RunEventBuffer& events) : events_(events) {}

    SubmodelEvents submodelEvents() override { return events_.submodelEvents(); }
    TrainCallbacks modelCallbacks(RunModel) override { return events_.baselineCallbacks(); }
    void modelFinished(RunModel, const TrainResult& result) override { events_.baselineFinished(result.status); }
    void log(const std::string& line) override { events_.log(QString::fromStdString(line)); }

private:
    RunEventBuffer& events_;
};

}  // namespace

JobOutcome runTraining(const RunInputs& in, RunEventBuffer& events, const CancelToken& cancel) {
    const RunStopwatch wholeRun(&cancel);  // the preparation is part of the run's time
    JobOutcome out;
    RunRequest request = in.request;
    try {
        if (!request.prepared) {
            out.prepared = std::make_shared<const PreparedData>(
                prepareData(*in.data, in.test.get(), in.dataSettings.preparation()));
            request.prepared = out.prepared;
        }
    } catch (const std::exception& e) {
        out.message = e.what();
        return out;
    }
    BufferObserver observer(events);
    RunOutcome run = performRun(request, observer, cancel);
    out.status = run.status;
    out.message = run.status == TrainStatus::Cancelled ? "stopped" + run.message : run.message;
    if (run.status == TrainStatus::Completed && run.record && run.record->results) {
        run.record->results->wallSeconds = wholeRun.seconds();
        out.results = std::make_shared<const ProjectResults>(std::move(*run.record->results));
    }
    return out;
}

}  // namespace skynnet::ui
