#pragma once
// What a sequence pooling layer keeps of a sequence: its own header, so that a layer spec can name
// the mode without pulling the layer in.
#include <string>

namespace skynnet {

enum class SequencePoolMode {
    Mean,  // the mean over the real (unmasked) steps
    Last,  // the last step (texts are pre-padded: the last step is always a real token)
    Cls,   // the first step: a patch embedding's class token (issue 27), mask or not
};

// "mean", "last" or "cls", as the CLI's seqpool:MODE spells it.
std::string sequencePoolModeName(SequencePoolMode mode);
// The inverse; anything else is an Error naming the text.
SequencePoolMode parseSequencePoolMode(const std::string& name);

}  // namespace skynnet
