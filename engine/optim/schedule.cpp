#include "optim/schedule.h"

#include <cmath>

#include "core/error.h"

namespace skynnet {

float Schedule::rate(float base, int epoch) const {
    switch (kind) {
    case Kind::Constant: return base;
    case Kind::Step: return base * std::pow(gamma, float(epoch / (stepEpochs > 0 ? stepEpochs : 1)));
    case Kind::Cosine: {
        const int span = totalEpochs > 1 ? totalEpochs - 1 : 1;
        const float t = float(epoch < span ? epoch : span) / float(span);
        return minRate + 0.5f * (base - minRate) * (1.0f + std::cos(3.14159265358979f * t));
    }
    }
    return base;
}

Schedule parseSchedule(const std::string& text) {
    Schedule s;
    try {
        if (text.empty() || text == "constant") return s;
        if (text.rfind("step:", 0) == 0) {
            const auto colon = text.find(':', 5);
            if (colon == std::string::npos) throw Error("");
            s.kind = Schedule::Kind::Step;
            std::size_t usedEpochs = 0, usedGamma = 0;
            const std::string epochs = text.substr(5, colon - 5), gamma = text.substr(colon + 1);
            s.stepEpochs = std::stoi(epochs, &usedEpochs);
            s.gamma = std::stof(gamma, &usedGamma);
            if (usedEpochs != epochs.size() || usedGamma != gamma.size()) throw Error("");
            if (s.stepEpochs < 1 || !(s.gamma > 0)) throw Error("");
            return s;
        }
        if (text == "cosine" || text.rfind("cosine:", 0) == 0) {
            s.kind = Schedule::Kind::Cosine;
            if (text.size() > 7) {
                std::size_t used = 0;
                s.minRate = std::stof(text.substr(7), &used);
                if (used != text.size() - 7) throw Error("");
            }
            return s;
        }
    } catch (const std::exception&) {
    }
    throw Error("bad learning-rate schedule '" + text +
                "' (expected constant, step:EPOCHS:GAMMA or cosine[:MIN_RATE])");
}

}  // namespace skynnet
