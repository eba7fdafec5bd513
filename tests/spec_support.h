#pragma once
// What tests of specs share: a layer through its JSON form and back, a network from its layers' text.
#include <string>

#include "io/json.h"
#include "spec/layer_spec.h"
#include "spec/network_spec.h"
#include "spec/spec_json.h"

inline skynnet::LayerSpec roundTripJson(const skynnet::LayerSpec& l) {
    const skynnet::Json j = skynnet::parseJson(skynnet::dumpJson(skynnet::toJson(l)), "layer.json");
    return skynnet::layerSpecFromJson(skynnet::JsonField(j, "layer.json", "layer"));
}

// A network of `layers` over `input` with the task's output layer, its embeddings bound to
// `vocabulary` when one is given.
inline skynnet::NetworkSpec networkOf(skynnet::Shape input, const std::string& layers, skynnet::Task task, int outputs,
                                      int vocabulary = 0) {
    skynnet::NetworkSpec spec;
    spec.input = input;
    spec.layers = skynnet::parseLayers(layers);
    if (vocabulary > 0) spec.bindVocabulary(vocabulary);
    spec.setOutputFor(task, outputs);
    return spec;
}
