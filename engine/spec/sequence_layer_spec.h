#pragma once
// The layer kinds of sequence models (issue 26): text's embedding, the recurrent cells and the
// pooling that turns a sequence into one vector. Their input and output shapes are sequences
// (Shape::sequence: steps x features); layer_spec.h lists them in LayerSpec and gives their
// figures.
#include <string>

#include "layers/sequence_pool_mode.h"

namespace skynnet {

// Token ids (a sequence of 1 feature per step) to vectors of `dim` values. The vocabulary comes
// from the data's tokenizer: 0 until the network is bound to its data (bindToData).
struct EmbeddingSpec {
    static constexpr const char* kind = "embedding";
    int dim = 64;
    int vocabulary = 0;
    bool scalable = true;  // the split shrinks dim like dense units (the reference shrinks embeddings by F)

    bool operator==(const EmbeddingSpec&) const = default;
};

// Gate conventions and the parameter layout: layers/gru.h and layers/lstm.h (PyTorch's).
// `sequences`: every step's output (a sequence) rather than the last step's (a vector).
struct GruSpec {
    static constexpr const char* kind = "gru";
    int units = 64;
    bool sequences = false;
    bool scalable = true;

    bool operator==(const GruSpec&) const = default;
};

struct LstmSpec {
    static constexpr const char* kind = "lstm";
    int units = 64;
    bool sequences = false;
    bool scalable = true;

    bool operator==(const LstmSpec&) const = default;
};

// A sequence to one vector of its features: the mean over the real (non-padding) steps, or the
// last step.
struct SeqPoolSpec {
    static constexpr const char* kind = "seqpool";
    SequencePoolMode mode = SequencePoolMode::Mean;

    bool operator==(const SeqPoolSpec&) const = default;
};

// "embedding 64", "gru 64", "gru 64 sequences", "seqpool mean": their description().
std::string describe(const EmbeddingSpec& layer);
std::string describe(const GruSpec& layer);
std::string describe(const LstmSpec& layer);
std::string describe(const SeqPoolSpec& layer);

}  // namespace skynnet
