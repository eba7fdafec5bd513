#pragma once
// ONNX export of a saved (combined) model as ONE graph from raw features to the combined answer:
//   input  "features"       float [N, rawColumns]  raw feature columns, as the model file takes them
//          "token_ids"      int64 [N, L]           a text model's (its submodels start with an
//                                                  embedding): each text's ids, padding 0 in front
//   output "probabilities"  float [N, C]           classification (combined class probabilities)
//          "probability"    float [N, 1]           binary (sigmoid probability of the second class)
//          "values"         float [N, m]           regression
// Inside: the preprocessing (Gather of the numeric columns, Sub/Mul by constant vectors; one-hot
// columns as Equal against the category codes, Cast), each submodel's layers (Gemm, Conv with
// explicit pads, MaxPool, AveragePool, GlobalAveragePool, BatchNormalization in its inference form,
// the activations; a Reshape to [N, C, H, W] before the first image layer and a Flatten before a
// dense layer that follows one; dropout is the identity at inference and left out; the sequence
// kinds as onnx_sequence_layers.h says: Gather, GRU, LSTM, the masked mean), and the combination
// rule: class groups as Log(Max(p, 1e-30)) placed into the C classes by a constant [k, C] matrix,
// summed, then Softmax; binary shards as Mean or the most confident (Greater on |2p - 1| and
// Where); output split as Concat; data shards as Mean. The graph computes what CombinedModel
// computes, to float rounding. Every file is checked with the ONNX checker and full shape
// inference before it is written (atomically: an error leaves no file behind).
#include <string>

#include "split/combined_model_file.h"

namespace skynnet {

struct OnnxOptions {
    int opset = 13;                    // 13 to 17 (what the ONNX library of Debian 12 knows)
    bool includePreprocessing = true;  // false: the input is the networks' (preprocessed) columns
    std::string graphName = "skynnet";
};

// False when this build was made without the ONNX library: every export then throws Error.
bool onnxExportAvailable();

// The combined model. Throws Error naming the path.
void exportOnnx(const SavedCombinedModel& model, const std::string& path, const OnnxOptions& options = {});
// Submodel `index` (0-based) on its own: the same input, and its own outputs ("outputs" [N, k]:
// its classes' probabilities, its chunk of columns, or its shard's answer). The metadata names
// what those outputs are (the global classes or target columns it owns).
void exportSubmodelOnnx(const SavedCombinedModel& model, int index, const std::string& path,
                        const OnnxOptions& options = {});

}  // namespace skynnet
