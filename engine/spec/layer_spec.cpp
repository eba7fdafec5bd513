#include "spec/layer_spec.h"

#include <algorithm>
#include <sstream>

#include "core/error.h"
#include "layers/conv2d.h"

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

std::string windowText(int h, int w) { return std::to_string(h) + "x" + std::to_string(w); }
std::string sizeText(const Shape& s) { return windowText(s.height, s.width); }

template <class Pool>
std::string describePool(const Pool& p) {
    const int stride = p.effectiveStride();
    return std::string(Pool::kind) + " " + std::to_string(p.size) +
           (stride != p.size ? " s" + std::to_string(stride) : "");
}

std::string describe(const DenseSpec& l) {
    return std::string(DenseSpec::kind) + " " + std::to_string(l.units) + " " + activationName(l.activation);
}
std::string describe(const DropoutSpec& l) {
    std::ostringstream d;
    d << DropoutSpec::kind << " " << l.rate;
    return d.str();
}
std::string describe(const FlattenSpec&) { return FlattenSpec::kind; }
std::string describe(const ConvSpec& l) {
    return std::string(ConvSpec::kind) + " " + std::to_string(l.filters) + " " + windowText(l.kernelH, l.kernelW) +
           (l.stride != 1 ? " s" + std::to_string(l.stride) : "") + (l.padding == Padding::Same ? " same" : "") +
           (l.bias ? "" : " nobias") + " " + activationName(l.activation);
}
std::string describe(const MaxPoolSpec& l) { return describePool(l); }
std::string describe(const AvgPoolSpec& l) { return describePool(l); }
std::string describe(const GlobalAvgPoolSpec&) { return GlobalAvgPoolSpec::kind; }
std::string describe(const BatchNormSpec&) { return BatchNormSpec::kind; }
std::string describe(const ActivationSpec& l) {
    return std::string(ActivationSpec::kind) + " " + activationName(l.activation);
}

// Convolutions and pooling read (C, H, W) images; a sequence reaching them is a design mistake.
void requireImage(const std::string& description, Shape input) {
    if (input.sequence)
        throw Error(description + " needs an image input, not a sequence " + input.toString() +
                    " (flatten it, or pool it with seqpool)");
}

// A pooling window over each channel: the output shape, or Error naming the layer.
Shape pooledShape(const std::string& description, int size, int stride, Shape input) {
    requireImage(description, input);
    if (size < 1) throw Error(description + ": the window size must be at least 1");
    if (stride < 1) throw Error(description + ": the stride must be at least 1");
    if (size > input.height || size > input.width)
        throw Error(description + ": window " + windowText(size, size) + " is larger than its " + sizeText(input) +
                    " input");
    return Shape{input.channels, (input.height - size) / stride + 1, (input.width - size) / stride + 1};
}

}  // namespace

LayerFigures figures(const DenseSpec& layer, Shape input) {
    LayerFigures f;
    f.description = describe(layer);
    f.output = Shape::flat(layer.units);
    f.params = std::int64_t(input.size()) * layer.units + layer.units;  // W (inputs x units) and b
    f.flopsPerSample = 2 * std::int64_t(input.size()) * layer.units;
    f.bufferValuesPerSample = buffersPerLayer * f.output.size();
    return f;
}

LayerFigures figures(const DropoutSpec& layer, Shape input) {
    return {describe(layer), input, 0, 0, buffersPerLayer * input.size()};
}

LayerFigures figures(const FlattenSpec& layer, Shape input) {
    const Shape flat = Shape::flat(int(input.size()));
    return {describe(layer), flat, 0, 0, buffersPerLayer * flat.size()};
}

int convOutputSize(int input, int kernel, int stride, Padding padding) {
    if (padding == Padding::Same) return (input + stride - 1) / stride;
    return input < kernel ? 0 : (input - kernel) / stride + 1;
}

int convPaddingBefore(int input, int kernel, int stride, Padding padding) {
    if (padding == Padding::Valid) return 0;
    const int out = convOutputSize(input, kernel, stride, padding);
    return std::max((out - 1) * stride + kernel - input, 0) / 2;
}

int batchNormChannels(Shape input) {
    return input.sequence || (input.channels == 1 && input.height == 1) ? input.width : input.channels;
}

std::string paddingName(Padding p) { return p == Padding::Same ? "same" : "valid"; }

Padding parsePadding(const std::string& name) {
    if (name == "valid") return Padding::Valid;
    if (name == "same") return Padding::Same;
    throw Error("unknown padding '" + name + "' (expected valid or same)");
}

LayerFigures figures(const ConvSpec& layer, Shape input) {
    LayerFigures f;
    f.description = describe(layer);
    requireImage(f.description, input);
    if (layer.filters < 1) throw Error(f.description + ": the filter count must be at least 1");
    if (layer.kernelH < 1 || layer.kernelW < 1) throw Error(f.description + ": the kernel must be at least 1x1");
    if (layer.stride < 1) throw Error(f.description + ": the stride must be at least 1");
    if (layer.padding == Padding::Valid && (layer.kernelH > input.height || layer.kernelW > input.width))
        throw Error(f.description + ": kernel " + windowText(layer.kernelH, layer.kernelW) + " is larger than its " +
                    sizeText(input) + " input (use same padding or a smaller kernel)");
    const int oh = convOutputSize(input.height, layer.kernelH, layer.stride, layer.padding);
    const int ow = convOutputSize(input.width, layer.kernelW, layer.stride, layer.padding);
    f.output = Shape{layer.filters, oh, ow};
    const std::int64_t window = std::int64_t(input.channels) * layer.kernelH * layer.kernelW;
    f.params = window * layer.filters + (layer.bias ? layer.filters : 0);
    f.flopsPerSample = 2 * window * layer.filters * oh * ow;
    // Output, activation and input-gradient buffers as a dense layer has, plus the blocks and
    // packed filters of the direct path or one chunk's unfolded input windows (im2col, later their
    // gradient) and product, as Conv2D holds them.
    f.bufferValuesPerSample = buffersPerLayer * f.output.size();
    f.bufferValuesFixed = convFixedBufferValues(input,
                                                ConvOptions{layer.filters, layer.kernelH, layer.kernelW, layer.stride,
                                                            layer.padding == Padding::Same, layer.bias});
    return f;
}

namespace {

// A pooling layer's figures: one comparison (max) or addition (average) per window value; the
// buffers are its output and input gradient, plus one per output for max pooling's argmax.
template <class Pool>
LayerFigures poolFigures(const Pool& layer, Shape input, int buffersPerOutput) {
    LayerFigures f;
    f.description = describe(layer);
    f.output = pooledShape(f.description, layer.size, layer.effectiveStride(), input);
    f.flopsPerSample = f.output.size() * layer.size * layer.size;
    f.bufferValuesPerSample = buffersPerOutput * f.output.size() + input.size();
    return f;
}

}  // namespace

LayerFigures figures(const MaxPoolSpec& layer, Shape input) { return poolFigures(layer, input, 2); }
LayerFigures figures(const AvgPoolSpec& layer, Shape input) { return poolFigures(layer, input, 1); }

LayerFigures figures(const GlobalAvgPoolSpec& layer, Shape input) {
    LayerFigures f;
    f.description = describe(layer);
    requireImage(f.description, input);
    f.output = Shape{input.channels, 1, 1};
    f.flopsPerSample = input.size();
    f.bufferValuesPerSample = f.output.size() + input.size();
    return f;
}

LayerFigures figures(const BatchNormSpec& layer, Shape input) {
    LayerFigures f;
    f.description = describe(layer);
    if (!(layer.momentum > 0.0f && layer.momentum <= 1.0f))
        throw Error(f.description + ": the momentum must be above 0 and at most 1");
    if (!(layer.epsilon > 0.0f)) throw Error(f.description + ": epsilon must be above 0");
    const int channels = batchNormChannels(input);
    f.output = input;
    f.params = 2 * std::int64_t(channels);       // scale and shift
    f.state = 2 * std::int64_t(channels);        // running mean and variance
    f.flopsPerSample = 2 * input.size();         // one multiply-add per value at inference
    f.bufferValuesPerSample = 3 * input.size();  // output, normalised input, input gradient
    return f;
}

LayerFigures figures(const ActivationSpec& layer, Shape input) {
    LayerFigures f;
    f.description = describe(layer);
    f.output = input;
    f.bufferValuesPerSample = 2 * input.size();
    return f;
}

LayerFigures figures(const LayerSpec& layer, Shape input) {
    return std::visit([&](const auto& l) { return figures(l, input); }, layer);
}

std::string description(const LayerSpec& layer) {
    return std::visit([](const auto& l) { return describe(l); }, layer);
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
