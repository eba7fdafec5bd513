#pragma once
// What the ONNX exporter's files share (compiled only with the ONNX library, SKYNNET_HAVE_ONNX):
// the graph builder that names and checks every tensor, the reader of a submodel's flat weights,
// and the cursor that follows one submodel's tensor through its layers, with the layout it has in
// the graph (rows, image or sequence) and where its step mask comes from.
#include <onnx/onnx_pb.h>

#include <bit>
#include <cstdint>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/tensor.h"

namespace skynnet::onnx_graph {

using Dims = std::vector<std::int64_t>;

// Little-endian bytes whatever the host: TensorProto.raw_data is defined that way.
template <typename T>
std::string littleEndianBytes(const T* data, std::size_t count) {
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    std::string out(count * sizeof(T), '\0');
    for (std::size_t i = 0; i < count; ++i) {
        const Bits v = std::bit_cast<Bits>(data[i]);
        for (std::size_t b = 0; b < sizeof(T); ++b) out[i * sizeof(T) + b] = char((v >> (8 * b)) & 0xff);
    }
    return out;
}

// Adds constants and nodes to one graph; every tensor name is checked to be unique, and each node
// is named after its output so a viewer (Netron) shows "sub2/dense1" rather than numbers.
class GraphBuilder {
public:
    explicit GraphBuilder(onnx::GraphProto& g) : g_(g) {}

    std::string floats(const std::string& name, const Dims& dims, const float* data, std::size_t count) {
        addInitializer(name, dims, onnx::TensorProto::FLOAT, littleEndianBytes(data, count));
        return name;
    }
    std::string floats(const std::string& name, const Dims& dims, const std::vector<float>& data) {
        return floats(name, dims, data.data(), data.size());
    }
    std::string int64s(const std::string& name, const Dims& dims, const std::vector<std::int64_t>& data) {
        addInitializer(name, dims, onnx::TensorProto::INT64, littleEndianBytes(data.data(), data.size()));
        return name;
    }
    std::string doubles(const std::string& name, const Dims& dims, const std::vector<double>& data) {
        addInitializer(name, dims, onnx::TensorProto::DOUBLE, littleEndianBytes(data.data(), data.size()));
        return name;
    }
    std::string scalar(const std::string& name, float value) { return floats(name, {}, &value, 1); }

    onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs, const std::string& output) {
        return node(op, inputs, std::vector<std::string>{output}, output);
    }
    // A node of several outputs, named `name`; an empty output name leaves that optional output out.
    onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name) {
        onnx::NodeProto* n = g_.add_node();
        n->set_op_type(op);
        n->set_name(name);
        for (const auto& in : inputs) n->add_input(in);
        for (const auto& out : outputs) {
            if (!out.empty()) claim(out);
            n->add_output(out);
        }
        return *n;
    }
    std::string op(const std::string& type, const std::vector<std::string>& inputs, const std::string& output) {
        node(type, inputs, output);
        return output;
    }
    std::string opAxis(const std::string& type, const std::vector<std::string>& inputs, const std::string& output,
                       std::int64_t axis) {
        setInt(node(type, inputs, output), "axis", axis);
        return output;
    }
    static void setInt(onnx::NodeProto& n, const std::string& name, std::int64_t v) {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(v);
    }
    static void setInts(onnx::NodeProto& n, const std::string& name, const Dims& values) {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (auto v : values) a->add_ints(v);
    }
    static void setFloat(onnx::NodeProto& n, const std::string& name, float v) {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::FLOAT);
        a->set_f(v);
    }

private:
    void claim(const std::string& name) {
        if (!names_.insert(name).second) throw Error("ONNX export: tensor name '" + name + "' used twice");
    }
    void addInitializer(const std::string& name, const Dims& dims, int type, std::string bytes) {
        claim(name);
        onnx::TensorProto* t = g_.add_initializer();
        t->set_name(name);
        t->set_data_type(type);
        for (auto d : dims) t->add_dims(d);
        t->set_raw_data(std::move(bytes));
    }

    onnx::GraphProto& g_;
    std::set<std::string> names_;
};

// A submodel's Network::flatWeights(), handed out tensor by tensor in that order.
class WeightReader {
public:
    WeightReader(const std::vector<float>& weights, std::string owner) : weights_(weights), owner_(std::move(owner)) {}
    // The next `count` values, for the tensor `name`; too few left is an exporter bug (an Error).
    const float* take(const std::string& name, std::int64_t count) {
        if (count < 0 || at_ + std::size_t(count) > weights_.size())
            throw Error("ONNX export: " + owner_ + " has too few weights for " + name);
        const float* data = weights_.data() + at_;
        at_ += std::size_t(count);
        return data;
    }
    bool allTaken() const { return at_ == weights_.size(); }

private:
    const std::vector<float>& weights_;
    std::string owner_;
    std::size_t at_ = 0;
};

// How the current tensor is laid out in the graph. All three are the same values in the same
// order as the engine's row of a sample: an image is c*H*W + h*W + w (NCHW), a sequence is
// step-major (step t's features at t*F).
enum class Layout {
    Rows,      // [N, shape.size()]
    Image,     // [N, C, H, W]
    Sequence,  // [N, steps, features]
};

// One submodel's current tensor while its layers are added.
struct Cursor {
    std::string tensor;
    Shape shape;
    Layout layout = Layout::Rows;
    bool int64Ids = false;  // the tensor holds token ids as int64 (the input of a text model)
    // The int64 token ids the step mask of `tensor` comes from (mask = id != 0), or empty when
    // every step is real: the engine's Layer::outputStepMask() carried through the graph.
    std::string maskIds;
};

// The tensor's values as [N, shape.size()] rows.
inline void toRows(GraphBuilder& b, Cursor& c, const std::string& name) {
    if (c.layout != Layout::Rows) c.tensor = b.opAxis("Flatten", {c.tensor}, name + "/rows", 1);
    c.layout = Layout::Rows;
}

// The tensor as [N, C, H, W] (0 keeps N); from a sequence through rows.
inline void toImage(GraphBuilder& b, Cursor& c, const std::string& name) {
    if (c.layout == Layout::Image) return;
    toRows(b, c, name);
    const Dims dims{0, c.shape.channels, c.shape.height, c.shape.width};
    c.tensor = b.op("Reshape", {c.tensor, b.int64s(name + "/shape", {4}, dims)}, name + "/image");
    c.layout = Layout::Image;
}

// The tensor as [N, steps, features]; shape must be a sequence.
inline void toSequence(GraphBuilder& b, Cursor& c, const std::string& name) {
    if (c.layout == Layout::Sequence) return;
    if (!c.shape.sequence) throw Error("ONNX export: " + name + " needs a sequence, got " + c.shape.toString());
    toRows(b, c, name);
    const Dims dims{0, c.shape.height, c.shape.width};
    c.tensor = b.op("Reshape", {c.tensor, b.int64s(name + "/shape", {3}, dims)}, name + "/sequence");
    c.layout = Layout::Sequence;
}

// The Reshape target that puts rows back in the cursor's layout (empty for rows).
inline Dims layoutDims(const Cursor& c) {
    switch (c.layout) {
    case Layout::Rows: break;
    case Layout::Image: return {0, c.shape.channels, c.shape.height, c.shape.width};
    case Layout::Sequence: return {0, c.shape.height, c.shape.width};
    }
    return {};
}

}  // namespace skynnet::onnx_graph
