#pragma once
// A stack of layers tested as one layer (tst_sequence_layers, tst_transformer_layers): forward and
// backward as Network runs them, step masks passed along, batch origins handed to every layer.
#include <memory>
#include <string>
#include <vector>

#include "layers/layer.h"

namespace skynnet::layer_test {

// Layers run one after the other as Network runs them, each given its input's step mask, seen as
// one layer. A chain that starts with an embedding gives no input gradient (token ids have none),
// so checkLayer checks its parameters only; any other chain gives its first layer's.
class Chain final : public Layer {
public:
    template <class... L>
    explicit Chain(std::unique_ptr<L>... layers) {
        (layers_.push_back(std::move(layers)), ...);
    }
    std::string kind() const override { return "chain"; }
    void build(Shape input, Rng& rng) override {
        input_ = input;
        for (auto& l : layers_) {
            l->build(input, rng);
            input = l->outputShape();
        }
        output_ = input;
    }
    const Matrix& forward(const Matrix& x, bool training) override {
        const Matrix* cur = &x;
        const Matrix* mask = stepMask_;
        for (auto& l : layers_) {
            l->setStepMask(mask);
            cur = &l->forward(*cur, training);
            mask = l->outputStepMask();
        }
        return *cur;
    }
    const Matrix* backward(const Matrix& gradOut, bool needInputGrad) override {
        const Matrix* g = &gradOut;
        // Token ids have no gradient: a chain that reads them asks for none.
        const bool readsIds = layers_.front()->kind() == "embedding";
        for (std::size_t i = layers_.size(); i-- > 0;)
            g = layers_[i]->backward(*g, i > 0 || (needInputGrad && !readsIds));
        return g;
    }
    void setBatchOrigin(std::uint64_t step, Index firstRow) override {
        for (auto& l : layers_) l->setBatchOrigin(step, firstRow);
    }
    std::vector<Param> params() override {
        std::vector<Param> all;
        for (auto& l : layers_)
            for (const Param& p : l->params()) all.push_back(p);
        return all;
    }
    std::int64_t paramCount() const override {
        std::int64_t n = 0;
        for (const auto& l : layers_) n += l->paramCount();
        return n;
    }
    std::unique_ptr<Layer> clone() const override {
        auto copy = std::make_unique<Chain>();
        for (const auto& l : layers_) copy->layers_.push_back(l->clone());
        copy->input_ = input_;
        copy->output_ = output_;
        return copy;
    }
    Layer& at(std::size_t i) { return *layers_[i]; }

private:
    std::vector<std::unique_ptr<Layer>> layers_;
};

}  // namespace skynnet::layer_test
