#pragma once
// The project's runs on the Results page: a list of every kept run (see RunListModel) with Open
// (the run in Results, its curves and log on Train), Compare (two selected runs side by side) and
// Drop Weights (the run keeps its curves and figures; the project file shrinks at the next save).
#include <QGroupBox>
#include <functional>

class QPushButton;
class QTableView;

namespace skynnet {
struct ProjectRun;
}

namespace skynnet::ui {

class ProjectDocument;
class RunCompareDialog;
class RunListModel;
class TrainingSession;

class RunHistoryPanel : public QGroupBox {
    Q_OBJECT
public:
    RunHistoryPanel(ProjectDocument* document, TrainingSession* session, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    RunListModel* model() const { return model_; }
    QPushButton* openButton() const { return open_; }
    QPushButton* compareButton() const { return compare_; }
    QPushButton* dropWeightsButton() const { return drop_; }

    // Selects the rows of these runs (indices into ProjectDocument::runs()).
    void selectRuns(const QList<int>& runs);
    QList<int> selectedRuns() const;  // oldest first
    bool openSelected();              // the one selected run; false while training or without one
    bool dropSelectedWeights();
    // Shows the compare dialog for the two selected runs (modeless, deleted on close); null unless
    // exactly two are selected.
    RunCompareDialog* compareSelected();

private:
    void updateButtons();

    ProjectDocument* document_;
    TrainingSession* session_;
    RunListModel* model_;
    QTableView* table_;
    QPushButton* open_;
    QPushButton* compare_;
    QPushButton* drop_;
};

}  // namespace skynnet::ui
