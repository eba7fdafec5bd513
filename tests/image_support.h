#pragma once
// Image folders written by tests (stb_image_write, from libstb-dev): synthetic pictures whose
// pixels a test knows, and Fashion-MNIST images as PNG.
#include <stb_image_write.h>

#include <QDir>
#include <QFile>
#include <string>
#include <vector>

#include "data/idx_loader.h"

// Writes `pixels` (height x width x channels, row-major) as PNG, or as BMP/JPEG by the extension.
inline void writeImage(const QString& path, int width, int height, int channels,
                       const std::vector<unsigned char>& pixels) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    const QByteArray p = path.toUtf8();
    int ok = 0;
    if (path.endsWith(".bmp")) ok = stbi_write_bmp(p.constData(), width, height, channels, pixels.data());
    else if (path.endsWith(".jpg")) ok = stbi_write_jpg(p.constData(), width, height, channels, pixels.data(), 95);
    else ok = stbi_write_png(p.constData(), width, height, channels, pixels.data(), width * channels);
    if (!ok) qFatal("cannot write %s", p.constData());
}

// A gray picture of its class: class 0 bright on the left half, class 1 on the right half (and
// class 2, if any, on the top half), with a little per-sample variation so rows differ.
inline std::vector<unsigned char> patternPixels(int cls, int sample, int size) {
    std::vector<unsigned char> px(std::size_t(size * size));
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const bool on = cls == 0 ? x < size / 2 : cls == 1 ? x >= size / 2 : y < size / 2;
            px[std::size_t(y * size + x)] = (unsigned char)(on ? 200 + (sample * 7 + x + y) % 50
                                                               : (sample * 3 + x * y) % 40);
        }
    return px;
}

// DIR/<className>/img_<k>.png for k from firstSample, `perClass` gray size x size images of each
// class pattern.
inline void writePatternFolder(const QString& dir, const std::vector<QString>& classNames, int perClass, int size,
                               int firstSample = 0) {
    for (std::size_t c = 0; c < classNames.size(); ++c)
        for (int k = 0; k < perClass; ++k)
            writeImage(dir + "/" + classNames[c] + QString("/img_%1.png").arg(firstSample + k, 3, 10, QChar('0')), size,
                       size, 1, patternPixels(int(c), firstSample + k, size));
}

inline void writeBytes(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) qFatal("cannot write %s", qPrintable(path));
}
