#include "spec/layer_spec.h"

#include <sstream>

#include "core/error.h"

namespace skynnet {
namespace {

// Training memory has always been estimated as four buffers of the output width per layer: a
// dense layer's output and input gradient plus its activation's two. Dropout holds three and
// flatten none, so the estimate is a little high for them, and kept so that saved plans' figures
// stay what they were.
constexpr std::int64_t buffersPerLayer = 4;

template <std::size_t... I>
std::vector<std::string> namesOf(std::index_sequence<I...>) {
    return {std::variant_alternative_t<I, LayerSpec>::kind...};
}

template <std::size_t... I>
LayerSpec defaultOfKind(const std::string& name, std::index_sequence<I...>) {
    LayerSpec found;
    const bool known = ((name == std::variant_alternative_t<I, LayerSpec>::kind
                             ? (found = std::variant_alternative_t<I, LayerSpec>{}, true)
                             : false) ||
                        ...);
    if (!known) throw Error("unknown layer type '" + name + "' (expected " + layerKindList() + ")");
    return found;
}

constexpr auto kindIndices = std::make_index_sequence<std::variant_size_v<LayerSpec>>{};

}  // namespace

LayerFigures figures(const DenseSpec& layer, Shape input) {
    LayerFigures f;
    f.description = std::string(DenseSpec::kind) + " " + std::to_string(layer.units) + " " + activationName(layer.activation);
    f.output = Shape::flat(layer.units);
    f.params = std::int64_t(input.size()) * layer.units + layer.units;  // W (inputs x units) and b
    f.flopsPerSample = 2 * std::int64_t(input.size()) * layer.units;
    f.bufferValuesPerSample = buffersPerLayer * f.output.size();
    return f;
}

LayerFigures figures(const DropoutSpec& layer, Shape input) {
    std::ostringstream d;
    d << DropoutSpec::kind << " " << layer.rate;
    return {d.str(), input, 0, 0, buffersPerLayer * input.size()};
}

LayerFigures figures(const FlattenSpec&, Shape input) {
    const Shape flat = Shape::flat(int(input.size()));
    return {FlattenSpec::kind, flat, 0, 0, buffersPerLayer * flat.size()};
}

LayerFigures figures(const LayerSpec& layer, Shape input) {
    return std::visit([&](const auto& l) { return figures(l, input); }, layer);
}

std::string kindName(const LayerSpec& layer) {
    return std::visit([](const auto& l) { return std::string(l.kind); }, layer);
}

const std::vector<std::string>& layerKindNames() {
    static const std::vector<std::string> names = namesOf(kindIndices);
    return names;
}

std::string layerKindList() {
    const auto& names = layerKindNames();
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i)
        s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return s;
}

LayerSpec layerOfKind(const std::string& name) { return defaultOfKind(name, kindIndices); }

}  // namespace skynnet
