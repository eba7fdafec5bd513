#pragma once
// Attention after the split (issue 27): a token width shrunk to ceil(w/F) must still divide into
// the heads of the attention layers and encoder blocks that read it. The width is rounded up to
// the next multiple of their head counts (the plan shows it), and a head left with fewer than 2
// dimensions is an Error naming the layer: the head count never changes.
#include "spec/network_spec.h"

namespace skynnet {

// `shrunk` is `original` with its widths divided (shrinkSpec); widths the original had are never
// rounded (an original that does not divide is the designer's error, shown by its figures).
void fitTokenWidthsToHeads(NetworkSpec& shrunk, const NetworkSpec& original);

}  // namespace skynnet
