#include "spec/transformer_layer_text.h"

#include <sstream>

#include "core/error.h"

namespace skynnet {
namespace {

int positive(const std::string& text, const char* what) {
    std::size_t used = 0;
    const int n = std::stoi(text, &used);
    if (used != text.size() || n < 1) throw Error(std::string(what) + " must be a positive whole number");
    return n;
}

std::string number(float v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

}  // namespace

void parseArguments(PatchSpec& layer, const std::vector<std::string>& f) {
    if (f.size() < 3 || f.size() > 4 || (f.size() == 4 && f[3] != "cls")) throw Error("expected patch:SIZE:DIM[:cls]");
    layer = PatchSpec{};
    layer.patch = positive(f[1], "the patch size");
    layer.dim = positive(f[2], "the dimension");
    layer.classToken = f.size() == 4;
}

void parseArguments(EncoderSpec& layer, const std::vector<std::string>& f) {
    if (f.size() < 3 || f.size() > 4) throw Error("expected encoder:HEADS:MLP[:DROPOUT]");
    layer = EncoderSpec{};
    layer.heads = positive(f[1], "the head count");
    layer.mlp = positive(f[2], "the MLP width");
    if (f.size() == 4) {
        std::size_t used = 0;
        layer.dropout = std::stof(f[3], &used);
        if (used != f[3].size() || !(layer.dropout >= 0.0f && layer.dropout < 1.0f))
            throw Error("the dropout rate must be in [0, 1)");
    }
}

void parseArguments(AttentionSpec& layer, const std::vector<std::string>& f) {
    if (f.size() < 2 || f.size() > 3 || (f.size() == 3 && f[2] != "causal"))
        throw Error("expected attention:HEADS[:causal]");
    layer = AttentionSpec{};
    layer.heads = positive(f[1], "the head count");
    layer.causal = f.size() == 3;
}

void parseArguments(LayerNormSpec&, const std::vector<std::string>& f) {
    if (f.size() != 1) throw Error("layernorm takes no arguments");
}

std::string formatArguments(const PatchSpec& l) {
    return std::string(PatchSpec::kind) + ":" + std::to_string(l.patch) + ":" + std::to_string(l.dim) +
           (l.classToken ? ":cls" : "");
}

std::string formatArguments(const EncoderSpec& l) {
    return std::string(EncoderSpec::kind) + ":" + std::to_string(l.heads) + ":" + std::to_string(l.mlp) +
           (l.dropout > 0 ? ":" + number(l.dropout) : "");
}

// The attention's dropout is a field of the file format only (the grammar has none, as the issue
// fixes it), so a layer with one formats without it.
std::string formatArguments(const AttentionSpec& l) {
    return std::string(AttentionSpec::kind) + ":" + std::to_string(l.heads) + (l.causal ? ":causal" : "");
}

std::string formatArguments(const LayerNormSpec&) { return LayerNormSpec::kind; }

}  // namespace skynnet
