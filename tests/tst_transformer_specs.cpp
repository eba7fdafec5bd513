// Layer specs of the transformer kinds (patch, layernorm, attention, encoder): their figures worked
// out by hand against PyTorch's parameter counts, the --layers grammar, the JSON form, the split's
// shrinking of their widths with every head keeping its share, and the errors for inputs they
// cannot take. The layers themselves are tested in tst_transformer_layers.
#include <QtTest>

#include "core/error.h"
#include "io/json.h"
#include "plan_support.h"
#include "spec/network_spec.h"
#include "spec/spec_json.h"
#include "spec_support.h"
#include "split/split_plan.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// The issue's small ViT on Fashion-MNIST: 7x7 patches (16 tokens), dimension 64, 4 blocks.
NetworkSpec smallVit(const char* layers = "patch:7:64,encoder:4:128,encoder:4:128,encoder:4:128,encoder:4:128,"
                                          "layernorm,seqpool:mean") {
    NetworkSpec spec;
    spec.input = Shape{1, 28, 28};
    spec.layers = parseLayers(layers);
    spec.setOutputFor(Task::Classification, 10);
    return spec;
}

}  // namespace

class TestTransformerSpecs : public QObject {
    Q_OBJECT

private slots:
    void figuresMatchPyTorch() {
        // Conv2d(1, 64, 7, stride 7): 49*64 + 64, and 16 positions of 64.
        const LayerFigures p = figures(PatchSpec{7, 64, false, true}, Shape{1, 28, 28});
        QCOMPARE(p.description, std::string("patch 7x7 64"));
        QCOMPARE(p.output, Shape::steps(16, 64));
        QCOMPARE(p.params, std::int64_t(49 * 64 + 64 + 16 * 64));
        QCOMPARE(p.flopsPerSample, std::int64_t(2 * 16 * 49 * 64));
        // A class token: one more token, and its own 64 values.
        const LayerFigures c = figures(PatchSpec{7, 64, true, true}, Shape{1, 28, 28});
        QCOMPARE(c.output, Shape::steps(17, 64));
        QCOMPARE(c.params, std::int64_t(49 * 64 + 64 + 17 * 64 + 64));
        // nn.TransformerEncoderLayer(64, 4, 128): in_proj 3*64*64 + 192, out_proj 64*64 + 64,
        // linear1 64*128 + 128, linear2 128*64 + 64, two LayerNorms of 2*64: 33472.
        const LayerFigures e = figures(EncoderSpec{4, 128, 0.1f, true}, Shape::steps(16, 64));
        QCOMPARE(e.description, std::string("encoder 4 heads mlp 128 dropout 0.1"));
        QCOMPARE(e.output, Shape::steps(16, 64));
        QCOMPARE(e.params, std::int64_t(33472));
        // nn.MultiheadAttention(64, 4): 16640.
        const LayerFigures a = figures(AttentionSpec{4, true, 0}, Shape::steps(16, 64));
        QCOMPARE(a.description, std::string("attention 4 heads causal"));
        QCOMPARE(a.params, std::int64_t(16640));
        QVERIFY(a.bufferValuesPerSample >= 2 * 4 * 16 * 16);  // the attention weights and their gradient
        const LayerFigures n = figures(LayerNormSpec{}, Shape::steps(16, 64));
        QCOMPARE(n.params, std::int64_t(128));
        QCOMPARE(figures(LayerNormSpec{}, Shape::flat(10)).params, std::int64_t(20));
        // The whole small ViT: 4224 + 4 * 33472 + 128 + the head 64*10 + 10.
        QCOMPARE(paramCount(smallVit()), std::int64_t(4224 + 4 * 33472 + 128 + 650));
        // Memory grows with the square of the tokens: Q, K, V, context and output (each with its
        // gradient) grow with T, the (heads, T, T) weights and their gradient with T^2.
        const auto buffers = [](int tokens) {
            return figures(AttentionSpec{4, false, 0}, Shape::steps(tokens, 64)).bufferValuesPerSample;
        };
        QCOMPARE(buffers(16), std::int64_t(2 * 3 * 16 * 64 + 2 * 4 * 16 * 16 + 4 * 16 * 64));
        QCOMPARE(buffers(196), std::int64_t(2 * 3 * 196 * 64 + 2 * 4 * 196 * 196 + 4 * 196 * 64));
        QVERIFY(buffers(196) > buffers(16) * 196 / 16 * 2);  // 2x2 patches: 196 tokens, far above linear
    }

    void inputsTheyCannotTake() {
        VERIFY_CONTAINS(errorOf([] {
                            figures(PatchSpec{5, 64, false, true}, Shape{1, 28, 28});
                        }),
                        "patch 5x5 64: 28x28 images do not divide into 5x5 patches");
        VERIFY_CONTAINS(errorOf([] {
                            figures(PatchSpec{7, 64, false, true}, Shape::steps(28, 28));
                        }),
                        "patch 7x7 64 needs images");
        VERIFY_CONTAINS(errorOf([] {
                            figures(EncoderSpec{3, 128, 0, true}, Shape::steps(16, 64));
                        }),
                        "encoder 3 heads mlp 128: 64 features do not divide into 3 heads");
        VERIFY_CONTAINS(errorOf([] {
                            figures(AttentionSpec{4, false, 0}, Shape::flat(64));
                        }),
                        "attention 4 heads needs tokens");
        // In a network, the row is named.
        VERIFY_CONTAINS(errorOf([] { paramCount(smallVit("patch:7:64,encoder:3:128")); }),
                        "layer 2: encoder 3 heads mlp 128: 64 features do not divide into 3 heads");
    }

    void grammarRoundTrips() {
        const char* text = "patch:7:64:cls,encoder:4:128:0.1,attention:2:causal,layernorm,encoder:8:32,seqpool:mean";
        const auto layers = parseLayers(text);
        QCOMPARE(layers.size(), std::size_t(6));
        QCOMPARE(std::get<PatchSpec>(layers[0]), (PatchSpec{7, 64, true, true}));
        QCOMPARE(std::get<EncoderSpec>(layers[1]), (EncoderSpec{4, 128, 0.1f, true}));
        QCOMPARE(std::get<AttentionSpec>(layers[2]), (AttentionSpec{2, true, 0.0f}));
        QCOMPARE(formatLayers(layers), std::string(text));
        VERIFY_CONTAINS(errorOf([] { parseLayers("patch:7"); }), "expected patch:SIZE:DIM[:cls]");
        VERIFY_CONTAINS(errorOf([] { parseLayers("encoder:4:128:1.5"); }), "the dropout rate must be in [0, 1)");
        VERIFY_CONTAINS(errorOf([] { parseLayers("attention:4:sideways"); }), "expected attention:HEADS[:causal]");
        VERIFY_CONTAINS(errorOf([] { parseLayers("layernorm:2"); }), "layernorm takes no arguments");
    }

    void jsonRoundTrips() {
        for (const LayerSpec& l :
             {LayerSpec(PatchSpec{4, 32, true, false}), LayerSpec(LayerNormSpec{}),
              LayerSpec(AttentionSpec{2, true, 0.25f}), LayerSpec(EncoderSpec{8, 256, 0.1f, false})})
            QCOMPARE(roundTripJson(l), l);
        const Json bad = parseJson(R"({"type": "encoder", "heads": 4, "mlp": 128, "dropout": 1.0})", "layer.json");
        VERIFY_CONTAINS(errorOf([&] { layerSpecFromJson(JsonField(bad, "layer.json", "layer")); }),
                        "must be at least 0 and below 1");
    }

    void splitShrinksDimensionsAndKeepsHeads() {
        NetworkSpec vit = smallVit("patch:7:64,encoder:4:128,layernorm,seqpool:mean");
        const SplitPlan plan = makePlan(vit, classInfo(6, 4), classGroups(3));  // F = 1.5 (method.md §2)
        const NetworkSpec& s = plan.submodels[0].spec;
        // ceil(64 / 1.5) = 43, up to 44 so that each of the 4 heads reads 11 dimensions.
        QCOMPARE(std::get<PatchSpec>(s.layers[0]).dim, 44);
        QCOMPARE(std::get<EncoderSpec>(s.layers[1]).heads, 4);
        QCOMPARE(std::get<EncoderSpec>(s.layers[1]).mlp, 86);  // ceil(128 / 1.5)
        QCOMPARE(plan.submodels[0].params, paramCount(s));
        // Two head counts after one patch: a multiple of both (ceil(64 / 1.5) = 43 -> 48).
        vit = smallVit("patch:7:64,encoder:4:128,attention:16,seqpool:mean");
        const NetworkSpec both = makePlan(vit, classInfo(6, 4), classGroups(3)).submodels[0].spec;
        QCOMPARE(std::get<PatchSpec>(both.layers[0]).dim, 48);

        // ceil(8 / 2.5) = 4 dimensions for 4 heads: 1 each, refused naming the layer.
        vit = smallVit("patch:7:8,encoder:4:128");
        VERIFY_CONTAINS(errorOf([&] { makePlan(vit, classInfo(10, 1), classGroups(10)); }),
                        "layer 2 (encoder 4 heads mlp 128): its 4 heads would read 1 dimension(s) each after the "
                        "split (patch 7x7 4), below 2");
        // A patch kept at its width is never rounded.
        std::get<PatchSpec>(vit.layers[0]).scalable = false;
        QCOMPARE(std::get<PatchSpec>(makePlan(vit, classInfo(10, 1), classGroups(10)).submodels[0].spec.layers[0]).dim,
                 8);
    }
};

QTEST_GUILESS_MAIN(TestTransformerSpecs)
#include "tst_transformer_specs.moc"
