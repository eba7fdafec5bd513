#pragma once
// The open project as the pages edit it: data settings and the loaded dataset, the network, the
// split options and the training settings, the kept runs, and the project file.
// Every change goes through a setter that emits the matching signal; the pages' edits go through
// the edit* functions, which wrap them in QUndoCommands on the document's undo stack (Tiled's way).
// Lives on the GUI thread.
#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

#include "data/dataset.h"
#include "data/prepared_data.h"
#include "data/splits.h"
#include "project/project_file.h"
#include "spec/network_spec.h"
#include "split/split_plan.h"
#include "train/train_types.h"

class QUndoCommand;
class QUndoStack;

namespace skynnet::ui {

class FingerprintCache;

// The data with what follows it: the network's input and output and the loss fit the data's
// task. A reload of the same files with another target column or task changes all of it, so
// undoing the reload restores all of it.
struct DataState {
    ProjectDataSource settings;
    std::shared_ptr<const Dataset> data, test;
    NetworkSpec network;
    ProjectTraining training;
    bool operator==(const DataState&) const = default;
};

// The network's input shape for raw data: its sample shape, flat when one-hot columns change
// the column count, or for raw text the token ids its preparation makes (text.maxLength steps).
Shape networkInputShape(const Dataset& data, const TextSettings& text = {});

// `settings` to reload `loaded`'s files for reconstruction (an autoencoder): a CSV's label or
// target column, which the loaded data learnt to predict, left out of the inputs when no column
// was named.
ProjectDataSource reconstructionSettings(ProjectDataSource settings, const Dataset& loaded);

class ProjectDocument : public QObject {
    Q_OBJECT
public:
    explicit ProjectDocument(QObject* parent = nullptr);

    // The engine's data settings (project/data_reference.h): the files, with the fingerprints of
    // the project they were opened from (a save takes fresh ones), target column, task, scaling,
    // fractions and seed.
    const ProjectDataSource& dataSettings() const { return data_; }
    std::shared_ptr<const Dataset> dataset() const { return dataset_; }          // raw, all rows
    std::shared_ptr<const Dataset> testDataset() const { return testDataset_; }  // raw, may be null
    // Replaces the data (already loaded, e.g. by a background job) and re-fits the network output.
    // Other data is not an undoable step, and the steps before it would set the old data's
    // options on the new: the undo history starts again. It is a change to save (isModified).
    void setData(const ProjectDataSource& settings, std::shared_ptr<const Dataset> data,
                 std::shared_ptr<const Dataset> test);
    // Changes split fractions / scaling / seed without reloading.
    void setDataSettings(const ProjectDataSource& settings);
    DataState dataState() const { return {data_, dataset_, testDataset_, network_, train_}; }
    void setDataState(const DataState& state);
    // Loads synchronously (loadData) and then setData; on an error (skynnet::Error, naming the
    // file and line) the document is left exactly as it was.
    void load(const ProjectDataSource& settings);
    bool hasData() const { return dataset_ != nullptr; }
    // Prepared on first use after a change; throws skynnet::Error when there is no data.
    std::shared_ptr<const PreparedData> prepared() const;
    // The cached preparation or null, without computing it (a job then prepares off the GUI thread).
    std::shared_ptr<const PreparedData> cachedPrepared() const { return prepared_; }
    // Counts data and data-settings changes, so a job's preparation is adopted only if still current.
    quint64 dataRevision() const { return revision_; }
    void adoptPrepared(std::shared_ptr<const PreparedData> prepared, quint64 revision);

    // Text data: the vocabulary training will fit (on the training rows, capped as the settings
    // say), kept until the data or its settings change; null for other data or when it cannot be
    // fitted. Embeddings in network() are bound to its size.
    std::shared_ptr<const TextVocabulary> textVocabulary() const;

    // Input, output and embeddings' vocabulary follow the data.
    const NetworkSpec& network() const { return network_; }
    void setNetwork(const NetworkSpec& spec);

    const SplitOptions& splitOptions() const { return split_; }
    void setSplitOptions(const SplitOptions& options);
    // The plan for the current data, network and split options; throws skynnet::Error if invalid.
    // Made from the training rows' labels only (the same DataInfo as prepared()->train), so a
    // preview never has to prepare the features. Kept until its inputs change: every page asks
    // for it after each change, and 60,000 rows take milliseconds each time.
    SplitPlan plan() const;
    // What plan() plans from: the training rows' task, classes and labels (throws without data).
    DataInfo planDataInfo() const;
    // The split options plan() uses: the document's, with epochs, batch size and optimiser slots
    // taken from the training settings.
    SplitOptions effectiveSplitOptions() const;

    const ProjectTraining& trainSettings() const { return train_; }
    // How many submodels train at once on this machine: the thread budget, else every core.
    int coresForRuns() const;
    void setTrainSettings(const ProjectTraining& settings);

    // A project read from a file, all at once: data (null when it could not be found), settings
    // and network as the user left them (the data-driven defaults no longer apply). Clears the
    // undo history; the caller sets the file path and the clean state.
    void restore(const ProjectDataSource& settings, std::shared_ptr<const Dataset> data,
                 std::shared_ptr<const Dataset> test, const NetworkSpec& network, const SplitOptions& split,
                 const ProjectTraining& train);
    // A new, empty project: no data, the default network and settings, no history, no file.
    void reset();

    // The user's edits, each one undoable step. Edits of one spin box in a row (typing "512")
    // merge into one step until sealEdits(); nothing is pushed when nothing changes.
    QUndoStack* undoStack() const { return undoStack_; }
    // description: the step's name in the Edit menu; empty: described from the change.
    void editNetwork(const NetworkSpec& spec, const QString& description = QString());
    void editSplitOptions(const SplitOptions& options);
    void editTrainSettings(const ProjectTraining& settings);
    // Scaling, validation and test fractions, split seed: the data stays, its preparation changes.
    void editDataSettings(const ProjectDataSource& settings);
    // The same files reloaded with another target column or task (loaded already, e.g. by a
    // background job): one step, whose undo brings the previous data, network and loss back.
    void editData(const ProjectDataSource& settings, std::shared_ptr<const Dataset> data,
                  std::shared_ptr<const Dataset> test);
    void sealEdits();  // e.g. when a spin box loses focus or the user presses Enter

    // The project file ("" while untitled) and whether the document differs from it: the undo
    // stack is not at its clean index, or something it does not hold changed (a finished run,
    // the data of a saved project).
    const QString& filePath() const { return filePath_; }
    void setFilePath(const QString& path);
    bool isModified() const;
    void markModified();
    void setClean();
    // The data files' fingerprints a save writes, hashed once per file version (shared with a save
    // running on a worker).
    std::shared_ptr<FingerprintCache> fingerprints() const { return fingerprints_; }

    // Every kept run, oldest first, each with what it was made from, its curves, figures, log and
    // (unless dropped) trained weights. A run is known by its index: runs are only ever added.
    const std::vector<ProjectRun>& runs() const { return runs_; }
    // The kept runs other than the shown one.
    std::vector<ProjectRun> earlierRuns() const;
    // The runs of an opened project (none shown yet); emits runsChanged.
    void setRuns(std::vector<ProjectRun> runs);
    // A finished run of the session, which shows it (sessionPlan: the session's plan() now).
    // Gives it an id when it has none. Emits runsChanged, not shownRunChanged: its views have
    // followed the run as it trained.
    void addRun(ProjectRun run, std::shared_ptr<const SplitPlan> sessionPlan);
    // Drops the trained weights of run `index` (the curves, figures and test outputs stay); the
    // project file shrinks at the next save. False when it has none.
    bool dropRunWeights(int index);
    // Combines class-groups run `index` by another rule from its kept submodel test outputs
    // (project/recombine.h): its metric, test outputs and model's rule change, the project is
    // modified. Returns why it cannot (no such run, another strategy, outputs not kept), or empty.
    QString recombineRun(int index, ClassCombine how);
    // The kept run the session shows (-1: none, or a run the document does not keep), and
    // whether the session's run with plan `sessionPlan` is that run, so a save does not write it
    // twice. The plan is held weakly: a plan the session has replaced never matches.
    int shownRun() const { return shownRun_; }
    const ProjectRun* shownRunRecord() const;
    bool showsSessionRun(const std::shared_ptr<const SplitPlan>& sessionPlan) const;
    // After the session adopted run `index` (its plan() now sessionPlan); emits shownRunChanged.
    void setShownRun(int index, std::shared_ptr<const SplitPlan> sessionPlan);

    // The Study page's split study (ProjectStudy), kept with the project; empty when there is none.
    // A new one marks the document modified unless `modifies` is false (a project being opened).
    const std::optional<ProjectStudy>& study() const { return study_; }
    void setStudy(std::optional<ProjectStudy> study, bool modifies = true);

signals:
    void dataChanged();
    void networkChanged();
    void splitOptionsChanged();
    void trainSettingsChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);
    void runsChanged();
    void shownRunChanged();  // the session shows another kept run (opened from the list or a file)
    void studyChanged();
    // New or Open (restore): another project replaces this one, so what a page keeps of the last
    // one (the training log) goes. Emitted before the new project's other signals.
    void projectReplaced();

private:
    // setData's work without touching the undo history or the modified state.
    void replaceData(const ProjectDataSource& settings, std::shared_ptr<const Dataset> data,
                     std::shared_ptr<const Dataset> test);
    void applyDataDefaults();
    const SplitIndices& splitIndicesOfData() const;
    NetworkSpec fittedToData(const NetworkSpec& spec) const;  // input, output, vocabulary follow the data
    void followData(NetworkSpec& spec) const;
    // Reconstruction's output activation follows the loss (outputActivationFor), as the run's
    // network has it: the plan trains, and the designer shows, that one.
    void fitOutputToLoss(NetworkSpec& spec) const;
    void emitModifiedIfChanged();
    void push(QUndoCommand* command);

    ProjectDataSource data_;
    std::shared_ptr<const Dataset> dataset_, testDataset_;
    mutable std::shared_ptr<const PreparedData> prepared_;
    mutable std::shared_ptr<const SplitIndices> splitIndices_;
    struct VocabularyCache {
        quint64 revision = 0;
        std::shared_ptr<const TextVocabulary> vocabulary;
    };
    mutable std::optional<VocabularyCache> vocabulary_;
    struct PlanCache {
        quint64 revision = 0;
        NetworkSpec network;
        SplitOptions options;
        SplitPlan plan;
    };
    mutable std::optional<PlanCache> planCache_;
    NetworkSpec network_;
    SplitOptions split_;
    ProjectTraining train_;
    quint64 revision_ = 0;
    // Defaults follow the data only until the user has chosen a network or training settings.
    bool networkEdited_ = false, trainEdited_ = false;
    QUndoStack* undoStack_;
    bool pushing_ = false;
    QString filePath_;
    std::shared_ptr<FingerprintCache> fingerprints_;
    bool changedOutsideUndo_ = false;
    bool lastModified_ = false;  // what modifiedChanged last said
    std::vector<ProjectRun> runs_;
    int shownRun_ = -1;
    std::weak_ptr<const SplitPlan> shownPlan_;
    int nextRunNumber_ = 1;  // for ids of runs added in this session
    std::optional<ProjectStudy> study_;
};

}  // namespace skynnet::ui
