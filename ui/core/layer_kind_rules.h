#pragma once
// What the network designer knows of each layer kind beside the engine's figures: a new layer's
// usual settings, the settings it can never take whatever its input, and every setting in a few
// words. (Which field columns a kind has is the layer table model's.)
#include <QString>

#include "spec/network_spec.h"

namespace skynnet::ui {

// A new layer of `type`'s kind with the kind's usual settings (dense 64 relu, conv 32 3x3 relu, ...).
LayerSpec usualLayer(const LayerSpec& type);
// Why a layer cannot go into a network whatever its input (units below 1, a dropout of 1), or empty.
// Shape problems (a kernel larger than its input) are the engine's figures() to find, row by row.
QString layerProblem(const LayerSpec& layer);
// Every setting of a layer in a few words, for the Settings column.
QString layerSummary(const LayerSpec& layer);

QString windowText(int h, int w);  // "3×3"
QString activationText(Activation a);

}  // namespace skynnet::ui
