#pragma once
// One type per hidden layer kind, and the figures of each kind in one place. Everything that
// handles a layer visits it with visitLayer() and one callable per kind, so a kind added to
// LayerSpec does not compile until every exporter, planner and file format says what it does
// with it.
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/tensor.h"
#include "layers/activation.h"

namespace skynnet {

struct DenseSpec {
    static constexpr const char* kind = "dense";
    int units = 0;
    Activation activation = Activation::ReLU;
    bool scalable = true;  // the split may shrink this width (method.md §1: only dense widths)

    bool operator==(const DenseSpec&) const = default;
};

struct DropoutSpec {
    static constexpr const char* kind = "dropout";
    float rate = 0.0f;

    bool operator==(const DropoutSpec&) const = default;
};

struct FlattenSpec {
    static constexpr const char* kind = "flatten";

    bool operator==(const FlattenSpec&) const = default;
};

using LayerSpec = std::variant<DenseSpec, DropoutSpec, FlattenSpec>;

template <typename... Fs>
struct overloaded : Fs... {
    using Fs::operator()...;
};
template <typename... Fs>
overloaded(Fs...) -> overloaded<Fs...>;

// std::visit over one callable per kind: a kind none of them takes is a compile error.
template <typename Spec, typename... Fs>
decltype(auto) visitLayer(Spec&& layer, Fs&&... perKind) {
    return std::visit(overloaded{std::forward<Fs>(perKind)...}, std::forward<Spec>(layer));
}

// What one layer of a spec adds, from its input shape alone (no weights allocated).
struct LayerFigures {
    std::string description;  // "dense 512 relu"
    Shape output;
    std::int64_t params = 0;
    std::int64_t flopsPerSample = 0;
    // Floats the layer's forward and backward buffers hold per sample of a batch.
    std::int64_t bufferValuesPerSample = 0;
};

LayerFigures figures(const DenseSpec& layer, Shape input);
LayerFigures figures(const DropoutSpec& layer, Shape input);
LayerFigures figures(const FlattenSpec& layer, Shape input);
LayerFigures figures(const LayerSpec& layer, Shape input);

// "dense", "dropout", "flatten": the name files and the command line use.
std::string kindName(const LayerSpec& layer);
// Every kind's name, in LayerSpec order.
const std::vector<std::string>& layerKindNames();
// "dense, dropout or flatten", for error messages.
std::string layerKindList();
// A layer of the named kind with its fields at their defaults; throws Error for an unknown name.
LayerSpec layerOfKind(const std::string& name);

}  // namespace skynnet
