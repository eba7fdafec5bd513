#include "ui/core/model_job.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QtConcurrent/QtConcurrentRun>

#include "core/error.h"
#include "io/atomic_file.h"
#include "split/model_predictions.h"
#include "train/metrics.h"

namespace skynnet::ui {
namespace {

constexpr int pollMs = 100;  // the progress bar's pace: smooth enough, and no load on the worker

ModelJobResult cancelledResult(ModelJobResult r) {
    r.cancelled = true;
    r.ok = false;
    return r;
}

}  // namespace

ModelJob::ModelJob(QObject* parent) : QObject(parent) {
    poll_.setInterval(pollMs);
    connect(&poll_, &QTimer::timeout, this, [this] { emit progressChanged(stage(), fraction()); });
    connect(&watcher_, &QFutureWatcher<ModelJobResult>::finished, this, &ModelJob::onWorkerDone);
}

ModelJob::~ModelJob() { cancel_.cancel(); }

ModelJob::Stage ModelJob::stage() const { return running_ && shared_ ? Stage(shared_->stage.load()) : Idle; }

double ModelJob::fraction() const { return running_ && shared_ ? shared_->fraction.load() : 0.0; }

void ModelJob::cancel() {
    if (running_) cancel_.cancel();
}

void ModelJob::pause() {
    paused_ = true;
    cancel_.pause();
}

void ModelJob::resume() {
    paused_ = false;
    cancel_.resume();
}

bool ModelJob::launch(ModelJobResult::Kind kind, std::function<ModelJobResult(Shared&, const CancelToken&)> work) {
    if (running_) return false;
    cancel_ = CancelToken();  // a token of its own: a late cancel of the last job cannot reach this one
    if (paused_) cancel_.pause();
    shared_ = std::make_shared<Shared>();
    running_ = true;
    watcher_.setFuture(QtConcurrent::run([kind, work = std::move(work), shared = shared_, cancel = cancel_] {
        ModelJobResult r;
        try {
            r = work(*shared, cancel);
        } catch (const std::exception& e) {
            r = ModelJobResult{};
            r.error = QString::fromUtf8(e.what());
        }
        r.kind = kind;
        return r;
    }));
    poll_.start();
    emit progressChanged(Reading, 0.0);
    return true;
}

void ModelJob::onWorkerDone() {
    if (!running_) return;
    running_ = false;
    poll_.stop();
    const ModelJobResult r = watcher_.future().result();
    emit finished(r);
}

bool ModelJob::measure(std::shared_ptr<LoadedModel> model, const DataRequest& data) {
    if (!model) return false;
    return launch(ModelJobResult::Measure, [model, data](Shared& shared, const CancelToken& cancel) {
        ModelJobResult r;
        const Dataset rows = loadLike(data, model->saved.schema, true);
        if (rows.size() == 0) throw Error(data.path + ": no samples to measure the model on");
        if (cancel.cancelled()) return cancelledResult(r);
        shared.stage = Predicting;
        const Matrix out = predictRaw(model->model, model->saved, rows.features, &cancel,
                                      [&shared](double f) { shared.fraction = f; });
        if (cancel.cancelled()) return cancelledResult(r);
        const Task task = model->saved.task();
        r.metricName = headlineMetricName(task);
        r.metric = headlineMetric(task, out, rows.targetMatrix());
        r.samples = long(rows.size());
        r.warning = QString::fromStdString(rows.skippedFilesWarning());
        r.ok = true;
        return r;
    });
}

bool ModelJob::predict(std::shared_ptr<LoadedModel> model, const DataRequest& data, const QString& csvPath) {
    if (!model) return false;
    const std::string file = csvPath.toStdString();
    return launch(ModelJobResult::Predict, [model, data, file, csvPath](Shared& shared, const CancelToken& cancel) {
        ModelJobResult r;
        r.csvPath = csvPath;
        const ModelPredictions p = predictData(model->model, model->saved, data, &cancel, [&shared](double f) {
            shared.stage = Predicting;
            shared.fraction = f;
        });
        if (cancel.cancelled()) return cancelledResult(r);  // nothing written
        shared.stage = Writing;
        writeFileAtomically(file, predictionsCsv(model->saved, p));
        r.samples = long(p.outputs.rows());
        r.warning = QString::fromStdString(p.warning);
        r.ok = true;
        return r;
    });
}

bool ModelJob::waitForFinished(int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (running_ && (timeoutMs < 0 || clock.elapsed() < timeoutMs)) {
        QEventLoop loop;
        QTimer::singleShot(10, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return !running_;
}

}  // namespace skynnet::ui
