#pragma once
// Per-class precision, recall, F1 and support of the combined model, as a read-only table.
#include <QAbstractTableModel>
#include <QStringList>
#include <vector>

#include "train/metrics.h"

namespace skynnet::ui {

class ClassMetricsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ClassName, Precision, Recall, F1, Support, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setMetrics(const ClassificationMetrics& metrics, const QStringList& classNames);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString name;
        double precision = 0, recall = 0, f1 = 0;
        long support = 0;
    };
    std::vector<Row> rows_;
};

}  // namespace skynnet::ui
