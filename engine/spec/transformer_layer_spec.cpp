#include "spec/transformer_layer_spec.h"

#include <sstream>

#include "core/error.h"
#include "spec/layer_spec.h"

namespace skynnet {
namespace {

std::string rateText(float rate) {
    std::ostringstream s;
    s << rate;
    return s.str();
}

// The features of each token, checked against the heads: every head reads width / heads of them.
void requireHeads(const std::string& description, Shape input, int heads) {
    if (!input.sequence)
        throw Error(description + " needs tokens (a sequence: steps x features), not " + input.toString() +
                    ": start with a patch layer (images) or an embedding (text)");
    if (heads < 1) throw Error(description + ": the head count must be at least 1");
    if (input.width % heads != 0)
        throw Error(description + ": " + std::to_string(input.width) + " features do not divide into " +
                    std::to_string(heads) + " heads");
}

// Multi-head self-attention over T tokens of D features (layers/attention.h): the Q, K, V
// projections (D x 3D), the scores and their weighted sum over tokens, the output projection.
LayerFigures attentionFigures(Shape input, int heads, bool dropout) {
    const std::int64_t t = input.height, d = input.width, h = heads;
    LayerFigures f;
    f.output = input;
    f.params = 4 * d * d + 4 * d;
    f.flopsPerSample = 2 * t * d * 3 * d + 2 * 2 * t * t * d + 2 * t * d * d;
    // Q, K, V and their gradient, the (heads, T, T) weights and their gradient (a dropout mask
    // too), the context and its gradient, the output and the input gradient.
    f.bufferValuesPerSample = 2 * 3 * t * d + (dropout ? 3 : 2) * h * t * t + 2 * t * d + 2 * t * d;
    return f;
}

}  // namespace

std::string describe(const PatchSpec& l) {
    return std::string(PatchSpec::kind) + " " + std::to_string(l.patch) + "x" + std::to_string(l.patch) + " " +
           std::to_string(l.dim) + (l.classToken ? " cls" : "");
}
std::string describe(const LayerNormSpec&) { return LayerNormSpec::kind; }
std::string describe(const AttentionSpec& l) {
    return std::string(AttentionSpec::kind) + " " + std::to_string(l.heads) + " heads" + (l.causal ? " causal" : "") +
           (l.dropout > 0 ? " dropout " + rateText(l.dropout) : "");
}
std::string describe(const EncoderSpec& l) {
    return std::string(EncoderSpec::kind) + " " + std::to_string(l.heads) + " heads mlp " + std::to_string(l.mlp) +
           (l.dropout > 0 ? " dropout " + rateText(l.dropout) : "");
}

LayerFigures figures(const PatchSpec& layer, Shape input) {
    LayerFigures f;
    f.description = describe(layer);
    if (input.sequence || input.height < 2)
        throw Error(f.description + " needs images (channels x height x width), not " + input.toString());
    if (layer.patch < 1 || layer.dim < 1)
        throw Error(f.description + ": the patch size and dimension must be at least 1");
    if (input.height % layer.patch != 0 || input.width % layer.patch != 0)
        throw Error(f.description + ": " + std::to_string(input.height) + "x" + std::to_string(input.width) +
                    " images do not divide into " + std::to_string(layer.patch) + "x" + std::to_string(layer.patch) +
                    " patches");
    const std::int64_t patches = std::int64_t(input.height / layer.patch) * (input.width / layer.patch);
    const std::int64_t tokens = patches + (layer.classToken ? 1 : 0), d = layer.dim;
    const std::int64_t patchValues = std::int64_t(input.channels) * layer.patch * layer.patch;
    f.output = Shape::steps(int(tokens), layer.dim);
    f.params = patchValues * d + d + tokens * d + (layer.classToken ? d : 0);
    f.flopsPerSample = 2 * patches * patchValues * d;
    // The patches as rows, the tokens and their gradient, the input gradient.
    f.bufferValuesPerSample = patches * patchValues + 2 * tokens * d + input.size();
    return f;
}

LayerFigures figures(const LayerNormSpec& layer, Shape input) {
    LayerFigures f;
    f.description = describe(layer);
    const std::int64_t features = input.sequence ? input.width : input.size();
    f.output = input;
    f.params = 2 * features;
    f.flopsPerSample = 8 * input.size();
    f.bufferValuesPerSample = 3 * input.size() + 2 * (input.size() / features);  // output, xhat, gradient; mean, 1/sd
    return f;
}

LayerFigures figures(const AttentionSpec& layer, Shape input) {
    const std::string description = describe(layer);
    requireHeads(description, input, layer.heads);
    LayerFigures f = attentionFigures(input, layer.heads, layer.dropout > 0);
    f.description = description;
    return f;
}

LayerFigures figures(const EncoderSpec& layer, Shape input) {
    const std::string description = describe(layer);
    requireHeads(description, input, layer.heads);
    if (layer.mlp < 1) throw Error(description + ": the MLP width must be at least 1");
    LayerFigures f = attentionFigures(input, layer.heads, layer.dropout > 0);
    f.description = description;
    const std::int64_t t = input.height, d = input.width, m = layer.mlp;
    f.params += 2 * 2 * d + d * m + m + m * d + d;  // two LayerNorms and the MLP
    f.flopsPerSample += 2 * 2 * t * d * m + 2 * 8 * t * d;
    // Both LayerNorms (output, xhat, gradient), the MLP's hidden values before and after GELU,
    // their gradient (and a dropout mask), the second residual's sum and its gradient.
    f.bufferValuesPerSample += 2 * 3 * t * d + (layer.dropout > 0 ? 4 : 3) * t * m + 2 * t * d;
    return f;
}

}  // namespace skynnet
