#pragma once
// The network as the user designs it: a value type, cheap to copy, edited by the designer and
// shrunk by the split planner. The output layer is not part of the list: it follows from the task
// and the (sub)model's own output size.
#include <string>
#include <vector>

#include "core/task.h"
#include "core/tensor.h"
#include "layers/activation.h"
#include "spec/layer_spec.h"

namespace skynnet {

struct NetworkSpec {
    Shape input;
    std::vector<LayerSpec> layers;  // hidden layers, in order
    int outputs = 1;
    Activation outputActivation = Activation::None;

    bool operator==(const NetworkSpec&) const = default;

    // Sets outputs and their activation for a task: softmax over classes, one sigmoid, or linear;
    // for reconstruction the activation stays linear or sigmoid as it is (the loss's choice).
    void setOutputFor(Task task, int outputCount);
    // Gives every embedding the vocabulary size of the data's tokenizer (0 for data that is not
    // text, which the embedding's figures then refuse).
    void bindVocabulary(int size);
    // The output layer as a dense layer of its own (never scalable: its width follows the data).
    DenseSpec outputLayer() const { return DenseSpec{outputs, outputActivation, false}; }
    // Human-readable "784-512-256-10" style summary of the widths.
    std::string widthsSummary() const;
};

// Parses "dense:512:relu,dropout:0.2,dense:256:tanh,flatten" into hidden layers.
// Throws Error naming the item at fault (1-based) and what was expected.
std::vector<LayerSpec> parseLayers(const std::string& text);
std::string formatLayers(const std::vector<LayerSpec>& layers);

// Per-layer figures of a spec (figures() of each hidden layer, then the output layer), without
// allocating any weights.
std::vector<LayerFigures> describe(const NetworkSpec& spec);
std::int64_t paramCount(const NetworkSpec& spec);
// paramCount() that stops just above `limit`, so a hostile spec read from a file cannot overflow.
std::int64_t paramCountUpTo(const NetworkSpec& spec, std::int64_t limit);
std::int64_t flopsPerSample(const NetworkSpec& spec);
// Training memory in bytes: parameters, their gradients, optimiser state (slotsPerParam copies, 2
// for Adam) and the forward/backward buffers at the batch size.
std::int64_t trainingMemoryBytes(const NetworkSpec& spec, int batchSize, int slotsPerParam);

}  // namespace skynnet
