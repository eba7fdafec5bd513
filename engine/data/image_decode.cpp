#include "data/image_decode.h"

#include <stb_image.h>
#include <stb_image_resize.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <vector>

namespace skynnet {
namespace {

struct StbFree {
    void operator()(unsigned char* p) const { stbi_image_free(p); }
};

std::string lowercaseExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

// Why stb_image failed, never empty (empty means success to the caller). Its reasons are short
// ASCII phrases, except that an unknown critical PNG chunk's names the chunk type's four bytes as
// the file has them: any bytes, a NUL first (an empty reason) or bytes that are not UTF-8.
std::string failureReason() {
    const char* reason = stbi_failure_reason();
    std::string out;
    for (const char* p = reason; p && *p; ++p) out += *p >= 0x20 && *p < 0x7F ? *p : '?';
    return out.empty() ? "not a readable image" : out;
}

}  // namespace

bool isImageFileName(const std::string& path) {
    const std::string ext = lowercaseExtension(path);
    return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp";
}

std::optional<ImageInfo> readImageInfo(const std::string& path) {
    ImageInfo info;
    if (!stbi_info(path.c_str(), &info.width, &info.height, &info.channels)) return std::nullopt;
    if (info.width < 1 || info.height < 1) return std::nullopt;  // stb takes a PNM header of 0 x 0
    return info;
}

std::string decodeImageInto(const std::string& path, const Shape& shape, Scalar* row) {
    const int c = shape.channels, h = shape.height, w = shape.width;
    int width = 0, height = 0, stored = 0;
    // stb converts to the channels asked for: RGB to gray by luminance, gray to RGB by copying,
    // and drops an alpha channel.
    const std::unique_ptr<unsigned char, StbFree> pixels(stbi_load(path.c_str(), &width, &height, &stored, c));
    if (!pixels) return failureReason();
    if (width < 1 || height < 1)
        return "the image has no pixels (" + std::to_string(width) + " x " + std::to_string(height) + ")";
    const unsigned char* hwc = pixels.get();
    std::vector<unsigned char> resized;
    if (width != w || height != h) {
        resized.resize(std::size_t(w) * std::size_t(h) * std::size_t(c));
        if (!stbir_resize_uint8(pixels.get(), width, height, 0, resized.data(), w, h, 0, c)) return "cannot resize";
        hwc = resized.data();
    }
    const std::size_t plane = std::size_t(h) * std::size_t(w);
    for (std::size_t p = 0; p < plane; ++p)
        for (int k = 0; k < c; ++k) row[std::size_t(k) * plane + p] = Scalar(hwc[p * std::size_t(c) + std::size_t(k)]);
    return {};
}

}  // namespace skynnet
