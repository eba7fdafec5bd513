#pragma once
// What the soak drives: the app's document, training session, run recorder and autosave, as the
// main window holds them for its whole life (one of each, projects opened into them), with no
// widget. Also the soak's folder and the bookkeeping every cycle reports into.
#include <QString>
#include <functional>
#include <memory>
#include <random>

#include "train/train_types.h"

namespace skynnet::ui {
class AppSettings;
class Autosave;
class ProjectDocument;
class RunRecorder;
class TrainingSession;
}  // namespace skynnet::ui

namespace soak {

// A check that failed: the cycle stops there and is counted as failed.
struct Failure {
    QString what;
};

// Counts what the summary reports.
struct Tally {
    int cycles = 0, failedCycles = 0;
    int projectsOpened = 0;     // saved files read back and compared (projects, recoveries, copies)
    int tempFilesFound = 0;     // temporary or partial files seen by the scans
    int onnxChecked = 0;        // exported files the ONNX checker accepted
    int stopsTooLate = 0;       // runs that completed before the stop reached them
    int fullDiskSaves = 0;      // injected: saves refused by a full disk
    int previousIntact = 0;     // ... after which the previous file was byte-identical and opened
    int childrenKilled = 0;     // injected: training children killed with SIGKILL
    int killedRunsResumed = 0;  // ... whose run then completed from the checkpoint
    int killsTooLate = 0;       // children that had finished before the kill reached them
};

class Fixture {
public:
    // `folder`: the soak's working folder, created empty by the caller.
    Fixture(const QString& folder, unsigned seed);
    ~Fixture();
    Fixture(const Fixture&) = delete;
    Fixture& operator=(const Fixture&) = delete;

    skynnet::ui::ProjectDocument& document() { return *document_; }
    skynnet::ui::TrainingSession& session() { return *session_; }
    skynnet::ui::Autosave& autosave() { return *autosave_; }
    const QString& folder() const { return folder_; }
    QString path(const QString& relative) const;  // inside the folder
    std::mt19937& random() { return random_; }
    Tally& tally() { return tally_; }

    // Runs the event loop until `done` holds; throws Failure naming `what` after timeoutMs.
    void waitUntil(const std::function<bool()>& done, int timeoutMs, const QString& what);
    // How many runs have finished so far, and how the last one ended.
    int finishedCount() const { return finished_; }
    skynnet::TrainStatus lastStatus() const { return lastStatus_; }
    const QString& lastMessage() const { return lastMessage_; }
    // Starts the next `finished` wait: returns the count to wait past.
    void waitFinished(int before, int timeoutMs, const QString& what);
    // Called on every progress signal once a submodel has finished an epoch; null: nothing.
    std::function<void()> onEpochDone;

private:
    QString folder_;
    std::unique_ptr<skynnet::ui::AppSettings> settings_;
    std::unique_ptr<skynnet::ui::ProjectDocument> document_;
    std::unique_ptr<skynnet::ui::TrainingSession> session_;
    std::unique_ptr<skynnet::ui::RunRecorder> recorder_;
    std::unique_ptr<skynnet::ui::Autosave> autosave_;
    std::mt19937 random_;
    Tally tally_;
    int finished_ = 0;
    skynnet::TrainStatus lastStatus_ = skynnet::TrainStatus::Cancelled;
    QString lastMessage_;
};

// Throws Failure(what) unless ok.
void expect(bool ok, const QString& what);

}  // namespace soak
