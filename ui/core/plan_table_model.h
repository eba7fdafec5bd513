#pragma once
// The split planner's preview: a first row for the original (unsplit) model, then one row per
// submodel, with the figures `skynnet-cli plan` prints (planSummary): what it owns, its training
// samples, widths, parameters, FLOPs per sample and training memory (in one unit, kB or MB, for the
// whole column). Re-planned whenever the
// document's data, network, split options or training settings change; an invalid request leaves
// the table empty and its message in error().
#include <QAbstractTableModel>
#include <QPointer>
#include <QString>
#include <optional>

#include "split/split_plan.h"
#include "ui/core/formatting.h"
#include "ui/core/model_roles.h"
#include "ui/core/project_document.h"

namespace skynnet::ui {

class PlanTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Model, Role, Outputs, Samples, Widths, Params, Flops, Memory, ColumnCount };

    // document may be null: then setPlan() alone feeds the table (e.g. a saved run's plan).
    explicit PlanTableModel(ProjectDocument* document = nullptr, QObject* parent = nullptr);

    const std::optional<SplitPlan>& plan() const { return plan_; }
    QString error() const { return error_; }
    void setPlan(std::optional<SplitPlan> plan, const QString& error = {});
    void replan();  // from the document

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // The memory column's unit: the largest row's (the Split page's totals use it too).
    MemoryUnit memoryUnit() const;

signals:
    // After every re-plan: the summary line ("class-groups: N=3 gives S=3 submodels, F=1.5") or
    // the error, for a label next to the table.
    void planChanged(const QString& summary, const QString& error);

private:
    QVariant cell(int row, int column, bool sortValue) const;

    QPointer<ProjectDocument> document_;
    std::optional<SplitPlan> plan_;
    QString error_;
};

}  // namespace skynnet::ui
