#include "ui/core/app_settings.h"

#include <QDir>
#include <QSettings>

namespace skynnet::ui {
namespace {

// Keys in one place; grouped so the INI file reads naturally.
const QString threadBudgetKey = QStringLiteral("training/threadBudget");
const QString lastDataFolderKey = QStringLiteral("files/lastDataFolder");
const QString recentFilesKey = QStringLiteral("files/recent");
const QString lastLocateFolderKey = QStringLiteral("files/lastLocateFolder");
const QString lastExportFolderKey = QStringLiteral("files/lastExportFolder");
const QString geometryKey = QStringLiteral("window/geometry");
const QString stateKey = QStringLiteral("window/state");
const QString logScaleKey = QStringLiteral("charts/logScale");
const QString showResultsKey = QStringLiteral("training/showResultsAfterRun");
const QString themeKey = QStringLiteral("window/theme");
const QString recentProjectsKey = QStringLiteral("projects/recent");
const QString lastProjectFolderKey = QStringLiteral("projects/lastFolder");
const QString autosaveKey = QStringLiteral("projects/autosaveMinutes");
const QString recoveryKey = QStringLiteral("projects/recoveryFile");

QStringList cleanList(QStringList files, int max) {
    files.removeAll(QString());
    files.removeDuplicates();
    return files.mid(0, max);
}

}  // namespace

AppSettings::AppSettings() : s_(std::make_unique<QSettings>()) {}

AppSettings::AppSettings(const QString& iniPath) : s_(std::make_unique<QSettings>(iniPath, QSettings::IniFormat)) {}

AppSettings::~AppSettings() = default;

int AppSettings::threadBudget() const { return std::max(0, s_->value(threadBudgetKey, 0).toInt()); }
void AppSettings::setThreadBudget(int threads) { s_->setValue(threadBudgetKey, std::max(0, threads)); }

QString AppSettings::lastDataFolder() const { return s_->value(lastDataFolderKey, QDir::homePath()).toString(); }
void AppSettings::setLastDataFolder(const QString& folder) { s_->setValue(lastDataFolderKey, folder); }

QString AppSettings::lastLocateFolder() const { return s_->value(lastLocateFolderKey).toString(); }
void AppSettings::setLastLocateFolder(const QString& folder) { s_->setValue(lastLocateFolderKey, folder); }

QString AppSettings::lastExportFolder() const { return s_->value(lastExportFolderKey).toString(); }
void AppSettings::setLastExportFolder(const QString& folder) { s_->setValue(lastExportFolderKey, folder); }

// Recent files and recent projects are the same kind of list: most recent first, no blanks or
// repeats, at most maxRecentFiles.
QStringList AppSettings::recentList(const QString& key) const {
    return cleanList(s_->value(key).toStringList(), maxRecentFiles);
}

void AppSettings::addToRecentList(const QString& key, const QString& path) {
    if (path.isEmpty()) return;
    QStringList files = recentList(key);
    files.removeAll(path);
    files.prepend(path);
    s_->setValue(key, files.mid(0, maxRecentFiles));
}

void AppSettings::removeFromRecentList(const QString& key, const QString& path) {
    QStringList files = recentList(key);
    files.removeAll(path);
    s_->setValue(key, files);
}

QStringList AppSettings::recentFiles() const { return recentList(recentFilesKey); }
void AppSettings::addRecentFile(const QString& path) { addToRecentList(recentFilesKey, path); }
void AppSettings::removeRecentFile(const QString& path) { removeFromRecentList(recentFilesKey, path); }
void AppSettings::clearRecentFiles() { s_->remove(recentFilesKey); }

QStringList AppSettings::recentProjects() const { return recentList(recentProjectsKey); }
void AppSettings::addRecentProject(const QString& path) { addToRecentList(recentProjectsKey, path); }
void AppSettings::removeRecentProject(const QString& path) { removeFromRecentList(recentProjectsKey, path); }

QString AppSettings::lastProjectFolder() const { return s_->value(lastProjectFolderKey, QDir::homePath()).toString(); }
void AppSettings::setLastProjectFolder(const QString& folder) { s_->setValue(lastProjectFolderKey, folder); }

int AppSettings::autosaveMinutes() const { return std::max(0, s_->value(autosaveKey, 3).toInt()); }
void AppSettings::setAutosaveMinutes(int minutes) { s_->setValue(autosaveKey, std::max(0, minutes)); }

QString AppSettings::recoveryFile() const { return s_->value(recoveryKey).toString(); }
void AppSettings::setRecoveryFile(const QString& path) {
    if (path.isEmpty()) s_->remove(recoveryKey);
    else s_->setValue(recoveryKey, path);
}

QByteArray AppSettings::windowGeometry() const { return s_->value(geometryKey).toByteArray(); }
void AppSettings::setWindowGeometry(const QByteArray& geometry) { s_->setValue(geometryKey, geometry); }

QByteArray AppSettings::windowState() const { return s_->value(stateKey).toByteArray(); }
void AppSettings::setWindowState(const QByteArray& state) { s_->setValue(stateKey, state); }

bool AppSettings::logScale() const { return s_->value(logScaleKey, false).toBool(); }
void AppSettings::setLogScale(bool on) { s_->setValue(logScaleKey, on); }

bool AppSettings::showResultsAfterRun() const { return s_->value(showResultsKey, false).toBool(); }
void AppSettings::setShowResultsAfterRun(bool on) { s_->setValue(showResultsKey, on); }

QString themeName(Theme theme) {
    switch (theme) {
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
    case Theme::System: break;
    }
    return QStringLiteral("system");
}

bool parseTheme(const QString& name, Theme* theme) {
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark})
        if (name == themeName(t)) {
            *theme = t;
            return true;
        }
    return false;
}

Theme AppSettings::theme() const {
    Theme t = Theme::System;
    parseTheme(s_->value(themeKey).toString(), &t);
    return t;
}

void AppSettings::setTheme(Theme theme) { s_->setValue(themeKey, themeName(theme)); }

void AppSettings::sync() { s_->sync(); }

}  // namespace skynnet::ui
