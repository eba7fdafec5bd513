#pragma once
// Sample shapes written on a command line or in a settings field: "HxW" for an image size,
// "CxHxW" for a CSV row's layout. Errors are skynnet::Error quoting the text.
#include <string>

#include "core/tensor.h"

namespace skynnet {

struct ImageSize {
    int height = 0, width = 0;
};
// "28x28" (also "28X28"); both positive, at most 8192. Throws Error otherwise.
ImageSize parseImageSize(const std::string& text);
// "1x28x28": three positive numbers. Throws Error otherwise.
Shape parseSampleShape(const std::string& text);
// "3x32x32"
std::string sampleShapeText(const Shape& shape);

}  // namespace skynnet
