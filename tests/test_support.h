#pragma once
// Small helpers shared by the test binaries.
#include <QString>
#include <QFile>
#include <QTemporaryDir>
#include <string>

inline std::string sourcePath(const char* relative) { return std::string(SKYNNET_SOURCE_DIR) + "/" + relative; }

inline bool fashionMnistInstalled() {
    return QFile::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz");
}
