#include "ui/core/layer_kind_rules.h"

#include <QStringList>

namespace skynnet::ui {
namespace {

QString dropoutProblem(float rate) {
    return rate >= 0 && rate < 1 ? QString() : QStringLiteral("a dropout rate must be in [0, 1)");
}

QString recurrentSummary(int units, bool sequences, bool scalable) {
    return QStringLiteral("%1 units · %2")
               .arg(units)
               .arg(sequences ? QStringLiteral("returns every step") : QStringLiteral("returns the last step")) +
           (scalable ? QString() : QStringLiteral(" · fixed"));
}

}  // namespace

QString windowText(int h, int w) { return QStringLiteral("%1×%2").arg(h).arg(w); }
QString activationText(skynnet::Activation a) { return QString::fromStdString(activationName(a)); }

// A new layer of a kind: the kind's usual settings. Dense widths and conv filters are scalable
// (method.md §1).
LayerSpec usualLayer(const LayerSpec& type) {
    return visitLayer(
        type,
        [](const DenseSpec&) -> LayerSpec {
            return DenseSpec{64, skynnet::Activation::ReLU, true};
        },
        [](const DropoutSpec&) -> LayerSpec { return DropoutSpec{0.2f}; },
        [](const FlattenSpec&) -> LayerSpec { return FlattenSpec{}; },
        [](const ConvSpec&) -> LayerSpec { return ConvSpec{}; },  // 32 3x3 valid relu
        [](const MaxPoolSpec&) -> LayerSpec { return MaxPoolSpec{}; },
        [](const AvgPoolSpec&) -> LayerSpec { return AvgPoolSpec{}; },
        [](const GlobalAvgPoolSpec&) -> LayerSpec { return GlobalAvgPoolSpec{}; },
        [](const BatchNormSpec&) -> LayerSpec { return BatchNormSpec{}; },
        [](const ActivationSpec&) -> LayerSpec { return ActivationSpec{}; },
        [](const EmbeddingSpec&) -> LayerSpec { return EmbeddingSpec{}; },  // 64, the data's vocabulary
        [](const GruSpec&) -> LayerSpec { return GruSpec{}; },              // 64 units, the last step
        [](const LstmSpec&) -> LayerSpec { return LstmSpec{}; },
        [](const SeqPoolSpec&) -> LayerSpec { return SeqPoolSpec{}; },  // mean
        [](const PatchSpec&) -> LayerSpec { return PatchSpec{}; },      // 7x7 patches to 64
        [](const LayerNormSpec&) -> LayerSpec { return LayerNormSpec{}; },
        [](const AttentionSpec&) -> LayerSpec { return AttentionSpec{}; },  // 4 heads
        [](const EncoderSpec&) -> LayerSpec { return EncoderSpec{}; });     // 4 heads, MLP 128
}

// Why a layer cannot go into the network whatever its input, or empty. Shape problems (a kernel
// larger than its input) are the engine's figures() to find, row by row.
QString layerProblem(const LayerSpec& l) {
    const auto pool = [](int size, int stride) {
        return size < 1     ? QStringLiteral("a pooling window must be at least 1")
               : stride < 0 ? QStringLiteral("a pooling stride must be 0 (the window) or more")
                            : QString();
    };
    return visitLayer(
        l,
        [](const DenseSpec& d) {
            return d.units < 1 ? QStringLiteral("a dense layer needs at least 1 unit") : QString();
        },
        [](const DropoutSpec& d) { return dropoutProblem(d.rate); }, [](const FlattenSpec&) { return QString(); },
        [](const ConvSpec& c) {
            if (c.filters < 1) return QStringLiteral("a conv layer needs at least 1 filter");
            if (c.kernelH < 1 || c.kernelW < 1) return QStringLiteral("a conv kernel must be at least 1x1");
            return c.stride < 1 ? QStringLiteral("a conv stride must be at least 1") : QString();
        },
        [&](const MaxPoolSpec& p) { return pool(p.size, p.stride); },
        [&](const AvgPoolSpec& p) { return pool(p.size, p.stride); },
        [](const GlobalAvgPoolSpec&) { return QString(); },
        [](const BatchNormSpec& b) {
            if (!(b.momentum > 0 && b.momentum <= 1)) return QStringLiteral("a batch-norm momentum must be in (0, 1]");
            return b.epsilon > 0 ? QString() : QStringLiteral("a batch-norm epsilon must be above 0");
        },
        [](const ActivationSpec&) { return QString(); },
        [](const EmbeddingSpec& e) {
            return e.dim < 1 ? QStringLiteral("an embedding needs at least 1 dimension") : QString();
        },
        [](const GruSpec& g) { return g.units < 1 ? QStringLiteral("a GRU needs at least 1 unit") : QString(); },
        [](const LstmSpec& l) { return l.units < 1 ? QStringLiteral("an LSTM needs at least 1 unit") : QString(); },
        [](const SeqPoolSpec&) { return QString(); },
        [](const PatchSpec& p) {
            return p.patch < 1 || p.dim < 1 ? QStringLiteral("a patch layer needs a size and a dimension of at least 1")
                                            : QString();
        },
        [](const LayerNormSpec&) { return QString(); },
        [](const AttentionSpec& a) {
            if (a.heads < 1) return QStringLiteral("attention needs at least 1 head");
            return dropoutProblem(a.dropout);
        },
        [](const EncoderSpec& e) {
            if (e.heads < 1 || e.mlp < 1) return QStringLiteral("an encoder needs at least 1 head and 1 MLP unit");
            return dropoutProblem(e.dropout);
        });
}

// Every field of a layer in a few words, for the Settings column.
QString layerSummary(const LayerSpec& l) {
    const auto pool = [](int size, int stride, int effective) {
        return windowText(size, size) +
               (stride > 0 && effective != size ? QStringLiteral(" · stride %1").arg(stride) : QString());
    };
    return visitLayer(
        l,
        [](const DenseSpec& d) {
            return QStringLiteral("%1 units · %2").arg(d.units).arg(activationText(d.activation)) +
                   (d.scalable ? QString() : QStringLiteral(" · fixed"));
        },
        [](const DropoutSpec& d) { return QStringLiteral("rate %1").arg(double(d.rate)); },
        [](const FlattenSpec&) { return QStringLiteral("to one row of values"); },
        [](const ConvSpec& c) {
            QStringList parts{QStringLiteral("%1 filters").arg(c.filters), windowText(c.kernelH, c.kernelW)};
            if (c.stride != 1) parts << QStringLiteral("stride %1").arg(c.stride);
            parts << QString::fromStdString(paddingName(c.padding)) << activationText(c.activation);
            if (!c.bias) parts << QStringLiteral("no bias");
            if (!c.scalable) parts << QStringLiteral("fixed");
            return parts.join(QStringLiteral(" · "));
        },
        [&](const MaxPoolSpec& p) { return pool(p.size, p.stride, p.effectiveStride()); },
        [&](const AvgPoolSpec& p) { return pool(p.size, p.stride, p.effectiveStride()); },
        [](const GlobalAvgPoolSpec&) { return QStringLiteral("mean of each channel"); },
        [](const BatchNormSpec& b) {
            return QStringLiteral("momentum %1 · ε %2").arg(double(b.momentum)).arg(double(b.epsilon));
        },
        [](const ActivationSpec& a) { return activationText(a.activation); },
        [](const EmbeddingSpec& e) {
            // The vocabulary is the data's (its tokenizer's): shown, not edited.
            return QStringLiteral("%1 dimensions · %2")
                       .arg(e.dim)
                       .arg(e.vocabulary > 0 ? QStringLiteral("vocabulary %1").arg(e.vocabulary)
                                             : QStringLiteral("vocabulary from the text data")) +
                   (e.scalable ? QString() : QStringLiteral(" · fixed"));
        },
        [](const GruSpec& g) { return recurrentSummary(g.units, g.sequences, g.scalable); },
        [](const LstmSpec& l) { return recurrentSummary(l.units, l.sequences, l.scalable); },
        [](const SeqPoolSpec& p) {
            switch (p.mode) {
            case skynnet::SequencePoolMode::Mean: return QStringLiteral("mean of the real steps");
            case skynnet::SequencePoolMode::Last: return QStringLiteral("the last step");
            case skynnet::SequencePoolMode::Cls: return QStringLiteral("the first step (a class token)");
            }
            return QString();
        },
        [](const PatchSpec& p) {
            return QStringLiteral("%1 patches to %2 dimensions").arg(windowText(p.patch, p.patch)).arg(p.dim) +
                   (p.classToken ? QStringLiteral(" · class token") : QString()) +
                   (p.scalable ? QString() : QStringLiteral(" · fixed"));
        },
        [](const LayerNormSpec&) { return QStringLiteral("each token's features"); },
        [](const AttentionSpec& a) {
            return QStringLiteral("%1 heads").arg(a.heads) + (a.causal ? QStringLiteral(" · causal") : QString()) +
                   (a.dropout > 0 ? QStringLiteral(" · dropout %1").arg(double(a.dropout)) : QString()) +
                   QStringLiteral(" · with its residual");
        },
        [](const EncoderSpec& e) {
            return QStringLiteral("%1 heads · MLP %2 gelu").arg(e.heads).arg(e.mlp) +
                   (e.dropout > 0 ? QStringLiteral(" · dropout %1").arg(double(e.dropout)) : QString()) +
                   (e.scalable ? QString() : QStringLiteral(" · fixed"));
        });
}

}  // namespace skynnet::ui
