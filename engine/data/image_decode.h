#pragma once
// One image file (PNG, JPEG or BMP) decoded by stb_image (Debian's libstb) into a sample row:
// converted to the channels asked for (colour to gray by luminance, gray to colour by copying),
// resized to H x W when its size differs (stb_image_resize), the raw values 0..255 as floats laid
// out channel-major (c*H*W + h*W + w), as IDX images are. Scaling is Preprocessing's job.
#include <optional>
#include <string>

#include "core/tensor.h"

namespace skynnet {

// True for the extensions this reader takes: .png, .jpg, .jpeg, .bmp (any case).
bool isImageFileName(const std::string& path);

struct ImageInfo {
    int width = 0, height = 0, channels = 0;  // as stored: 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA
};
// Reads the header only; empty when the file is not a PNG, JPEG or BMP file stb_image can read, has
// no pixels, or announces more pixels than its size can hold (damaged or cut short).
// `why`, when given, says why not.
std::optional<ImageInfo> readImageInfo(const std::string& path, std::string* why = nullptr);

// Decodes `path` into `row` (shape.size() values; shape.channels 1 or 3) after the checks of
// readImageInfo. Returns "" on success, otherwise why the file cannot be read ("cannot open file",
// "not a PNG, JPEG or BMP file", "bad PNG header", ...), with `row`
// left unspecified; the reason is printable ASCII. Thread-safe: stb_image keeps its failure reason
// per thread (but for an unknown PNG chunk, which it writes into one text for all threads: such a
// PNG is refused before stb reads it).
std::string decodeImageInto(const std::string& path, const Shape& shape, Scalar* row);

}  // namespace skynnet
