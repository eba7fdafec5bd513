#pragma once
// The Study page: what the split costs and gains on the open project, measured over seeds. The
// study itself is a StudySession's (ui/core/study_session.h: the child process, its progress, the
// record kept in the project); the page forwards Start (with the N list, seeds, strategies and
// epoch choices picked here) and Stop to it, and shows its progress with the time remaining, then
// the chart (metric against time, error bars, the original marked), the table (study.md's columns)
// and the recommendation on this machine and on K machines, recomputed from the runs when K
// changes. Stop keeps the finished runs; Start with the same choices continues.
#include <QTimer>
#include <QWidget>
#include <optional>

#include "ui/core/study_record.h"
#include "ui/core/study_session.h"

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

signals:
    void runningChanged(bool running);

protected:
    void changeEvent(QEvent* event) override;  // a new palette redraws the chart in its colours

private:
    QGroupBox* makeSetupBox();
    void addProgressWidgets(QVBoxLayout* layout);
    QWidget* makeResultsArea();
    std::optional<StudyChoice> readChoice();  // nullopt: the error is shown
    void showChoice(const StudyChoice& choice);
    void onSessionChanged();
    void refreshResults();
    void refreshChart();
    void refreshTable();
    void refreshOutOfDate();
    void refreshState();
    void showError(const QString& message);
    void updateRemaining();

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
};

}  // namespace skynnet::ui
