#include "split/head_widths.h"

#include <numeric>
#include <vector>

#include "core/error.h"

namespace skynnet {
namespace {

// The width that sets the features of the tokens after layer i: a patch's or an embedding's
// dimension, a recurrent layer's units when it returns every step; nullptr when the layer keeps
// its input's features (attention, encoder, layernorm, bn, dropout, activation).
int* tokenWidthSetBy(LayerSpec& layer, bool& keepsFeatures) {
    keepsFeatures = false;
    return visitLayer(
        layer, [](PatchSpec& l) { return &l.dim; }, [](EmbeddingSpec& l) { return &l.dim; },
        [](GruSpec& l) { return l.sequences ? &l.units : nullptr; },
        [](LstmSpec& l) { return l.sequences ? &l.units : nullptr; },
        [&](AttentionSpec&) -> int* { return keepsFeatures = true, nullptr; },
        [&](EncoderSpec&) -> int* { return keepsFeatures = true, nullptr; },
        [&](LayerNormSpec&) -> int* { return keepsFeatures = true, nullptr; },
        [&](BatchNormSpec&) -> int* { return keepsFeatures = true, nullptr; },
        [&](DropoutSpec&) -> int* { return keepsFeatures = true, nullptr; },
        [&](ActivationSpec&) -> int* { return keepsFeatures = true, nullptr; }, [](auto&) -> int* { return nullptr; });
}

int headsOf(const LayerSpec& layer) {
    if (const auto* a = std::get_if<AttentionSpec>(&layer)) return a->heads;
    if (const auto* e = std::get_if<EncoderSpec>(&layer)) return e->heads;
    return 0;
}

}  // namespace

void fitTokenWidthsToHeads(NetworkSpec& shrunk, const NetworkSpec& original) {
    // The layers reading the tokens of each width-setting layer: (setter, readers with heads).
    struct Tokens {
        std::size_t setter;
        std::vector<std::size_t> readers;
    };
    std::vector<Tokens> groups;
    bool open = false;
    for (std::size_t i = 0; i < shrunk.layers.size(); ++i) {
        if (headsOf(shrunk.layers[i]) > 0) {
            if (open) groups.back().readers.push_back(i);
            continue;
        }
        bool keeps = false;
        if (tokenWidthSetBy(shrunk.layers[i], keeps)) {
            groups.push_back({i, {}});
            open = true;
        } else if (!keeps) {
            open = false;
        }
    }
    for (const Tokens& g : groups) {
        bool keeps = false;
        int* width = tokenWidthSetBy(shrunk.layers[g.setter], keeps);
        const int* before = widthOf(original.layers[g.setter]);
        if (g.readers.empty() || !before || *width == *before) continue;  // not shrunk: never rounded
        int multiple = 1;
        for (std::size_t r : g.readers) multiple = std::lcm(multiple, headsOf(shrunk.layers[r]));
        *width = (*width + multiple - 1) / multiple * multiple;
        for (std::size_t r : g.readers) {
            const int heads = headsOf(shrunk.layers[r]);
            if (*width / heads < 2)
                throw Error("layer " + std::to_string(r + 1) + " (" + description(original.layers[r]) + "): its " +
                            std::to_string(heads) + " heads would read " + std::to_string(*width / heads) +
                            " dimension(s) each after the split (" + description(shrunk.layers[g.setter]) +
                            "), below 2 (widen the layer before it, use fewer heads, or request fewer submodels)");
        }
    }
}

}  // namespace skynnet
