#pragma once
// Edits of one field of a hidden layer, as typed in the Network page's table: each parses the
// value, checks it and sets the field, or returns why the value is refused (nothing when it is
// taken). The layer must be of a kind that has the field: LayerTableModel::flags lets no other
// edit through, and std::get would throw.
#include <QString>
#include <QStringList>
#include <QVariant>
#include <optional>

#include "spec/network_spec.h"

namespace skynnet::ui {

// Dense units, conv filters, GRU or LSTM units, embedding or patch dimensions, an encoder's MLP width.
std::optional<QString> editUnits(LayerSpec& layer, const QVariant& value);
// A conv kernel "3x3", a pooling window "2", a patch's size "7".
std::optional<QString> editWindow(LayerSpec& layer, const QVariant& value);
std::optional<QString> editStride(LayerSpec& layer, const QVariant& value);  // conv or pool
std::optional<QString> editPadding(LayerSpec& layer, const QVariant& value);
std::optional<QString> editActivation(LayerSpec& layer, const QVariant& value);  // dense, conv or activation layer
// A dropout layer's rate, an encoder's dropout, attention's dropout on its weights.
std::optional<QString> editDropoutRate(LayerSpec& layer, const QVariant& value);
std::optional<QString> editHeads(LayerSpec& layer, const QVariant& value);  // attention or encoder
std::optional<QString> editBatchNormMomentum(LayerSpec& layer, const QVariant& value);
std::optional<QString> editBatchNormEpsilon(LayerSpec& layer, const QVariant& value);
// What a sequence layer makes of its steps: a GRU or LSTM returns the "last step" or "every step"
// (also "last", "every", "sequences"); seqpool takes their "mean" or the "last step" ("last").
std::optional<QString> editSteps(LayerSpec& layer, const QVariant& value);
// The Steps values of a layer's kind, in menu order; empty for kinds without steps.
QStringList stepsChoices(const LayerSpec& layer);
// The layer's Steps value (one of stepsChoices()), or empty.
QString stepsText(const LayerSpec& layer);

}  // namespace skynnet::ui
