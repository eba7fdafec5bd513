#pragma once
// The Study page: what the split costs and gains on the open project, measured over seeds. The
// study itself is a StudySession's (ui/core/study_session.h: the child process, its progress, the
// record kept in the project); the page forwards Start (with the N list, seeds, strategies and
// epoch choices picked here) and Stop to it, and shows its progress with the time remaining, then
// the chart (metric against time, error bars, the original marked), the table (study.md's columns)
// and the recommendation on this machine and on K machines, recomputed from the runs when K
// changes. Stop keeps the finished runs; Start with the same choices continues. Before Start it
// says how many runs the choices make and roughly how long they take here; during a study, how
// far the run in progress has got (study_page_progress.cpp).
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <optional>

#include "ui/core/study_record.h"
#include "ui/core/study_session.h"
#include "ui/core/training_speed.h"

class QCheckBox;
class QChartView;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QValueAxis;
class QVBoxLayout;

namespace skynnet::ui {

class ProjectDocument;

class StudyPage : public QWidget {
    Q_OBJECT
public:
    explicit StudyPage(ProjectDocument* document, QWidget* parent = nullptr);

    // Starts (or continues) the study with the page's choices; false with the reason shown in the
    // page when it cannot start.
    bool start();
    void stop() { session_->stop(); }
    bool running() const { return session_->running(); }
    StudySession* session() const { return session_; }
    // The study shown: the session's.
    const StudyRecord& record() const { return session_->record(); }
    bool hasStudy() const { return session_->hasStudy(); }

    // The controls, for tests and the screenshot tour.
    QLineEdit* submodelsEdit() const { return submodels_; }
    QLineEdit* seedsEdit() const { return seeds_; }
    QLineEdit* strategiesEdit() const { return strategies_; }
    QComboBox* scaleEpochsBox() const { return scaleEpochs_; }
    QCheckBox* ensembleBox() const { return ensemble_; }
    QSpinBox* machinesBox() const { return machines_; }
    QPushButton* startButton() const { return startButton_; }
    QPushButton* stopButton() const { return stopButton_; }
    QLabel* statusLabel() const { return status_; }
    QLabel* errorLabel() const { return error_; }
    QLabel* outOfDateLabel() const { return outOfDate_; }
    QLabel* recommendationLabel() const { return recommendation_; }
    QTableWidget* table() const { return table_; }
    QChartView* chartView() const { return chart_; }
    QProgressBar* progressBar() const { return progress_; }
    // Before Start: the run count and the rough time (study_estimate.h); during a study, how far
    // the run in progress has got (run_log_progress.h).
    QLabel* estimateLabel() const { return estimate_; }
    QLabel* runProgressLabel() const { return runProgress_; }
    // For the window's status bar while a study runs: "Study: run 2 of 6, 40%"; empty otherwise.
    QString statusBarText() const;
    // The speed the estimate uses: measured when the page is first shown after the data, the
    // network or the training settings changed (a fraction of a second on a worker thread).
    const std::optional<TrainingSpeed>& measuredSpeed() const { return speed_; }
    bool measuringSpeed() const { return measuring_; }
    void setMeasuredSpeed(const TrainingSpeed& speed);  // tests: a known speed, no measurement

signals:
    void runningChanged(bool running);
    void progressChanged();  // statusBarText() may say something else

protected:
    void changeEvent(QEvent* event) override;    // a new palette redraws the chart in its colours
    void showEvent(QShowEvent* event) override;  // measures the speed for the estimate if needed

private:
    QGroupBox* makeSetupBox();
    void addProgressWidgets(QVBoxLayout* layout);
    QWidget* makeResultsArea();
    std::optional<StudyChoice> parseChoice(QString* error) const;  // nullopt: *error says why
    std::optional<StudyChoice> readChoice();                       // nullopt: the error is shown
    void showChoice(const StudyChoice& choice);
    void onSessionChanged();
    void refreshResults();
    void refreshChart();
    void refreshTable();
    void refreshOutOfDate();
    void refreshState();
    void showError(const QString& message);
    // The figures before and during a study (study_page_progress.cpp).
    void updateRemaining();
    void rememberStartEstimate(const StudyChoice& choice);
    void refreshRunProgress();
    void scheduleEstimate();
    void refreshEstimate();
    void measureSpeed();
    void inputsChanged();  // the speed measured on the old data or network no longer holds

    ProjectDocument* document_;
    StudySession* session_;

    QLineEdit *submodels_, *seeds_, *strategies_;
    QComboBox* scaleEpochs_;
    QCheckBox* ensemble_;
    QSpinBox* machines_;
    QPushButton *startButton_, *stopButton_;
    QProgressBar* progress_;
    QLabel *status_, *remaining_, *error_, *outOfDate_, *recommendation_;
    QChartView* chart_;
    QValueAxis *xAxis_, *yAxis_;  // kept across redraws: axes removed and added again left their old grid drawn
    QTableWidget* table_;

    QTimer remainingTimer_;  // counts the time remaining down between the study's estimates
    QLabel *estimate_, *runProgress_;
    QTimer estimateTimer_;  // the estimate follows typing once it pauses
    std::optional<TrainingSpeed> speed_;
    bool measured_ = false;  // speed_ is for the current inputs (nullopt: it could not be measured)
    bool measuring_ = false;
    quint64 measureGeneration_ = 0;        // a measurement of inputs changed since is dropped
    std::optional<double> startEstimate_;  // seconds the study's pending runs take, estimated at Start
    QElapsedTimer sinceStart_;
};

}  // namespace skynnet::ui
