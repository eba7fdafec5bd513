#pragma once
// How a sequence becomes one vector (layers/sequence_pool.h): the mean of its real steps, or the
// last step. Apart from the layer, so that specs and files can name a mode without the layer.
#include <string>

namespace skynnet {

enum class SequencePoolMode { Mean, Last };

std::string sequencePoolModeName(SequencePoolMode mode);  // "mean" or "last"
// Throws Error "seqpool mode 'x': expected mean or last".
SequencePoolMode parseSequencePoolMode(const std::string& name);

}  // namespace skynnet
