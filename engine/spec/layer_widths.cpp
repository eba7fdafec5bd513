// The width of each kind that the split may shrink (layer_spec.h widthOf, scalableOf).
#include "spec/layer_spec.h"

namespace skynnet {

// Every kind answers (no catch-all), so a new kind with a width cannot be forgotten here. An
// encoder's width is its input's; what it has of its own is the MLP's.
int* widthOf(LayerSpec& layer) {
    const auto none = [](auto&) -> int* { return nullptr; };
    return visitLayer(
        layer, [](DenseSpec& l) { return &l.units; }, [](ConvSpec& l) { return &l.filters; },
        [](EmbeddingSpec& l) { return &l.dim; }, [](GruSpec& l) { return &l.units; },
        [](LstmSpec& l) { return &l.units; }, [](PatchSpec& l) { return &l.dim; },
        [](EncoderSpec& l) { return &l.mlp; }, [&](DropoutSpec& l) { return none(l); },
        [&](FlattenSpec& l) { return none(l); }, [&](MaxPoolSpec& l) { return none(l); },
        [&](AvgPoolSpec& l) { return none(l); }, [&](GlobalAvgPoolSpec& l) { return none(l); },
        [&](BatchNormSpec& l) { return none(l); }, [&](ActivationSpec& l) { return none(l); },
        [&](SeqPoolSpec& l) { return none(l); }, [&](LayerNormSpec& l) { return none(l); },
        [&](AttentionSpec& l) { return none(l); });
}

const int* widthOf(const LayerSpec& layer) { return widthOf(const_cast<LayerSpec&>(layer)); }

bool* scalableOf(LayerSpec& layer) {
    if (!widthOf(layer)) return nullptr;  // every kind with a width has a scalable flag
    return visitLayer(
        layer, [](DenseSpec& l) { return &l.scalable; }, [](ConvSpec& l) { return &l.scalable; },
        [](EmbeddingSpec& l) { return &l.scalable; }, [](GruSpec& l) { return &l.scalable; },
        [](LstmSpec& l) { return &l.scalable; }, [](PatchSpec& l) { return &l.scalable; },
        [](EncoderSpec& l) { return &l.scalable; }, [](auto&) -> bool* { return nullptr; });
}

}  // namespace skynnet
