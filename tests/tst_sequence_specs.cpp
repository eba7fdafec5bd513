// Layer specs of the sequence kinds (embedding, gru, lstm, seqpool): their figures worked out by
// hand (and against PyTorch's parameter counts), the --layers grammar, the JSON form, the split's
// shrinking of their widths, and the errors for inputs they cannot take. The layers themselves are
// tested in tst_recurrent and tst_sequence_layers.
#include <QtTest>

#include "core/error.h"
#include "io/json.h"
#include "model/network.h"
#include "plan_support.h"
#include "spec/network_spec.h"
#include "spec/spec_json.h"
#include "spec_support.h"
#include "split/split_plan.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// The reference's GRU example: Fashion-MNIST read as 28 steps of 28 features.
NetworkSpec gruExample() {
    NetworkSpec spec;
    spec.input = Shape::steps(28, 28);
    spec.layers = parseLayers("gru:64,bn");
    spec.setOutputFor(Task::Classification, 10);
    return spec;
}

}  // namespace

class TestSequenceSpecs : public QObject {
    Q_OBJECT

private slots:
    void recurrentFiguresMatchPyTorch() {
        // torch.nn.GRU(28, 64): 3*64*28 + 3*64*64 + 2*3*64 = 18048 parameters.
        const LayerFigures g = figures(GruSpec{64, false, true}, Shape::steps(28, 28));
        QCOMPARE(g.description, std::string("gru 64"));
        QCOMPARE(g.output, Shape::flat(64));
        QCOMPARE(g.params, std::int64_t(18048));
        QCOMPARE(g.flopsPerSample, std::int64_t(2 * 28 * 3 * 64 * (28 + 64)));
        // torch.nn.LSTM(28, 64): 4*64*(28+64) + 2*4*64 = 24064.
        const LayerFigures l = figures(LstmSpec{64, true, true}, Shape::steps(28, 28));
        QCOMPARE(l.description, std::string("lstm 64 sequences"));
        QCOMPARE(l.output, Shape::steps(28, 64));
        QCOMPARE(l.params, std::int64_t(24064));
        QVERIFY(l.bufferValuesPerSample > 28 * 64);
        // The network built from the spec has the parameters its figures promise.
        const NetworkSpec spec = gruExample();
        Network net(spec, 1);
        QCOMPARE(net.paramCount(), paramCount(spec));
        QCOMPARE(paramCount(spec), std::int64_t(18048 + 2 * 64 + 64 * 10 + 10));
    }

    void embeddingAndPoolingFigures() {
        const LayerFigures e = figures(EmbeddingSpec{16, 1000, true}, Shape::steps(200, 1));
        QCOMPARE(e.description, std::string("embedding 16"));
        QCOMPARE(e.output, Shape::steps(200, 16));
        QCOMPARE(e.params, std::int64_t(16000));
        const LayerFigures p = figures(SeqPoolSpec{SequencePoolMode::Mean}, Shape::steps(200, 16));
        QCOMPARE(p.description, std::string("seqpool mean"));
        QCOMPARE(p.output, Shape::flat(16));
        QCOMPARE(p.params, std::int64_t(0));
        QCOMPARE(figures(SeqPoolSpec{SequencePoolMode::Last}, Shape::steps(5, 3)).description,
                 std::string("seqpool last"));
        // Batch norm after a sequence keeps statistics per feature.
        QCOMPARE(batchNormChannels(Shape::steps(28, 64)), 64);
        QCOMPARE(figures(BatchNormSpec{}, Shape::steps(28, 64)).params, std::int64_t(128));
    }

    void inputsTheyCannotTake() {
        VERIFY_CONTAINS(errorOf([] { figures(GruSpec{}, Shape::flat(784)); }),
                        "gru 64 needs a sequence input (steps x features), not (784): read images as rows "
                        "(--as-sequence rows)");
        VERIFY_CONTAINS(errorOf([] { figures(SeqPoolSpec{}, Shape{1, 28, 28}); }), "seqpool mean needs a sequence");
        VERIFY_CONTAINS(errorOf([] {
                            figures(EmbeddingSpec{8, 100, true}, Shape::steps(28, 28));
                        }),
                        "embedding 8 needs token ids");
        VERIFY_CONTAINS(errorOf([] {
                            figures(EmbeddingSpec{8, 0, true}, Shape::steps(20, 1));
                        }),
                        "embedding 8: no vocabulary yet");
        VERIFY_CONTAINS(errorOf([] { figures(ConvSpec{}, Shape::steps(28, 28)); }),
                        "conv 32 3x3 relu needs an image input, not a sequence (28 steps x 28)");
        VERIFY_CONTAINS(errorOf([] { figures(MaxPoolSpec{}, Shape::steps(28, 28)); }), "needs an image input");
        // In a network, the layer is named by its place.
        NetworkSpec flat;
        flat.input = Shape::flat(10);
        flat.layers = parseLayers("dense:8,gru:4");
        flat.setOutputFor(Task::Classification, 3);
        VERIFY_CONTAINS(errorOf([&] { describe(flat); }), "layer 2: gru 4 needs a sequence input");
    }

    void grammarRoundTrips() {
        const std::string text = "embedding:32,lstm:16:sequences,gru:8,seqpool:last";
        // seqpool after a vector is a shape error, not a grammar one: parse and format only.
        const std::vector<LayerSpec> layers = parseLayers(text);
        QCOMPARE(int(layers.size()), 4);
        QCOMPARE(std::get<EmbeddingSpec>(layers[0]).dim, 32);
        QCOMPARE(std::get<LstmSpec>(layers[1]).sequences, true);
        QCOMPARE(std::get<GruSpec>(layers[2]).sequences, false);
        QCOMPARE(std::get<SeqPoolSpec>(layers[3]).mode, SequencePoolMode::Last);
        QCOMPARE(formatLayers(layers), text);
        QCOMPARE(parseLayers("seqpool:mean"), std::vector<LayerSpec>{SeqPoolSpec{SequencePoolMode::Mean}});
        VERIFY_CONTAINS(errorOf([] { parseLayers("dense:8,gru:8:all"); }),
                        "layer 2 ('gru:8:all'): expected gru:UNITS[:sequences]");
        VERIFY_CONTAINS(errorOf([] { parseLayers("seqpool:max"); }), "seqpool mode 'max': expected mean, last or cls");
        VERIFY_CONTAINS(errorOf([] { parseLayers("embedding:0"); }), "the dimension must be a positive whole number");
        VERIFY_CONTAINS(errorOf([] { parseLayers("lstm"); }), "expected lstm:UNITS[:sequences]");
    }

    void jsonRoundTrips() {
        for (const LayerSpec& l :
             std::vector<LayerSpec>{EmbeddingSpec{12, 5003, false}, GruSpec{7, true, true}, LstmSpec{9, false, false},
                                    SeqPoolSpec{SequencePoolMode::Last}})
            QCOMPARE(roundTripJson(l), l);
        // A sequence input survives a file; an image's is written as before, without the flag.
        NetworkSpec spec = gruExample();
        const Json j = parseJson(dumpJson(toJson(spec)), "net.json");
        QCOMPARE(networkSpecFromJson(JsonField(j, "net.json")), spec);
        QVERIFY(!toJson(Shape{1, 28, 28}).contains("sequence"));
        const Json bad = parseJson(R"({"channels":3,"height":4,"width":5,"sequence":true})", "s.json");
        VERIFY_CONTAINS(errorOf([&] { shapeFromJson(JsonField(bad, "s.json")); }), "channels");
    }

    void splitShrinksRecurrentAndEmbeddingWidths() {
        NetworkSpec text;
        text.input = Shape::steps(50, 1);
        text.layers = parseLayers("embedding:64,lstm:32,dense:16");
        text.bindVocabulary(1000);
        text.setOutputFor(Task::Classification, 6);
        const SplitPlan plan = makePlan(text, classInfo(6, 4), classGroups(3));  // F = 1.5 (method.md §2)
        const NetworkSpec& s = plan.submodels[0].spec;
        QCOMPARE(std::get<EmbeddingSpec>(s.layers[0]).dim, 43);  // ceil(64 / 1.5)
        QCOMPARE(std::get<EmbeddingSpec>(s.layers[0]).vocabulary, 1000);
        QCOMPARE(std::get<LstmSpec>(s.layers[1]).units, 22);  // ceil(32 / 1.5)
        QCOMPARE(plan.submodels[0].params, paramCount(s));

        // ceil(2 / 2.5) = 1 < 2: refused before training, naming the layer.
        NetworkSpec narrow = gruExample();
        narrow.layers = parseLayers("gru:2");
        VERIFY_CONTAINS(errorOf([&] { makePlan(narrow, classInfo(10, 1), classGroups(10)); }),
                        "layer 1 (gru 2): units 2 / F=2.5 rounds up to 1, below the minimum width of 2");
        // Not scalable: kept.
        std::get<GruSpec>(narrow.layers[0]).scalable = false;
        QCOMPARE(std::get<GruSpec>(makePlan(narrow, classInfo(10, 1), classGroups(10)).submodels[0].spec.layers[0])
                     .units,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestSequenceSpecs)
#include "tst_sequence_specs.moc"
