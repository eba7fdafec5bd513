#include "export/cpp_layer_entries.h"

#include "core/error.h"
#include "export/cpp_literals.h"

namespace skynnet {
namespace {

std::string dims(Shape s) {
    return std::to_string(s.channels) + ", " + std::to_string(s.height) + ", " + std::to_string(s.width);
}

std::string denseEntry(const DenseSpec& d, Shape input, const CppWeightArray& array) {
    const std::size_t inputs = std::size_t(input.size());
    const std::string W = array("W", inputs * std::size_t(d.units));
    const std::string B = array("B", std::size_t(d.units));
    return "denseLayer(" + std::to_string(inputs) + ", " + std::to_string(d.units) + ", " +
           cppActivationName(d.activation) + ", " + W + ", " + B + ")";
}

std::string convEntry(const ConvSpec& c, Shape input, const CppWeightArray& array) {
    const Shape o = figures(c, input).output;
    const std::string W = array("W", std::size_t(c.filters) * std::size_t(input.channels) * std::size_t(c.kernelH) *
                                         std::size_t(c.kernelW));
    const std::string B = c.bias ? array("B", std::size_t(c.filters)) : "nullptr";
    return "convLayer(" + dims(input) + ", " + std::to_string(c.filters) + ", " + std::to_string(o.height) + ", " +
           std::to_string(o.width) + ", " + std::to_string(c.kernelH) + ", " + std::to_string(c.kernelW) + ", " +
           std::to_string(c.stride) + ", " +
           std::to_string(convPaddingBefore(input.height, c.kernelH, c.stride, c.padding)) + ", " +
           std::to_string(convPaddingBefore(input.width, c.kernelW, c.stride, c.padding)) + ", " +
           cppActivationName(c.activation) + ", " + W + ", " + B + ")";
}

// Max and average pooling: a window of `size`, moved by `stride`.
std::string poolEntry(const char* kind, const LayerSpec& layer, int size, int stride, Shape input) {
    const Shape o = figures(layer, input).output;
    return std::string("poolLayer(") + kind + ", " + dims(input) + ", " + std::to_string(o.height) + ", " +
           std::to_string(o.width) + ", " + std::to_string(size) + ", " + std::to_string(stride) + ")";
}

std::string batchNormEntry(const BatchNormSpec& n, Shape input, const CppWeightArray& array) {
    const std::size_t channels = std::size_t(batchNormChannels(input));
    const std::string gamma = array("Gamma", channels), beta = array("Beta", channels);
    const std::string mean = array("Mean", channels), variance = array("Variance", channels);
    return "batchNormLayer(" + dims(input) + ", " + gamma + ", " + beta + ", " + mean + ", " + variance + ", " +
           cppFloatLiteral(n.epsilon) + ")";
}

}  // namespace

const char* cppActivationName(Activation a) {
    switch (a) {
    case Activation::None: return "Act::Linear";
    case Activation::ReLU: return "Act::Relu";
    case Activation::LeakyReLU: return "Act::LeakyRelu";
    case Activation::Sigmoid: return "Act::Sigmoid";
    case Activation::Tanh: return "Act::Tanh";
    case Activation::Softmax: return "Act::Softmax";
    case Activation::GELU: return "Act::Gelu";
    case Activation::ReLU6: return "Act::Relu6";
    case Activation::Softplus: return "Act::Softplus";
    case Activation::ELU: return "Act::Elu";
    }
    return "Act::Linear";
}

std::string cppLayerEntry(const LayerSpec& layer, Shape input, const CppWeightArray& array) {
    const auto sequence = [&](const auto&) { return cppSequenceLayerEntry(layer, input, array); };
    const auto transformer = [&](const auto&) { return cppTransformerLayerEntry(layer, input, array); };
    const auto none = [&](const auto&) -> std::string {
        throw Error("a " + description(layer) + " layer has no entry in the layer table");
    };
    return visitLayer(
        layer, [&](const DenseSpec& d) { return denseEntry(d, input, array); },
        [&](const DropoutSpec& d) { return none(d); }, [&](const FlattenSpec& f) { return none(f); },
        [&](const ConvSpec& c) { return convEntry(c, input, array); },
        [&](const MaxPoolSpec& p) { return poolEntry("Kind::MaxPool", layer, p.size, p.effectiveStride(), input); },
        [&](const AvgPoolSpec& p) { return poolEntry("Kind::AvgPool", layer, p.size, p.effectiveStride(), input); },
        [&](const GlobalAvgPoolSpec&) { return "poolLayer(Kind::GlobalAvgPool, " + dims(input) + ", 1, 1, 0, 1)"; },
        [&](const BatchNormSpec& n) { return batchNormEntry(n, input, array); },
        [&](const ActivationSpec& a) {
            return "activationLayer(" + dims(input) + ", " + cppActivationName(a.activation) + ")";
        },
        [&](const EmbeddingSpec& e) { return sequence(e); }, [&](const GruSpec& g) { return sequence(g); },
        [&](const LstmSpec& l) { return sequence(l); }, [&](const SeqPoolSpec& p) { return sequence(p); },
        [&](const PatchSpec& p) { return transformer(p); }, [&](const LayerNormSpec& n) { return transformer(n); },
        [&](const AttentionSpec& a) { return transformer(a); }, [&](const EncoderSpec& e) { return transformer(e); });
}

}  // namespace skynnet
