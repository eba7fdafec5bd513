#include "layers/init.h"

#include <cmath>

namespace skynnet {

void drawWeights(Matrix& weights, Init init, Index fanIn, Index fanOut, Rng& rng) {
    if (init == Init::He) {
        const float sd = std::sqrt(2.0f / float(fanIn));
        for (Index i = 0; i < weights.size(); ++i) weights.data()[i] = rng.normal(0.0f, sd);
    } else {
        const float limit = std::sqrt(6.0f / float(fanIn + fanOut));
        for (Index i = 0; i < weights.size(); ++i) weights.data()[i] = rng.uniform(-limit, limit);
    }
}

}  // namespace skynnet
