#include "data/shape_text.h"

#include <cstdlib>
#include <vector>

#include "core/error.h"

namespace skynnet {
namespace {

// Positive integers separated by 'x'; empty when the text is not of that form.
std::vector<long> dimensions(const std::string& text) {
    std::vector<long> out;
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t end = text.find_first_of("xX", at);
        if (end == std::string::npos) end = text.size();
        const std::string part = text.substr(at, end - at);
        if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 6) return {};
        out.push_back(std::strtol(part.c_str(), nullptr, 10));
        at = end + 1;
    }
    return out;
}

}  // namespace

ImageSize parseImageSize(const std::string& text) {
    const std::vector<long> d = dimensions(text);
    if (d.size() != 2 || d[0] < 1 || d[1] < 1 || d[0] > 8192 || d[1] > 8192)
        throw Error("expected HEIGHTxWIDTH with both from 1 to 8192, e.g. 28x28, got '" + text + "'");
    return {int(d[0]), int(d[1])};
}

Shape parseSampleShape(const std::string& text) {
    const std::vector<long> d = dimensions(text);
    if (d.size() != 3 || d[0] < 1 || d[1] < 1 || d[2] < 1)
        throw Error("expected CHANNELSxHEIGHTxWIDTH, three positive numbers, e.g. 1x28x28, got '" + text + "'");
    return Shape{int(d[0]), int(d[1]), int(d[2])};
}

std::string sampleShapeText(const Shape& shape) {
    return std::to_string(shape.channels) + "x" + std::to_string(shape.height) + "x" + std::to_string(shape.width);
}

}  // namespace skynnet
