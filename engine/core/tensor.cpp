#include "core/tensor.h"

namespace skynnet {

std::string Shape::toString() const {
    if (sequence) return "(" + std::to_string(height) + " steps x " + std::to_string(width) + ")";
    if (channels == 1 && height == 1) return "(" + std::to_string(width) + ")";
    return "(" + std::to_string(channels) + "," + std::to_string(height) + "," + std::to_string(width) + ")";
}

}  // namespace skynnet
