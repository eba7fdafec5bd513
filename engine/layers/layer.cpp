#include "layers/layer.h"

namespace skynnet {

std::int64_t Layer::stateCount() const {
    // state() hands out pointers for setFlatWeights; counting them changes nothing.
    std::int64_t n = 0;
    for (const Matrix* m : const_cast<Layer&>(*this).state()) n += m->size();
    return n;
}

}  // namespace skynnet
