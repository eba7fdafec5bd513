#include "core/error.h"
#include "spec/layer_spec.h"

namespace skynnet {
namespace {

void requireSequence(const std::string& description, Shape input) {
    if (!input.sequence)
        throw Error(description + " needs a sequence input (steps x features), not " + input.toString() +
                    ": read images as rows (--as-sequence rows), or start with an embedding of text");
}

// GRU (3 gate blocks) and LSTM (4): weights (features + units, gates x units) and two biases.
LayerFigures recurrentFigures(const std::string& description, int units, bool sequences, int gates, Shape input) {
    requireSequence(description, input);
    if (units < 1) throw Error(description + ": the unit count must be at least 1");
    LayerFigures f;
    f.description = description;
    const std::int64_t steps = input.height, features = input.width, width = std::int64_t(gates) * units;
    f.output = sequences ? Shape::steps(input.height, units) : Shape::flat(units);
    f.params = width * (features + units) + 2 * width;
    f.flopsPerSample = 2 * steps * width * (features + units);
    // As the layers hold them (layers/recurrent.h, gru.h, lstm.h): every step's gate inputs and
    // their gradient, every step's h, the gate values (4 blocks of units; an LSTM's cell state
    // too), the input gradient, and the per-step working rows.
    const std::int64_t gateValues = 4 * std::int64_t(units) + (gates == 4 ? units : 0);
    f.bufferValuesPerSample = steps * (2 * width + units + gateValues) + steps * features + (gates + 4) * units;
    return f;
}

}  // namespace

std::string describe(const EmbeddingSpec& l) { return std::string(EmbeddingSpec::kind) + " " + std::to_string(l.dim); }
std::string describe(const GruSpec& l) {
    return std::string(GruSpec::kind) + " " + std::to_string(l.units) + (l.sequences ? " sequences" : "");
}
std::string describe(const LstmSpec& l) {
    return std::string(LstmSpec::kind) + " " + std::to_string(l.units) + (l.sequences ? " sequences" : "");
}
std::string describe(const SeqPoolSpec& l) {
    return std::string(SeqPoolSpec::kind) + " " + sequencePoolModeName(l.mode);
}

LayerFigures figures(const EmbeddingSpec& layer, Shape input) {
    LayerFigures f;
    f.description = describe(layer);
    if (!input.sequence || input.width != 1)
        throw Error(f.description + " needs token ids (text read with --text-column, or a folder of .txt files), not " +
                    input.toString());
    if (layer.dim < 1) throw Error(f.description + ": the dimension must be at least 1");
    if (layer.vocabulary < 3)
        throw Error(f.description + ": no vocabulary yet (it comes from the text data's tokenizer)");
    f.output = Shape::steps(input.height, layer.dim);
    f.params = std::int64_t(layer.vocabulary) * layer.dim;
    f.flopsPerSample = f.output.size();                        // a copy per value: no arithmetic to speak of
    f.bufferValuesPerSample = f.output.size() + input.height;  // the vectors and the step mask
    return f;
}

LayerFigures figures(const GruSpec& layer, Shape input) {
    return recurrentFigures(describe(layer), layer.units, layer.sequences, 3, input);
}

LayerFigures figures(const LstmSpec& layer, Shape input) {
    return recurrentFigures(describe(layer), layer.units, layer.sequences, 4, input);
}

LayerFigures figures(const SeqPoolSpec& layer, Shape input) {
    LayerFigures f;
    f.description = describe(layer);
    requireSequence(f.description, input);
    f.output = Shape::flat(input.width);
    f.flopsPerSample = input.size();
    f.bufferValuesPerSample = f.output.size() + input.size();  // the output and the input gradient
    return f;
}

}  // namespace skynnet
