#include "layers/sequence_pool_mode.h"

#include "core/error.h"

namespace skynnet {

std::string sequencePoolModeName(SequencePoolMode mode) {
    switch (mode) {
    case SequencePoolMode::Mean: return "mean";
    case SequencePoolMode::Last: return "last";
    case SequencePoolMode::Cls: return "cls";
    }
    return "mean";
}

SequencePoolMode parseSequencePoolMode(const std::string& name) {
    if (name == "mean") return SequencePoolMode::Mean;
    if (name == "last") return SequencePoolMode::Last;
    if (name == "cls") return SequencePoolMode::Cls;
    throw Error("seqpool mode '" + name + "': expected mean, last or cls");
}

}  // namespace skynnet
