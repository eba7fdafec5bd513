#pragma once
// Recovery saves of a modified project every few minutes (QTimer), into a recovery file apart
// from the project (AppDataLocation/recovery), so the project file itself only changes when the
// user saves. The file is recorded in the settings until the project is saved, discarded or
// closed; a recovery file still recorded at the next start means the last session did not end
// cleanly, and the app offers to open it. The GUI thread only copies the project's state; the
// file is written on a worker, one save at a time.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

namespace skynnet::ui {

class AppSettings;
class ProjectDocument;
class TrainingSession;

class Autosave : public QObject {
    Q_OBJECT
public:
    // The field of a recovery file's "extra" naming the project it was made from ("" if untitled).
    static constexpr const char* originKey = "recoveryOf";

    // The interval comes from AppSettings::autosaveMinutes (0: off).
    Autosave(ProjectDocument* document, TrainingSession* session, AppSettings* settings, QObject* parent = nullptr);
    ~Autosave() override;  // waits for a save still being written

    void setIntervalMilliseconds(int ms);  // 0: off
    int intervalMilliseconds() const { return intervalMs_; }
    // Where recovery files go; default: QStandardPaths::AppDataLocation + "/recovery".
    void setDirectory(const QString& directory) { directory_ = directory; }
    QString directory() const;
    QString recoveryPath() const;  // for the document as it is now

    // Starts writing the recovery file if the document has unsaved changes and no save is being
    // written; true when started. saved or failed follows.
    bool saveNow();
    bool isSaving() const { return pending_; }
    // Blocks until a save being written has ended (and reported); for tests and for quitting.
    void waitForSave();
    // The document was saved, discarded or closed: its recovery file is not needed any more (one
    // being written is removed as soon as it is done).
    void discard();
    // Quitting: waits for a save being written, then discards.
    void finish();
    // The recovery file a previous session left behind; empty when none (or it is gone).
    QString pendingRecovery() const;

signals:
    void saved(const QString& path);
    void failed(const QString& message);

private:
    void onWritten();

    ProjectDocument* document_;
    TrainingSession* session_;
    AppSettings* settings_;
    QTimer timer_;
    int intervalMs_ = 0;
    QString directory_;
    QString written_;                  // the file this session last wrote
    QFutureWatcher<QString> watcher_;  // the save being written: its error message, empty if none
    QString writing_;                  // its path
    bool pending_ = false;             // written, or being written, and not reported yet
    bool discardWhenWritten_ = false;
};

}  // namespace skynnet::ui
