#pragma once
// Small image data an autoencoder can learn in seconds, for the reconstruction tests: 8x8 gray
// images of one horizontal and one vertical bar (random positions and brightness, a little noise),
// 0..255 like the MNIST family, written as IDX files with or without labels.
#include <QFile>
#include <QString>
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/rng.h"

struct BarImages {
    int count = 0, side = 8;
    std::vector<std::uint8_t> pixels;  // count * side * side, row-major per image
    std::vector<std::uint8_t> labels;  // the row of each image's horizontal bar (a class to ignore)
};

inline BarImages barImages(int count, std::uint64_t seed) {
    skynnet::Rng rng(seed);
    BarImages b;
    b.count = count;
    b.pixels.resize(std::size_t(count) * 64);
    for (int i = 0; i < count; ++i) {
        const int row = int(rng.below(8)), col = int(rng.below(8));
        const float across = rng.uniform(0.6f, 1.0f), down = rng.uniform(0.6f, 1.0f);
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) {
                float v = std::max(r == row ? across : 0.0f, c == col ? down : 0.0f) + rng.uniform(0.0f, 0.05f);
                v = std::min(v, 1.0f);
                b.pixels[std::size_t(i) * 64 + std::size_t(r * 8 + c)] = std::uint8_t(v * 255.0f + 0.5f);
            }
        b.labels.push_back(std::uint8_t(row));
    }
    return b;
}

inline void putBigEndian(QByteArray& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.append(char((v >> shift) & 0xff));
}

// IDX images (magic 0x00000803); with labelsPath also the labels file (0x00000801).
inline bool writeBarIdx(const BarImages& b, const QString& imagesPath, const QString& labelsPath = {}) {
    QByteArray images;
    putBigEndian(images, 0x00000803);
    putBigEndian(images, std::uint32_t(b.count));
    putBigEndian(images, 8);
    putBigEndian(images, 8);
    images.append(reinterpret_cast<const char*>(b.pixels.data()), qsizetype(b.pixels.size()));
    QFile f(imagesPath);
    if (!f.open(QIODevice::WriteOnly) || f.write(images) != images.size()) return false;
    f.close();
    if (labelsPath.isEmpty()) return true;
    QByteArray labels;
    putBigEndian(labels, 0x00000801);
    putBigEndian(labels, std::uint32_t(b.count));
    labels.append(reinterpret_cast<const char*>(b.labels.data()), qsizetype(b.labels.size()));
    QFile g(labelsPath);
    return g.open(QIODevice::WriteOnly) && g.write(labels) == labels.size();
}
