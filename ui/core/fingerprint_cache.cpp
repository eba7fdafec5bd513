#include "ui/core/fingerprint_cache.h"

#include <QFileInfo>
#include <QMutexLocker>
#include <optional>

#include "core/error.h"

namespace skynnet::ui {
namespace {

bool isRealFile(const QString& path) { return !path.isEmpty() && !path.startsWith(QLatin1String("builtin:")); }

}  // namespace

ProjectDataFile FingerprintCache::dataFile(const QString& path) {
    ProjectDataFile f;
    if (!isRealFile(path)) {
        f.path = path.toStdString();
        return f;
    }
    const QFileInfo info(path);
    const QString absolute = info.absoluteFilePath();
    f.path = absolute.toStdString();
    QMutexLocker lock(&mutex_);
    const auto found = entries_.constFind(absolute);
    const std::optional<Entry> cached = found == entries_.constEnd() ? std::nullopt : std::optional<Entry>(*found);
    if (info.isDir()) {
        // An image folder: its own time does not move when an image in it is edited, so there is
        // no cheap sign of change and it is hashed every time (names and contents, data_reference.h).
        lock.unlock();
        try {
            f.fingerprint = fileFingerprint(f.path);
            f.status = DataFileStatus::Found;
        } catch (const Error&) {
            f.status = DataFileStatus::Missing;
        }
        return f;
    }
    if (info.isFile()) {
        if (!cached || cached->size != info.size() || cached->modified != info.lastModified()) {
            lock.unlock();
            Entry fresh{info.size(), info.lastModified(), {}};
            try {
                fresh.fingerprint = fileFingerprint(f.path);
            } catch (const Error&) {
                lock.relock();
                entries_.remove(absolute);
                f.status = DataFileStatus::Missing;
                return f;
            }
            lock.relock();
            entries_.insert(absolute, fresh);
            f.fingerprint = fresh.fingerprint;
        } else {
            f.fingerprint = cached->fingerprint;
        }
        f.status = DataFileStatus::Found;
    } else {
        if (cached && cached->size >= 0) f.fingerprint = cached->fingerprint;  // what the project was made with
        f.status = DataFileStatus::Missing;
    }
    return f;
}

void FingerprintCache::remember(const ProjectDataSource& d) {
    for (const ProjectDataFile* f : {&d.train, &d.trainLabels, &d.test, &d.testLabels}) {
        if (!f->fingerprint || !isRealFile(QString::fromStdString(f->path))) continue;
        const QFileInfo info(QString::fromStdString(f->path));
        const QString path = info.absoluteFilePath();
        QMutexLocker lock(&mutex_);
        // A missing file keeps what the project said; one found unchanged was just hashed by
        // loadProject, so a save need not read it again while its size and time stay.
        if (f->status == DataFileStatus::Missing) entries_[path] = {0, QDateTime(), *f->fingerprint};
        else if (f->status == DataFileStatus::Found && info.isFile())
            entries_[path] = {info.size(), info.lastModified(), *f->fingerprint};
    }
}

}  // namespace skynnet::ui
