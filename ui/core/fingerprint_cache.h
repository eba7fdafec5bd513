#pragma once
// Fingerprints of a project's data files by absolute path, for the data reference a save writes:
// a project is saved (and autosaved) many times over data that rarely changes, so a file is
// hashed again only when its size or modification time moved, and a file that is missing keeps
// the fingerprint the project was opened with. The document owns one; a save on a worker holds
// it too. Thread-safe: autosave fingerprints on a worker while the GUI thread may open or save,
// so one lock, held only to read or write entries, never while a file is hashed. An image folder
// is hashed on every call (nothing cheap tells that an image in it changed).
#include <QDateTime>
#include <QHash>
#include <QMutex>
#include <QString>

#include "project/data_reference.h"

namespace skynnet::ui {

class FingerprintCache {
public:
    // The reference to one data file: absolute path, found or missing, and its fingerprint
    // (hashed unless known). Empty and "builtin:" paths are kept as they are.
    ProjectDataFile dataFile(const QString& path);
    // Fingerprints read from a project: kept for files that are missing when saving again, and
    // for files found unchanged, so the next save does not hash them again.
    void remember(const ProjectDataSource& source);

private:
    struct Entry {
        qint64 size = -1;
        QDateTime modified;  // invalid: remembered from a project file, for a file not found
        FileFingerprint fingerprint;
    };
    QMutex mutex_;
    QHash<QString, Entry> entries_;  // guarded by mutex_
};

}  // namespace skynnet::ui
