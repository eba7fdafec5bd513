#pragma once
// Page 4, Train: the training settings, Start / Pause-Resume / Stop, overall progress with the
// time remaining, live charts per submodel (and the baseline), the epoch table and the log.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace skynnet {
enum class TrainStatus;
}

namespace skynnet::ui {

class AppSettings;
class ProjectDocument;
class TrainingCharts;
class TrainingSession;

class TrainPage : public QWidget {
    Q_OBJECT
public:
    TrainPage(ProjectDocument* document, TrainingSession* session, AppSettings* settings, QWidget* parent = nullptr);

    QPushButton* startButton() const { return start_; }
    QPushButton* pauseButton() const { return pause_; }
    QPushButton* stopButton() const { return stop_; }
    QPushButton* resumeRunButton() const { return resumeRun_; }
    QSpinBox* epochsBox() const { return epochs_; }
    QSpinBox* batchBox() const { return batch_; }
    QSpinBox* threadsBox() const { return threads_; }
    QCheckBox* baselineBox() const { return baseline_; }
    TrainingCharts* charts() const { return charts_; }
    QTableView* epochTable() const { return epochTable_; }
    QPlainTextEdit* logView() const { return log_; }
    QProgressBar* progressBar() const { return progress_; }
    QString errorText() const;  // the visible error banner's text; empty when hidden

    // What the Start button does: checks the network, then starts the session.
    void startTraining();
    // What Resume run does: continues the stopped run from its checkpoints.
    void resumeTraining();

signals:
    void runCompleted();  // a run finished with results (the window may show the Results page)

private:
    void buildUi();
    void fromDocument();
    void toDocument();
    void updateButtons();
    void updatePlanInfo();
    QPushButton* buildResumeRunButton();
    void updateResumeRunButton();
    void onFinished(skynnet::TrainStatus status, const QString& message);
    void showError(const QString& text);

    ProjectDocument* document_;
    TrainingSession* session_;
    AppSettings* settings_;
    bool updating_ = false;

    QPushButton* start_ = nullptr;
    QPushButton* pause_ = nullptr;
    QPushButton* stop_ = nullptr;
    QPushButton* resumeRun_ = nullptr;
    QSpinBox* epochs_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QComboBox* optimizer_ = nullptr;
    QDoubleSpinBox* learningRate_ = nullptr;
    QSpinBox* threads_ = nullptr;
    QCheckBox* baseline_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* remaining_ = nullptr;
    QLabel* planInfo_ = nullptr;
    QLabel* error_ = nullptr;
    TrainingCharts* charts_ = nullptr;
    QTableView* epochTable_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
};

}  // namespace skynnet::ui
