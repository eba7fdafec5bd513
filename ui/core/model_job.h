#pragma once
// The slow work of File > Open Model, one job at a time on a worker thread: measuring a model on
// a labelled dataset, and saving its predictions for a dataset as the CSV `skynnet-cli predict`
// writes (the engine's own functions, so both give the same numbers and bytes). The worker
// reports how far it got through atomics that the GUI thread reads on a timer (no signal crosses
// threads, as in run_events.h); Cancel stops it at its next chunk of rows, and a cancelled save
// writes nothing. Lives on the GUI thread.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "core/cancel.h"
#include "data/data_source.h"
#include "split/combined_model.h"
#include "split/combined_model_file.h"

namespace skynnet::ui {

// A model file read and rebuilt: what a job runs. Shared with the worker, so a job still running
// keeps its model alive whatever the dialog does meanwhile.
struct LoadedModel {
    SavedCombinedModel saved;
    CombinedModel model;
};

// How a job ended. The dialog words the messages.
struct ModelJobResult {
    enum Kind { Measure, Predict };
    Kind kind = Measure;
    bool ok = false, cancelled = false;
    QString error;           // what the engine threw (names the file), when !ok && !cancelled
    QString warning;         // skipped images, when ok
    std::string metricName;  // Measure: "accuracy" or "r2"
    double metric = 0;
    long samples = 0;  // Measure: rows measured; Predict: rows written
    QString csvPath;   // Predict: the file written
};

class ModelJob : public QObject {
    Q_OBJECT
public:
    enum Stage { Idle, Reading, Predicting, Writing };

    explicit ModelJob(QObject* parent = nullptr);
    // Cancels a job still running; its worker ends on its own (it holds what it needs).
    ~ModelJob() override;

    // Start a job and return at once; false (nothing started) while another runs. finished follows.
    // measure: `data` loaded with its labels or targets, the model's headline metric on it.
    bool measure(std::shared_ptr<LoadedModel> model, const DataRequest& data);
    // predict: the model's answers for `data` written atomically to csvPath.
    bool predict(std::shared_ptr<LoadedModel> model, const DataRequest& data, const QString& csvPath);
    void cancel();
    bool running() const { return running_; }

    // While paused, a job holds at its next chunk of rows until resumed or cancelled, and a job
    // started meanwhile holds at its first: a front end's Pause, and a test's way to look at a job
    // that is sure to be still running.
    void pause();
    void resume();

    Stage stage() const;
    double fraction() const;  // of the rows predicted so far, 0..1 (Predicting)
    // Runs the event loop until the job has ended (and finished was emitted); false on timeout.
    bool waitForFinished(int timeoutMs = -1);

signals:
    // While running, a few times a second: what the progress bar shows.
    void progressChanged(skynnet::ui::ModelJob::Stage stage, double fraction);
    void finished(const skynnet::ui::ModelJobResult& result);

private:
    // What the worker writes and the GUI thread reads.
    struct Shared {
        std::atomic<int> stage{Reading};
        std::atomic<double> fraction{0};
    };
    bool launch(ModelJobResult::Kind kind, std::function<ModelJobResult(Shared&, const CancelToken&)> work);
    void onWorkerDone();

    std::shared_ptr<Shared> shared_;
    CancelToken cancel_;
    bool paused_ = false;
    bool running_ = false;
    QFutureWatcher<ModelJobResult> watcher_;
    QTimer poll_;
};

}  // namespace skynnet::ui
