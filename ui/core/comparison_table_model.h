#pragma once
// The Results page's side-by-side table: the combined model, each submodel and the baseline, with
// the headline metric, wall time, CPU time, peak memory and parameters of each. Fed by the
// session's finished runs, or by setResults() for a run loaded from a project file.
#include <QAbstractTableModel>
#include <QPointer>
#include <memory>

#include "ui/core/formatting.h"
#include "ui/core/model_roles.h"
#include "ui/core/training_session.h"

namespace skynnet::ui {

class ComparisonTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Model, Metric, WallSeconds, CpuSeconds, PeakMemory, Params, ColumnCount };

    explicit ComparisonTableModel(TrainingSession* session = nullptr, QObject* parent = nullptr);

    // The figures of a completed run and its plan (the rows' roles and parameter counts).
    void setResults(std::shared_ptr<const ProjectResults> results, std::shared_ptr<const SplitPlan> plan);
    std::shared_ptr<const ProjectResults> results() const { return results_; }
    // Row layout: 0 combined, 1..S the submodels, then the baseline when there is one.
    bool isBaselineRow(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Figures {
        QString name;
        double metric = 0, wall = 0, cpu = 0;
        std::int64_t peakBytes = 0, params = 0;
        QString note;  // tooltip
    };
    Figures figures(int row) const;
    QString combinedTip(int column, const QString& note) const;  // the combined row's cell tooltips

    QPointer<TrainingSession> session_;
    std::shared_ptr<const ProjectResults> results_;
    std::shared_ptr<const SplitPlan> plan_;
    MemoryUnit memoryUnit_;  // the Results page's memory chart uses the same (memoryUnitFor)
};

}  // namespace skynnet::ui
