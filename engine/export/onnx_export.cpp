#include "export/onnx_export.h"

#include "core/error.h"

#ifdef SKYNNET_HAVE_ONNX
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>

#include "export/onnx_class_groups.h"
#include "export/onnx_graph_builder.h"
#include "export/onnx_sequence_layers.h"
#include "export/onnx_transformer_layers.h"
#include "io/atomic_file.h"
#include "layers/activation.h"
#endif

namespace skynnet {

#ifdef SKYNNET_HAVE_ONNX
namespace {

using namespace onnx_graph;

void setTensorType(onnx::ValueInfoProto* v, const std::string& name, std::int64_t columns,
                   int type = onnx::TensorProto::FLOAT) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(type);
    t->mutable_shape()->add_dim()->set_dim_param("N");  // any number of samples
    t->mutable_shape()->add_dim()->set_dim_value(columns);
}

// Raw features -> the networks' input columns, as Preprocessing::apply computes them.
std::string preprocess(GraphBuilder& b, const Preprocessing& p, const std::string& x) {
    if (!p.fitted()) return x;
    std::vector<std::string> parts;
    const auto& numeric = p.numericColumns;
    if (!numeric.empty()) {
        std::string cols = x;
        bool allInOrder = int(numeric.size()) == p.rawColumns;
        for (std::size_t i = 0; i < numeric.size(); ++i) allInOrder = allInOrder && numeric[i] == int(i);
        if (!allInOrder)
            cols = b.opAxis("Gather",
                            {x, b.int64s("numeric_columns", {Dims::value_type(numeric.size())},
                                         Dims(numeric.begin(), numeric.end()))},
                            "numeric_raw", 1);
        const std::int64_t n = std::int64_t(numeric.size());
        const bool scaled = (p.offset.array() != 0.0f).any() || (p.scale.array() != 1.0f).any();
        if (scaled) {
            cols = b.op("Sub", {cols, b.floats("offset", {n}, p.offset.data(), std::size_t(n))}, "numeric_centred");
            cols = b.op("Mul", {cols, b.floats("scale", {n}, p.scale.data(), std::size_t(n))}, "numeric_scaled");
        }
        parts.push_back(cols);
    }
    for (const auto& c : p.oneHot) {
        const std::int64_t k = std::int64_t(c.categories.size());
        if (k == 0) continue;  // no columns in the network input either
        const std::string tag = "onehot_column" + std::to_string(c.column);
        std::vector<float> codes(static_cast<std::size_t>(k));
        for (std::int64_t i = 0; i < k; ++i) codes[std::size_t(i)] = float(i);
        // A code that is not exactly 0..k-1 (unseen -1, a fraction, NaN) matches none: all zeros,
        // as in Preprocessing::apply.
        const std::string col = b.opAxis("Gather", {x, b.int64s(tag + "_index", {1}, {c.column})}, tag + "_code", 1);
        const std::string eq = b.op("Equal", {col, b.floats(tag + "_categories", {k}, codes)}, tag + "_match");
        GraphBuilder::setInt(b.node("Cast", {eq}, tag), "to", onnx::TensorProto::FLOAT);
        parts.push_back(tag);
    }
    if (parts.empty()) throw Error("the preprocessing gives no input columns");
    return parts.size() == 1 ? parts[0] : b.opAxis("Concat", parts, "network_input", 1);
}

// Appends `activation` on `x` (any rank), the nodes named under `name`; returns the result. Softmax
// is over a sample's values, so an image or a sequence is flattened for it and put back
// (`layoutShape`: its Reshape target, empty for rows).
std::string activate(GraphBuilder& b, Activation activation, const std::string& x, const std::string& name,
                     const Dims& layoutShape) {
    switch (activation) {
    case Activation::None: return x;
    case Activation::ReLU: return b.op("Relu", {x}, name + "/relu");
    case Activation::LeakyReLU: {
        auto& n = b.node("LeakyRelu", {x}, name + "/leaky_relu");
        GraphBuilder::setFloat(n, "alpha", LeakyReLU().slope());  // the slope makeActivation() uses
        return name + "/leaky_relu";
    }
    case Activation::Sigmoid: return b.op("Sigmoid", {x}, name + "/sigmoid");
    case Activation::Tanh: return b.op("Tanh", {x}, name + "/tanh");
    case Activation::Softmax: {
        if (layoutShape.empty()) return b.opAxis("Softmax", {x}, name + "/softmax", 1);
        const std::string flat = b.opAxis("Flatten", {x}, name + "/softmax_rows", 1);
        const std::string p = b.opAxis("Softmax", {flat}, name + "/softmax_flat", 1);
        const std::string shape = b.int64s(name + "/softmax_shape", {std::int64_t(layoutShape.size())}, layoutShape);
        return b.op("Reshape", {p, shape}, name + "/softmax");
    }
    case Activation::GELU: {
        // The exact form 0.5 x (1 + erf(x / sqrt 2)): Gelu is an operator only from opset 20, and
        // this ONNX library knows opsets to 17.
        const std::string g = name + "/gelu";
        const std::string scaled = b.op("Mul", {x, b.scalar(g + "/inv_sqrt2", float(M_SQRT1_2))}, g + "/scaled");
        const std::string plusOne = b.op("Add", {b.op("Erf", {scaled}, g + "/erf"), b.scalar(g + "/one", 1.0f)},
                                         g + "/plus_one");
        const std::string half = b.op("Mul", {x, b.scalar(g + "/half", 0.5f)}, g + "/half_x");
        return b.op("Mul", {half, plusOne}, g);
    }
    case Activation::ReLU6:
        return b.op("Clip", {x, b.scalar(name + "/relu6_min", 0.0f), b.scalar(name + "/relu6_max", 6.0f)},
                    name + "/relu6");
    case Activation::Softplus: return b.op("Softplus", {x}, name + "/softplus");
    case Activation::ELU:
        GraphBuilder::setFloat(b.node("Elu", {x}, name + "/elu"), "alpha", 1.0f);  // the engine's ELU has alpha 1
        return name + "/elu";
    }
    throw Error("ONNX export: " + name + ": the activation " + activationName(activation) + " has no ONNX form here");
}

// One submodel's layers from `input`; returns the name of its output tensor. The weights are read
// in Network::flatWeights() order: dense W (inputs x units, row-major) then b; conv W
// [filters][C][kH][kW] then b if it has one; bn gamma, beta, running mean, running variance; the
// sequence kinds' as onnx_sequence_layers.h says, the transformer kinds' as
// onnx_transformer_layers.h (`opset` picks their LayerNorm's form). Samples enter as flat rows (a
// text model's as int64 token ids); the first layer that needs an image Reshapes them to
// [N, C, H, W] (the engine's c*H*W + h*W + w order is NCHW's), one that needs a sequence to
// [N, steps, features], and Flatten makes rows again for a dense layer.
std::string submodel(GraphBuilder& b, const NetworkSpec& spec, const std::vector<float>& weights,
                     const std::string& input, bool tokenIds, const std::string& prefix, int opset) {
    Cursor c{input, spec.input, Layout::Rows, tokenIds, {}};
    WeightReader w(weights, prefix);
    std::map<std::string, int> counts;
    const auto nameOf = [&](const std::string& kind) { return prefix + "/" + kind + std::to_string(++counts[kind]); };
    const auto take = [&](const std::string& name, const Dims& dims, std::int64_t count) {
        return b.floats(name, dims, w.take(name, count), std::size_t(count));
    };
    const auto activation = [&](Activation a, const std::string& name) {
        c.tensor = activate(b, a, c.tensor, name, layoutDims(c));
    };
    const auto denseLayer = [&](const DenseSpec& d) {
        const std::string name = nameOf("dense");
        toRows(b, c, name);
        const std::int64_t width = c.shape.size(), units = d.units;
        const std::string W = take(name + "/W", {width, units}, width * units);
        const std::string B = take(name + "/b", {units}, units);
        c.tensor = b.op("Gemm", {c.tensor, W, B}, name);
        c.shape = Shape::flat(d.units);
        activation(d.activation, name);
    };
    const auto pool = [&](const std::string& type, const std::string& kind, int size, int stride, const LayerSpec& l) {
        const std::string name = nameOf(kind);
        toImage(b, c, name);
        auto& n = b.node(type, {c.tensor}, name);
        GraphBuilder::setInts(n, "kernel_shape", {size, size});
        GraphBuilder::setInts(n, "strides", {stride, stride});
        c.tensor = name;
        c.shape = figures(l, c.shape).output;
    };
    for (const LayerSpec& l : spec.layers) {
        const Shape before = c.shape;
        visitLayer(
            l, [&](const DenseSpec& d) { denseLayer(d); },
            // The identity at inference.
            [](const DropoutSpec&) {},
            [&](const FlattenSpec&) {
                toRows(b, c, nameOf("flatten"));
                c.shape = Shape::flat(int(c.shape.size()));
            },
            [&](const ConvSpec& conv) {
                const std::string name = nameOf("conv");
                toImage(b, c, name);
                const Shape in = c.shape, out = figures(l, in).output;
                const std::int64_t filters = conv.filters,
                                   kernel = std::int64_t(in.channels) * conv.kernelH * conv.kernelW;
                std::vector<std::string> inputs{c.tensor,
                                                take(name + "/W", {filters, in.channels, conv.kernelH, conv.kernelW},
                                                     filters * kernel)};
                if (conv.bias) inputs.push_back(take(name + "/b", {filters}, filters));
                // Explicit pads (top, left, bottom, right): the smaller half before, as the engine pads.
                const auto padsOf = [&](int size, int k, int o) {
                    const int first = convPaddingBefore(size, k, conv.stride, conv.padding);
                    const int total = conv.padding == Padding::Same ? std::max((o - 1) * conv.stride + k - size, 0) : 0;
                    return std::pair<std::int64_t, std::int64_t>{first, total - first};
                };
                const auto [top, bottom] = padsOf(in.height, conv.kernelH, out.height);
                const auto [left, right] = padsOf(in.width, conv.kernelW, out.width);
                auto& n = b.node("Conv", inputs, name);
                GraphBuilder::setInts(n, "kernel_shape", {conv.kernelH, conv.kernelW});
                GraphBuilder::setInts(n, "strides", {conv.stride, conv.stride});
                GraphBuilder::setInts(n, "pads", {top, left, bottom, right});
                c.tensor = name;
                c.shape = out;
                activation(conv.activation, name);
            },
            [&](const MaxPoolSpec& p) { pool("MaxPool", "maxpool", p.size, p.effectiveStride(), l); },
            [&](const AvgPoolSpec& p) { pool("AveragePool", "avgpool", p.size, p.effectiveStride(), l); },
            [&](const GlobalAvgPoolSpec&) {
                const std::string name = nameOf("gap");
                toImage(b, c, name);
                c.tensor = b.op("GlobalAveragePool", {c.tensor}, name);
                c.shape = figures(l, c.shape).output;
            },
            [&](const BatchNormSpec& n) {
                // The inference form with the running statistics. A flat input is normalised per
                // feature: BatchNormalization on [N, features], channel axis 1 as for an image; a
                // sequence per feature over every step.
                const std::string name = nameOf("bn");
                const std::int64_t channels = batchNormChannels(c.shape);
                std::vector<std::string> statistics;
                for (const char* part : {"/gamma", "/beta", "/running_mean", "/running_var"})
                    statistics.push_back(take(name + part, {channels}, channels));
                if (c.shape.sequence) return addSequenceBatchNorm(b, c, statistics, n.epsilon, name);
                const bool perFeature = c.shape.channels == 1 && c.shape.height == 1;
                perFeature ? toRows(b, c, name) : toImage(b, c, name);
                statistics.insert(statistics.begin(), c.tensor);
                GraphBuilder::setFloat(b.node("BatchNormalization", statistics, name), "epsilon", n.epsilon);
                c.tensor = name;
            },
            [&](const ActivationSpec& a) { activation(a.activation, nameOf("activation")); },
            [&](const EmbeddingSpec& e) { addEmbedding(b, c, w, e, nameOf("embedding")); },
            [&](const GruSpec& g) { addGru(b, c, w, g, nameOf("gru")); },
            [&](const LstmSpec& s) { addLstm(b, c, w, s, nameOf("lstm")); },
            [&](const SeqPoolSpec& p) { addSequencePool(b, c, p, nameOf("seqpool")); },
            [&](const PatchSpec& p) { addPatchEmbedding(b, c, w, p, nameOf("patch")); },
            [&](const LayerNormSpec&) { addLayerNorm(b, c, w, opset, nameOf("layernorm")); },
            [&](const AttentionSpec& a) { addSelfAttention(b, c, w, a, nameOf("attention")); },
            [&](const EncoderSpec& e) {
                const auto gelu = [&](const std::string& x, const std::string& name) {
                    return activate(b, Activation::GELU, x, name, {});
                };
                addEncoder(b, c, w, e, opset, gelu, nameOf("encoder"));
            });
        // The step mask goes on as Layer::outputStepMask() passes it: through a layer whose output
        // is a sequence of as many steps as its input; an embedding makes its own.
        const bool sameSteps = before.sequence && c.shape.sequence && before.height == c.shape.height;
        if (!std::holds_alternative<EmbeddingSpec>(l) && !sameSteps) c.maskIds.clear();
    }
    denseLayer(spec.outputLayer());
    if (!w.allTaken()) throw Error("ONNX export: " + prefix + " has weights left over");
    return c.tensor;
}

// The combination rule on the submodels' outputs (combination.h); returns the combined tensor.
std::string combine(GraphBuilder& b, const CombinationRule& r, const std::vector<std::string>& subs) {
    switch (r.strategy) {
    case Strategy::ClassGroups: return addClassGroupCombination(b, r, subs);  // onnx_class_groups.h
    case Strategy::BinaryShards:
        if (r.binaryCombine == BinaryCombine::MostConfident && subs.size() > 1) {
            // The first submodel whose |2p - 1| is strictly larger than every earlier one's, as
            // combineBinary() loops.
            const std::string two = b.scalar("two", 2.0f), one = b.scalar("one", 1.0f);
            const auto confidence = [&](std::size_t i) {
                const std::string tag = "sub" + std::to_string(i + 1) + "/confidence";
                return b.op("Abs", {b.op("Sub", {b.op("Mul", {subs[i], two}, tag + "/2p"), one}, tag + "/2p-1")}, tag);
            };
            std::string best = subs[0], bestConfidence = confidence(0);
            for (std::size_t i = 1; i < subs.size(); ++i) {
                const std::string tag = "best_after_sub" + std::to_string(i + 1);
                const std::string c = confidence(i);
                const std::string more = b.op("Greater", {c, bestConfidence}, tag + "/more_confident");
                best = b.op("Where", {more, subs[i], best}, tag);
                if (i + 1 < subs.size()) bestConfidence = b.op("Where", {more, c, bestConfidence}, tag + "/confidence");
            }
            return best;
        }
        return b.op("Mean", subs, "combined");
    case Strategy::OutputSplit: return b.opAxis("Concat", subs, "combined", 1);
    case Strategy::DataShards: return b.op("Mean", subs, "combined");
    case Strategy::Auto: break;
    }
    throw Error("ONNX export: a combination rule needs a resolved strategy, not auto");
}

void addMetadata(onnx::ModelProto& model, const std::string& key, const std::string& value) {
    auto* p = model.add_metadata_props();
    p->set_key(key);
    p->set_value(value);
}

// A text model: every submodel starts with an embedding, so the graph takes int64 token ids
// [N, L]. Throws Error when only some do, or when the preprocessing would change the ids.
bool startsWithEmbedding(const NetworkSpec& spec) {
    return !spec.layers.empty() && std::holds_alternative<EmbeddingSpec>(spec.layers.front());
}

bool readsTokenIds(const SavedCombinedModel& m, const std::string& path) {
    std::size_t text = 0;
    for (const NetworkSpec& spec : m.specs) text += startsWithEmbedding(spec);
    if (text == 0) return false;
    if (text != m.specs.size())
        throw Error("cannot export " + path + ": some submodels read token ids (an embedding first) and others not");
    const Preprocessing& p = m.preprocessing;
    if (p.fitted()) {
        bool identity = p.oneHot.empty() && int(p.numericColumns.size()) == p.rawColumns &&
                        (p.offset.array() == 0.0f).all() && (p.scale.array() == 1.0f).all();
        for (std::size_t i = 0; i < p.numericColumns.size(); ++i) identity = identity && p.numericColumns[i] == int(i);
        if (!identity)
            throw Error("cannot export " + path +
                        ": the model's preprocessing changes the token ids its embeddings read (scaling or "
                        "one-hot columns)");
    }
    return true;
}

// Builds the graph around `body` (input name, whether it holds int64 token ids -> output tensor), checks it, writes it
// atomically.
template <typename Body>
void writeModel(const SavedCombinedModel& m, const std::string& path, const OnnxOptions& o,
                const std::string& outputName, std::int64_t outputs, const std::string& doc, Body body,
                const std::vector<std::pair<std::string, std::string>>& metadata) {
    if (o.opset < 13 || o.opset > 17)
        throw Error("cannot export " + path + ": ONNX opset " + std::to_string(o.opset) +
                    " is not supported (13 to 17)");
    onnx::ModelProto model;
    model.set_ir_version(o.opset <= 13 ? 7 : 8);  // the IR version that introduced the opset
    model.set_producer_name("Skynnet");
    model.set_doc_string(doc);
    auto* opset = model.add_opset_import();
    opset->set_domain("");
    opset->set_version(o.opset);
    for (const auto& [key, value] : metadata) addMetadata(model, key, value);

    onnx::GraphProto& g = *model.mutable_graph();
    g.set_name(o.graphName.empty() ? "skynnet" : o.graphName);
    GraphBuilder b(g);
    if (readsTokenIds(m, path)) {
        // The ids go to the embeddings as they are (the preprocessing leaves them so).
        setTensorType(g.add_input(), "token_ids", m.inputColumns(), onnx::TensorProto::INT64);
        b.op("Identity", {body(b, std::string("token_ids"), true)}, outputName);
    } else {
        const bool raw = o.includePreprocessing && m.preprocessing.fitted();
        setTensorType(g.add_input(), "features", raw ? m.rawColumns() : m.inputColumns());
        const std::string networkInput = raw ? preprocess(b, m.preprocessing, "features") : std::string("features");
        b.op("Identity", {body(b, networkInput, false)}, outputName);
    }
    setTensorType(g.add_output(), outputName, outputs);

    try {
        onnx::checker::check_model(model);
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(),
                                           onnx::ShapeInferenceOptions(/*check_type=*/true, /*strict=*/1));
    } catch (const std::exception& e) {
        throw Error("cannot export " + path + ": the ONNX checker rejected the graph (an exporter bug): " + e.what());
    }
    if (model.ByteSizeLong() > std::size_t(INT_MAX))
        throw Error("cannot export " + path + ": the model is over 2 GB, the limit of one ONNX protobuf file");
    std::string bytes;
    if (!model.SerializeToString(&bytes))
        throw Error("cannot export " + path + ": the ONNX model could not be serialised");
    writeFileAtomically(path, bytes);
}

std::string outputNameOf(Task task) {
    switch (task) {
    case Task::Classification: return "probabilities";
    case Task::Binary: return "probability";
    case Task::Regression: return "values";
    case Task::Reconstruction: return "reconstruction";
    }
    return "outputs";
}

std::vector<std::pair<std::string, std::string>> commonMetadata(const SavedCombinedModel& m) {
    std::vector<std::pair<std::string, std::string>> metadata{{"skynnet.task", taskName(m.task())},
                                                              {"skynnet.strategy", strategyName(m.rule.strategy)},
                                                              {"skynnet.classNames",
                                                               dumpJson(Json(m.schema.classNames))},
                                                              {"skynnet.targetNames",
                                                               dumpJson(Json(m.schema.targetNames))},
                                                              {"skynnet.featureNames",
                                                               dumpJson(Json(m.schema.featureNames))}};
    if (m.rule.strategy == Strategy::ClassGroups) {
        metadata.emplace_back("skynnet.classCombine", classCombineName(m.rule.classCombine));
        metadata.emplace_back("skynnet.otherOutput", m.rule.otherOutput ? "true" : "false");
    }
    return metadata;
}

// "class-groups (coupling with an 'other' output)", "data-shards": how the submodels are combined.
std::string combinationDescription(const CombinationRule& r) {
    return strategyName(r.strategy) + (r.strategy == Strategy::ClassGroups ? " (" + classRuleDescription(r) + ")" : "");
}

std::string inputDoc(const SavedCombinedModel& m, const OnnxOptions& o) {
    if (!m.specs.empty() && startsWithEmbedding(m.specs.front()))
        return "Input 'token_ids': int64 [N, " + std::to_string(m.inputColumns()) +
               "], each text's token ids, padding (id 0) in front, as the vocabulary written beside the model "
               "encodes them.";
    return o.includePreprocessing && m.preprocessing.fitted()
               ? "Input 'features': the " + std::to_string(m.rawColumns()) + " raw feature columns" +
                     (m.preprocessing.oneHot.empty() ? "" : " (category codes 0..k-1 in categorical columns)") +
                     "; the preprocessing is part of the graph."
               : "Input 'features': the " + std::to_string(m.inputColumns()) + " preprocessed network input columns.";
}

}  // namespace

bool onnxExportAvailable() { return true; }

void exportOnnx(const SavedCombinedModel& m, const std::string& path, const OnnxOptions& o) {
    validate(m, "cannot export " + path);
    const std::string doc = "Skynnet " + taskName(m.task()) + " model: " + std::to_string(m.submodelCount()) +
                            " submodel(s) combined by " + combinationDescription(m.rule) + ". " + inputDoc(m, o);
    writeModel(
        m, path, o, outputNameOf(m.task()), m.rule.outputs, doc,
        [&](GraphBuilder& b, const std::string& input, bool ids) {
            std::vector<std::string> subs;
            for (std::size_t i = 0; i < m.specs.size(); ++i)
                subs.push_back(
                    submodel(b, m.specs[i], m.weights[i], input, ids, "sub" + std::to_string(i + 1), o.opset));
            return combine(b, m.rule, subs);
        },
        commonMetadata(m));
}

void exportSubmodelOnnx(const SavedCombinedModel& m, int index, const std::string& path, const OnnxOptions& o) {
    validate(m, "cannot export " + path);
    if (index < 0 || index >= m.submodelCount())
        throw Error("cannot export " + path + ": submodel index " + std::to_string(index) + " is outside the " +
                    std::to_string(m.submodelCount()) + " submodels");
    const std::size_t i = std::size_t(index);
    auto metadata = commonMetadata(m);
    metadata.emplace_back("skynnet.submodel", std::to_string(index + 1));
    std::string owns = "its shard's answer, in the combined model's format";
    switch (m.rule.strategy) {
    case Strategy::ClassGroups:
        metadata.emplace_back("skynnet.classes", dumpJson(Json(m.rule.classes[i])));
        owns = "the probabilities of its classes " + dumpJson(Json(m.rule.classes[i])) + " (global indices)" +
               (m.rule.otherOutput ? " and, last, of 'other' (a class it does not own)" : "");
        break;
    case Strategy::OutputSplit: {
        const auto [begin, end] = m.rule.columns[i];
        metadata.emplace_back("skynnet.columns", dumpJson(Json::array({begin, end})));
        owns = "target columns " + std::to_string(begin) + " to " + std::to_string(end - 1) + " (0-based)";
        break;
    }
    case Strategy::BinaryShards:
    case Strategy::DataShards:
    case Strategy::Auto: break;  // a shard answers in the combined model's format; validate() refused auto
    }
    const std::string doc = "Skynnet submodel " + std::to_string(index + 1) + " of " +
                            std::to_string(m.submodelCount()) + " (" + strategyName(m.rule.strategy) +
                            "). Output 'outputs': " + owns + ". " + inputDoc(m, o);
    writeModel(
        m, path, o, "outputs", m.specs[i].outputs, doc,
        [&](GraphBuilder& b, const std::string& input, bool ids) {
            return submodel(b, m.specs[i], m.weights[i], input, ids, "sub" + std::to_string(index + 1), o.opset);
        },
        metadata);
}

#else  // built without the ONNX library

namespace {
[[noreturn]] void unavailable(const std::string& path) {
    throw Error("cannot export " + path +
                ": this build of Skynnet has no ONNX support (rebuild with libonnx-dev and libprotobuf-dev installed)");
}
}  // namespace

bool onnxExportAvailable() { return false; }
void exportOnnx(const SavedCombinedModel&, const std::string& path, const OnnxOptions&) { unavailable(path); }
void exportSubmodelOnnx(const SavedCombinedModel&, int, const std::string& path, const OnnxOptions&) {
    unavailable(path);
}

#endif

}  // namespace skynnet
