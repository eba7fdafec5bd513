#pragma once
// Page 4, Train: the training settings, Start / Pause-Resume / Stop, overall progress with the
// time remaining, live charts per submodel (and the baseline), the epoch table and the log.
#include <QWidget>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QTemporaryDir;

namespace skynnet {
enum class TrainStatus;
}

namespace skynnet::ui {

class AppSettings;
class ProjectDocument;
class RunOnPanel;
class TrainingCharts;
class TrainingSession;
class TrainSettingsPanel;

class TrainPage : public QWidget {
    Q_OBJECT
public:
    TrainPage(ProjectDocument* document, TrainingSession* session, AppSettings* settings, QWidget* parent = nullptr);
    ~TrainPage() override;

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
    RunOnPanel* runOnPanel() const { return runOn_; }
    TrainSettingsPanel* advancedSettings() const { return advanced_; }
    // Offered after a run on the hostfile's machines failed or was stopped: runs it again with --resume.
    QPushButton* resumeOnHostsButton() const { return resumeOnHosts_; }

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
    // Runs on the hostfile's machines (train_page_hosts.cpp).
    QWidget* buildRunOn();
    void startOnHosts(bool resume);
    void offerResumeOnHosts(TrainStatus status);

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
    RunOnPanel* runOn_ = nullptr;
    TrainSettingsPanel* advanced_ = nullptr;
    QPushButton* resumeOnHosts_ = nullptr;
    std::unique_ptr<QTemporaryDir> hostRunDir_;  // the project copy of the last run on the hosts (and its checkpoints)
};

}  // namespace skynnet::ui
