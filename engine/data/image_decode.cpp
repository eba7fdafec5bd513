#include "data/image_decode.h"

#include <stb_image.h>
#include <stb_image_resize.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string_view>
#include <system_error>
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

// Why stb_image failed, never empty (empty means success to the caller), in printable ASCII.
std::string failureReason() {
    const char* reason = stbi_failure_reason();
    std::string out;
    for (const char* p = reason; p && *p; ++p) out += *p >= 0x20 && *p < 0x7F ? *p : '?';
    return out.empty() ? "not a readable image" : out;
}

// Why stb_image would fail on the PNG's chunks, "" when it would not: a critical chunk (bit 5 of
// its type's first byte clear) that stb does not know, or an end before the IEND chunk (where stb
// reads the missing type as zeros: an unknown chunk too). stb names an unknown chunk by writing its
// type into one buffer that all threads share ("not threadsafe", stb_image 2.27): files decoded at
// once were given each other's chunks (tst_images failed 4 times in 20), and a type with a NUL read
// as a short reason or none. So such files are refused here and stb never meets them.
// `in` is at the first chunk, past the signature.
std::string pngChunkProblem(std::istream& in) {
    for (unsigned char head[8]; in.read(reinterpret_cast<char*>(head), sizeof head);) {
        const std::uint32_t length = std::uint32_t(head[0]) << 24 | std::uint32_t(head[1]) << 16 |
                                     std::uint32_t(head[2]) << 8 | std::uint32_t(head[3]);
        const std::string type(reinterpret_cast<const char*>(head + 4), 4);
        if (type == "IEND") return {};
        if ((head[4] & 0x20) == 0 && type != "IHDR" && type != "PLTE" && type != "IDAT" && type != "CgBI") {
            std::string printable;
            for (const char c : type) printable += c >= 0x20 && c < 0x7F ? c : '?';
            return printable + " PNG chunk not known";
        }
        in.seekg(std::streamoff(length) + 4, std::ios::cur);  // the data and the CRC
    }
    return "the file ends before its IEND chunk (cut short)";
}

// The pixels a complete file of `bytes` bytes can hold at most, by its first bytes; 0 for a file
// that is not PNG, JPEG or BMP. stb_image would read other formats too (GIF, PSD, TGA, PNM, HDR, PIC:
// it goes by the content), which this reader does not claim. A PNG deflates at most 1032:1 and
// packs 8 pixels a byte at 1 bit; a JPEG spends at least one bit on each block of 64 pixels (the DC
// scan of a progressive file; stb reads no arithmetic coding); a BMP at least a bit a pixel (stb
// reads no RLE). A header announcing more is damaged or cut short, and stb would decode it all
// the same, the missing data as zeros, taking seconds and gigabytes for a few bytes.
std::uint64_t maxPixels(std::string_view head, std::uint64_t bytes) {
    if (head.substr(0, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8)) return bytes * 8 * 1032;
    if (head.substr(0, 3) == "\xFF\xD8\xFF") return bytes * 8 * 64;
    if (head.substr(0, 2) == "BM") return bytes * 8;
    return 0;
}

// Debian 12's stb_image (2.27) builds a JPEG Huffman table of as many codes as the DHT segment
// counts, up to 16 x 255, into room for 256: a heap overflow (found by fuzz_image; upstream checks
// this since 2.28). Walks the segments as stb reads them (a table's counts and codes are read
// whatever the segment's length says; missing bytes read as 0) and says which table is too big.
std::string jpegHuffmanProblem(std::string_view f) {
    const auto at = [&](std::size_t i) { return i < f.size() ? unsigned(static_cast<unsigned char>(f[i])) : 0u; };
    for (std::size_t i = 2; i + 1 < f.size();) {
        if (at(i) != 0xFF) {  // entropy-coded data: on to the next marker
            ++i;
            continue;
        }
        const unsigned marker = at(i + 1);
        if (marker == 0xFF) {  // a fill byte
            ++i;
            continue;
        }
        if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {  // stuffing, TEM, RSTn
            i += 2;
            continue;
        }
        if (marker == 0xD9) break;  // EOI
        const std::size_t length = at(i + 2) << 8 | at(i + 3);
        if (marker == 0xC4) {
            std::int64_t left = std::int64_t(length) - 2;
            for (std::size_t t = i + 4; left > 0;) {
                std::size_t codes = 0;
                for (std::size_t k = 1; k <= 16; ++k) codes += at(t + k);
                if (codes > 256)
                    return "damaged JPEG: a Huffman table of " + std::to_string(codes) + " codes (at most 256)";
                t += 17 + codes;
                left -= std::int64_t(17 + codes);
            }
        }
        i += 2 + length;
    }
    return {};
}

// Why the file is no image this reader takes, from its header; "" when it is one, `info` its size.
std::string checkHeader(const std::string& path, ImageInfo& info) {
    std::error_code ec;
    const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
    char head[8] = {};
    std::ifstream in(path, std::ios::binary);
    if (ec || !in) return "cannot open file";
    in.read(head, sizeof head);
    const std::uint64_t most = maxPixels(std::string_view(head, std::size_t(in.gcount())), bytes);
    if (most == 0) return "not a PNG, JPEG or BMP file";
    if (head[0] == '\xFF') {  // JPEG
        std::string all(bytes, '\0');
        in.seekg(0);
        in.read(all.data(), std::streamsize(all.size()));
        all.resize(std::size_t(in.gcount()));
        if (std::string problem = jpegHuffmanProblem(all); !problem.empty()) return problem;
    }
    if (head[0] == '\x89')  // PNG
        if (std::string problem = pngChunkProblem(in); !problem.empty()) return problem;
    if (!stbi_info(path.c_str(), &info.width, &info.height, &info.channels)) return failureReason();
    if (info.width < 1 || info.height < 1)
        return "the image has no pixels (" + std::to_string(info.width) + " x " + std::to_string(info.height) + ")";
    if (std::uint64_t(info.width) * std::uint64_t(info.height) > most)
        return "its header announces " + std::to_string(info.width) + " x " + std::to_string(info.height) +
               " pixels, more than its " + std::to_string(bytes) + " bytes can hold (damaged or cut short)";
    return {};
}

}  // namespace

bool isImageFileName(const std::string& path) {
    const std::string ext = lowercaseExtension(path);
    return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp";
}

std::optional<ImageInfo> readImageInfo(const std::string& path, std::string* why) {
    ImageInfo info;
    std::string problem = checkHeader(path, info);
    if (problem.empty()) return info;
    if (why) *why = std::move(problem);
    return std::nullopt;
}

std::string decodeImageInto(const std::string& path, const Shape& shape, Scalar* row) {
    const int c = shape.channels, h = shape.height, w = shape.width;
    ImageInfo info;
    if (std::string problem = checkHeader(path, info); !problem.empty()) return problem;
    int width = 0, height = 0, stored = 0;
    // stb converts to the channels asked for: RGB to gray by luminance, gray to RGB by copying,
    // and drops an alpha channel.
    const std::unique_ptr<unsigned char, StbFree> pixels(stbi_load(path.c_str(), &width, &height, &stored, c));
    if (!pixels) return failureReason();
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
