#pragma once
// The project's kept runs as a table, newest first: when each started, how it ended, its strategy
// and N, the combined model's metric, its wall time, its size in the project file (with or
// without weights) and whether it still matches the project's data, network and split. Follows
// the document: a run kept, weights dropped, or the data, network or split changed.
#include <QAbstractTableModel>
#include <QPointer>

#include "ui/core/model_roles.h"

namespace skynnet::ui {

class ProjectDocument;

class RunListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Started, Status, Strategy, Metric, WallTime, Size, Matches, ColumnCount };
    // The run's index in ProjectDocument::runs() (rows are newest first).
    static constexpr int RunIndexRole = Qt::UserRole + 20;

    explicit RunListModel(ProjectDocument* document, QObject* parent = nullptr);

    int runIndex(int row) const;  // -1 for a row out of range
    int rowOf(int runIndex) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void reset();
    void refreshMatches();

    QPointer<ProjectDocument> document_;
};

}  // namespace skynnet::ui
