#include "ui/widgets/file_chooser.h"

#include <QFileDialog>
#include <utility>

namespace skynnet::ui {
namespace {

QString askQt(QWidget* parent, const FileRequest& r) {
    switch (r.kind) {
    case FileRequest::OpenFile: return QFileDialog::getOpenFileName(parent, r.caption, r.start, r.filter);
    case FileRequest::SaveFile: return QFileDialog::getSaveFileName(parent, r.caption, r.start, r.filter);
    case FileRequest::Folder: return QFileDialog::getExistingDirectory(parent, r.caption, r.start);
    }
    return {};
}

// Only the GUI thread asks, so a plain global is enough.
FileChooser& current() {
    static FileChooser chooser = askQt;
    return chooser;
}

}  // namespace

QString askForFile(QWidget* parent, const FileRequest& request) { return current()(parent, request); }

ScopedFileChooser::ScopedFileChooser(FileChooser chooser) : previous_(std::exchange(current(), std::move(chooser))) {}

ScopedFileChooser::~ScopedFileChooser() { current() = std::move(previous_); }

}  // namespace skynnet::ui
