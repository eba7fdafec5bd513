#pragma once
// Typed access to the application's persistent settings, each with its default in one place, so
// no page spells a QSettings key or a default of its own.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <memory>

class QSettings;

namespace skynnet::ui {

// The palette of View > Theme: the platform's own, or the app's light or dark one.
enum class Theme { System, Light, Dark };
QString themeName(Theme theme);  // "system", "light", "dark"
// The inverse of themeName; false (and *theme untouched) for any other text.
bool parseTheme(const QString& name, Theme* theme);

class AppSettings {
public:
    static constexpr int maxRecentFiles = 8;

    // The application's settings (organisation and application names of QCoreApplication).
    AppSettings();
    // An INI file of its own: tests, portable installs.
    explicit AppSettings(const QString& iniPath);
    ~AppSettings();
    AppSettings(const AppSettings&) = delete;
    AppSettings& operator=(const AppSettings&) = delete;

    int threadBudget() const;  // 0 (default): every core
    void setThreadBudget(int threads);

    QString lastDataFolder() const;  // default: the home folder
    void setLastDataFolder(const QString& folder);

    QStringList recentFiles() const;          // most recent first, at most maxRecentFiles
    void addRecentFile(const QString& path);  // moves it to the front if already listed
    void removeRecentFile(const QString& path);
    void clearRecentFiles();

    // Projects (.skynnet), apart from the data files above: most recent first.
    QStringList recentProjects() const;
    void addRecentProject(const QString& path);
    void removeRecentProject(const QString& path);
    QString lastProjectFolder() const;  // default: the home folder
    void setLastProjectFolder(const QString& folder);

    // Where File > Locate Data last found a moved data file, and where the last model export went;
    // empty until then (the dialogs then start beside the old file or the project).
    QString lastLocateFolder() const;
    void setLastLocateFolder(const QString& folder);
    QString lastExportFolder() const;
    void setLastExportFolder(const QString& folder);

    int autosaveMinutes() const;  // between recovery saves of a modified project; 0: off; default 3
    void setAutosaveMinutes(int minutes);
    // The recovery file of a session that has not ended cleanly yet; empty when none. Set by each
    // autosave, cleared on saving, discarding or closing, so a crash leaves it for the next start.
    QString recoveryFile() const;
    void setRecoveryFile(const QString& path);

    QByteArray windowGeometry() const;  // QWidget::saveGeometry(); empty by default
    void setWindowGeometry(const QByteArray& geometry);
    QByteArray windowState() const;  // QMainWindow::saveState(); empty by default
    void setWindowState(const QByteArray& state);

    bool logScale() const;  // loss charts on a log axis; default off
    void setLogScale(bool on);

    // Train > Show Results After a Run: a finished run moves the window from the Train page to
    // Results. Default off: the Train page keeps the run's summary and its curves in view.
    bool showResultsAfterRun() const;
    void setShowResultsAfterRun(bool on);

    Theme theme() const;  // default System; an unknown saved value reads as System
    void setTheme(Theme theme);

    void sync();  // writes pending changes now (QSettings otherwise writes lazily)

private:
    QStringList recentList(const QString& key) const;
    void addToRecentList(const QString& key, const QString& path);
    void removeFromRecentList(const QString& key, const QString& path);

    std::unique_ptr<QSettings> s_;
};

}  // namespace skynnet::ui
