#pragma once
// Every finished epoch of the current run: the submodels' in submodel order, then the baseline's.
// Fed from TrainingSession: rows are appended as its throttled progress signal reports new
// epochs, and the table empties when a new run starts. The values are copied in, so the table
// never reads the session's snapshots while they change.
#include <QAbstractTableModel>
#include <QPointer>
#include <vector>

#include "train/train_types.h"
#include "ui/core/model_roles.h"
#include "ui/core/training_session.h"

namespace skynnet::ui {

class EpochTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Model,
        Epoch,
        Loss,
        Metric,
        ValidationLoss,
        ValidationMetric,
        Seconds,
        SamplesPerSecond,
        ColumnCount
    };

    explicit EpochTableModel(TrainingSession* session, QObject* parent = nullptr);

    // The model (submodel index, -1 for the baseline) and epoch shown in a row.
    int submodelAt(int row) const;
    const EpochStats* epochAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Block {
        int submodel = 0;  // -1: the baseline
        std::vector<EpochStats> epochs;
    };
    void onStarted(int submodels, bool withBaseline);
    void onProgress(const QList<int>& changed, bool baselineChanged);
    void append(std::size_t block, const ModelHistory& snapshot);
    // The block and epoch of a row; false when the row is out of range.
    bool locate(int row, std::size_t& block, std::size_t& epoch) const;

    QPointer<TrainingSession> session_;
    std::vector<Block> blocks_;  // submodels in order, then the baseline
    QString metricName_ = QStringLiteral("metric");
};

}  // namespace skynnet::ui
