#include "ui/core/project_document.h"

#include "data/partition.h"

#include <QUndoStack>

#include "core/error.h"
#include "losses/task_losses.h"
#include "split/combined_model.h"
#include "ui/core/data_loading.h"
#include "ui/core/undo_commands.h"

namespace skynnet::ui {
namespace {

// Hidden layers a new project starts with: a small MLP for small data, where 512 units would only
// overfit and slow the first run down.
constexpr long smallDataSamples = 2000;
constexpr long largeDataSamples = 20000;  // above: fewer default epochs, each already long

std::vector<LayerSpec> defaultLayers(long samples) {
    return parseLayers(samples <= smallDataSamples ? "dense:64:relu,dense:32:relu" : "dense:512:relu,dense:256:relu");
}

bool sameSchedule(const Schedule& a, const Schedule& b) {
    return a.kind == b.kind && a.stepEpochs == b.stepEpochs && a.gamma == b.gamma && a.totalEpochs == b.totalEpochs &&
           a.minRate == b.minRate;
}

bool sameOptimizer(const OptimizerConfig& a, const OptimizerConfig& b) {
    return a.kind == b.kind && a.learningRate == b.learningRate && a.momentum == b.momentum && a.nesterov == b.nesterov &&
           a.beta1 == b.beta1 && a.beta2 == b.beta2 && a.rho == b.rho && a.epsilon == b.epsilon &&
           a.weightDecay == b.weightDecay && sameSchedule(a.schedule, b.schedule);
}

bool sameConfig(const TrainConfig& a, const TrainConfig& b) {
    const EarlyStopping &ea = a.earlyStopping, &eb = b.earlyStopping;
    return a.epochs == b.epochs && a.batchSize == b.batchSize && sameOptimizer(a.optimizer, b.optimizer) && a.loss == b.loss &&
           a.seed == b.seed && a.threads == b.threads && ea.enabled == eb.enabled && ea.patience == eb.patience &&
           ea.monitor == eb.monitor && ea.restoreBest == eb.restoreBest && a.batchReportSeconds == b.batchReportSeconds &&
           a.resourceReportSeconds == b.resourceReportSeconds;
}

bool sameSplit(const SplitOptions& a, const SplitOptions& b) {
    return a.strategy == b.strategy && a.requested == b.requested && a.scaleEpochs == b.scaleEpochs &&
           a.dataShardFactor == b.dataShardFactor && a.shuffleShards == b.shuffleShards &&
           a.binaryCombine == b.binaryCombine && a.regressionFallbackToShards == b.regressionFallbackToShards &&
           a.seed == b.seed && a.batchSize == b.batchSize && a.optimizerSlots == b.optimizerSlots && a.epochs == b.epochs;
}

}  // namespace

bool TrainSettings::operator==(const TrainSettings& o) const {
    return threadBudget == o.threadBudget && trainBaseline == o.trainBaseline && sameConfig(config, o.config);
}

Shape networkInputShape(const Dataset& data) {
    if (data.features.cols() == 0) return data.sampleShape;
    // Categories are the dataset's declared lists, so one row tells the column count a fit on the
    // training rows would give, without touching the features (unscaled: only the columns count).
    Preprocessing p;
    p.scaling = Scaling::None;
    p.fit(data.subset({0}));
    const int columns = p.outputColumns();
    return columns == data.sampleShape.size() ? data.sampleShape : Shape::flat(columns);
}

ProjectDocument::ProjectDocument(QObject* parent) : QObject(parent), undoStack_(new QUndoStack(this)) {
    network_.layers = defaultLayers(0);
    split_.strategy = Strategy::Auto;
    split_.requested = 3;
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
    const NetworkSpec oldNetwork = network_;
    const TrainSettings oldTrain = train_;
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
    // Other data in a saved project is a change to save; data opened in an untitled project (an
    // example at start-up) is not worth a question on closing.
    if (!filePath_.isEmpty()) markModified();
}

void ProjectDocument::applyDataDefaults() {
    if (!dataset_) return;
    const long samples = long(dataset_->size());
    if (!networkEdited_) network_.layers = defaultLayers(samples);
    network_.input = networkInputShape(*dataset_);
    network_.setOutputFor(dataset_->task, dataset_->outputCount());
    if (!trainEdited_) train_.config.epochs = samples > largeDataSamples ? 5 : 10;
    // A loss of another task cannot train at all: follow the data even after user edits.
    if (!lossFitsTask(train_.config.loss, dataset_->task)) train_.config.loss = defaultLoss(dataset_->task);
}

void ProjectDocument::setDataSettings(const ProjectDataSource& settings) {
    if (settings == data_) return;
    data_ = settings;
    prepared_.reset();
    splitIndices_.reset();
    ++revision_;
    emit dataChanged();
    if (!filePath_.isEmpty()) markModified();
}

void ProjectDocument::load(const ProjectDataSource& settings) {
    LoadedData loaded = loadData(settings);  // throws before anything changes
    setData(settings, std::move(loaded.train), std::move(loaded.test));
}

std::shared_ptr<const PreparedData> ProjectDocument::prepared() const {
    if (!dataset_) throw Error("no data loaded");
    if (!prepared_)
        prepared_ = std::make_shared<const PreparedData>(prepareData(*dataset_, testDataset_.get(), data_.preparation()));
    return prepared_;
}

void ProjectDocument::adoptPrepared(std::shared_ptr<const PreparedData> prepared, quint64 revision) {
    if (revision == revision_ && !prepared_) prepared_ = std::move(prepared);
}

NetworkSpec ProjectDocument::fittedToData(const NetworkSpec& spec) const {
    NetworkSpec s = spec;
    if (dataset_) {  // input and output are not the designer's to choose: they follow the data
        s.input = network_.input;
        s.setOutputFor(dataset_->task, dataset_->outputCount());
    }
    return s;
}

void ProjectDocument::setNetwork(const NetworkSpec& spec) {
    const NetworkSpec s = fittedToData(spec);
    if (s == network_) return;
    network_ = s;
    networkEdited_ = true;
    emit networkChanged();
}

void ProjectDocument::setSplitOptions(const SplitOptions& options) {
    if (sameSplit(options, split_)) return;
    split_ = options;
    emit splitOptionsChanged();
}

void ProjectDocument::setTrainSettings(const TrainSettings& settings) {
    if (settings == train_) return;
    train_ = settings;
    trainEdited_ = true;
    emit trainSettingsChanged();
}

void ProjectDocument::restore(const ProjectDataSource& settings, std::shared_ptr<const Dataset> data,
                              std::shared_ptr<const Dataset> test, const NetworkSpec& network, const SplitOptions& split,
                              const TrainSettings& train) {
    undoStack_->clear();
    data_ = settings;
    dataset_ = std::move(data);
    testDataset_ = dataset_ ? std::move(test) : nullptr;
    prepared_.reset();
    splitIndices_.reset();
    ++revision_;
    networkEdited_ = trainEdited_ = true;  // the saved choices stand, whatever the data suggests
    network_ = network;
    if (dataset_) {
        network_.input = networkInputShape(*dataset_);
        network_.setOutputFor(dataset_->task, dataset_->outputCount());
    }
    split_ = split;
    train_ = train;
    emit dataChanged();
    emit networkChanged();
    emit splitOptionsChanged();
    emit trainSettingsChanged();
}

void ProjectDocument::reset() {
    setFilePath(QString());
    earlierRuns_.clear();
    NetworkSpec network;
    network.layers = defaultLayers(0);
    SplitOptions split;
    split.strategy = Strategy::Auto;
    split.requested = 3;
    restore(ProjectDataSource{}, nullptr, nullptr, network, split, TrainSettings{});
    networkEdited_ = trainEdited_ = false;
    setClean();
}

void ProjectDocument::editNetwork(const NetworkSpec& spec, const QString& description) {
    const NetworkSpec after = fittedToData(spec);
    if (after == network_) return;
    push(new NetworkCommand(this, network_, after, description.isEmpty() ? describeNetworkEdit(network_, after) : description));
}

void ProjectDocument::editSplitOptions(const SplitOptions& options) {
    if (sameSplit(options, split_)) return;
    push(new SplitOptionsCommand(this, split_, options));
}

void ProjectDocument::editTrainSettings(const TrainSettings& settings) {
    if (settings == train_) return;
    push(new TrainSettingsCommand(this, train_, settings));
}

void ProjectDocument::sealEdits() {
    const int top = undoStack_->index() - 1;
    if (top < 0) return;
    // command() is const, but the commands are ours and not const objects; sealing only stops
    // later merges, it never changes what the step does.
    if (auto* c = dynamic_cast<const DocumentCommand*>(undoStack_->command(top))) const_cast<DocumentCommand*>(c)->seal();
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

void ProjectDocument::archiveRun(ProjectRun run) {
    if (run.results) {  // kept for the curves and figures; only the shown run keeps weights and outputs
        run.results->model.reset();
        run.results->baselineWeights.reset();
        run.results->combinedTestOutput = Matrix();
        run.results->baselineTestOutput = Matrix();
        run.results->testTargets = Matrix();
    }
    earlierRuns_.push_back(std::move(run));
}

const SplitIndices& ProjectDocument::splitIndicesOfData() const {
    if (!dataset_) throw Error("no data loaded");
    if (!splitIndices_)
        splitIndices_ = std::make_shared<const SplitIndices>(
            splitForTraining(*dataset_, data_.validationFraction, data_.testFraction, testDataset_ != nullptr, data_.seed));
    return *splitIndices_;
}

SplitOptions ProjectDocument::effectiveSplitOptions() const {
    SplitOptions o = split_;
    o.epochs = train_.config.epochs;
    o.batchSize = train_.config.batchSize;
    o.optimizerSlots = slotsPerParam(train_.config.optimizer.kind, train_.config.optimizer.momentum);
    return o;
}

SplitPlan ProjectDocument::plan() const {
    const SplitOptions options = effectiveSplitOptions();
    if (planCache_ && planCache_->revision == revision_ && planCache_->network == network_ &&
        sameSplit(planCache_->options, options))
        return planCache_->plan;
    const DataInfo info = DataInfo::of(*dataset_, splitIndicesOfData().train);
    SplitPlan p = makePlan(network_, info, options);  // throws before the cache changes
    planCache_ = PlanCache{revision_, network_, options, p};
    return p;
}

}  // namespace skynnet::ui
