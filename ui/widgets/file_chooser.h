#pragma once
// Every file dialog of the app asks through askForFile(), which shows Qt's dialog unless a test
// replaced it (ScopedFileChooser). The test then sees where the dialog would have started and
// answers with a path, without driving a QFileDialog: that one lists its folder in the
// background and loses a selection made meanwhile, so answering it could not be made reliable.
#include <QString>
#include <functional>

class QWidget;

namespace skynnet::ui {

struct FileRequest {
    enum Kind { OpenFile, SaveFile, Folder };
    Kind kind = OpenFile;
    QString caption;
    QString start;   // the folder, or (saving) the suggested file, the dialog starts at
    QString filter;  // "CSV files (*.csv);;All files (*)"; none for a folder
};

// What answers a request: the chosen file or folder, empty when cancelled.
using FileChooser = std::function<QString(QWidget* parent, const FileRequest& request)>;

QString askForFile(QWidget* parent, const FileRequest& request);

// Answers every request with `chooser` while it lives, then puts back the one before it.
class ScopedFileChooser {
public:
    explicit ScopedFileChooser(FileChooser chooser);
    ~ScopedFileChooser();
    ScopedFileChooser(const ScopedFileChooser&) = delete;
    ScopedFileChooser& operator=(const ScopedFileChooser&) = delete;

private:
    FileChooser previous_;
};

}  // namespace skynnet::ui
