#pragma once
// The seeds of the image fuzz target (make_seeds.cpp): tiny PNG files of every colour type, bit
// depth, filter and interlacing stb_image reads, JPEG files with and without chroma subsampling,
// and BMP files of 8, 24 and 32 bits. Each seed is the option byte of fuzz_image.cpp (0: named
// .png, the image's own size and channels) followed by the file.
#include <stb_image_write.h>
#include <zlib.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace skynnet::fuzz {

inline std::string pngChunk(const std::string& type, const std::string& body) {
    auto be = [](std::uint32_t v) { return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; };
    const std::string typed = type + body;
    const auto crc = std::uint32_t(::crc32(0, reinterpret_cast<const Bytef*>(typed.data()), uInt(typed.size())));
    return be(std::uint32_t(body.size())) + typed + be(crc);
}

// A PNG of `rows` (each row: its filter byte, then the bytes), written by hand so that every
// colour type, depth and filter can be had.
inline std::string handPng(std::uint32_t w, std::uint32_t h, int depth, int colourType, bool interlaced,
                           const std::string& rows, const std::string& extraChunks = {}) {
    auto be = [](std::uint32_t v) { return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; };
    const std::string ihdr = be(w) + be(h) + char(depth) + char(colourType) + '\0' + '\0' + char(interlaced ? 1 : 0);
    uLongf packedSize = compressBound(uLong(rows.size()));
    std::string packed(packedSize, '\0');
    compress2(reinterpret_cast<Bytef*>(packed.data()), &packedSize, reinterpret_cast<const Bytef*>(rows.data()),
              uLong(rows.size()), 9);
    packed.resize(packedSize);
    return std::string("\x89PNG\r\n\x1a\n", 8) + pngChunk("IHDR", ihdr) + extraChunks + pngChunk("IDAT", packed) +
           pngChunk("IEND", "");
}

// Rows of `w` samples of `bytesPerPixel` bytes, filter types 0..4 in turn, values a simple gradient.
inline std::string pngRows(std::uint32_t rowBytes, std::uint32_t h) {
    std::string rows;
    for (std::uint32_t y = 0; y < h; ++y) {
        rows += char(y % 5);
        for (std::uint32_t x = 0; x < rowBytes; ++x) rows += char((x * 29 + y * 71) & 0xFF);
    }
    return rows;
}

inline void appendTo(void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
}

// w x h pixels of `channels` bytes each: a gradient with a little pattern, so JPEG has detail.
inline std::vector<unsigned char> testPixels(int w, int h, int channels) {
    std::vector<unsigned char> p(std::size_t(w * h * channels));
    for (int i = 0; i < w * h * channels; ++i) p[std::size_t(i)] = (unsigned char)((i * 37 + (i / 7) * 101) & 0xFF);
    return p;
}

inline std::vector<std::pair<std::string, std::string>> imageSeeds() {
    std::vector<std::pair<std::string, std::string>> seeds;
    const std::string plte = pngChunk("PLTE", std::string("\x00\x00\x00\xff\x00\x00\x00\xff\x00\x00\x00\xff", 12)) +
                             pngChunk("tRNS", std::string("\xff\x80", 2));
    seeds.emplace_back("png_gray8_filters", std::string(1, '\0') + handPng(5, 5, 8, 0, false, pngRows(5, 5)));
    seeds.emplace_back("png_gray1", std::string(1, '\0') + handPng(9, 2, 1, 0, false, pngRows(2, 2)));
    seeds.emplace_back("png_gray16", std::string(1, '\0') + handPng(3, 3, 16, 0, false, pngRows(6, 3)));
    seeds.emplace_back("png_palette4", std::string(1, '\0') + handPng(4, 3, 4, 3, false, pngRows(2, 3), plte));
    seeds.emplace_back("png_gray_alpha", std::string(1, '\0') + handPng(3, 3, 8, 4, false, pngRows(6, 3)));
    seeds.emplace_back("png_rgba_interlaced",
                       std::string(1, '\0') + handPng(9, 9, 8, 6, true, [] {
                           // Adam7 passes of a 9 x 9 image, 4 bytes a pixel: each pass's rows.
                           static const int x0[] = {0, 4, 0, 2, 0, 1, 0}, y0[] = {0, 0, 4, 0, 2, 0, 1};
                           static const int dx[] = {8, 8, 4, 4, 2, 2, 1}, dy[] = {8, 8, 8, 4, 4, 2, 2};
                           std::string rows;
                           for (int p = 0; p < 7; ++p) {
                               const int pw = (9 - x0[p] + dx[p] - 1) / dx[p], ph = (9 - y0[p] + dy[p] - 1) / dy[p];
                               if (pw > 0 && ph > 0) rows += pngRows(std::uint32_t(pw * 4), std::uint32_t(ph));
                           }
                           return rows;
                       }()));
    const std::vector<unsigned char> rgb = testPixels(16, 16, 3), gray = testPixels(8, 8, 1);
    std::string out;
    stbi_write_png_to_func(appendTo, &out, 6, 5, 3, rgb.data(), 6 * 3);
    seeds.emplace_back("png_rgb_stb", std::string(1, '\0') + out);
    out.clear();
    stbi_write_jpg_to_func(appendTo, &out, 16, 16, 3, rgb.data(), 95);  // no chroma subsampling
    seeds.emplace_back("jpeg_rgb_444", std::string(1, '\1') + out);
    out.clear();
    stbi_write_jpg_to_func(appendTo, &out, 16, 16, 3, rgb.data(), 50);  // 4:2:0
    seeds.emplace_back("jpeg_rgb_420", std::string(1, '\1') + out);
    out.clear();
    stbi_write_jpg_to_func(appendTo, &out, 8, 8, 1, gray.data(), 80);
    seeds.emplace_back("jpeg_gray", std::string(1, '\1') + out);
    out.clear();
    stbi_write_bmp_to_func(appendTo, &out, 5, 3, 3, rgb.data());
    seeds.emplace_back("bmp_rgb24", std::string(1, '\3') + out);
    out.clear();
    stbi_write_bmp_to_func(appendTo, &out, 3, 3, 4, rgb.data());
    seeds.emplace_back("bmp_rgba32", std::string(1, '\3') + out);
    // An 8-bit palette BMP (BITMAPINFOHEADER), 4 x 2, rows padded to 4 bytes, bottom-up.
    auto le = [](std::uint32_t v, int n) {
        std::string s;
        for (int i = 0; i < n; ++i) s += char((v >> (8 * i)) & 0xFF);
        return s;
    };
    const std::string palette = le(0x000000, 4) + le(0x0000ff, 4) + le(0x00ff00, 4) + le(0xff0000, 4);
    const std::string pixels = std::string("\x00\x01\x02\x03\x03\x02\x01\x00", 8);
    const std::uint32_t offset = 14 + 40 + std::uint32_t(palette.size());
    const std::string bmp = "BM" + le(offset + std::uint32_t(pixels.size()), 4) + le(0, 4) + le(offset, 4) + le(40, 4) +
                            le(4, 4) + le(2, 4) + le(1, 2) + le(8, 2) + le(0, 4) + le(std::uint32_t(pixels.size()), 4) +
                            le(2835, 4) + le(2835, 4) + le(4, 4) + le(0, 4) + palette + pixels;
    seeds.emplace_back("bmp_palette8", std::string(1, '\3') + bmp);
    // stb_image picks its decoder by the content and would read these from a file named .png; the
    // reader refuses them (not PNG, JPEG or BMP).
    seeds.emplace_back("other_gif", std::string(1, '\0') + std::string("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff"
                                                                       "\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,"
                                                                       "\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02"
                                                                       "D\x01\x00;",
                                                                       43));
    seeds.emplace_back("other_pgm",
                       std::string(1, '\0') + "P5\n3 2\n255\n" + std::string("\x00\x40\x80\xc0\xff\x10", 6));
    seeds.emplace_back("other_tga", std::string(1, '\0') + std::string("\0\0\2\0\0\0\0\0\0\0\0\0\2\0\2\0\x18\0", 18) +
                                        std::string(12, '\x7f'));
    seeds.emplace_back("other_hdr", std::string(1, '\0') + "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 2\n" +
                                        std::string("\x80\x40\x20\x81\x10\x20\x40\x80", 8));
    return seeds;
}

}  // namespace skynnet::fuzz
