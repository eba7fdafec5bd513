#pragma once
// Learning-rate schedules, applied per epoch.
#include <string>

namespace skynnet {

struct Schedule {
    enum class Kind { Constant, Step, Cosine };
    Kind kind = Kind::Constant;
    int stepEpochs = 10;  // Step: multiply by gamma every stepEpochs epochs
    float gamma = 0.1f;
    int totalEpochs = 10;  // Cosine: anneal from the base rate to minRate over totalEpochs
    float minRate = 0.0f;

    float rate(float base, int epoch) const;
    bool operator==(const Schedule&) const = default;
};

// "constant", "step:EPOCHS:GAMMA", "cosine[:MIN_RATE]"; totalEpochs is set by the caller.
Schedule parseSchedule(const std::string& text);

}  // namespace skynnet
