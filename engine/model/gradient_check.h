#pragma once
// Numeric gradient checking by central differences, used by the tests for every layer and loss.
// Values are float32, so the check uses a mixed tolerance: |analytic - numeric| must stay within
// atol + rtol * max(|analytic|, |numeric|); `worstRatio` <= 1 means every entry passed.
#include <string>

#include "layers/layer.h"
#include "losses/loss.h"
#include "model/network.h"

namespace skynnet {

struct GradientCheckOptions {
    double epsilon = 1e-3;
    double atol = 2e-3;
    double rtol = 2e-2;
    int maxEntriesPerTensor = 64;  // entries sampled from each tensor (all when smaller)
};

struct GradientCheckResult {
    double worstRatio = 0;  // error / allowed error of the worst entry
    std::string worst;      // which tensor and entry
    int checked = 0;
    bool passed() const { return checked > 0 && worstRatio <= 1.0; }
};

// Checks dL/d(params) and dL/d(input) of one layer under L = sum(forward(x) .* R) for a fixed
// random R. Layers with randomness (dropout) must be deterministic between calls (frozen mask).
GradientCheckResult checkLayer(Layer& layer, const Matrix& x, bool training, std::uint64_t seed,
                               const GradientCheckOptions& options = {});
// Checks dL/d(output) of a loss, and its fused gradient through the activation it fuses with.
GradientCheckResult checkLoss(const Loss& loss, const Matrix& output, const Matrix& target,
                              const GradientCheckOptions& options = {});
GradientCheckResult checkFusedLoss(const Loss& loss, const Matrix& logits, const Matrix& target,
                                   const GradientCheckOptions& options = {});
// Checks every parameter gradient of a whole network under a loss, as the Trainer computes them.
GradientCheckResult checkNetwork(Network& network, const Loss& loss, const Matrix& x, const Matrix& target,
                                 const GradientCheckOptions& options = {});

}  // namespace skynnet
