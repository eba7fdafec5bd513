#include "ui/core/autosave.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

#include "core/error.h"
#include "io/atomic_file.h"
#include "ui/core/app_settings.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"

namespace skynnet::ui {

Autosave::Autosave(ProjectDocument* document, TrainingSession* session, AppSettings* settings, QObject* parent)
    : QObject(parent), document_(document), session_(session), settings_(settings) {
    connect(&timer_, &QTimer::timeout, this, &Autosave::saveNow);
    connect(&watcher_, &QFutureWatcher<QString>::finished, this, &Autosave::onWritten);
    setIntervalMilliseconds(settings_ ? settings_->autosaveMinutes() * 60'000 : 0);
}

Autosave::~Autosave() { watcher_.waitForFinished(); }

void Autosave::setIntervalMilliseconds(int ms) {
    intervalMs_ = std::max(0, ms);
    if (intervalMs_ == 0) {
        timer_.stop();
        return;
    }
    timer_.start(intervalMs_);
}

QString Autosave::directory() const {
    if (!directory_.isEmpty()) return directory_;
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery");
}

QString Autosave::recoveryPath() const {
    const QString project = document_->filePath();
    const QString name = project.isEmpty() ? QStringLiteral("untitled") : QFileInfo(project).completeBaseName();
    return QDir(directory()).filePath(name + QStringLiteral(".recovery") + QString::fromLatin1(projectFileSuffix));
}

bool Autosave::saveNow() {
    if (!document_->isModified() || isSaving()) return false;  // one save at a time; the timer comes again
    const QString path = recoveryPath();
    const QString folder = directory();
    ProjectSnapshot snapshot;
    try {
        snapshot = snapshotProject(*document_, *session_,
                                   Json::object({{originKey, document_->filePath().toStdString()}}));
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
        return false;
    }
    writing_ = path;
    pending_ = true;
    discardWhenWritten_ = false;
    watcher_.setFuture(QtConcurrent::run([path, folder, snapshot = std::move(snapshot)]() mutable {
        try {
            if (!QDir().mkpath(folder)) throw Error("cannot create the folder " + folder.toStdString());
            // Saves killed with an earlier session (or under an earlier project name) left these.
            removeStaleTempFiles(folder.toStdString());
            writeProjectSnapshot(path, std::move(snapshot));
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
        return QString();
    }));
    return true;
}

void Autosave::onWritten() {
    if (!pending_) return;  // already reported by waitForSave
    pending_ = false;
    const QString error = watcher_.future().result();
    const QString path = writing_;
    writing_.clear();
    if (!error.isEmpty()) {
        emit failed(error);
        return;
    }
    if (discardWhenWritten_) {  // the project was saved or closed meanwhile
        QFile::remove(path);
        return;
    }
    if (!written_.isEmpty() && written_ != path) QFile::remove(written_);  // the project was renamed
    written_ = path;
    if (settings_) {
        settings_->setRecoveryFile(path);
        settings_->sync();  // a crash must find it at the next start
    }
    emit saved(path);
}

void Autosave::waitForSave() {
    if (!isSaving()) return;
    watcher_.waitForFinished();
    onWritten();  // now, not when the queued finished signal arrives (which then finds nothing to do)
}

void Autosave::finish() {
    waitForSave();
    discard();
}

void Autosave::discard() {
    if (isSaving()) discardWhenWritten_ = true;
    if (!written_.isEmpty()) QFile::remove(written_);
    written_.clear();
    if (settings_ && !settings_->recoveryFile().isEmpty()) {
        QFile::remove(settings_->recoveryFile());
        settings_->setRecoveryFile(QString());
        settings_->sync();
    }
}

QString Autosave::pendingRecovery() const {
    const QString path = settings_ ? settings_->recoveryFile() : QString();
    return !path.isEmpty() && QFileInfo::exists(path) ? path : QString();
}

}  // namespace skynnet::ui
