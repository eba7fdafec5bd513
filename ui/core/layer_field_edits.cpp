#include "ui/core/layer_field_edits.h"

#include <QRegularExpression>
#include <utility>

#include "core/error.h"

namespace skynnet::ui {
namespace {

// "3x3", "3×3", "3 x 5" or "3": a kernel or window of height x width.
std::optional<std::pair<int, int>> parseWindow(const QVariant& value) {
    if (value.typeId() == QMetaType::Int) return std::pair{value.toInt(), value.toInt()};
    static const QRegularExpression form(QStringLiteral("^\\s*(\\d{1,4})\\s*(?:[x×*]\\s*(\\d{1,4}))?\\s*$"),
                                         QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = form.match(value.toString());
    if (!m.hasMatch()) return std::nullopt;
    const int h = m.captured(1).toInt();
    return std::pair{h, m.captured(2).isEmpty() ? h : m.captured(2).toInt()};
}

const QString lastStep = QStringLiteral("last step");
const QString everyStep = QStringLiteral("every step");
const QString mean = QStringLiteral("mean");
const QString firstStep = QStringLiteral("first step");  // a class token's place (seqpool:cls)

bool* returnsSequences(LayerSpec& layer) {
    if (auto* g = std::get_if<GruSpec>(&layer)) return &g->sequences;
    if (auto* l = std::get_if<LstmSpec>(&layer)) return &l->sequences;
    return nullptr;
}

}  // namespace

std::optional<QString> editUnits(LayerSpec& layer, const QVariant& value) {
    bool ok = false;
    const int n = value.toInt(&ok);
    if (!ok || n < 1)
        return std::holds_alternative<ConvSpec>(layer) ? QStringLiteral("filters must be a whole number of at least 1")
               : std::holds_alternative<EmbeddingSpec>(layer) || std::holds_alternative<PatchSpec>(layer)
                   ? QStringLiteral("dimensions must be a whole number of at least 1")
               : std::holds_alternative<EncoderSpec>(layer)
                   ? QStringLiteral("the MLP width must be a whole number of at least 1")
                   : QStringLiteral("units must be a whole number of at least 1");
    *widthOf(layer) = n;  // flags() let only kinds with a width edit this column
    return std::nullopt;
}

std::optional<QString> editWindow(LayerSpec& layer, const QVariant& value) {
    const auto window = parseWindow(value);
    if (auto* c = std::get_if<ConvSpec>(&layer)) {
        if (!window || window->first < 1 || window->second < 1)
            return QStringLiteral("a kernel is height x width, each at least 1 (e.g. 3x3), not '%1'")
                .arg(value.toString());
        c->kernelH = window->first;
        c->kernelW = window->second;
        return std::nullopt;
    }
    if (auto* patch = std::get_if<PatchSpec>(&layer)) {
        if (!window || window->first < 1 || window->first != window->second)
            return QStringLiteral("a patch is one size of at least 1 (e.g. 7 for 7x7), not '%1'").arg(value.toString());
        patch->patch = window->first;
        return std::nullopt;
    }
    if (!window || window->first < 1 || window->first != window->second)
        return QStringLiteral("a pooling window is one size of at least 1 (e.g. 2), not '%1'").arg(value.toString());
    if (auto* p = std::get_if<MaxPoolSpec>(&layer)) p->size = window->first;
    else std::get<AvgPoolSpec>(layer).size = window->first;
    return std::nullopt;
}

std::optional<QString> editStride(LayerSpec& layer, const QVariant& value) {
    bool ok = false;
    const int s = value.toInt(&ok);
    if (auto* c = std::get_if<ConvSpec>(&layer)) {
        if (!ok || s < 1) return QStringLiteral("a conv stride must be a whole number of at least 1");
        c->stride = s;
        return std::nullopt;
    }
    if (!ok || s < 0) return QStringLiteral("a pooling stride must be 0 (the window size) or more");
    if (auto* p = std::get_if<MaxPoolSpec>(&layer)) p->stride = s;
    else std::get<AvgPoolSpec>(layer).stride = s;
    return std::nullopt;
}

std::optional<QString> editPadding(LayerSpec& layer, const QVariant& value) {
    try {
        std::get<ConvSpec>(layer).padding = parsePadding(value.toString().trimmed().toLower().toStdString());
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return std::nullopt;
}

std::optional<QString> editActivation(LayerSpec& layer, const QVariant& value) {
    skynnet::Activation a{};
    try {
        a = parseActivation(value.toString().trimmed().toLower().toStdString());
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    if (auto* d = std::get_if<DenseSpec>(&layer)) d->activation = a;
    else if (auto* c = std::get_if<ConvSpec>(&layer)) c->activation = a;
    else std::get<ActivationSpec>(layer).activation = a;
    return std::nullopt;
}

std::optional<QString> editDropoutRate(LayerSpec& layer, const QVariant& value) {
    bool ok = false;
    const double rate = value.toDouble(&ok);
    if (!ok || !(rate >= 0 && rate < 1)) return QStringLiteral("the dropout rate must be in [0, 1)");
    if (auto* e = std::get_if<EncoderSpec>(&layer)) e->dropout = float(rate);
    else if (auto* a = std::get_if<AttentionSpec>(&layer)) a->dropout = float(rate);
    else std::get<DropoutSpec>(layer).rate = float(rate);
    return std::nullopt;
}

std::optional<QString> editHeads(LayerSpec& layer, const QVariant& value) {
    bool ok = false;
    const int heads = value.toInt(&ok);
    if (!ok || heads < 1) return QStringLiteral("heads must be a whole number of at least 1");
    if (auto* e = std::get_if<EncoderSpec>(&layer)) e->heads = heads;
    else std::get<AttentionSpec>(layer).heads = heads;
    return std::nullopt;
}

std::optional<QString> editBatchNormMomentum(LayerSpec& layer, const QVariant& value) {
    bool ok = false;
    const double m = value.toDouble(&ok);
    if (!ok || !(m > 0 && m <= 1)) return QStringLiteral("the batch-norm momentum must be in (0, 1]");
    std::get<BatchNormSpec>(layer).momentum = float(m);
    return std::nullopt;
}

std::optional<QString> editBatchNormEpsilon(LayerSpec& layer, const QVariant& value) {
    bool ok = false;
    const double e = value.toDouble(&ok);
    if (!ok || !(e > 0 && e < 1)) return QStringLiteral("the batch-norm epsilon must be above 0 and below 1");
    std::get<BatchNormSpec>(layer).epsilon = float(e);
    return std::nullopt;
}

QStringList stepsChoices(const LayerSpec& layer) {
    if (std::holds_alternative<SeqPoolSpec>(layer)) return {mean, lastStep, firstStep};
    if (returnsSequences(const_cast<LayerSpec&>(layer))) return {lastStep, everyStep};
    return {};
}

QString stepsText(const LayerSpec& layer) {
    if (const auto* p = std::get_if<SeqPoolSpec>(&layer))
        return p->mode == SequencePoolMode::Mean ? mean : p->mode == SequencePoolMode::Last ? lastStep : firstStep;
    if (const bool* sequences = returnsSequences(const_cast<LayerSpec&>(layer)))
        return *sequences ? everyStep : lastStep;
    return {};
}

std::optional<QString> editSteps(LayerSpec& layer, const QVariant& value) {
    const QString text = value.toString().trimmed().toLower();
    const bool last = text == lastStep || text == QStringLiteral("last");
    if (auto* p = std::get_if<SeqPoolSpec>(&layer)) {
        const bool first = text == firstStep || text == QStringLiteral("first") || text == QStringLiteral("cls");
        if (!last && !first && text != mean)
            return QStringLiteral("seqpool takes the mean, the last or the first step of a sequence, not '%1'")
                .arg(value.toString());
        p->mode = last ? SequencePoolMode::Last : first ? SequencePoolMode::Cls : SequencePoolMode::Mean;
        return std::nullopt;
    }
    bool* sequences = returnsSequences(layer);
    const bool every = text == everyStep || text == QStringLiteral("every") || text == QStringLiteral("sequences");
    if (!sequences || (!last && !every))
        return QStringLiteral("a recurrent layer returns the last step or every step, not '%1'").arg(value.toString());
    *sequences = every;
    return std::nullopt;
}

}  // namespace skynnet::ui
