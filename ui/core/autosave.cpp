#include "ui/core/autosave.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include "core/error.h"
#include "io/atomic_file.h"
#include "ui/core/app_settings.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"

namespace skynnet::ui {

Autosave::Autosave(ProjectDocument* document, TrainingSession* session, AppSettings* settings, QObject* parent)
    : QObject(parent), document_(document), session_(session), settings_(settings) {
    connect(&timer_, &QTimer::timeout, this, &Autosave::saveNow);
    setIntervalMilliseconds(settings_ ? settings_->autosaveMinutes() * 60'000 : 0);
}

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
    if (!document_->isModified()) return false;
    const QString path = recoveryPath();
    try {
        if (!QDir().mkpath(directory())) throw Error("cannot create the folder " + directory().toStdString());
        // Saves killed with an earlier session (or under an earlier project name) left these.
        removeStaleTempFiles(directory().toStdString());
        saveProjectFile(path, *document_, *session_, Json::object({{originKey, document_->filePath().toStdString()}}));
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
        return false;
    }
    if (!written_.isEmpty() && written_ != path) QFile::remove(written_);  // the project was renamed
    written_ = path;
    if (settings_) {
        settings_->setRecoveryFile(path);
        settings_->sync();  // a crash must find it at the next start
    }
    emit saved(path);
    return true;
}

void Autosave::discard() {
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
