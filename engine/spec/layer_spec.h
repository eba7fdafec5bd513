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
#include "spec/sequence_layer_spec.h"
#include "spec/transformer_layer_spec.h"

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

enum class Padding { Valid, Same };

// A 2-D convolution over (C, H, W) samples. Same padding follows TensorFlow and ONNX's SAME_UPPER:
// out = ceil(in / stride), the larger half of the padding after the input.
struct ConvSpec {
    static constexpr const char* kind = "conv";
    int filters = 32;
    int kernelH = 3;
    int kernelW = 3;
    int stride = 1;
    Padding padding = Padding::Valid;
    bool bias = true;
    Activation activation = Activation::ReLU;
    bool scalable = true;  // the split shrinks filters like dense units (method.md §1)

    bool operator==(const ConvSpec&) const = default;
};

// Pooling windows never pad: out = floor((in - size) / stride) + 1.
struct MaxPoolSpec {
    static constexpr const char* kind = "maxpool";
    int size = 2;
    int stride = 0;  // 0: the window's size, so windows tile without overlap

    int effectiveStride() const { return stride > 0 ? stride : size; }
    bool operator==(const MaxPoolSpec&) const = default;
};

struct AvgPoolSpec {
    static constexpr const char* kind = "avgpool";
    int size = 2;
    int stride = 0;  // 0: the window's size

    int effectiveStride() const { return stride > 0 ? stride : size; }
    bool operator==(const AvgPoolSpec&) const = default;
};

// The mean of each channel: (C, H, W) -> (C, 1, 1).
struct GlobalAvgPoolSpec {
    static constexpr const char* kind = "gap";

    bool operator==(const GlobalAvgPoolSpec&) const = default;
};

// Batch normalisation: per channel over (N, H, W) for images, per feature for a flat input.
// Running values follow PyTorch: running = (1 - momentum) * running + momentum * batch value.
struct BatchNormSpec {
    static constexpr const char* kind = "bn";
    float momentum = 0.1f;
    float epsilon = 1e-5f;

    bool operator==(const BatchNormSpec&) const = default;
};

// An activation on its own, for conv-bn-activation blocks (the conv then has a linear output).
struct ActivationSpec {
    static constexpr const char* kind = "activation";
    Activation activation = Activation::ReLU;

    bool operator==(const ActivationSpec&) const = default;
};

using LayerSpec = std::variant<DenseSpec, DropoutSpec, FlattenSpec, ConvSpec, MaxPoolSpec, AvgPoolSpec,
                               GlobalAvgPoolSpec, BatchNormSpec, ActivationSpec, EmbeddingSpec, GruSpec, LstmSpec,
                               SeqPoolSpec, PatchSpec, LayerNormSpec, AttentionSpec, EncoderSpec>;

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
    // Floats the layer's forward and backward buffers hold per sample of a batch, and whatever
    // the batch size (a convolution's chunk of columns and product).
    std::int64_t bufferValuesPerSample = 0;
    std::int64_t bufferValuesFixed = 0;
    // Values saved with the weights that training does not optimise (BatchNorm's running mean
    // and variance); Network::flatWeights() holds them after the layer's parameters.
    std::int64_t state = 0;
};

LayerFigures figures(const DenseSpec& layer, Shape input);
LayerFigures figures(const DropoutSpec& layer, Shape input);
LayerFigures figures(const FlattenSpec& layer, Shape input);
// These throw Error, naming the layer by its description, for a shape they cannot take
// (a kernel or window larger than its input, a zero filter count).
LayerFigures figures(const ConvSpec& layer, Shape input);
LayerFigures figures(const MaxPoolSpec& layer, Shape input);
LayerFigures figures(const AvgPoolSpec& layer, Shape input);
LayerFigures figures(const GlobalAvgPoolSpec& layer, Shape input);
LayerFigures figures(const BatchNormSpec& layer, Shape input);
LayerFigures figures(const ActivationSpec& layer, Shape input);
// Sequence kinds (sequence_layer_spec.cpp): they throw Error, naming the layer, for an input that
// is not a sequence (an embedding's: not token ids) or an embedding not yet bound to a vocabulary.
LayerFigures figures(const EmbeddingSpec& layer, Shape input);
LayerFigures figures(const GruSpec& layer, Shape input);
LayerFigures figures(const LstmSpec& layer, Shape input);
LayerFigures figures(const SeqPoolSpec& layer, Shape input);
// Transformer kinds (transformer_layer_spec.cpp): they throw Error, naming the layer, for an
// image a patch does not divide, tokens whose features the heads do not divide, or an input of
// the wrong kind (a patch over tokens, attention over a flat vector).
LayerFigures figures(const PatchSpec& layer, Shape input);
LayerFigures figures(const LayerNormSpec& layer, Shape input);
LayerFigures figures(const AttentionSpec& layer, Shape input);
LayerFigures figures(const EncoderSpec& layer, Shape input);
LayerFigures figures(const LayerSpec& layer, Shape input);

// The width the split may shrink (dense units, conv filters, recurrent units, embedding size, a
// patch's dimension, an encoder's MLP) and whether it may: nullptr for kinds without a width of
// their own (layer_widths.cpp).
int* widthOf(LayerSpec& layer);
const int* widthOf(const LayerSpec& layer);
bool* scalableOf(LayerSpec& layer);

// "dense 512 relu", "conv 32 3x3 relu": how messages, plans and the designer name a layer.
std::string description(const LayerSpec& layer);
// "dense", "dropout", "flatten": the name files and the command line use.
std::string kindName(const LayerSpec& layer);
// The output size of a convolution along one axis, and the padding before the input on it.
int convOutputSize(int input, int kernel, int stride, Padding padding);
int convPaddingBefore(int input, int kernel, int stride, Padding padding);
// The channels BatchNorm keeps statistics for: C for (C, H, W), the width for a flat input and
// the features of a sequence.
int batchNormChannels(Shape input);
std::string paddingName(Padding p);
Padding parsePadding(const std::string& name);  // "valid" or "same"; throws Error otherwise
// Every kind's name, in LayerSpec order.
const std::vector<std::string>& layerKindNames();
// "dense, dropout or flatten", for error messages.
std::string layerKindList();
// A layer of the named kind with its fields at their defaults; throws Error for an unknown name.
LayerSpec layerOfKind(const std::string& name);

}  // namespace skynnet
