#pragma once
// The network as the user designs it: a value type, cheap to copy, edited by the designer and
// shrunk by the split planner. The output layer is not part of the list: it follows from the task
// and the (sub)model's own output size.
#include <string>
#include <vector>

#include "core/task.h"
#include "core/tensor.h"
#include "layers/activation.h"

namespace skynnet {

enum class LayerType { Dense, Dropout, Flatten };

struct LayerSpec {
    LayerType type = LayerType::Dense;
    int units = 0;                              // Dense
    Activation activation = Activation::ReLU;   // Dense
    float rate = 0.0f;                          // Dropout
    bool scalable = true;                       // the split may shrink this width

    bool operator==(const LayerSpec&) const = default;
};

struct NetworkSpec {
    Shape input;
    std::vector<LayerSpec> layers;  // hidden layers, in order
    int outputs = 1;
    Activation outputActivation = Activation::None;

    bool operator==(const NetworkSpec&) const = default;

    // Sets outputs and their activation for a task: softmax over classes, one sigmoid, or linear.
    void setOutputFor(Task task, int outputCount);
    // Human-readable "784-512-256-10" style summary of the widths.
    std::string widthsSummary() const;
};

// Parses "dense:512:relu,dropout:0.2,dense:256:tanh,flatten" into hidden layers.
// Throws Error naming the item at fault (1-based) and what was expected.
std::vector<LayerSpec> parseLayers(const std::string& text);
std::string formatLayers(const std::vector<LayerSpec>& layers);

// Per-layer figures of a spec, without allocating any weights.
struct LayerFigures {
    std::string description;  // "dense 512 relu"
    Shape output;
    std::int64_t params = 0;
    std::int64_t flopsPerSample = 0;
};
std::vector<LayerFigures> describe(const NetworkSpec& spec);
std::int64_t paramCount(const NetworkSpec& spec);
// paramCount() that stops just above `limit`, so a hostile spec read from a file cannot overflow.
std::int64_t paramCountUpTo(const NetworkSpec& spec, std::int64_t limit);
std::int64_t flopsPerSample(const NetworkSpec& spec);
// Training memory in bytes: parameters, their gradients, optimiser state (slotsPerParam copies, 2
// for Adam) and the forward/backward buffers at the batch size.
std::int64_t trainingMemoryBytes(const NetworkSpec& spec, int batchSize, int slotsPerParam);

}  // namespace skynnet
