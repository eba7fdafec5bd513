#pragma once
// Small helpers shared by the test binaries.
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <QtTest>
#include <string>

#include "core/error.h"

// A time limit in ms that only guards against a hang (never a claim about speed), multiplied by
// SKYNNET_TEST_TIME_SCALE: the sanitizer builds (scripts/sanitize.sh) run several times slower.
inline int hangGuardMs(int ms) {
    const int scale = qEnvironmentVariableIntValue("SKYNNET_TEST_TIME_SCALE");
    return scale > 1 ? ms * scale : ms;
}

inline std::string sourcePath(const char* relative) { return std::string(SKYNNET_SOURCE_DIR) + "/" + relative; }

// CI=true: the README's test command has installed every dependency, so a missing one is a failure
// there (a skip would hide a broken install step); elsewhere the test skips and says what to install.
inline bool underCi() {
    const QByteArray v = qgetenv("CI").toLower();
    return !v.isEmpty() && v != "0" && v != "false";
}
#define SKIP_UNLESS_CI(message)        \
    do {                               \
        if (underCi()) QFAIL(message); \
        QSKIP(message);                \
    } while (0)

inline bool fashionMnistInstalled() {
    return QFile::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz");
}

// The message of the skynnet::Error that f throws, or "(no error)".
template <typename F>
std::string errorOf(F f) {
    try {
        f();
    } catch (const skynnet::Error& e) {
        return e.what();
    }
    return "(no error)";
}

#define VERIFY_CONTAINS(text, part) \
    QVERIFY2(std::string(text).find(part) != std::string::npos, (std::string(text) + "  <- lacks: " + (part)).c_str())

// The same message as a QString, for QCOMPARE against literals.
template <typename F>
QString errorText(F f) {
    return QString::fromStdString(errorOf(f));
}
