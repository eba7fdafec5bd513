#pragma once
// The figures of a designed network as the designer shows them, layer by layer. Unlike the
// engine's describe(), which stops at the first layer that cannot take its input, every row is
// there: the impossible layer carries the engine's message (shown in its row before training) and
// the layers after it have no figures, since their input shape is unknown.
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

#include "spec/network_spec.h"

namespace skynnet::ui {

struct LayerRowFigures {
    std::optional<LayerFigures> figures;  // none for an impossible layer and the layers after it
    QString problem;                      // the engine's message for this layer, or empty

    bool known() const { return figures.has_value(); }
};

// One per hidden layer, then the output layer.
std::vector<LayerRowFigures> layerRowFigures(const NetworkSpec& spec);
// The bytes one layer adds to trainingMemoryBytes(): its parameters, gradients and optimiser slots,
// its state, and its buffers at the batch size. The rows add up to trainingMemoryBytes() less the
// gathered input batch.
std::int64_t layerTrainingBytes(const LayerFigures& figures, int batchSize, int slotsPerParam);
// "32×26×26" for an image-shaped (C, H, W) value, "28 steps × 64" for a sequence, "128" for a
// flat one.
QString shapeText(Shape shape);

}  // namespace skynnet::ui
