#include "ui/widgets/run_history_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/run_history.h"
#include "ui/core/run_list_model.h"
#include "ui/core/training_session.h"
#include "ui/widgets/run_compare_dialog.h"
#include "ui/widgets/table_columns.h"

namespace skynnet::ui {

RunHistoryPanel::RunHistoryPanel(ProjectDocument* document, TrainingSession* session, QWidget* parent)
    : QGroupBox(tr("Runs"), parent), document_(document), session_(session) {
    setObjectName(QStringLiteral("runHistory"));
    model_ = new RunListModel(document_, this);
    table_ = new QTableView;
    table_->setObjectName(QStringLiteral("runList"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    fitColumnsToContents(table_);
    table_->setToolTip(tr("Every run of the project, newest first; in bold the one the Train page shows"));
    connect(table_, &QTableView::doubleClicked, this, [this] { openSelected(); });

    open_ = new QPushButton(tr("Open"));
    open_->setToolTip(tr("Show the selected run in Results, and its curves and log on the Train page"));
    compare_ = new QPushButton(tr("Compare"));
    compare_->setToolTip(tr("Show two selected runs side by side: metrics, times, memory and their curves"));
    drop_ = new QPushButton(tr("Drop Weights"));
    drop_->setToolTip(tr("Forget the selected runs' trained weights: their curves and figures stay, and the project "
                         "file shrinks at the next save"));
    connect(open_, &QPushButton::clicked, this, [this] { openSelected(); });
    connect(compare_, &QPushButton::clicked, this, [this] { compareSelected(); });
    connect(drop_, &QPushButton::clicked, this, [this] { dropSelectedWeights(); });

    auto* buttons = new QVBoxLayout;
    buttons->addWidget(open_);
    buttons->addWidget(compare_);
    buttons->addWidget(drop_);
    buttons->addStretch();
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);

    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunHistoryPanel::updateButtons);
    connect(model_, &QAbstractItemModel::modelReset, this, &RunHistoryPanel::updateButtons);
    connect(session_, &TrainingSession::started, this, &RunHistoryPanel::updateButtons);
    connect(session_, &TrainingSession::finished, this, &RunHistoryPanel::updateButtons);
    updateButtons();
}

QList<int> RunHistoryPanel::selectedRuns() const {
    QList<int> runs;
    for (const QModelIndex& row : table_->selectionModel()->selectedRows()) runs.append(model_->runIndex(row.row()));
    runs.removeAll(-1);
    std::sort(runs.begin(), runs.end());
    return runs;
}

void RunHistoryPanel::selectRuns(const QList<int>& runs) {
    QItemSelection selection;
    for (int run : runs) {
        const int row = model_->rowOf(run);
        if (row >= 0) selection.select(model_->index(row, 0), model_->index(row, RunListModel::ColumnCount - 1));
    }
    table_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

void RunHistoryPanel::updateButtons() {
    const QList<int> runs = selectedRuns();
    const bool running = session_->running();
    open_->setEnabled(runs.size() == 1 && !running);
    compare_->setEnabled(runs.size() == 2);
    const auto& kept = document_->runs();
    drop_->setEnabled(std::any_of(runs.begin(), runs.end(), [&](int i) { return hasWeights(kept[std::size_t(i)]); }));
}

bool RunHistoryPanel::openSelected() {
    const QList<int> runs = selectedRuns();
    return runs.size() == 1 && showKeptRun(*document_, *session_, runs.front());
}

bool RunHistoryPanel::dropSelectedWeights() {
    bool dropped = false;
    const QList<int> runs = selectedRuns();
    for (int i : runs) dropped = document_->dropRunWeights(i) || dropped;
    // The session's copy of a shown run still holds them (export): show the run as it is now.
    if (dropped && runs.contains(document_->shownRun()) && !session_->running())
        showKeptRun(*document_, *session_, document_->shownRun());
    selectRuns(runs);  // the model was reset
    return dropped;
}

RunCompareDialog* RunHistoryPanel::compareSelected() {
    const QList<int> runs = selectedRuns();
    if (runs.size() != 2) return nullptr;
    const auto& kept = document_->runs();
    const auto name = [](int i) { return tr("Run %1").arg(i + 1); };  // its start time is the first row
    auto* dialog = new RunCompareDialog(kept[std::size_t(runs[0])], name(runs[0]), kept[std::size_t(runs[1])],
                                        name(runs[1]), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

}  // namespace skynnet::ui
