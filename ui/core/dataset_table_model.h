#pragma once
// A read-only table over a dataset: one row per sample, the feature columns then the target
// column(s) (the class name for classes). Cells are formatted on demand in data(), with no storage
// per cell, so 60,000 x 785 (MNIST) is as quick to show as 150 x 5.
#include <QAbstractTableModel>
#include <QPixmap>
#include <memory>
#include <vector>

#include "data/dataset.h"
#include "ui/core/model_roles.h"

namespace skynnet::ui {

class DatasetTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit DatasetTableModel(QObject* parent = nullptr);

    void setDataset(std::shared_ptr<const Dataset> data);
    std::shared_ptr<const Dataset> dataset() const { return data_; }
    int featureColumns() const;
    bool rawText() const;  // texts not yet tokenised: one column of them
    int targetColumns() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    // Horizontal: the column's name as the file has it (the target too, e.g. "species"), a tooltip
    // starting with the full name, and the target column marked (bold, a target icon, IsTargetRole).
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    enum Roles { IsTargetRole = Qt::UserRole + 40 };

private:
    static QPixmap targetMark();
    QString columnName(int column) const;
    // The cell as text and whether it is a number (right-aligned) or a name (left-aligned).
    QString cellText(int row, int column, bool* numeric) const;

    std::shared_ptr<const Dataset> data_;
    std::vector<int> categoricalOf_;  // per feature column: index into data_->categoricals, or -1
};

}  // namespace skynnet::ui
