#pragma once
// Page 4, Train: the training settings, Start / Pause-Resume / Stop, overall progress with the
// time remaining, live charts per submodel (and the baseline), the epoch table and the log.
#include <QWidget>
#include <memory>

class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
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
    // The one pause control (F6): checked while the run is paused. The button and the Train menu
    // show this action, so all of them follow the session's pausedChanged together.
    QAction* pauseAction() const { return pauseAction_; }
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
    QLabel* remainingLabel() const { return remaining_; }  // time remaining, "Paused", "done", ...
    QString errorText() const;                             // the visible error banner's text; empty when hidden
    // Why Start is disabled (no data, a network or split that cannot train, ...), as the line
    // under the buttons and Start's tooltip say it; empty when it can start.
    QString startBlocker() const;
    QString startReasonText() const;  // the visible line's text; empty when hidden
    RunOnPanel* runOnPanel() const { return runOn_; }
    TrainSettingsPanel* advancedSettings() const { return advanced_; }
    // Offered after a run on the hostfile's machines failed or was stopped: runs it again with --resume.
    QPushButton* resumeOnHostsButton() const { return resumeOnHosts_; }

    // The log and the run's record (train_page_history.cpp): Save Log… writes the log view as a
    // text file; the line above the page says when the run shown is out of date.
    QPushButton* saveLogButton() const { return saveLog_; }
    // Writes the log view's text to `path` (atomically); false with the reason in *error.
    bool saveLogTo(const QString& path, QString* error = nullptr) const;
    void saveLog();  // asks where, then saveLogTo; a failure shows in the error banner
    // Where Save Log… and the hostfile's Browse… start: the saved project's folder, else the last
    // folder a project was opened from or saved to.
    QString projectFolder() const;
    QString outOfDateText() const;  // empty when the line is hidden
    // What the last run did (run_summary.h), under the buttons once it ended, with a link to the
    // Results page; empty while hidden (before a run, during one, after a failure).
    QString summaryText() const;
    QLabel* summaryLabel() const { return summary_; }

    // What the Start button does: checks the network, then starts the session.
    void startTraining();
    // What Resume run does: continues the stopped run from its checkpoints.
    void resumeTraining();

signals:
    void runCompleted();      // a run finished with results (the window may show the Results page)
    void resultsRequested();  // the summary's link to the Results page

private:
    void buildUi();
    QHBoxLayout* buildButtonBar();  // Start, Pause, Stop, the resumes, progress and time left
    void buildBanners();            // the error and why Start is disabled
    QGroupBox* buildSettingsBox();  // epochs, batch, optimiser, rate, threads, baseline
    void buildCharts();
    QTabWidget* buildEpochsAndLog();
    // The settings column (scrolling on a short screen) beside the charts.
    QWidget* buildSettingsAndCharts(QGroupBox* settingsBox);
    void fromDocument();
    void toDocument();
    void updateButtons();
    void inputsChanged();  // data, network, split or settings: banners about the old ones go
    void syncPauseButton();
    void showPaused(bool paused);
    void updatePlanInfo();
    QPushButton* buildResumeRunButton();
    void updateResumeRunButton();
    void onFinished(skynnet::TrainStatus status, const QString& message);
    void showSummary();
    void showError(const QString& text);
    // Runs on the hostfile's machines (train_page_hosts.cpp).
    QWidget* buildRunOn();
    void startOnHosts(bool resume);
    void offerResumeOnHosts(TrainStatus status);
    // The log and the shown run's record (train_page_history.cpp).
    QWidget* buildLog();
    QLabel* buildOutOfDateLine();
    void appendLog(const QString& line);
    void showRunLog();  // a kept run is shown: its log replaces the view's
    void updateOutOfDate();

    ProjectDocument* document_;
    TrainingSession* session_;
    AppSettings* settings_;
    bool updating_ = false;

    QPushButton* start_ = nullptr;
    QPushButton* pause_ = nullptr;
    QAction* pauseAction_ = nullptr;
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
    QLabel* startReason_ = nullptr;
    TrainingCharts* charts_ = nullptr;
    QTableView* epochTable_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    QPushButton* saveLog_ = nullptr;
    QLabel* outOfDate_ = nullptr;
    QLabel* summary_ = nullptr;
    RunOnPanel* runOn_ = nullptr;
    TrainSettingsPanel* advanced_ = nullptr;
    QPushButton* resumeOnHosts_ = nullptr;
    std::unique_ptr<QTemporaryDir> hostRunDir_;  // the project copy of the last run on the hosts (and its checkpoints)
};

}  // namespace skynnet::ui
