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

}  // namespace

std::optional<QString> editUnits(LayerSpec& layer, const QVariant& value) {
    bool ok = false;
    const int n = value.toInt(&ok);
    const bool conv = std::holds_alternative<ConvSpec>(layer);
    if (!ok || n < 1)
        return conv ? QStringLiteral("filters must be a whole number of at least 1")
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
    std::get<DropoutSpec>(layer).rate = float(rate);
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

}  // namespace skynnet::ui
