#pragma once
// File > Open Model…: a model file (.skym, what File > Export… and `skynnet-cli train --save`
// write) put to work without a project. The dialog describes the model, measures it on a labelled
// dataset the user opens (the headline metric, as `skynnet-cli evaluate` prints it) and saves its
// predictions for a dataset as the CSV `skynnet-cli predict` writes, through the same engine code.
// Measuring and predicting run on a worker (ModelJob) with a progress bar and Cancel, so the
// window stays responsive. Errors are shown in the dialog, which stays open to try again; nothing
// is half-written, and a cancelled save writes nothing.
#include <QDialog>
#include <memory>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace skynnet::ui {

class AppSettings;
class ModelJob;
struct LoadedModel;
struct ModelJobResult;

class OpenModelDialog : public QDialog {
    Q_OBJECT
public:
    // settings: the folder the data and CSV dialogs start in (may be null).
    explicit OpenModelDialog(AppSettings* settings, QWidget* parent = nullptr);
    ~OpenModelDialog() override;

    // Reads and rebuilds the model; false with the reason in statusText() (a project file says
    // so). The previous model, if any, stays.
    bool loadModel(const QString& path);
    bool hasModel() const { return bool(model_); }
    QString modelPath() const { return modelPath_; }
    QString modelSummary() const;  // the description line

    void setDataPath(const QString& path);
    QString dataPath() const;
    // The model on the data (with its labels or targets): the metric in metricText(). Starts the
    // job and returns at once: false (the reason shown) without a model or data, or while a job
    // runs. jobFinished follows.
    bool startEvaluate();
    QString metricText() const;  // "accuracy 0.9667 on 30 samples"; empty before a measure ends
    // The model's predictions for the data (labels not needed), written atomically to csvPath.
    bool startPredictions(const QString& csvPath);
    // Both as one call that waits for the job (the event loop runs meanwhile): its success.
    bool evaluate();
    bool savePredictions(const QString& csvPath);
    QString statusText() const;  // the last error, success or cancel; empty when none

    bool busy() const;
    void cancelJob();  // the Cancel button: the job stops at its next chunk of rows
    // Runs the event loop until the job has ended: whether it succeeded (false on timeout).
    bool waitForJob(int timeoutMs = -1);
    ModelJob* job() const { return job_; }
    QProgressBar* progressBar() const { return progress_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* evaluateButton() const { return evaluate_; }
    QPushButton* predictButton() const { return predict_; }
    QPushButton* browseButton() const { return browse_; }  // the data file's Browse…

signals:
    void jobFinished(bool ok);

protected:
    void reject() override;  // Close or Escape: a running job is cancelled first

private:
    void buildProgressRow();
    void browseData();
    void choosePredictionsFile();
    bool canStart(const QString& missingData);
    void onJobProgress(int stage, double fraction);
    void onJobFinished(const ModelJobResult& result);
    void showStatus(const QString& text, bool error);
    void updateButtons();

    AppSettings* settings_;
    std::shared_ptr<LoadedModel> model_;
    QString modelPath_;
    ModelJob* job_;
    bool lastJobOk_ = false;
    QLabel* summary_;
    QLineEdit* data_;
    QPushButton* browse_;
    QPushButton* evaluate_;
    QPushButton* predict_;
    QLabel* metric_;
    QWidget* progressRow_;
    QProgressBar* progress_;
    QLabel* stage_;
    QPushButton* cancel_;
    QLabel* status_;
};

}  // namespace skynnet::ui
