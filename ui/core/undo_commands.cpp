#include "ui/core/undo_commands.h"

#include <QCoreApplication>
#include <algorithm>

namespace skynnet::ui {
namespace {

// Merge ids: one per mergeable field, apart for split options, training settings and data options.
// Network field edits take networkIds + 16 * layer + field, above every other range.
enum : int { splitIds = 0x5100, trainIds = 0x5200, dataIds = 0x5300, networkIds = 0x10000 };
enum class LayerField { Units, Kernel, Stride, Window, Rate, Momentum, Epsilon };
enum class SplitField {
    Strategy,
    Requested,
    ScaleEpochs,
    Factor,
    ClassCombine,
    OtherShare,
    BinaryCombine,
    Shuffle,
    Fallback,
    Seed,
    ShardOverlap,
    Several
};
enum class TrainField {
    Epochs,
    BatchSize,
    Optimizer,
    LearningRate,
    Threads,
    Baseline,
    Several,
    // The advanced settings (train_settings_panel.h).
    Loss,
    WeightDecay,
    Schedule,
    StepEpochs,
    Gamma,
    MinRate,
    EarlyStopping,
    Patience,
    Monitor,
    RestoreBest
};
enum class DataField { TargetColumn, Task, Scaling, Validation, Test, Seed, Images };

QString tr(const char* text) { return QCoreApplication::translate("UndoCommands", text); }

QString strategyText(Strategy s) { return QString::fromStdString(strategyName(s)); }

QString scalingText(Scaling s) {
    switch (s) {
    case Scaling::Standardize: return tr("standardize");
    case Scaling::MinMax: return tr("min-max");
    case Scaling::PixelRange: return tr("pixel range");
    case Scaling::None: return tr("none");
    }
    return QString::fromStdString(scalingName(s));
}

QString scalingText(const std::optional<EpochScaling>& s) {
    if (!s) return tr("automatic");
    return *s == EpochScaling::On ? tr("epochs / F") : *s == EpochScaling::Sqrt ? tr("epochs / √F") : tr("off");
}

// One layer of the network edited (at `index`, 0-based): name the field that changed. Edits of a
// number (units, filters, kernel, stride, window, rates) merge while the same field of the same
// layer is edited; picks and check boxes are steps of their own.
EditDescription describeLayerEdit(int index, const LayerSpec& x, const LayerSpec& y) {
    const int n = index + 1;
    if (x.index() != y.index()) return {tr("Set layer %1 type").arg(n)};
    const auto merging = [&](LayerField f, const QString& text) {
        return EditDescription{text, networkIds + index * 16 + int(f)};
    };
    const auto once = [](const QString& text) { return EditDescription{text}; };
    const auto onOff = [](bool on) { return on ? tr("on") : tr("off"); };
    const auto activationText = [](skynnet::Activation act) { return QString::fromStdString(activationName(act)); };
    const auto pool = [&](const auto& l, const auto& m) {
        if (l.size != m.size) return merging(LayerField::Window, tr("Set layer %1 window to %2").arg(n).arg(m.size));
        if (l.stride != m.stride)
            return merging(LayerField::Stride, m.stride > 0 ? tr("Set layer %1 stride to %2").arg(n).arg(m.stride)
                                                            : tr("Set layer %1 stride to its window").arg(n));
        return EditDescription{};
    };
    // The kinds whose only fields are a width, whether it scales, and (recurrent) sequences.
    const auto widthEdit = [&](const auto& l, const auto& m, const QString& what) {
        const int before = *widthOf(LayerSpec(l)), after = *widthOf(LayerSpec(m));
        if (before != after) return merging(LayerField::Units, tr("Set layer %1 %2 to %3").arg(n).arg(what).arg(after));
        if (l.scalable != m.scalable) return once(tr("Set layer %1 scalable %2").arg(n).arg(onOff(m.scalable)));
        return once(tr("Edit layer %1").arg(n));
    };
    const auto recurrentEdit = [&](const auto& l, const auto& m) {
        if (l.sequences != m.sequences)
            return once(m.sequences ? tr("Set layer %1 to return every step").arg(n)
                                    : tr("Set layer %1 to return the last step").arg(n));
        return widthEdit(l, m, tr("units"));
    };
    const EditDescription edit = visitLayer(
        y,
        [&](const DenseSpec& m) {
            const auto& l = std::get<DenseSpec>(x);
            if (l.units != m.units)
                return merging(LayerField::Units, tr("Set layer %1 units to %2").arg(n).arg(m.units));
            if (l.activation != m.activation)
                return once(tr("Set layer %1 activation to %2").arg(n).arg(activationText(m.activation)));
            if (l.scalable != m.scalable) return once(tr("Set layer %1 scalable %2").arg(n).arg(onOff(m.scalable)));
            return EditDescription{};
        },
        [&](const DropoutSpec& m) {
            const auto& l = std::get<DropoutSpec>(x);
            return l.rate != m.rate
                       ? merging(LayerField::Rate, tr("Set layer %1 rate to %2").arg(n).arg(double(m.rate)))
                       : EditDescription{};
        },
        [](const FlattenSpec&) { return EditDescription{}; },
        [&](const ConvSpec& m) {
            const auto& l = std::get<ConvSpec>(x);
            if (l.filters != m.filters)
                return merging(LayerField::Units, tr("Set layer %1 filters to %2").arg(n).arg(m.filters));
            if (l.kernelH != m.kernelH || l.kernelW != m.kernelW)
                return merging(LayerField::Kernel,
                               tr("Set layer %1 kernel to %2x%3").arg(n).arg(m.kernelH).arg(m.kernelW));
            if (l.stride != m.stride)
                return merging(LayerField::Stride, tr("Set layer %1 stride to %2").arg(n).arg(m.stride));
            if (l.padding != m.padding)
                return once(
                    tr("Set layer %1 padding to %2").arg(n).arg(QString::fromStdString(paddingName(m.padding))));
            if (l.activation != m.activation)
                return once(tr("Set layer %1 activation to %2").arg(n).arg(activationText(m.activation)));
            if (l.bias != m.bias) return once(tr("Set layer %1 bias %2").arg(n).arg(onOff(m.bias)));
            if (l.scalable != m.scalable) return once(tr("Set layer %1 scalable %2").arg(n).arg(onOff(m.scalable)));
            return EditDescription{};
        },
        [&](const MaxPoolSpec& m) { return pool(std::get<MaxPoolSpec>(x), m); },
        [&](const AvgPoolSpec& m) { return pool(std::get<AvgPoolSpec>(x), m); },
        [](const GlobalAvgPoolSpec&) { return EditDescription{}; },
        [&](const BatchNormSpec& m) {
            const auto& l = std::get<BatchNormSpec>(x);
            if (l.momentum != m.momentum)
                return merging(LayerField::Momentum, tr("Set layer %1 momentum to %2").arg(n).arg(double(m.momentum)));
            if (l.epsilon != m.epsilon)
                return merging(LayerField::Epsilon, tr("Set layer %1 epsilon to %2").arg(n).arg(double(m.epsilon)));
            return EditDescription{};
        },
        [&](const ActivationSpec& m) {
            return once(tr("Set layer %1 activation to %2").arg(n).arg(activationText(m.activation)));
        },
        [&](const EmbeddingSpec& m) { return widthEdit(std::get<EmbeddingSpec>(x), m, tr("dimension")); },
        [&](const GruSpec& m) { return recurrentEdit(std::get<GruSpec>(x), m); },
        [&](const LstmSpec& m) { return recurrentEdit(std::get<LstmSpec>(x), m); },
        [&](const SeqPoolSpec& m) {
            return once(
                tr("Set layer %1 pooling to %2").arg(n).arg(QString::fromStdString(sequencePoolModeName(m.mode))));
        },
        [&](const PatchSpec& m) { return widthEdit(std::get<PatchSpec>(x), m, tr("dimension")); },
        [&](const EncoderSpec& m) { return widthEdit(std::get<EncoderSpec>(x), m, tr("MLP width")); },
        [](const LayerNormSpec&) { return EditDescription{}; }, [](const AttentionSpec&) { return EditDescription{}; });
    return edit.text.isEmpty() ? EditDescription{tr("Edit layer %1").arg(n)} : edit;
}

}  // namespace

EditDescription describeNetworkEdit(const NetworkSpec& a, const NetworkSpec& b) {
    const auto& x = a.layers;
    const auto& y = b.layers;
    const auto firstDifference = [&] {
        std::size_t i = 0;
        while (i < x.size() && i < y.size() && x[i] == y[i]) ++i;
        return i;
    };
    const std::size_t i = firstDifference();
    if (y.size() == x.size() + 1 &&
        std::equal(x.begin() + std::ptrdiff_t(i), x.end(), y.begin() + std::ptrdiff_t(i) + 1))
        return {tr("Add layer %1").arg(i + 1)};
    if (x.size() == y.size() + 1 &&
        std::equal(y.begin() + std::ptrdiff_t(i), y.end(), x.begin() + std::ptrdiff_t(i) + 1))
        return {tr("Remove layer %1").arg(i + 1)};
    if (x.size() != y.size() || i == x.size()) return {tr("Change network")};
    std::size_t last = x.size() - 1;
    while (last > i && x[last] == y[last]) --last;
    if (last == i) return describeLayerEdit(int(i), x[i], y[i]);
    // One layer taken out at i and put back at last (or the reverse): a move.
    const auto span = [](const std::vector<LayerSpec>& v, std::size_t from, std::size_t to) {
        return std::vector<LayerSpec>(v.begin() + std::ptrdiff_t(from), v.begin() + std::ptrdiff_t(to));
    };
    if (y[last] == x[i] && span(x, i + 1, last + 1) == span(y, i, last))
        return {tr("Move layer %1 to %2").arg(i + 1).arg(last + 1)};
    if (y[i] == x[last] && span(x, i, last) == span(y, i + 1, last + 1))
        return {tr("Move layer %1 to %2").arg(last + 1).arg(i + 1)};
    return {tr("Change network")};
}

EditDescription describeSplitEdit(const SplitOptions& a, const SplitOptions& b) {
    std::vector<std::pair<SplitField, QString>> changes;
    if (a.strategy != b.strategy)
        changes.push_back({SplitField::Strategy, tr("Set strategy to %1").arg(strategyText(b.strategy))});
    if (a.requested != b.requested)
        changes.push_back({SplitField::Requested, tr("Set submodels N to %1").arg(b.requested)});
    if (a.scaleEpochs != b.scaleEpochs)
        changes.push_back({SplitField::ScaleEpochs, tr("Set epoch scaling to %1").arg(scalingText(b.scaleEpochs))});
    if (a.dataShardFactor != b.dataShardFactor)
        changes.push_back({SplitField::Factor, b.dataShardFactor ? tr("Set data-shard F to %1").arg(*b.dataShardFactor)
                                                                 : tr("Set data-shard F to √N")});
    if (a.classCombine != b.classCombine)
        changes.push_back(
            {SplitField::ClassCombine,
             tr("Combine class groups by %1").arg(QString::fromStdString(classCombineName(b.classCombine)))});
    // A new strategy without class groups or shards drops the share or the overlap with it: that
    // edit is the strategy's.
    const bool newStrategy = a.strategy != b.strategy;
    if (a.otherShare != b.otherShare && !(newStrategy && b.otherShare == 0))
        changes.push_back({SplitField::OtherShare, b.otherShare > 0
                                                       ? tr("Set the 'other' share to %1").arg(b.otherShare)
                                                       : tr("Turn the 'other' output off")});
    if (a.shardOverlap != b.shardOverlap && !(newStrategy && b.shardOverlap == 0))
        changes.push_back({SplitField::ShardOverlap, b.shardOverlap > 0
                                                         ? tr("Set the shard overlap to %1").arg(b.shardOverlap)
                                                         : tr("Keep the shards apart")});
    if (a.binaryCombine != b.binaryCombine)
        changes.push_back(
            {SplitField::BinaryCombine,
             tr("Set binary combine to %1").arg(QString::fromStdString(binaryCombineName(b.binaryCombine)))});
    if (a.shuffleShards != b.shuffleShards)
        changes.push_back(
            {SplitField::Shuffle, b.shuffleShards ? tr("Shuffle before sharding") : tr("Shard in file order")});
    if (a.regressionFallbackToShards != b.regressionFallbackToShards)
        changes.push_back({SplitField::Fallback, b.regressionFallbackToShards ? tr("Fall back to data shards")
                                                                              : tr("No fallback to data shards")});
    if (a.seed != b.seed) changes.push_back({SplitField::Seed, tr("Set split seed to %1").arg(b.seed)});
    // The fields the training settings drive (batch, optimiser slots, epochs) change with them.
    const bool othersSame = a.batchSize == b.batchSize && a.optimizerSlots == b.optimizerSlots && a.epochs == b.epochs;
    if (changes.empty() && othersSame) return {tr("No change"), -1};
    if (changes.size() > 1 && othersSame && b == withReferenceChoices(b))
        return {tr("Use the reference's exact method"), -1};
    if (changes.size() != 1 || !othersSame) return {tr("Change split options"), -1};
    const SplitField f = changes.front().first;
    const bool merges = f == SplitField::Requested || f == SplitField::Factor || f == SplitField::Seed;
    return {changes.front().second, merges ? splitIds + int(f) : -1};
}

EditDescription describeTrainEdit(const ProjectTraining& a, const ProjectTraining& b) {
    const TrainConfig &x = a.config, &y = b.config;
    std::vector<std::pair<TrainField, QString>> changes;
    if (x.epochs != y.epochs) changes.push_back({TrainField::Epochs, tr("Set epochs to %1").arg(y.epochs)});
    if (x.batchSize != y.batchSize)
        changes.push_back({TrainField::BatchSize, tr("Set batch size to %1").arg(y.batchSize)});
    if (x.optimizer.kind != y.optimizer.kind)
        changes.push_back({TrainField::Optimizer,
                           tr("Set optimiser to %1").arg(QString::fromStdString(optimizerName(y.optimizer.kind)))});
    if (x.optimizer.learningRate != y.optimizer.learningRate)
        changes.push_back(
            {TrainField::LearningRate, tr("Set learning rate to %1").arg(double(y.optimizer.learningRate))});
    if (a.threadBudget != b.threadBudget)
        changes.push_back({TrainField::Threads,
                           b.threadBudget > 0 ? tr("Set threads to %1").arg(b.threadBudget) : tr("Use every core")});
    if (a.trainBaseline != b.trainBaseline)
        changes.push_back({TrainField::Baseline, b.trainBaseline ? tr("Train the baseline") : tr("Skip the baseline")});
    const Schedule &sx = x.optimizer.schedule, &sy = y.optimizer.schedule;
    const EarlyStopping &ex = x.earlyStopping, &ey = y.earlyStopping;
    if (x.loss != y.loss)
        changes.push_back({TrainField::Loss, tr("Set loss to %1").arg(QString::fromStdString(lossName(y.loss)))});
    if (x.optimizer.weightDecay != y.optimizer.weightDecay)
        changes.push_back({TrainField::WeightDecay, tr("Set weight decay to %1").arg(double(y.optimizer.weightDecay))});
    if (sx.kind != sy.kind) changes.push_back({TrainField::Schedule, tr("Change the learning-rate schedule")});
    if (sx.stepEpochs != sy.stepEpochs)
        changes.push_back({TrainField::StepEpochs, tr("Set schedule step to %1 epochs").arg(sy.stepEpochs)});
    if (sx.gamma != sy.gamma)
        changes.push_back({TrainField::Gamma, tr("Set schedule factor to %1").arg(double(sy.gamma))});
    if (sx.minRate != sy.minRate)
        changes.push_back({TrainField::MinRate, tr("Set schedule minimum rate to %1").arg(double(sy.minRate))});
    if (ex.enabled != ey.enabled)
        changes.push_back({TrainField::EarlyStopping, ey.enabled ? tr("Stop early") : tr("Do not stop early")});
    if (ex.patience != ey.patience)
        changes.push_back({TrainField::Patience, tr("Set early-stopping patience to %1").arg(ey.patience)});
    if (ex.monitor != ey.monitor) changes.push_back({TrainField::Monitor, tr("Change what early stopping watches")});
    if (ex.restoreBest != ey.restoreBest)
        changes.push_back(
            {TrainField::RestoreBest, ey.restoreBest ? tr("Keep the best epoch") : tr("Keep the last epoch")});
    // Any other difference (augmentation, ...) makes it a multi-field edit.
    ProjectTraining known = a;
    known.config.epochs = y.epochs;
    known.config.batchSize = y.batchSize;
    known.config.optimizer.kind = y.optimizer.kind;
    known.config.optimizer.learningRate = y.optimizer.learningRate;
    known.config.optimizer.weightDecay = y.optimizer.weightDecay;
    known.config.optimizer.schedule.kind = sy.kind;
    known.config.optimizer.schedule.stepEpochs = sy.stepEpochs;
    known.config.optimizer.schedule.gamma = sy.gamma;
    known.config.optimizer.schedule.minRate = sy.minRate;
    known.config.loss = y.loss;
    known.config.earlyStopping = ey;
    known.threadBudget = b.threadBudget;
    known.trainBaseline = b.trainBaseline;
    if (a == b) return {tr("No change"), -1};
    if (changes.size() != 1 || !(known == b)) return {tr("Change training settings"), -1};
    const TrainField f = changes.front().first;
    const bool merges = f == TrainField::Epochs || f == TrainField::BatchSize || f == TrainField::LearningRate ||
                        f == TrainField::Threads || f == TrainField::WeightDecay || f == TrainField::StepEpochs ||
                        f == TrainField::Gamma || f == TrainField::MinRate || f == TrainField::Patience;
    return {changes.front().second, merges ? trainIds + int(f) : -1};
}

EditDescription describeDataEdit(const ProjectDataSource& a, const ProjectDataSource& b) {
    std::vector<std::pair<DataField, QString>> changes;
    if (a.targetColumn != b.targetColumn)
        changes.push_back(
            {DataField::TargetColumn, b.targetColumn.empty()
                                          ? tr("Set target column to the last column")
                                          : tr("Set target column to %1").arg(QString::fromStdString(b.targetColumn))});
    if (a.task != b.task)
        changes.push_back({DataField::Task, b.task ? tr("Set task to %1").arg(QString::fromStdString(taskName(*b.task)))
                                                   : tr("Detect the task")});
    if (a.scaling != b.scaling)
        changes.push_back({DataField::Scaling, tr("Set scaling to %1").arg(scalingText(b.scaling))});
    if (a.validationFraction != b.validationFraction)
        changes.push_back({DataField::Validation, tr("Set validation fraction to %1").arg(b.validationFraction)});
    if (a.testFraction != b.testFraction)
        changes.push_back({DataField::Test, tr("Set test fraction to %1").arg(b.testFraction)});
    if (a.seed != b.seed) changes.push_back({DataField::Seed, tr("Set data split seed to %1").arg(qulonglong(b.seed))});
    if (a.image != b.image) changes.push_back({DataField::Images, tr("Change the image size, channels or strictness")});
    if (a == b) return {tr("No change"), -1};
    if (changes.size() != 1) return {tr("Change data options"), -1};  // files too, or several options at once
    const DataField f = changes.front().first;
    const bool merges = f == DataField::Validation || f == DataField::Test || f == DataField::Seed;  // spin boxes
    return {changes.front().second, merges ? dataIds + int(f) : -1};
}

}  // namespace skynnet::ui
