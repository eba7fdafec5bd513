#include "export/cpp_sequence_layers.h"

#include "core/error.h"

namespace skynnet {

const char* const cppSequenceRuntime =
    R"(
// ---- Sequence layers. A sequence is h steps of w features, step-major. The step mask (1 a real
// step, 0 padding) is made by the embedding from its ids and read by seqpool:mean.

// Token ids (one per step, as floats) to rows of the table [vocabulary][dim]. Id 0 is padding: its
// row, and 0 in the mask. An id that is not an integer in [0, vocabulary) reads as padding (as an
// unseen category code gives zeros; Skynnet itself refuses such an id).
constexpr Layer embeddingLayer(int steps, int vocabulary, int dim, const float* table) {
    Layer l = shapedLayer(Kind::Embedding, 1, steps, 1, 1, steps, dim);
    l.sequence = true, l.vocabulary = vocabulary, l.weights = table;
    return l;
}

inline void embedding(const Layer& l, const float* ids, float* y, float* mask) {
    for (int t = 0; t < l.h; ++t) {
        const float id = ids[t];
        const bool valid = id >= 0.0f && id < static_cast<float>(l.vocabulary) && id == std::floor(id);
        const std::size_t row = valid ? static_cast<std::size_t>(id) : 0;
        mask[t] = row != 0 ? 1.0f : 0.0f;
        for (int j = 0; j < l.outW; ++j) y[t * l.outW + j] = l.weights[row * static_cast<std::size_t>(l.outW) + j];
    }
}

// GRU and LSTM, PyTorch's conventions (ONNX's GRU with linear_before_reset = 1). Per step t, for
// every gate block at once: gx = x_t W_x + b_x, gh = h_{t-1} W_h + b_h (W_x [features][gates *
// units], W_h [units][gates * units]); h and c are 0 before step 0. Then per unit:
//   GRU, blocks (r, z, n):    r = sigmoid(gx_r + gh_r), z = sigmoid(gx_z + gh_z),
//                             n = tanh(gx_n + r * gh_n), h = (1 - z) * n + z * h_{t-1}
//   LSTM, blocks (i, f, g, o): c = sigmoid(f) * c + sigmoid(i) * tanh(g), h = sigmoid(o) * tanh(c)
// The output is every step's h (sequences) or the last step's.
constexpr Layer recurrentLayer(Kind kind, int steps, int features, int units, bool sequences, const float* wx,
                               const float* wh, const float* bx, const float* bh) {
    Layer l = shapedLayer(kind, 1, steps, features, 1, sequences ? steps : 1, units);
    l.sequence = true, l.weights = wx, l.bias = bx, l.recurrentWeights = wh, l.recurrentBias = bh;
    return l;
}

inline float sigmoid(float a) { return 1.0f / (1.0f + std::exp(-a)); }

// y[m] = x[n] W[n][m] + b[m].
inline void affine(const float* x, int n, const float* W, const float* b, int m, float* y) {
    for (int j = 0; j < m; ++j) y[j] = b[j];
    for (int i = 0; i < n; ++i) {
        const float xi = x[i];
        const float* w = W + static_cast<std::size_t>(i) * static_cast<std::size_t>(m);
        for (int j = 0; j < m; ++j) y[j] += xi * w[j];
    }
}

// work: every step's h (steps * units), gx and gh (gates * units each) and c (units).
inline void recurrent(const Layer& l, const float* x, float* y, float* work) {
    const bool gru = l.kind == Kind::Gru;
    const int steps = l.h, features = l.w, u = l.outW, gates = (gru ? 3 : 4) * u;
    float* hs = work;
    float* gx = hs + steps * u;
    float* gh = gx + gates;
    float* c = gh + gates;
    for (int j = 0; j < u; ++j) c[j] = 0.0f;
    for (int t = 0; t < steps; ++t) {
        const float* hPrev = hs + (t > 0 ? t - 1 : 0) * u;  // read from step 1 on
        float* h = hs + t * u;
        affine(x + t * features, features, l.weights, l.bias, gates, gx);
        affine(hPrev, t > 0 ? u : 0, l.recurrentWeights, l.recurrentBias, gates, gh);
        for (int j = 0; j < u; ++j) {
            if (gru) {
                const float r = sigmoid(gx[j] + gh[j]), z = sigmoid(gx[u + j] + gh[u + j]);
                const float n = std::tanh(gx[2 * u + j] + r * gh[2 * u + j]);
                h[j] = (1.0f - z) * n + z * (t > 0 ? hPrev[j] : 0.0f);
            } else {
                const float i = sigmoid(gx[j] + gh[j]), f = sigmoid(gx[u + j] + gh[u + j]);
                const float g = std::tanh(gx[2 * u + j] + gh[2 * u + j]), o = sigmoid(gx[3 * u + j] + gh[3 * u + j]);
                c[j] = f * c[j] + i * g;
                h[j] = o * std::tanh(c[j]);
            }
        }
    }
    const float* from = hs + (steps - l.outH) * u;  // every step, or the last
    for (int k = 0; k < l.outH * u; ++k) y[k] = from[k];
}

// A sequence to the vector of its features: the mean over the steps whose mask is 1 (every step
// without a mask; 0 when every step is padding), or the last step.
constexpr Layer seqPoolLayer(Kind kind, int steps, int features) {
    Layer l = shapedLayer(kind, 1, steps, features, 1, 1, features);
    l.sequence = true;
    return l;
}

inline void seqPool(const Layer& l, const float* x, const float* mask, float* y) {
    const int steps = l.h, f = l.w;
    if (l.kind == Kind::SeqPoolLast || l.kind == Kind::SeqPoolFirst) {
        const int t = l.kind == Kind::SeqPoolLast ? steps - 1 : 0;
        for (int j = 0; j < f; ++j) y[j] = x[t * f + j];
        return;
    }
    float real = 0.0f;
    for (int t = 0; t < steps; ++t) real += mask ? mask[t] : 1.0f;
    const float share = real > 0.0f ? 1.0f / real : 0.0f;
    for (int j = 0; j < f; ++j) y[j] = 0.0f;
    for (int t = 0; t < steps; ++t) {
        const float weight = mask ? mask[t] * share : share;
        if (weight != 0.0f)
            for (int j = 0; j < f; ++j) y[j] += weight * x[t * f + j];
    }
}

)";

namespace {

std::string recurrentEntry(const char* kind, int gates, int units, bool sequences, Shape input,
                           const CppWeightArray& array) {
    const std::size_t width = std::size_t(gates) * std::size_t(units);
    const std::string wx = array("Wx", std::size_t(input.width) * width);
    const std::string wh = array("Wh", std::size_t(units) * width);
    const std::string bx = array("Bx", width), bh = array("Bh", width);
    return "recurrentLayer(" + std::string(kind) + ", " + std::to_string(input.height) + ", " +
           std::to_string(input.width) + ", " + std::to_string(units) + ", " + (sequences ? "true" : "false") + ", " +
           wx + ", " + wh + ", " + bx + ", " + bh + ")";
}

}  // namespace

std::string cppSequenceLayerEntry(const LayerSpec& layer, Shape input, const CppWeightArray& array) {
    if (const auto* e = std::get_if<EmbeddingSpec>(&layer)) {
        if (e->vocabulary < 1) throw Error("an embedding without a vocabulary (not bound to its data's tokenizer)");
        const std::string table = array("Table", std::size_t(e->vocabulary) * std::size_t(e->dim));
        return "embeddingLayer(" + std::to_string(input.height) + ", " + std::to_string(e->vocabulary) + ", " +
               std::to_string(e->dim) + ", " + table + ")";
    }
    if (const auto* g = std::get_if<GruSpec>(&layer))
        return recurrentEntry("Kind::Gru", 3, g->units, g->sequences, input, array);
    if (const auto* l = std::get_if<LstmSpec>(&layer))
        return recurrentEntry("Kind::Lstm", 4, l->units, l->sequences, input, array);
    if (const auto* p = std::get_if<SeqPoolSpec>(&layer))
        return std::string("seqPoolLayer(") +
               (p->mode == SequencePoolMode::Mean   ? "Kind::SeqPoolMean"
                : p->mode == SequencePoolMode::Last ? "Kind::SeqPoolLast"
                                                    : "Kind::SeqPoolFirst") +
               ", " + std::to_string(input.height) + ", " + std::to_string(input.width) + ")";
    throw Error("not a sequence layer: " + description(layer));
}

std::int64_t cppSequenceWorkFloats(const LayerSpec& layer, Shape input) {
    const auto work = [&](int gates, int units) {
        return std::int64_t(units) * (std::int64_t(input.height) + 2 * gates + 1);
    };
    if (const auto* g = std::get_if<GruSpec>(&layer)) return work(3, g->units);
    if (const auto* l = std::get_if<LstmSpec>(&layer)) return work(4, l->units);
    return 0;
}

}  // namespace skynnet
