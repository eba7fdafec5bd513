#include "model/network.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <variant>

#include "core/error.h"
#include "core/work_profile.h"
#include "layers/attention.h"
#include "layers/batch_norm.h"
#include "layers/conv2d.h"
#include "layers/dense.h"
#include "layers/dropout.h"
#include "layers/embedding.h"
#include "layers/encoder_block.h"
#include "layers/flatten.h"
#include "layers/global_avg_pool.h"
#include "layers/gru.h"
#include "layers/layer_norm.h"
#include "layers/lstm.h"
#include "layers/patch_embedding.h"
#include "layers/pooling.h"
#include "layers/sequence_pool.h"

namespace skynnet {
namespace {

// "layer 2 dense backward": the work profile's name for a layer's pass (core/work_profile.h).
std::string layerWorkName(std::size_t i, const Layer& layer, const char* pass) {
    return "layer " + std::to_string(i + 1) + " " + layer.kind() + " " + pass;
}

Init initFor(Activation a) {
    switch (a) {
    case Activation::ReLU:
    case Activation::LeakyReLU:
    case Activation::GELU:
    case Activation::ReLU6:
    case Activation::Softplus:
    case Activation::ELU: return Init::He;  // the ReLU family: zero (or nearly) for half the inputs
    case Activation::None:
    case Activation::Sigmoid:
    case Activation::Tanh:
    case Activation::Softmax: return Init::Glorot;
    }
    return Init::Glorot;
}

}  // namespace

Network::Network(const NetworkSpec& spec, std::uint64_t seed) : spec_(spec) {
    if (spec.input.size() < 1) throw Error("network input must have at least one feature");
    if (spec.outputs < 1) throw Error("network must have at least one output");
    Rng rng(seed);
    Shape shape = spec.input;
    // Builds the layers one spec layer stands for and checks them against that layer's figures(),
    // which the planner and the designer show: a kind whose layers disagree with its figures fails
    // here rather than in a plan that promised other sizes.
    const auto build = [&](const std::string& where, const LayerFigures& expected, auto addLayers) {
        const std::size_t first = layers_.size();
        addLayers([&](std::unique_ptr<Layer> layer) {
            layer->build(layers_.empty() ? spec.input : layers_.back()->outputShape(), rng);
            layers_.push_back(std::move(layer));
        });
        std::int64_t params = 0, state = 0;
        for (std::size_t i = first; i < layers_.size(); ++i) {
            params += layers_[i]->paramCount();
            state += layers_[i]->stateCount();
        }
        const Shape built = layers_.size() > first ? layers_.back()->outputShape() : shape;
        if (built != expected.output || params != expected.params || state != expected.state)
            throw Error(where + " (" + expected.description + "): built with output " + built.toString() + ", " +
                        std::to_string(params) + " parameters and " + std::to_string(state) +
                        " state values, its figures say " + expected.output.toString() + ", " +
                        std::to_string(expected.params) + " and " + std::to_string(expected.state));
        shape = built;
    };
    const auto dense = [&](const DenseSpec& d) {
        return [&d](auto add) {
            add(std::make_unique<Dense>(d.units, initFor(d.activation)));
            if (auto act = makeActivation(d.activation)) add(std::move(act));
        };
    };
    // pooling: the convolution just built, when it takes the max pool that follows into itself
    // (Conv2D::poolOutput); feeding: that convolution once the pool is built, whose output is then
    // the next layer's input (a convolution may take it as blocks, Conv2D::handBlocksTo).
    Conv2D* pooling = nullptr;
    Conv2D* feeding = nullptr;
    for (std::size_t i = 0; i < spec.layers.size(); ++i) {
        const std::string where = "layer " + std::to_string(i + 1);
        const LayerSpec& l = spec.layers[i];
        Conv2D* const poolTaken = std::exchange(pooling, nullptr);
        Conv2D* const fed = std::exchange(feeding, nullptr);
        const LayerFigures expected = figures(l, shape);
        visitLayer(
            l,
            [&](const DenseSpec& d) {
                if (d.units < 1) throw Error(where + ": dense units must be at least 1");
                build(where, expected, dense(d));
            },
            [&](const DropoutSpec& d) {
                build(where, expected, [&](auto add) { add(std::make_unique<Dropout>(d.rate)); });
            },
            [&](const FlattenSpec&) { build(where, expected, [](auto add) { add(std::make_unique<Flatten>()); }); },
            [&](const ConvSpec& c) {
                build(where, expected, [&](auto add) {
                    const ConvOptions options{c.filters, c.kernelH, c.kernelW, c.stride, c.padding == Padding::Same,
                                              c.bias};
                    auto conv = std::make_unique<Conv2D>(options, initFor(c.activation));
                    auto act = makeActivation(c.activation);
                    auto* relu = dynamic_cast<ReLU*>(act.get());
                    if (relu) {
                        conv->rectifyOutput();
                        relu->takeRectifiedInput();
                    }
                    // A 2x2 max pool of stride 2 right after (and after the ReLU, if that is
                    // the activation): the convolution pools too.
                    const auto* pool = i + 1 < spec.layers.size() ? std::get_if<MaxPoolSpec>(&spec.layers[i + 1])
                                                                  : nullptr;
                    const Shape out = expected.output;
                    if (pool && pool->size == 2 && pool->effectiveStride() == 2 && (relu || !act) && out.height >= 2 &&
                        out.width >= 2) {
                        conv->poolOutput();
                        pooling = conv.get();
                    }
                    Conv2D& built = *conv;
                    add(std::move(conv));
                    if (fed) fed->handBlocksTo(built);
                    if (act) add(std::move(act));
                });
            },
            [&](const MaxPoolSpec& p) {
                build(where, expected, [&](auto add) {
                    auto pool = std::make_unique<MaxPool2D>(p.size, p.effectiveStride());
                    if (poolTaken) pool->takePooledInput();
                    feeding = poolTaken;
                    add(std::move(pool));
                });
            },
            [&](const AvgPoolSpec& p) {
                build(where, expected,
                      [&](auto add) { add(std::make_unique<AvgPool2D>(p.size, p.effectiveStride())); });
            },
            [&](const GlobalAvgPoolSpec&) {
                build(where, expected, [](auto add) { add(std::make_unique<GlobalAvgPool>()); });
            },
            [&](const BatchNormSpec& b) {
                build(where, expected, [&](auto add) { add(std::make_unique<BatchNorm>(b.momentum, b.epsilon)); });
            },
            [&](const ActivationSpec& a) {
                build(where, expected, [&](auto add) {
                    if (auto act = makeActivation(a.activation)) add(std::move(act));
                });
            },
            [&](const EmbeddingSpec& e) {
                build(where, expected, [&](auto add) { add(std::make_unique<Embedding>(e.dim, e.vocabulary)); });
            },
            [&](const GruSpec& g) {
                build(where, expected,
                      [&](auto add) { add(std::make_unique<Gru>(g.units, shape.height, g.sequences)); });
            },
            [&](const LstmSpec& r) {
                build(where, expected,
                      [&](auto add) { add(std::make_unique<Lstm>(r.units, shape.height, r.sequences)); });
            },
            [&](const SeqPoolSpec& p) {
                build(where, expected, [&](auto add) { add(std::make_unique<SequencePool>(p.mode)); });
            },
            [&](const PatchSpec& p) {
                build(where, expected,
                      [&](auto add) { add(std::make_unique<PatchEmbedding>(p.patch, p.dim, p.classToken)); });
            },
            [&](const LayerNormSpec&) { build(where, expected, [](auto add) { add(std::make_unique<LayerNorm>()); }); },
            [&](const AttentionSpec& a) {
                build(where, expected,
                      [&](auto add) { add(std::make_unique<SelfAttention>(a.heads, a.causal, a.dropout)); });
            },
            [&](const EncoderSpec& e) {
                build(where, expected,
                      [&](auto add) { add(std::make_unique<EncoderBlock>(e.heads, e.mlp, e.dropout)); });
            });
    }
    const DenseSpec output = spec.outputLayer();
    build("the output layer", figures(output, shape), dense(output));
}

Network::Network(const Network& other) : spec_(other.spec_) {
    for (const auto& l : other.layers_) layers_.push_back(l->clone());
}

Network& Network::operator=(const Network& other) {
    if (this != &other) {
        Network copy(other);
        *this = std::move(copy);
    }
    return *this;
}

const Matrix& Network::forward(const Matrix& x, bool training) {
    if (x.cols() != spec_.input.size())
        throw Error("input has " + std::to_string(x.cols()) + " features, the network expects " +
                    std::to_string(spec_.input.size()));
    outputs_.resize(layers_.size());
    const Matrix* cur = &x;
    // Each layer gets its input's step mask (Layer::setStepMask): none for the data itself.
    const Matrix* mask = nullptr;
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        layers_[i]->setStepMask(mask);
        const workprofile::WorkTimer timer;
        cur = &layers_[i]->forward(*cur, training);
        if (timer.running()) timer.record(layerWorkName(i, *layers_[i], "forward"));
        mask = layers_[i]->outputStepMask();
        outputs_[i] = cur;
    }
    return *cur;
}

void Network::setBatchOrigin(std::uint64_t step, Index firstRow) {
    for (auto& l : layers_) l->setBatchOrigin(step, firstRow);
}

void Network::deferStateUpdates(bool defer) {
    for (auto& l : layers_) l->deferStateUpdates(defer);
}

void Network::foldDeferredState(const std::vector<Network*>& replicas) {
    std::vector<Layer*> same(replicas.size());
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        for (std::size_t r = 0; r < replicas.size(); ++r) same[r] = replicas[r]->layers_[i].get();
        layers_[i]->foldDeferredState(same);
    }
}

void Network::backward(const Matrix& grad, std::size_t from) {
    const Matrix* g = &grad;
    for (std::size_t i = from; i-- > 0;) {
        const workprofile::WorkTimer timer;
        g = layers_[i]->backward(*g, i > 0);
        if (timer.running()) timer.record(layerWorkName(i, *layers_[i], "backward"));
    }
}

const Matrix& Network::preActivationOutput() const {
    const std::size_t n = outputs_.size();
    return spec_.outputActivation == Activation::None ? *outputs_[n - 1] : *outputs_[n - 2];
}

bool Network::endsWith(Activation a) const { return spec_.outputActivation == a && a != Activation::None; }

std::vector<Param> Network::params() {
    std::vector<Param> all;
    for (auto& l : layers_)
        for (const auto& p : l->params()) all.push_back(p);
    return all;
}

std::int64_t Network::paramCount() const {
    std::int64_t n = 0;
    for (const auto& l : layers_) n += l->paramCount();
    return n;
}

std::int64_t Network::bufferBytes() const {
    std::int64_t n = 0;
    for (const auto& l : layers_) n += l->bufferBytes();
    return n;
}

std::int64_t Network::weightCount() const {
    std::int64_t n = 0;
    for (const auto& l : layers_) n += l->paramCount() + l->stateCount();
    return n;
}

namespace {

// Every tensor flatWeights() holds, in its order: each layer's params, then its state.
template <class F>
void forEachWeightTensor(const std::vector<std::unique_ptr<Layer>>& layers, F&& f) {
    for (const auto& l : layers) {
        for (const auto& p : l->params()) f(*p.value);
        for (Matrix* s : l->state()) f(*s);
    }
}

}  // namespace

std::vector<Scalar> Network::flatWeights() const {
    std::vector<Scalar> w;
    w.reserve(std::size_t(weightCount()));
    forEachWeightTensor(layers_, [&](const Matrix& m) { w.insert(w.end(), m.data(), m.data() + m.size()); });
    return w;
}

void Network::setFlatWeights(const std::vector<Scalar>& w) {
    if (std::int64_t(w.size()) != weightCount())
        throw Error("weight count " + std::to_string(w.size()) + " does not match the network's " +
                    std::to_string(weightCount()));
    std::size_t at = 0;
    forEachWeightTensor(layers_, [&](Matrix& m) {
        std::copy_n(w.data() + at, m.size(), m.data());
        at += std::size_t(m.size());
    });
}

Index Network::predictChunkRows() const {
    constexpr std::int64_t kBudgetValues = std::int64_t(8) << 20;  // 32 MB of layer buffers
    constexpr Index kMinRows = 64, kMaxRows = 1024;
    std::int64_t perRow = 0;
    for (const LayerFigures& f : describe(spec_)) perRow += f.bufferValuesPerSample;
    if (perRow <= 0) return kMaxRows;
    return Index(std::clamp<std::int64_t>(kBudgetValues / perRow, kMinRows, kMaxRows));
}

Matrix Network::predict(const Matrix& x, const CancelToken* cancel, Index chunk) {
    if (chunk <= 0) chunk = predictChunkRows();
    Matrix out(x.rows(), spec_.outputs);
    for (Index start = 0; start < x.rows(); start += chunk) {
        if (cancel) cancel->waitWhilePaused();
        if (cancel && cancel->cancelled()) return Matrix();
        const Index n = std::min(chunk, x.rows() - start);
        const Matrix part = x.middleRows(start, n);
        out.middleRows(start, n) = forward(part, false);
    }
    return out;
}

std::int64_t weightCountUpTo(const NetworkSpec& spec, std::int64_t limit) {
    std::int64_t total = 0;
    for (const auto& f : describe(spec)) {
        if (f.params > limit - total || f.state > limit - total - f.params) return limit + 1;
        total += f.params + f.state;
    }
    return total;
}

std::int64_t weightCount(const NetworkSpec& spec) { return weightCountUpTo(spec, INT64_MAX / 2); }

std::string weightCountText(const NetworkSpec& spec) {
    const std::int64_t all = weightCount(spec), params = paramCountUpTo(spec, INT64_MAX / 2);
    return std::to_string(params) + " parameters" +
           (all > params ? " and " + std::to_string(all - params) + " state values" : std::string());
}

}  // namespace skynnet
