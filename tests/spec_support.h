#pragma once
// What tests of layer specs share: a layer through its JSON form and back.
#include "io/json.h"
#include "spec/spec_json.h"

inline skynnet::LayerSpec roundTripJson(const skynnet::LayerSpec& l) {
    const skynnet::Json j = skynnet::parseJson(skynnet::dumpJson(skynnet::toJson(l)), "layer.json");
    return skynnet::layerSpecFromJson(skynnet::JsonField(j, "layer.json", "layer"));
}
