#pragma once
// JSON forms of the network spec. Every *FromJson validates and throws Error naming the file and
// the field at fault ("model.skynnet: network.layers[2].units must be a positive integer");
// unknown fields are ignored so newer files with extra information still load.
#include <string>
#include <vector>

#include "io/json.h"
#include "spec/network_spec.h"

namespace skynnet {

Json toJson(const Shape& shape);  // {"channels","height","width"}
Shape shapeFromJson(const JsonField& j);

Json toJson(const LayerSpec& layer);  // {"type":"dense","units":512,"activation":"relu","scalable":true}
LayerSpec layerSpecFromJson(const JsonField& j);

Json toJson(const NetworkSpec& spec);  // {"input","layers","outputs","outputActivation"}
NetworkSpec networkSpecFromJson(const JsonField& j);

}  // namespace skynnet
