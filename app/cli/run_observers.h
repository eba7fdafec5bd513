#pragma once
// The command line's two observers of a run (engine/run/run_observer.h): the text printer, whose
// plan table, announcements and per-epoch lines go to stderr (nothing but warnings with --quiet),
// and the --progress json writer, which puts the progress on stdout as events instead and keeps
// the printer's stderr lines. Either can keep the run's log lines for a project's record.
#include <optional>
#include <string>

#include "run/run_observer.h"
#include "run/runner.h"
#include "run_record.h"

namespace skynnet::cli {

// What a run that ended by Ctrl-C was doing (" while the submodels trained"); empty when the
// interrupt came after the run had already ended another way.
inline std::string stoppedDuring(const RunOutcome& out) {
    return out.status == TrainStatus::Cancelled ? out.message : std::string();
}

struct TextObserverOptions {
    bool quiet = false;
    int threads = 1;           // the budget, for the plan table and announcements
    std::string placement;     // where the submodels train, for the plan table (MPI ranks); empty: here
    RunLog* record = nullptr;  // where the log lines go; null: nowhere
};

class TextObserver : public RunObserver {
public:
    explicit TextObserver(TextObserverOptions options) : o_(std::move(options)) {}

    void planned(const SplitPlan& plan, const RunRequest& request) override;
    void networkPlanned(const NetworkSpec& spec, const PreparedData& data, const RunRequest& request) override;
    void resuming(const std::string& folder, const std::string& progress) override;
    SubmodelEvents submodelEvents() override;
    void modelStarted(RunModel model, const WorkerPlace& place) override;
    TrainCallbacks modelCallbacks(RunModel model) override;
    void modelFinished(RunModel model, const TrainResult& result) override;
    void log(const std::string& line) override;

protected:
    // `events`, with each submodel's end also in the record when there is one.
    SubmodelEvents recorded(SubmodelEvents events);

    TextObserverOptions o_;
    std::optional<SplitPlan> plan_;
    Task task_ = Task::Classification;
    int epochs_ = 0;
    bool baseline_ = false;
};

class JsonObserver : public TextObserver {
public:
    using TextObserver::TextObserver;

    void planned(const SplitPlan& plan, const RunRequest& request) override;
    void networkPlanned(const NetworkSpec& spec, const PreparedData& data, const RunRequest& request) override;
    SubmodelEvents submodelEvents() override;
    void modelStarted(RunModel model, const WorkerPlace& place) override;
    TrainCallbacks modelCallbacks(RunModel model) override;
    void modelFinished(RunModel model, const TrainResult& result) override;
};

}  // namespace skynnet::cli
