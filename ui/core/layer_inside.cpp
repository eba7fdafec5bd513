#include "ui/core/layer_inside.h"

#include "ui/core/network_figures.h"

namespace skynnet::ui {
namespace {

QString dropoutText(float rate) { return rate > 0 ? QStringLiteral(" · dropout %1").arg(double(rate)) : QString(); }

// Short enough for the diagram's indented steps; each head's width is in its tooltip.
InsideStep attentionStep(int heads, bool causal, float dropout, Shape input) {
    const QString title =
        QStringLiteral("%1-head %2attention").arg(heads).arg(causal ? QStringLiteral("causal ") : QString());
    return {title + dropoutText(dropout), shapeText(input),
            QStringLiteral("each of the %1 heads reads %2 of a token's %3 features%4")
                .arg(heads)
                .arg(input.width / heads)
                .arg(input.width)
                .arg(causal ? QStringLiteral(", and sees only the tokens up to its own") : QString())};
}

std::vector<InsideStep> encoderInside(const EncoderSpec& e, Shape input) {
    const QString tokens = shapeText(input);
    const QString wide = shapeText(Shape::steps(input.height, e.mlp));
    const QString width = QString::number(input.width);
    return {{QStringLiteral("layernorm"), tokens},
            attentionStep(e.heads, false, e.dropout, input),
            {QStringLiteral("+ residual"), tokens},
            {QStringLiteral("layernorm"), tokens},
            {QStringLiteral("dense %1 gelu").arg(e.mlp) + dropoutText(e.dropout), wide},
            {QStringLiteral("dense %1").arg(width) + dropoutText(e.dropout), tokens},
            {QStringLiteral("+ residual"), tokens}};
}

std::vector<InsideStep> attentionInside(const AttentionSpec& a, Shape input) {
    const QString tokens = shapeText(input);
    return {attentionStep(a.heads, a.causal, a.dropout, input), {QStringLiteral("+ residual"), tokens}};
}

std::vector<InsideStep> patchInside(const PatchSpec& p, Shape input) {
    const int patches = (input.height / p.patch) * (input.width / p.patch);
    const int tokens = patches + (p.classToken ? 1 : 0);
    std::vector<InsideStep> steps{{QStringLiteral("cut into %1×%1 patches").arg(p.patch),
                                   shapeText(Shape::steps(patches, input.channels * p.patch * p.patch))},
                                  {QStringLiteral("linear to %1").arg(p.dim), shapeText(Shape::steps(patches, p.dim))}};
    if (p.classToken) steps.push_back({QStringLiteral("+ class token first"), shapeText(Shape::steps(tokens, p.dim))});
    steps.push_back({QStringLiteral("+ learned positions"), shapeText(Shape::steps(tokens, p.dim))});
    return steps;
}

}  // namespace

std::vector<InsideStep> layerInside(const LayerSpec& layer, Shape input) {
    if (const auto* e = std::get_if<EncoderSpec>(&layer); e && input.sequence && e->heads > 0)
        return encoderInside(*e, input);
    if (const auto* a = std::get_if<AttentionSpec>(&layer); a && input.sequence && a->heads > 0)
        return attentionInside(*a, input);
    if (const auto* p = std::get_if<PatchSpec>(&layer); p && !input.sequence && p->patch > 0)
        return patchInside(*p, input);
    return {};
}

}  // namespace skynnet::ui
