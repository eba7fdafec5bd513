#include "model/network.h"

#include <algorithm>

#include "core/error.h"
#include "layers/dense.h"
#include "layers/dropout.h"
#include "layers/flatten.h"

namespace skynnet {
namespace {

Init initFor(Activation a) {
    return (a == Activation::ReLU || a == Activation::LeakyReLU) ? Init::He : Init::Glorot;
}

[[noreturn]] void notBuilt(const std::string& where, const LayerSpec& l) {
    throw Error(where + " (" + description(l) + "): this build cannot train " + kindName(l) + " layers yet");
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
        std::int64_t params = 0;
        for (std::size_t i = first; i < layers_.size(); ++i) params += layers_[i]->paramCount();
        const Shape built = layers_.size() > first ? layers_.back()->outputShape() : shape;
        if (built != expected.output || params != expected.params)
            throw Error(where + " (" + expected.description + "): built with output " + built.toString() + " and " +
                        std::to_string(params) + " parameters, its figures say " + expected.output.toString() + " and " +
                        std::to_string(expected.params));
        shape = built;
    };
    const auto dense = [&](const DenseSpec& d) {
        return [&d](auto add) {
            add(std::make_unique<Dense>(d.units, initFor(d.activation)));
            if (auto act = makeActivation(d.activation)) add(std::move(act));
        };
    };
    for (std::size_t i = 0; i < spec.layers.size(); ++i) {
        const std::string where = "layer " + std::to_string(i + 1);
        const LayerSpec& l = spec.layers[i];
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
            // Until their layer classes land, image layers are refused rather than skipped.
            [&](const ConvSpec&) { notBuilt(where, l); }, [&](const MaxPoolSpec&) { notBuilt(where, l); },
            [&](const AvgPoolSpec&) { notBuilt(where, l); }, [&](const GlobalAvgPoolSpec&) { notBuilt(where, l); },
            [&](const BatchNormSpec&) { notBuilt(where, l); }, [&](const ActivationSpec&) { notBuilt(where, l); });
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
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        cur = &layers_[i]->forward(*cur, training);
        outputs_[i] = cur;
    }
    return *cur;
}

void Network::setBatchOrigin(std::uint64_t step, Index firstRow) {
    for (auto& l : layers_) l->setBatchOrigin(step, firstRow);
}

void Network::backward(const Matrix& grad, std::size_t from) {
    const Matrix* g = &grad;
    for (std::size_t i = from; i-- > 0;) {
        g = layers_[i]->backward(*g, i > 0);
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

Matrix Network::predict(const Matrix& x, const CancelToken* cancel, Index chunk) {
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

}  // namespace skynnet
