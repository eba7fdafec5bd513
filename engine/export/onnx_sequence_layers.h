#pragma once
// The ONNX graph of the sequence layer kinds (issue 26), for onnx_export.cpp's submodel loop.
// Compiled only with the ONNX library (SKYNNET_HAVE_ONNX). Each function reads the layer's weights
// in Network::flatWeights() order, appends its nodes under `name` and moves the cursor on:
//   embedding  Gather of the weight rows (vocabulary, dim) by the int64 token ids -> [N, L, dim];
//              its output's step mask comes from those ids (id != 0), as the engine's Embedding.
//   gru/lstm   ONNX's GRU (linear_before_reset = 1) and LSTM, forward, no peepholes, over the
//              steps-first transpose of [N, steps, features]; every step back to [N, steps, units]
//              (step-major, as the engine's rows), or the last one (Y_h) as [N, units].
//   seqpool    mean over the real steps (the mask from the ids, an all-padding row gives 0; every
//              step without a mask) or the last step.
//   bn         per feature over every step: BatchNormalization on the [N, features, steps] transpose.
#include <string>
#include <vector>

#include "export/onnx_graph_builder.h"
#include "spec/sequence_layer_spec.h"

namespace skynnet::onnx_graph {

void addEmbedding(GraphBuilder& b, Cursor& c, WeightReader& w, const EmbeddingSpec& layer, const std::string& name);
void addGru(GraphBuilder& b, Cursor& c, WeightReader& w, const GruSpec& layer, const std::string& name);
void addLstm(GraphBuilder& b, Cursor& c, WeightReader& w, const LstmSpec& layer, const std::string& name);
void addSequencePool(GraphBuilder& b, Cursor& c, const SeqPoolSpec& layer, const std::string& name);
// `statistics`: the initializers gamma, beta, running mean and running variance (features each).
void addSequenceBatchNorm(GraphBuilder& b, Cursor& c, const std::vector<std::string>& statistics, float epsilon,
                          const std::string& name);

}  // namespace skynnet::onnx_graph
