#pragma once
// The open project as the pages edit it: data settings and the loaded dataset, the network, the
// split options and the training settings, plus the last run's results. Every change goes through
// a setter that emits the matching signal (later wrapped in QUndoCommands). Lives on the GUI thread.
#include <QObject>
#include <QString>
#include <memory>
#include <optional>

#include "data/dataset.h"
#include "data/preprocessing.h"
#include "data/splits.h"
#include "model/network_spec.h"
#include "split/split_plan.h"
#include "train/train_types.h"

namespace skynnet::ui {

struct DataSettings {
    QString path;              // CSV/TSV, IDX images, or "builtin:NAME[:k=v...]"
    QString labelsPath;        // IDX labels; empty: found beside the images
    QString testPath;          // optional separate test file (e.g. Fashion-MNIST t10k)
    QString testLabelsPath;
    QString targetColumn;      // CSV: name or index; empty: last column
    std::optional<Task> task;  // empty: detected
    Scaling scaling = Scaling::Standardize;
    double validationFraction = 0.1;
    double testFraction = 0.2;  // used only without testPath
    quint64 seed = 1;
    bool operator==(const DataSettings&) const = default;
};

struct TrainSettings {
    TrainConfig config;             // epochs, batch, optimiser, loss, seed, early stopping
    int threadBudget = 0;           // 0: every core
    bool trainBaseline = true;      // also train the original, unsplit model
    bool operator==(const TrainSettings& o) const;  // TrainConfig has no operator==
};

// Train/validation/test after the split and the preprocessing fitted on the training rows only.
// Features are the network's inputs (scaled, categorical columns one-hot), so `categoricals` is
// empty and featureNames are Preprocessing::outputNames.
struct PreparedData {
    Dataset train, validation, test;
    Preprocessing preprocessing;
};

// The seeded stratified split, the preprocessing fit on the training rows and its application to
// validation and test (the separate test file when given, else the split's test rows). Pure and
// thread-safe, so a training job can prepare large data off the GUI thread. Throws skynnet::Error.
std::shared_ptr<const PreparedData> prepareData(const DataSettings& settings, const Dataset& data, const Dataset* test);

// The network's input shape for raw data: its sample shape, or flat when one-hot columns change
// the column count.
Shape networkInputShape(const Dataset& data);
// Whether a loss can train a task (cross-entropy for classes, MSE/MAE for regression).
bool lossFitsTask(LossKind loss, Task task);

class ProjectDocument : public QObject {
    Q_OBJECT
public:
    explicit ProjectDocument(QObject* parent = nullptr);

    const DataSettings& dataSettings() const { return data_; }
    std::shared_ptr<const Dataset> dataset() const { return dataset_; }          // raw, all rows
    std::shared_ptr<const Dataset> testDataset() const { return testDataset_; }  // raw, may be null
    // Replaces the data (already loaded, e.g. by a background job) and re-fits the network output.
    void setData(const DataSettings& settings, std::shared_ptr<const Dataset> data,
                 std::shared_ptr<const Dataset> test);
    // Changes split fractions / scaling / seed without reloading.
    void setDataSettings(const DataSettings& settings);
    // Loads synchronously (loadData) and then setData; on an error (skynnet::Error, naming the
    // file and line) the document is left exactly as it was.
    void load(const DataSettings& settings);
    bool hasData() const { return dataset_ != nullptr; }
    // Prepared on first use after a change; throws skynnet::Error when there is no data.
    std::shared_ptr<const PreparedData> prepared() const;
    // The cached preparation or null, without computing it (a job then prepares off the GUI thread).
    std::shared_ptr<const PreparedData> cachedPrepared() const { return prepared_; }
    // Counts data and data-settings changes, so a job's preparation is adopted only if still current.
    quint64 dataRevision() const { return revision_; }
    void adoptPrepared(std::shared_ptr<const PreparedData> prepared, quint64 revision);

    const NetworkSpec& network() const { return network_; }  // input and output follow the data
    void setNetwork(const NetworkSpec& spec);

    const SplitOptions& splitOptions() const { return split_; }
    void setSplitOptions(const SplitOptions& options);
    // The plan for the current data, network and split options; throws skynnet::Error if invalid.
    // Made from the training rows' labels only (the same DataInfo as prepared()->train), so a
    // preview never has to prepare the features.
    SplitPlan plan() const;
    // The split options plan() uses: the document's, with epochs, batch size and optimiser slots
    // taken from the training settings.
    SplitOptions effectiveSplitOptions() const;

    const TrainSettings& trainSettings() const { return train_; }
    void setTrainSettings(const TrainSettings& settings);

signals:
    void dataChanged();
    void networkChanged();
    void splitOptionsChanged();
    void trainSettingsChanged();

private:
    void applyDataDefaults();
    const SplitIndices& splitIndicesOfData() const;

    DataSettings data_;
    std::shared_ptr<const Dataset> dataset_, testDataset_;
    mutable std::shared_ptr<const PreparedData> prepared_;
    mutable std::shared_ptr<const SplitIndices> splitIndices_;
    NetworkSpec network_;
    SplitOptions split_;
    TrainSettings train_;
    quint64 revision_ = 0;
    // Defaults follow the data only until the user has chosen a network or training settings.
    bool networkEdited_ = false, trainEdited_ = false;
};

}  // namespace skynnet::ui
