#pragma once
// What a compound layer does inside, step by step, for the network diagram's opened blocks: an
// encoder block's norms, attention, MLP and residual adds; attention's heads and residual; a patch
// layer's cutting, projection, class token and positions. Each step has its output shape for one
// sample, so a user sees where a block's width and token count come from.
#include <QString>
#include <vector>

#include "spec/network_spec.h"

namespace skynnet::ui {

struct InsideStep {
    QString title;   // "4-head attention", "+ residual"
    QString shape;   // "16 steps × 64"
    QString detail;  // more than the title holds, for its tooltip; may be empty
};

// The steps of `layer` over `input` (its input shape), or none for a kind without an inside or an
// input it cannot take.
std::vector<InsideStep> layerInside(const LayerSpec& layer, Shape input);

}  // namespace skynnet::ui
