#include "ui/core/project_document.h"

#include "data/partition.h"

#include <QThread>
#include <QUndoStack>
#include <algorithm>

#include "core/error.h"
#include "losses/task_losses.h"
#include "project/recombine.h"
#include "split/combined_model.h"
#include "ui/core/data_loading.h"
#include "ui/core/fingerprint_cache.h"
#include "ui/core/undo_commands.h"

namespace skynnet::ui {
namespace {

// An undoable edit of one of the document's values (undo_commands.h).
template <typename T>
using Edit = ValueCommand<ProjectDocument, T>;

// Hidden layers a new project starts with: a small MLP for small data, where 512 units would only
// overfit and slow the first run down.
constexpr long smallDataSamples = 2000;
constexpr long largeDataSamples = 20000;  // above: fewer default epochs, each already long

std::vector<LayerSpec> defaultLayers(long samples) {
    return parseLayers(samples <= smallDataSamples ? "dense:64:relu,dense:32:relu" : "dense:512:relu,dense:256:relu");
}

// A new project's split: three submodels by the task's own strategy, with the choices the study
// measured best (withMeasuredDefaults).
SplitOptions newProjectSplit() {
    SplitOptions o = withMeasuredDefaults({});
    o.strategy = Strategy::Auto;
    o.requested = 3;
    return o;
}

// Whether the inputs reach training in [0, 1], told from the scaling without preparing the data:
// min-max and pixel-range scaling put the training rows there, standardizing does not, and
// unscaled inputs are looked at. Reconstruction's binary cross-entropy needs it.
bool scaledToUnitRange(const Dataset& data, Scaling scaling) {
    switch (scaling) {
    case Scaling::MinMax:
    case Scaling::PixelRange: return true;
    case Scaling::Standardize: return false;
    case Scaling::None: break;
    }
    return data.features.size() > 0 && data.features.minCoeff() >= 0 && data.features.maxCoeff() <= 1;
}

}  // namespace

Shape networkInputShape(const Dataset& data, const TextSettings& text) {
    if (data.isText()) return data.vocabulary->maxLength > 0 ? data.sampleShape : Shape::steps(text.maxLength, 1);
    if (data.features.cols() == 0) return data.sampleShape;
    // Categories are the dataset's declared lists, so one row tells the column count a fit on the
    // training rows would give, without touching the features (unscaled: only the columns count).
    Preprocessing p;
    p.scaling = Scaling::None;
    p.fit(data.subset({0}));
    const int columns = p.outputColumns();
    return columns == data.sampleShape.size() ? data.sampleShape : Shape::flat(columns);
}

ProjectDataSource reconstructionSettings(ProjectDataSource settings, const Dataset& loaded) {
    settings.task = Task::Reconstruction;
    if (settings.targetColumn.empty() && loaded.task != Task::Reconstruction) {
        if (!loaded.labelColumn.empty()) settings.targetColumn = loaded.labelColumn;
        else if (loaded.task == Task::Regression && loaded.targetNames.size() == 1)
            settings.targetColumn = loaded.targetNames.front();
    }
    return settings;
}

ProjectDocument::ProjectDocument(QObject* parent)
    : QObject(parent), undoStack_(new QUndoStack(this)), fingerprints_(std::make_shared<FingerprintCache>()) {
    network_.layers = defaultLayers(0);
    split_ = newProjectSplit();
    connect(undoStack_, &QUndoStack::cleanChanged, this, &ProjectDocument::emitModifiedIfChanged);
    // After an undo or redo, the next edit is a step of its own even if it is of the same field.
    connect(undoStack_, &QUndoStack::indexChanged, this, [this] {
        if (!pushing_) sealEdits();
    });
}

void ProjectDocument::push(QUndoCommand* command) {
    pushing_ = true;
    undoStack_->push(command);
    pushing_ = false;
}

void ProjectDocument::setData(const ProjectDataSource& settings, std::shared_ptr<const Dataset> data,
                              std::shared_ptr<const Dataset> test) {
    // Edits made before stay unsaved changes, though their steps are gone.
    if (!undoStack_->isClean()) changedOutsideUndo_ = true;
    undoStack_->clear();
    replaceData(settings, std::move(data), std::move(test));
    // Other data is a change to save, in an untitled project too: the title shows "*" and closing
    // asks, since the data and the choices that follow it are in no project file yet.
    markModified();
}

void ProjectDocument::replaceData(const ProjectDataSource& settings, std::shared_ptr<const Dataset> data,
                                  std::shared_ptr<const Dataset> test) {
    const NetworkSpec oldNetwork = network_;
    const ProjectTraining oldTrain = train_;
    data_ = settings;
    dataset_ = std::move(data);
    testDataset_ = std::move(test);
    prepared_.reset();
    splitIndices_.reset();
    ++revision_;
    applyDataDefaults();
    emit dataChanged();
    if (!(network_ == oldNetwork)) emit networkChanged();
    if (!(train_ == oldTrain)) emit trainSettingsChanged();
}

void ProjectDocument::applyDataDefaults() {
    if (!dataset_) return;
    const long samples = long(dataset_->size());
    if (!networkEdited_) network_.layers = defaultLayers(samples);
    followData(network_);
    if (!trainEdited_) train_.config.epochs = samples > largeDataSamples ? 5 : 10;
    // A loss of another task cannot train at all: follow the data even after user edits. Nor can
    // binary cross-entropy reconstruct values outside [0, 1]: MSE then, as skynnet-cli picks it.
    LossKind& loss = train_.config.loss;
    if (!lossFitsTask(loss, dataset_->task)) loss = defaultLoss(dataset_->task);
    if (dataset_->task == Task::Reconstruction && loss == LossKind::BinaryCrossEntropy &&
        !scaledToUnitRange(*dataset_, data_.scaling))
        loss = LossKind::MeanSquaredError;
    fitOutputToLoss(network_);
}

void ProjectDocument::fitOutputToLoss(NetworkSpec& spec) const {
    if (dataset_ && dataset_->task == Task::Reconstruction)
        spec.outputActivation = outputActivationFor(Task::Reconstruction, train_.config.loss);
}

void ProjectDocument::setDataSettings(const ProjectDataSource& settings) {
    if (settings == data_) return;
    data_ = settings;
    prepared_.reset();
    splitIndices_.reset();
    ++revision_;
    emit dataChanged();
    // Text settings decide the input's steps and the embeddings' vocabulary.
    NetworkSpec followed = network_;
    followData(followed);
    if (followed == network_) return;
    network_ = followed;
    emit networkChanged();
}

void ProjectDocument::setDataState(const DataState& state) {
    if (state == dataState()) return;
    const bool dataChanges = !(state.settings == data_) || state.data != dataset_ || state.test != testDataset_;
    const bool networkChanges = !(state.network == network_);
    const bool trainChanges = !(state.training == train_);
    data_ = state.settings;
    dataset_ = state.data;
    testDataset_ = state.test;
    network_ = state.network;
    train_ = state.training;
    if (dataChanges) {
        prepared_.reset();
        splitIndices_.reset();
        ++revision_;
        emit dataChanged();
    }
    if (networkChanges) emit networkChanged();
    if (trainChanges) emit trainSettingsChanged();
}

void ProjectDocument::load(const ProjectDataSource& settings) {
    LoadedData loaded = loadData(settings);  // throws before anything changes
    setData(settings, std::move(loaded.train), std::move(loaded.test));
}

std::shared_ptr<const PreparedData> ProjectDocument::prepared() const {
    if (!dataset_) throw Error("no data loaded");
    if (!prepared_)
        prepared_ = std::make_shared<const PreparedData>(
            prepareData(*dataset_, testDataset_.get(), data_.preparation()));
    return prepared_;
}

void ProjectDocument::adoptPrepared(std::shared_ptr<const PreparedData> prepared, quint64 revision) {
    if (revision == revision_ && !prepared_) prepared_ = std::move(prepared);
}

NetworkSpec ProjectDocument::fittedToData(const NetworkSpec& spec) const {
    NetworkSpec s = spec;
    followData(s);  // input, output and vocabulary are not the designer's to choose
    return s;
}

void ProjectDocument::followData(NetworkSpec& spec) const {
    if (!dataset_) return;
    spec.input = networkInputShape(*dataset_, data_.text);
    spec.setOutputFor(dataset_->task, dataset_->outputCount());
    const auto vocabulary = textVocabulary();
    if (vocabulary) spec.bindVocabulary(vocabulary->size());
    fitOutputToLoss(spec);
}

std::shared_ptr<const TextVocabulary> ProjectDocument::textVocabulary() const {
    if (!dataset_ || !dataset_->isText()) return nullptr;
    if (dataset_->vocabulary->maxLength > 0) return std::make_shared<const TextVocabulary>(*dataset_->vocabulary);
    if (vocabulary_ && vocabulary_->revision == revision_) return vocabulary_->vocabulary;
    std::shared_ptr<const TextVocabulary> fitted;
    try {
        PreparationSettings settings = data_.preparation();
        settings.separateTestFile = testDataset_ != nullptr;
        fitted = std::make_shared<const TextVocabulary>(fitTextVocabulary(*dataset_, settings));
    } catch (const Error&) {  // settings out of bounds: the Data page says so; no vocabulary meanwhile
    }
    vocabulary_ = VocabularyCache{revision_, fitted};
    return fitted;
}

void ProjectDocument::setNetwork(const NetworkSpec& spec) {
    const NetworkSpec s = fittedToData(spec);
    if (s == network_) return;
    network_ = s;
    networkEdited_ = true;
    emit networkChanged();
}

void ProjectDocument::setSplitOptions(const SplitOptions& options) {
    if (options == split_) return;
    split_ = options;
    emit splitOptionsChanged();
}

void ProjectDocument::setTrainSettings(const ProjectTraining& settings) {
    if (settings == train_) return;
    train_ = settings;
    trainEdited_ = true;
    const NetworkSpec before = network_;
    fitOutputToLoss(network_);  // another reconstruction loss: another output activation
    emit trainSettingsChanged();
    if (!(network_ == before)) emit networkChanged();
}

void ProjectDocument::restore(const ProjectDataSource& settings, std::shared_ptr<const Dataset> data,
                              std::shared_ptr<const Dataset> test, const NetworkSpec& network,
                              const SplitOptions& split, const ProjectTraining& train) {
    undoStack_->clear();
    emit projectReplaced();
    data_ = settings;
    dataset_ = std::move(data);
    testDataset_ = dataset_ ? std::move(test) : nullptr;
    prepared_.reset();
    splitIndices_.reset();
    ++revision_;
    networkEdited_ = trainEdited_ = true;  // the saved choices stand, whatever the data suggests
    network_ = network;
    followData(network_);
    split_ = split;
    train_ = train;
    fitOutputToLoss(network_);
    emit dataChanged();
    emit networkChanged();
    emit splitOptionsChanged();
    emit trainSettingsChanged();
}

void ProjectDocument::reset() {
    setFilePath(QString());
    setRuns({});
    setStudy(std::nullopt, false);
    NetworkSpec network;
    network.layers = defaultLayers(0);
    restore(ProjectDataSource{}, nullptr, nullptr, network, newProjectSplit(), ProjectTraining{});
    networkEdited_ = trainEdited_ = false;
    setClean();
}

void ProjectDocument::editNetwork(const NetworkSpec& spec, const QString& description) {
    const NetworkSpec after = fittedToData(spec);
    if (after == network_) return;
    // A structural edit never merges: each layer added or moved is a step of its own; a number of
    // one layer typed or stepped in its spin box merges until the box is left.
    if (description.isEmpty()) {
        push(new Edit<NetworkSpec>(this, &ProjectDocument::setNetwork, network_, after, describeNetworkEdit));
        return;
    }
    const auto described = [description](const NetworkSpec&, const NetworkSpec&) {
        return EditDescription{description};
    };
    push(new Edit<NetworkSpec>(this, &ProjectDocument::setNetwork, network_, after, described));
}

void ProjectDocument::editSplitOptions(const SplitOptions& options) {
    if (options == split_) return;
    push(new Edit<SplitOptions>(this, &ProjectDocument::setSplitOptions, split_, options, describeSplitEdit));
}

void ProjectDocument::editTrainSettings(const ProjectTraining& settings) {
    if (settings == train_) return;
    push(new Edit<ProjectTraining>(this, &ProjectDocument::setTrainSettings, train_, settings, describeTrainEdit));
}

void ProjectDocument::editDataSettings(const ProjectDataSource& settings) {
    if (settings == data_) return;
    push(new Edit<ProjectDataSource>(this, &ProjectDocument::setDataSettings, data_, settings, describeDataEdit));
}

void ProjectDocument::editData(const ProjectDataSource& settings, std::shared_ptr<const Dataset> data,
                               std::shared_ptr<const Dataset> test) {
    const DataState before = dataState();
    // The data's defaults (network output, loss) decide the state after; pushing then applies
    // that state again, which changes nothing.
    replaceData(settings, std::move(data), std::move(test));
    if (dataState() == before) return;
    push(new Edit<DataState>(this, &ProjectDocument::setDataState, before, dataState(),
                             [](const DataState& a, const DataState& b) {
                                 return describeDataEdit(a.settings, b.settings);
                             }));
}

void ProjectDocument::sealEdits() {
    const int top = undoStack_->index() - 1;
    if (top < 0) return;
    // command() is const, but the commands are ours and not const objects; sealing only stops
    // later merges, it never changes what the step does.
    if (auto* c = dynamic_cast<const DocumentCommand*>(undoStack_->command(top)))
        const_cast<DocumentCommand*>(c)->seal();
}

void ProjectDocument::setFilePath(const QString& path) {
    if (path == filePath_) return;
    filePath_ = path;
    emit filePathChanged(path);
}

bool ProjectDocument::isModified() const { return changedOutsideUndo_ || !undoStack_->isClean(); }

void ProjectDocument::markModified() {
    changedOutsideUndo_ = true;
    emitModifiedIfChanged();
}

void ProjectDocument::setClean() {
    changedOutsideUndo_ = false;
    sealEdits();  // an edit after saving is a new step, so undoing it returns to the saved state
    undoStack_->setClean();
    emitModifiedIfChanged();
}

void ProjectDocument::emitModifiedIfChanged() {
    const bool modified = isModified();
    if (modified == lastModified_) return;
    lastModified_ = modified;
    emit modifiedChanged(modified);
}

std::vector<ProjectRun> ProjectDocument::earlierRuns() const {
    std::vector<ProjectRun> out;
    for (std::size_t i = 0; i < runs_.size(); ++i)
        if (int(i) != shownRun_) out.push_back(runs_[i]);
    return out;
}

void ProjectDocument::setStudy(std::optional<ProjectStudy> study, bool modifies) {
    if (study == study_) return;
    study_ = std::move(study);
    emit studyChanged();
    if (modifies) markModified();
}

void ProjectDocument::setRuns(std::vector<ProjectRun> runs) {
    runs_ = std::move(runs);
    shownRun_ = -1;
    shownPlan_.reset();
    emit runsChanged();
}

void ProjectDocument::addRun(ProjectRun run, std::shared_ptr<const SplitPlan> sessionPlan) {
    if (run.id.empty()) {
        // Unique among the runs already kept, whatever ids an opened project brought.
        auto taken = [this](const std::string& id) {
            return std::any_of(runs_.begin(), runs_.end(), [&](const ProjectRun& r) { return r.id == id; });
        };
        do run.id = "run-" + std::to_string(nextRunNumber_++);
        while (taken(run.id));
    }
    runs_.push_back(std::move(run));
    shownRun_ = int(runs_.size()) - 1;
    shownPlan_ = sessionPlan;
    emit runsChanged();
}

QString ProjectDocument::recombineRun(int index, ClassCombine how) {
    if (index < 0 || std::size_t(index) >= runs_.size() || !runs_[std::size_t(index)].results)
        return tr("no completed run %1").arg(index + 1);
    ProjectRun& run = runs_[std::size_t(index)];
    if (run.results->classCombine == how && canRecombine(*run.results, run.plan)) return {};
    try {
        recombine(*run.results, run.plan, how);
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    markModified();
    emit runsChanged();
    return {};
}

bool ProjectDocument::dropRunWeights(int index) {
    if (index < 0 || std::size_t(index) >= runs_.size() || !runs_[std::size_t(index)].results) return false;
    ProjectResults& r = *runs_[std::size_t(index)].results;
    if (!r.model && !r.baselineWeights) return false;
    r.model.reset();
    r.baselineWeights.reset();
    markModified();
    emit runsChanged();
    return true;
}

const ProjectRun* ProjectDocument::shownRunRecord() const {
    return shownRun_ >= 0 && std::size_t(shownRun_) < runs_.size() ? &runs_[std::size_t(shownRun_)] : nullptr;
}

bool ProjectDocument::showsSessionRun(const std::shared_ptr<const SplitPlan>& sessionPlan) const {
    return sessionPlan && shownRun_ >= 0 && shownPlan_.lock() == sessionPlan;
}

void ProjectDocument::setShownRun(int index, std::shared_ptr<const SplitPlan> sessionPlan) {
    shownRun_ = index >= 0 && std::size_t(index) < runs_.size() ? index : -1;
    shownPlan_ = shownRun_ >= 0 ? sessionPlan : nullptr;
    emit shownRunChanged();
}

const SplitIndices& ProjectDocument::splitIndicesOfData() const {
    if (!dataset_) throw Error("no data loaded");
    if (!splitIndices_)
        splitIndices_ = std::make_shared<const SplitIndices>(splitForTraining(*dataset_, data_.validationFraction,
                                                                              data_.testFraction,
                                                                              testDataset_ != nullptr, data_.seed));
    return *splitIndices_;
}

SplitOptions ProjectDocument::effectiveSplitOptions() const {
    // The default "other" share stays with the project for when its data has classes again.
    SplitOptions o = dataset_ ? withOtherShareFor(split_, dataset_->task) : split_;
    o.epochs = train_.config.epochs;
    o.batchSize = train_.config.batchSize;
    o.optimizerSlots = slotsPerParam(train_.config.optimizer.kind, train_.config.optimizer.momentum);
    return o;
}

DataInfo ProjectDocument::planDataInfo() const {
    const SplitIndices& split = splitIndicesOfData();  // throws without data
    return DataInfo::of(*dataset_, split.train);
}

SplitPlan ProjectDocument::plan() const {
    const SplitOptions options = effectiveSplitOptions();
    if (planCache_ && planCache_->revision == revision_ && planCache_->network == network_ &&
        planCache_->options == options)
        return planCache_->plan;
    const DataInfo info = DataInfo::of(*dataset_, splitIndicesOfData().train);
    SplitPlan p = makePlan(network_, info, options);  // throws before the cache changes
    planCache_ = PlanCache{revision_, network_, options, p};
    return p;
}

int ProjectDocument::coresForRuns() const {
    return train_.threadBudget > 0 ? train_.threadBudget : std::max(1, QThread::idealThreadCount());
}

}  // namespace skynnet::ui
