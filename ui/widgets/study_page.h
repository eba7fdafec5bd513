#pragma once
// The Study page: what the split costs and gains on the open project, measured over seeds. Start
// runs `skynnet-cli study --project` (study_process.h) on a copy of the project's settings with
// the N list, seeds, strategies and epoch choices picked here; the page shows its progress with
// the time remaining, then the chart (metric against time, error bars, the original marked), the
// table (study.md's columns) and the recommendation on this machine and on K machines, recomputed
// from the runs when K changes. Stop keeps the finished runs; Start with the same choices
// continues. The study is kept in the project (ProjectDocument::study).
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <optional>

#include "ui/core/study_process.h"
#include "ui/core/study_record.h"

class QCheckBox;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QValueAxis;

namespace skynnet::ui {

class ProjectDocument;

class StudyPage : public QWidget {
    Q_OBJECT
public:
    explicit StudyPage(ProjectDocument* document, QWidget* parent = nullptr);

    // Starts (or continues) the study with the page's choices; false with the reason shown in the
    // page when it cannot start.
    bool start();
    void stop();
    bool running() const { return process_->running(); }
    StudyProcess* process() const { return process_; }
    // The study shown: the document's, updated as events arrive while it runs.
    const StudyRecord& record() const { return record_; }
    bool hasStudy() const { return hasRecord_; }

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
    std::optional<StudyChoice> readChoice();  // nullopt: the error is shown
    void showChoice(const StudyChoice& choice);
    void onEvent(const Json& event);
    void onEnded(StudyProcess::Outcome outcome, const QString& message);
    void loadFromDocument();
    void keepInDocument();
    void refreshResults();
    void refreshChart();
    void refreshTable();
    void refreshOutOfDate();
    void refreshState();
    void showError(const QString& message);
    void updateRemaining();

    ProjectDocument* document_;
    StudyProcess* process_;
    StudyRecord record_;
    bool hasRecord_ = false;
    bool keeping_ = false;  // the page itself is putting the study into the document

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

    QString currentRun_;
    std::optional<double> remainingSeconds_;  // as the study estimated it when the last run finished
    QElapsedTimer sinceEstimate_;
    QTimer remainingTimer_;
};

}  // namespace skynnet::ui
