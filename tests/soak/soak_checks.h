#pragma once
// The soak's checks of what the app left on disk: the saved project against the document, the
// exported ONNX file, leftover temporary files; and the process's resident memory.
#include <QByteArray>
#include <QString>
#include <QStringList>

#include "soak_fixture.h"

namespace soak {

// VmRSS of /proc/self/status, in KiB; -1 when it cannot be read.
long residentKiB();

// The file's bytes; throws Failure naming the path when it cannot be read.
QByteArray fileBytes(const QString& path);

// Files under `folder` (recursively, hidden ones too) that a save or an export left half done:
// atomic saves' ".<name>.tmp-<pid>-<n>", and anything named *.tmp, *.part, *.partial or *~.
QStringList temporaryFilesUnder(const QString& folder);

// The project file at `path` opens and holds what the document and the session hold now:
// settings, kept runs (id, status, settings, log, pauses, results), byte for byte what a fresh
// save of the same state writes, and a save of what it read writes the same bytes again.
// Scratch files go to `scratchFolder`. Throws Failure naming what differs.
void checkSavedProject(const QString& path, Fixture& f, const QString& scratchFolder);

// The file exists, is not empty, and (when the ONNX library is built in) passes the ONNX
// checker with its graph's output named `output`. Throws Failure.
void checkOnnxFile(const QString& path, const char* output);

}  // namespace soak
