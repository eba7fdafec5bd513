#pragma once
// The --layers grammar of the transformer kinds (issue 27), for network_spec.cpp's parseLayers
// and formatLayers. `f` is one layer's text split on ':' (f[0] the kind); errors give the usage.
//   patch:SIZE:DIM[:cls]   encoder:HEADS:MLP[:DROPOUT]   attention:HEADS[:causal]   layernorm
#include <string>
#include <vector>

#include "spec/transformer_layer_spec.h"

namespace skynnet {

void parseArguments(PatchSpec& layer, const std::vector<std::string>& f);
void parseArguments(EncoderSpec& layer, const std::vector<std::string>& f);
void parseArguments(AttentionSpec& layer, const std::vector<std::string>& f);
void parseArguments(LayerNormSpec& layer, const std::vector<std::string>& f);

std::string formatArguments(const PatchSpec& layer);
std::string formatArguments(const EncoderSpec& layer);
std::string formatArguments(const AttentionSpec& layer);
std::string formatArguments(const LayerNormSpec& layer);

}  // namespace skynnet
