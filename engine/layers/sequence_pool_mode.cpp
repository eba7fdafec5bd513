#include "layers/sequence_pool_mode.h"

#include "core/error.h"

namespace skynnet {

std::string sequencePoolModeName(SequencePoolMode mode) { return mode == SequencePoolMode::Mean ? "mean" : "last"; }

SequencePoolMode parseSequencePoolMode(const std::string& name) {
    if (name == "mean") return SequencePoolMode::Mean;
    if (name == "last") return SequencePoolMode::Last;
    throw Error("seqpool mode '" + name + "': expected mean or last");
}

}  // namespace skynnet
