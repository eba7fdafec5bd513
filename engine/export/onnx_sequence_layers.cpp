#ifdef SKYNNET_HAVE_ONNX
#include "export/onnx_sequence_layers.h"

namespace skynnet::onnx_graph {

namespace {

void transpose(GraphBuilder& b, Cursor& c, const Dims& perm, const std::string& output) {
    GraphBuilder::setInts(b.node("Transpose", {c.tensor}, output), "perm", perm);
    c.tensor = output;
}

// A recurrent layer's weights (layers/recurrent.h: Wx (features, gates * units), Wh (units,
// gates * units), bx, bh, gate blocks in columns in our order) as ONNX's W [1, gates * units,
// features], R [1, gates * units, units] and B [1, 2 * gates * units] (Wb then Rb), gate blocks in
// rows in ONNX's order: ONNX block g is our block fromOurs[g].
std::vector<std::string> recurrentWeights(GraphBuilder& b, WeightReader& w, std::int64_t features, std::int64_t units,
                                          const std::vector<std::int64_t>& fromOurs, const std::string& name) {
    const std::int64_t gates = std::int64_t(fromOurs.size()), width = gates * units;
    const float* wx = w.take(name + "/W", features * width);
    const float* wh = w.take(name + "/R", units * width);
    const float* bx = w.take(name + "/Wb", width);
    const float* bh = w.take(name + "/Rb", width);
    std::vector<float> W(std::size_t(width * features)), R(std::size_t(width * units)), B(std::size_t(2 * width));
    for (std::int64_t g = 0; g < gates; ++g)
        for (std::int64_t j = 0; j < units; ++j) {
            const std::int64_t row = g * units + j, column = fromOurs[std::size_t(g)] * units + j;
            for (std::int64_t i = 0; i < features; ++i) W[std::size_t(row * features + i)] = wx[i * width + column];
            for (std::int64_t k = 0; k < units; ++k) R[std::size_t(row * units + k)] = wh[k * width + column];
            B[std::size_t(row)] = bx[column];
            B[std::size_t(width + row)] = bh[column];
        }
    return {b.floats(name + "/W", {1, width, features}, W), b.floats(name + "/R", {1, width, units}, R),
            b.floats(name + "/B", {1, 2 * width}, B)};
}

// GRU or LSTM: X is [steps, N, features] (ONNX's default layout 0, which opset 13 has alone).
void addRecurrent(GraphBuilder& b, Cursor& c, WeightReader& w, const std::string& op, int units, bool sequences,
                  const std::vector<std::int64_t>& fromOurs, const std::string& name) {
    toSequence(b, c, name);
    const std::int64_t steps = c.shape.height, features = c.shape.width;
    transpose(b, c, {1, 0, 2}, name + "/steps_first");
    std::vector<std::string> inputs{c.tensor};
    for (const auto& t : recurrentWeights(b, w, features, units, fromOurs, name)) inputs.push_back(t);
    // Y [steps, 1, N, units] for every step, Y_h [1, N, units] for the last; the other left out.
    const std::string y = name + "/Y", last = name + "/Y_h";
    // Named after the output it gives (node names must be unique, and `name` ends the layer).
    auto& n = b.node(op, inputs, sequences ? std::vector<std::string>{y} : std::vector<std::string>{"", last},
                     sequences ? y : last);
    GraphBuilder::setInt(n, "hidden_size", units);
    if (op == "GRU") GraphBuilder::setInt(n, "linear_before_reset", 1);  // PyTorch's GRU, as ours
    if (sequences) {
        c.tensor = b.op("Squeeze", {y, b.int64s(name + "/direction_axis", {1}, {1})}, name + "/steps");
        transpose(b, c, {1, 0, 2}, name);
        c.layout = Layout::Sequence;
        c.shape = Shape::steps(int(steps), units);
    } else {
        c.tensor = b.op("Squeeze", {last, b.int64s(name + "/direction_axis", {1}, {0})}, name);
        c.layout = Layout::Rows;
        c.shape = Shape::flat(units);
    }
}

}  // namespace

void addEmbedding(GraphBuilder& b, Cursor& c, WeightReader& w, const EmbeddingSpec& layer, const std::string& name) {
    if (!c.shape.sequence || c.shape.width != 1)
        throw Error("ONNX export: " + name + " reads a sequence of token ids, one per step; got " + c.shape.toString());
    toRows(b, c, name);  // [N, L]
    std::string ids = c.tensor;
    if (!c.int64Ids) {
        // Ids that are not the graph's input (a text model's is int64 already) arrive as floats:
        // exact below 2^24, which bounds the vocabulary.
        GraphBuilder::setInt(b.node("Cast", {ids}, name + "/ids"), "to", onnx::TensorProto::INT64);
        ids = name + "/ids";
    }
    const std::int64_t vocabulary = layer.vocabulary, dim = layer.dim;
    const std::string table = b.floats(name + "/W", {vocabulary, dim}, w.take(name + "/W", vocabulary * dim),
                                       std::size_t(vocabulary * dim));
    c.tensor = b.opAxis("Gather", {table, ids}, name, 0);  // [N, L, dim]
    c.layout = Layout::Sequence;
    c.shape = Shape::steps(c.shape.height, layer.dim);
    c.int64Ids = false;
    c.maskIds = ids;
}

void addGru(GraphBuilder& b, Cursor& c, WeightReader& w, const GruSpec& layer, const std::string& name) {
    // ONNX's gates (z, r, h) from ours (r, z, n).
    addRecurrent(b, c, w, "GRU", layer.units, layer.sequences, {1, 0, 2}, name);
}

void addLstm(GraphBuilder& b, Cursor& c, WeightReader& w, const LstmSpec& layer, const std::string& name) {
    // ONNX's gates (i, o, f, c) from ours (i, f, g, o).
    addRecurrent(b, c, w, "LSTM", layer.units, layer.sequences, {0, 3, 1, 2}, name);
}

void addSequencePool(GraphBuilder& b, Cursor& c, const SeqPoolSpec& layer, const std::string& name) {
    toSequence(b, c, name);
    const std::int64_t steps = c.shape.height;
    if (layer.mode == SequencePoolMode::Last) {
        c.tensor = b.opAxis("Gather", {c.tensor, b.int64s(name + "/last_step", {}, {steps - 1})}, name, 1);
    } else if (layer.mode == SequencePoolMode::Cls) {  // the first step: a class token's place
        c.tensor = b.opAxis("Gather", {c.tensor, b.int64s(name + "/first_step", {}, {0})}, name, 1);
    } else if (c.maskIds.empty()) {
        auto& n = b.node("ReduceMean", {c.tensor}, name);
        GraphBuilder::setInts(n, "axes", {1});
        GraphBuilder::setInt(n, "keepdims", 0);
        c.tensor = name;
    } else {
        // sum(mask * x) / max(real steps, 1): an all-padding row sums nothing and gives 0.
        const std::string padding = b.op("Equal", {c.maskIds, b.int64s(name + "/padding_id", {}, {0})},
                                         name + "/padding");
        const std::string mask = name + "/mask";
        GraphBuilder::setInt(b.node("Cast", {b.op("Not", {padding}, name + "/real")}, mask), "to",
                             onnx::TensorProto::FLOAT);
        const std::string stepAxis = b.int64s(name + "/step_axis", {1}, {1});
        const std::string perStep = b.op("Unsqueeze", {mask, b.int64s(name + "/feature_axis", {1}, {2})},
                                         name + "/mask_per_step");  // [N, L, 1]
        const std::string masked = b.op("Mul", {c.tensor, perStep}, name + "/masked");
        auto& sum = b.node("ReduceSum", {masked, stepAxis}, name + "/sum");
        GraphBuilder::setInt(sum, "keepdims", 0);
        auto& count = b.node("ReduceSum", {mask, stepAxis}, name + "/count");  // [N, 1]
        GraphBuilder::setInt(count, "keepdims", 1);
        const std::string divisor = b.op("Max", {name + "/count", b.scalar(name + "/one", 1.0f)}, name + "/divisor");
        c.tensor = b.op("Div", {name + "/sum", divisor}, name);
    }
    c.layout = Layout::Rows;
    c.shape = Shape::flat(c.shape.width);
}

void addSequenceBatchNorm(GraphBuilder& b, Cursor& c, const std::vector<std::string>& statistics, float epsilon,
                          const std::string& name) {
    toSequence(b, c, name);
    transpose(b, c, {0, 2, 1}, name + "/features_first");  // [N, F, L]: the channel axis is 1
    std::vector<std::string> inputs{c.tensor};
    inputs.insert(inputs.end(), statistics.begin(), statistics.end());
    GraphBuilder::setFloat(b.node("BatchNormalization", inputs, name + "/normalised"), "epsilon", epsilon);
    c.tensor = name + "/normalised";
    transpose(b, c, {0, 2, 1}, name);
}

}  // namespace skynnet::onnx_graph

#endif
