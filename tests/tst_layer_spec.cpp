// Layer specs of the image kinds (conv, pooling, global pooling, batch norm, activation): their
// figures worked out by hand, the --layers grammar, the JSON form, and the errors for shapes a
// layer cannot take. The layers that compute them are tested in tst_layers.
#include <QtTest>

#include "core/error.h"
#include "io/json.h"
#include "layers/conv2d.h"
#include "spec/network_spec.h"
#include "spec/spec_json.h"
#include "spec_support.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// The issue's CNN: 28 -> conv 3x3 26 -> pool 13 -> conv 3x3 11 -> pool 5, then dense 128 and 10.
const char* kSmallCnn = "conv:32:3x3:relu,maxpool:2,conv:64:3x3:relu,maxpool:2,flatten,dense:128:relu";

NetworkSpec smallCnn() {
    NetworkSpec spec;
    spec.input = Shape{1, 28, 28};
    spec.layers = parseLayers(kSmallCnn);
    spec.setOutputFor(Task::Classification, 10);
    return spec;
}

}  // namespace

class TestLayerSpec : public QObject {
    Q_OBJECT

private slots:
    void convFigures() {
        // 32 filters of 1x3x3 on 28x28, valid: 26x26 out, 32*9 weights + 32 biases,
        // 2 FLOPs per weight per output position.
        const LayerFigures c = figures(ConvSpec{}, Shape{1, 28, 28});
        QCOMPARE(c.description, std::string("conv 32 3x3 relu"));
        QCOMPARE(c.output, (Shape{32, 26, 26}));
        QCOMPARE(c.params, std::int64_t(320));
        QCOMPARE(c.flopsPerSample, std::int64_t(2 * 9 * 32 * 26 * 26));
        QCOMPARE(c.state, std::int64_t(0));
        QCOMPARE(c.bufferValuesPerSample, std::int64_t(4 * 32 * 26 * 26));
        // Stride 1 takes the direct kernels: blocks of convBlockSamples() samples (16 with AVX-512):
        // the input (1 x 28 x 28), the output gradient (32 x 26 x 26) and the larger of the output
        // (32 x 26 x 26) and the input gradient (1 channel rounded up to a filter group of 4,
        // 4 x 28 x 28); then the packed filters (32 x 9) and the flipped ones (4 x 32 x 9).
        QCOMPARE(c.bufferValuesFixed,
                 std::int64_t(convBlockSamples()) * (28 * 28 + 32 * 26 * 26 + 32 * 26 * 26) + 32 * 9 + 4 * 32 * 9);
        // im2col (forced here, taken for strides above 1): a chunk of columns (9 x 676 a sample)
        // and product (32 x 676), 2^17 / (41 * 676) = 4 samples at a time, as the layer takes them.
        ConvOptions im2col{32, 3, 3, 1, false, true};
        im2col.path = ConvOptions::Path::Im2col;
        QCOMPARE(convFixedBufferValues(Shape{1, 28, 28}, im2col), std::int64_t(4 * (9 + 32) * 26 * 26));
        QCOMPARE(convChunkSamples(9, 32, 26 * 26), Index(4));
        // conv64 3x3 on 32 x 13 x 13: blocks of 32 x 13 x 13, 64 x 11 x 11 and
        // 64 x 11 x 11 (more than 32 x 13 x 13), filters 64 x 288 and 32 x 64 x 9.
        ConvSpec conv2{64, 3, 3};
        QCOMPARE(figures(conv2, Shape{32, 13, 13}).bufferValuesFixed,
                 std::int64_t(convBlockSamples()) * (32 * 13 * 13 + 64 * 11 * 11 + 64 * 11 * 11) + 64 * 288 +
                     32 * 64 * 9);

        // 5x3 kernel, stride 2, same padding, no bias, on (3, 7, 8): out ceil(7/2) x ceil(8/2).
        ConvSpec s;
        s.filters = 4;
        s.kernelH = 5;
        s.kernelW = 3;
        s.stride = 2;
        s.padding = Padding::Same;
        s.bias = false;
        s.activation = Activation::None;
        const LayerFigures sf = figures(s, Shape{3, 7, 8});
        QCOMPARE(sf.description, std::string("conv 4 5x3 s2 same nobias linear"));
        QCOMPARE(sf.output, (Shape{4, 4, 4}));
        QCOMPARE(sf.params, std::int64_t(4 * 3 * 5 * 3));
        QCOMPARE(sf.flopsPerSample, std::int64_t(2 * 3 * 5 * 3 * 4 * 4 * 4));
        // Padding: rows (4-1)*2+5-7 = 4 in all, 2 before; columns (4-1)*2+3-8 = 1, 0 before.
        QCOMPARE(convPaddingBefore(7, 5, 2, Padding::Same), 2);
        QCOMPARE(convPaddingBefore(8, 3, 2, Padding::Same), 0);
        QCOMPARE(convPaddingBefore(8, 3, 2, Padding::Valid), 0);
        QCOMPARE(convOutputSize(28, 3, 1, Padding::Same), 28);
        QCOMPARE(convOutputSize(11, 3, 2, Padding::Valid), 5);  // floor((11-3)/2)+1

        // A kernel larger than its input is refused, naming the layer and both sizes.
        QCOMPARE(errorOf([] {
                     figures(ConvSpec{8, 3, 3}, Shape{2, 2, 2});
                 }),
                 std::string("conv 8 3x3 relu: kernel 3x3 is larger than its 2x2 input (use same padding or a "
                             "smaller kernel)"));
        ConvSpec same{8, 3, 3};
        same.padding = Padding::Same;
        QCOMPARE(figures(same, Shape{2, 2, 2}).output, (Shape{8, 2, 2}));  // padded: allowed
        VERIFY_CONTAINS(errorOf([] {
                            figures(ConvSpec{0, 3, 3}, Shape{1, 8, 8});
                        }),
                        "conv 0 3x3 relu: the filter count must be at least 1");
    }

    void poolingFigures() {
        const LayerFigures m = figures(MaxPoolSpec{}, Shape{32, 26, 26});
        QCOMPARE(m.description, std::string("maxpool 2"));
        QCOMPARE(m.output, (Shape{32, 13, 13}));
        QCOMPARE(m.params, std::int64_t(0));
        QCOMPARE(m.flopsPerSample, std::int64_t(32 * 13 * 13 * 4));
        // Odd input: floor((11 - 2) / 2) + 1 = 5, the last row and column are dropped.
        QCOMPARE(figures(MaxPoolSpec{}, Shape{64, 11, 11}).output, (Shape{64, 5, 5}));
        // Overlapping windows: 3 wide, stride 2, on 7: floor(4 / 2) + 1 = 3.
        const LayerFigures overlap = figures(AvgPoolSpec{3, 2}, Shape{1, 7, 7});
        QCOMPARE(overlap.description, std::string("avgpool 3 s2"));
        QCOMPARE(overlap.output, (Shape{1, 3, 3}));
        QCOMPARE(figures(AvgPoolSpec{2, 2}, Shape{1, 4, 4}).description, std::string("avgpool 2"));
        QCOMPARE(errorOf([] {
                     figures(MaxPoolSpec{3}, Shape{4, 2, 2});
                 }),
                 std::string("maxpool 3: window 3x3 is larger than its 2x2 input"));

        const LayerFigures g = figures(GlobalAvgPoolSpec{}, Shape{64, 5, 5});
        QCOMPARE(g.description, std::string("gap"));
        QCOMPARE(g.output, (Shape{64, 1, 1}));
        QCOMPARE(g.flopsPerSample, std::int64_t(64 * 25));
    }

    void batchNormAndActivationFigures() {
        // After a conv: per channel, scale and shift trainable, running mean and variance state.
        const LayerFigures conv = figures(BatchNormSpec{}, Shape{32, 13, 13});
        QCOMPARE(conv.output, (Shape{32, 13, 13}));
        QCOMPARE(conv.params, std::int64_t(64));
        QCOMPARE(conv.state, std::int64_t(64));
        // After a dense layer: per feature.
        const LayerFigures dense = figures(BatchNormSpec{}, Shape::flat(128));
        QCOMPARE(dense.params, std::int64_t(256));
        QCOMPARE(dense.state, std::int64_t(256));
        QCOMPARE(batchNormChannels(Shape{3, 1, 1}), 3);
        VERIFY_CONTAINS(errorOf([] { figures(BatchNormSpec{0.0f}, Shape::flat(4)); }),
                        "bn: the momentum must be above 0 and at most 1");

        const LayerFigures a = figures(ActivationSpec{Activation::Tanh}, Shape{2, 3, 3});
        QCOMPARE(a.description, std::string("activation tanh"));
        QCOMPARE(a.output, (Shape{2, 3, 3}));
        QCOMPARE(a.params, std::int64_t(0));
    }

    void smallCnnAddsUp() {
        const NetworkSpec spec = smallCnn();
        const auto f = describe(spec);
        QCOMPARE(f.size(), std::size_t(7));  // six hidden layers and the output
        QCOMPARE(f[0].output, (Shape{32, 26, 26}));
        QCOMPARE(f[1].output, (Shape{32, 13, 13}));
        QCOMPARE(f[2].output, (Shape{64, 11, 11}));
        QCOMPARE(f[3].output, (Shape{64, 5, 5}));
        QCOMPARE(f[4].output, Shape::flat(1600));
        QCOMPARE(f[5].params, std::int64_t(1600 * 128 + 128));
        const std::int64_t expected = 320 + (64 * 32 * 9 + 64) + (1600 * 128 + 128) + (128 * 10 + 10);
        QCOMPARE(paramCount(spec), expected);
        QCOMPARE(spec.widthsSummary(), std::string("784-c32-c64-128-10"));

        // BatchNorm's state is stored with the weights, so training memory counts it.
        NetworkSpec withBn = spec;
        withBn.layers.insert(withBn.layers.begin() + 1, BatchNormSpec{});
        QCOMPARE(paramCount(withBn), expected + 64);
        QCOMPARE(trainingMemoryBytes(withBn, 1, 2) - trainingMemoryBytes(spec, 1, 2),
                 std::int64_t(sizeof(float)) * (64 * 4 + 64 + 3 * 32 * 26 * 26));

        // An impossible shape further down names its layer in the whole network.
        NetworkSpec deep = spec;
        deep.layers.insert(deep.layers.begin() + 4, ConvSpec{8, 7, 7});
        QCOMPARE(errorOf([&] { describe(deep); }),
                 std::string("layer 5: conv 8 7x7 relu: kernel 7x7 is larger than its 5x5 input (use same padding or "
                             "a smaller kernel)"));
    }

    void grammarRoundTrips() {
        const auto layers = parseLayers(kSmallCnn);
        QCOMPARE(formatLayers(layers), std::string(kSmallCnn));
        const ConvSpec& c = std::get<ConvSpec>(layers[0]);
        QCOMPARE(c.filters, 32);
        QCOMPARE(c.stride, 1);
        QCOMPARE(c.padding, Padding::Valid);
        QVERIFY(c.bias && c.scalable);
        QCOMPARE(std::get<MaxPoolSpec>(layers[1]).effectiveStride(), 2);

        // Every optional item, a square kernel given as one number, and the default activation.
        const auto full = parseLayers("conv:16:5:s2:same:nobias:tanh, conv:8:3x5, maxpool:3:s2, avgpool:2, gap, bn, "
                                      "activation:sigmoid");
        const ConvSpec& f = std::get<ConvSpec>(full[0]);
        QCOMPARE(f.kernelH, 5);
        QCOMPARE(f.kernelW, 5);
        QCOMPARE(f.stride, 2);
        QCOMPARE(f.padding, Padding::Same);
        QVERIFY(!f.bias);
        QCOMPARE(f.activation, Activation::Tanh);
        QCOMPARE(std::get<ConvSpec>(full[1]).kernelW, 5);
        QCOMPARE(std::get<ConvSpec>(full[1]).activation, Activation::ReLU);
        QCOMPARE(std::get<MaxPoolSpec>(full[2]).stride, 2);
        QCOMPARE(formatLayers(full), std::string("conv:16:5x5:s2:same:nobias:tanh,conv:8:3x5:relu,maxpool:3:s2,"
                                                 "avgpool:2,gap,bn,activation:sigmoid"));
        QCOMPARE(formatLayers(parseLayers(formatLayers(full))), formatLayers(full));
    }

    void grammarErrorsNameTheLayer() {
        const std::pair<const char*, const char*> cases[] = {
            {"conv:0:3x3", "the filter count must be a positive whole number"},
            {"conv:8", "expected conv:FILTERS:KxK[:sS][:same|valid][:nobias][:ACTIVATION]"},
            {"conv:8:3x", "not a number"},
            {"conv:8:3x3:s0", "the stride must be a positive whole number"},
            {"conv:8:3x3:bogus", "unknown activation"},
            {"conv:8:3x3:relu:same", "expected conv:FILTERS"},
            {"maxpool:0", "the window size must be a positive whole number"},
            {"maxpool:2:3", "expected maxpool:SIZE[:sS]"},
            {"gap:1", "gap takes no arguments"},
            {"bn:2", "bn takes no arguments"},
            {"activation", "expected activation:ACTIVATION"},
        };
        for (const auto& [text, message] : cases) {
            const std::string e = errorOf([&] { parseLayers(std::string("dense:4,") + text); });
            VERIFY_CONTAINS(e, "layer 2 ('" + std::string(text) + "')");
            VERIFY_CONTAINS(e, message);
        }
    }

    void jsonRoundTripsEveryKind() {
        ConvSpec c{12, 5, 3, 2, Padding::Same, false, Activation::Tanh, false};
        for (const LayerSpec& l :
             std::vector<LayerSpec>{c, ConvSpec{}, MaxPoolSpec{3, 2}, AvgPoolSpec{}, GlobalAvgPoolSpec{},
                                    BatchNormSpec{0.25f, 1e-3f}, ActivationSpec{Activation::Sigmoid}})
            QVERIFY2(roundTripJson(l) == l, dumpJson(toJson(l)).c_str());
        QCOMPARE(toJson(LayerSpec(c))["kernel"], Json::array({5, 3}));
        QCOMPARE(toJson(LayerSpec(c))["padding"], Json("same"));

        // Bad fields are named with their path.
        const auto errorFor = [](const char* text) {
            return errorOf([&] {
                const Json j = parseJson(text, "net.json");
                layerSpecFromJson(JsonField(j, "net.json", "layers[0]"));
            });
        };
        VERIFY_CONTAINS(
            errorFor(
                R"({"type":"conv","filters":8,"kernel":3,"stride":1,"padding":"valid","bias":true,"activation":"relu"})"),
            "layers[0].kernel");
        VERIFY_CONTAINS(
            errorFor(
                R"({"type":"conv","filters":8,"kernel":[3,3],"stride":1,"padding":"full","bias":true,"activation":"relu"})"),
            "unknown padding 'full' (expected valid or same)");
        VERIFY_CONTAINS(errorFor(R"({"type":"maxpool","size":0,"stride":0})"), "layers[0].size");
        VERIFY_CONTAINS(errorFor(R"({"type":"bn","momentum":2,"epsilon":0.001})"), "layers[0].momentum");
    }
};

QTEST_APPLESS_MAIN(TestLayerSpec)
#include "tst_layer_spec.moc"
